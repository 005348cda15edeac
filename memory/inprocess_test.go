package memory_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/memory/memorytest"
)

func TestInProcess(t *testing.T) {
	memorytest.Run(t, func(t *testing.T) memorytest.Backend {
		clk := clocktest.At(time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC))
		s := memory.NewInProcess(memory.Options{Now: clk.Now})
		return memorytest.Backend{
			Store:   s,
			Advance: clk.Advance,
			Keys: func(t *testing.T) map[string]time.Duration {
				ttl, _ := s.Lifetimes()
				return ttl
			},
			Size: func(t *testing.T, phone string) int {
				_, size := s.Lifetimes()
				return size["conv:"+phone]
			},
			Waiting: func(t *testing.T, phone string) int { return s.Waiting(phone) },
		}
	})
}

// TestResilientOverInProcess runs the suite through the wrapper: with a
// healthy primary it must be invisible.
func TestResilientOverInProcess(t *testing.T) {
	memorytest.Run(t, func(t *testing.T) memorytest.Backend {
		clk := clocktest.At(time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC))
		s := memory.NewInProcess(memory.Options{Now: clk.Now})
		r := memory.NewResilient(s, memory.ResilientOptions{})
		return memorytest.Backend{
			Store:   r,
			Advance: clk.Advance,
			Keys: func(t *testing.T) map[string]time.Duration {
				ttl, _ := s.Lifetimes()
				return ttl
			},
			Size: func(t *testing.T, phone string) int {
				_, size := s.Lifetimes()
				return size["conv:"+phone]
			},
			Waiting: func(t *testing.T, phone string) int { return s.Waiting(phone) },
		}
	})
}

// TestInProcessSeenIsBounded: without Redis the MessageSid dedupe lives in
// the process, so it is bounded by count as well as by time: past MaxSeen
// the oldest are forgotten first, and what is kept is a copy, not the
// request that carried it.
func TestInProcessSeenIsBounded(t *testing.T) {
	clk := clocktest.At(time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC))
	const max = 100
	s := memory.NewInProcess(memory.Options{Now: clk.Now, MaxSeen: max})
	ctx := context.Background()
	phone := "+919810000001"
	sid := func(i int) string { return fmt.Sprintf("SM%032d", i) }
	for i := range 10 * max {
		if state, err := s.Seen(ctx, sid(i), phone, 0); err != nil || state != memory.SeenNew {
			t.Fatalf("Seen(%d) = %v, %v", i, state, err)
		}
		if i%2 == 0 { // half are answered: a second write of the same sid
			if err := s.Answered(ctx, sid(i), phone); err != nil {
				t.Fatal(err)
			}
		}
		clk.Advance(time.Millisecond) // nothing expires: only the count bounds
	}
	ttl, _ := s.Lifetimes()
	if n := countPrefix(ttl, "seen:"); n != max {
		t.Fatalf("%d message ids kept, want the bound %d", n, max)
	}
	// The newest are kept, the oldest forgotten.
	newest, oldest := sid(10*max-1), sid(0)
	if _, ok := ttl["seen:"+newest]; !ok {
		t.Fatal("the newest message id was forgotten")
	}
	if _, ok := ttl["seen:"+oldest]; ok {
		t.Fatal("the oldest message id is still kept past the bound")
	}
	if state, _ := s.Seen(ctx, sid(10*max-2), phone, 0); state != memory.SeenAnswered {
		t.Fatalf("a recent answered message id: %v", state)
	}

	// Claims run out with their lease, answered marks with SeenTTL.
	clk.Advance(memory.SeenLease + time.Second)
	if state, _ := s.Seen(ctx, sid(10*max-1), phone, 0); state != memory.SeenNew {
		t.Fatalf("a claim past its lease: %v", state)
	}
	clk.Advance(memory.SeenTTL)
	s.Seen(ctx, "SMafter", phone, 0)
	ttl, _ = s.Lifetimes()
	if n := countPrefix(ttl, "seen:"); n != 1 {
		t.Fatalf("%d message ids kept after SeenTTL, want only the new one", n)
	}
}

func countPrefix(m map[string]time.Duration, prefix string) int {
	n := 0
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}
