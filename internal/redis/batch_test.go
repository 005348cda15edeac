package redis_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/memory"
)

// TestScriptsShareRoundTrips: the scripts of concurrent messages go in
// shared pipelines, each caller gets its own reply, and a Redis that
// lost its scripts (a restart, SCRIPT FLUSH) is answered all the same.
func TestScriptsShareRoundTrips(t *testing.T) {
	raw := redistest.Need(t)
	ctx := context.Background()
	s := newStore(t, redistest.URL(), redistest.Prefix(t, raw), redis.Options{})
	const n = 64
	claim := func(round string) []memory.SeenState {
		out := make([]memory.SeenState, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i], errs[i] = s.Seen(ctx, fmt.Sprintf("SM%s%030d", round, i), fmt.Sprintf("+9198%08d", i), time.Minute)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("claim %d: %v", i, err)
			}
		}
		return out
	}
	// Redis paused: the first pipeline waits there, the rest queue behind it.
	if err := raw.Do(ctx, "CLIENT", "PAUSE", 200, "WRITE").Err(); err != nil {
		t.Fatal(err)
	}
	before := s.Pipelines()
	for i, st := range claim("A") {
		if st != memory.SeenNew {
			t.Errorf("claim %d: %v, want new", i, st)
		}
	}
	if sent := s.Pipelines() - before; sent > n/2 {
		t.Errorf("%d scripts in %d pipelines: the queue was not shared", n, sent)
	}
	// Each reply is its caller's: a second claim sees the first.
	for i, st := range claim("A") {
		if st != memory.SeenInFlight {
			t.Errorf("claim %d again: %v, want in flight", i, st)
		}
	}
	if err := raw.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	for i, st := range claim("B") {
		if st != memory.SeenNew {
			t.Errorf("claim %d after SCRIPT FLUSH: %v, want new", i, st)
		}
	}
}

// TestScriptCallerGone: a caller whose context ended before its script
// was sent gets its context's error, and the script never runs.
func TestScriptCallerGone(t *testing.T) {
	raw := redistest.Need(t)
	s := newStore(t, redistest.URL(), redistest.Prefix(t, raw), redis.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Seen(ctx, "SM"+fmt.Sprintf("%032d", 7), "+919800000007", time.Minute); err == nil {
		t.Fatal("a claim with an ended context succeeded")
	}
	st, err := s.Seen(context.Background(), "SM"+fmt.Sprintf("%032d", 7), "+919800000007", time.Minute)
	if err != nil || st != memory.SeenNew {
		t.Fatalf("the claim after: %v, %v; want new (the first never ran)", st, err)
	}
}
