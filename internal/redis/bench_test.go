package redis_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/memory/memorytest"
)

// BenchmarkAppendLoad is one message's memory work on loopback Redis: append
// a turn to a conversation at the full window (so every append also folds)
// and load it back. It reports the 99th percentile as p99-µs (target 1000).
func BenchmarkAppendLoad(b *testing.B) {
	raw := redistest.Need(b)
	s := newStore(b, redistest.URL(), redistest.Prefix(b, raw), redis.Options{})
	ctx := context.Background()
	phone := memorytest.Phone()
	turns := memorytest.RealisticTurns(time.Now())
	if err := s.Append(ctx, phone, turns...); err != nil {
		b.Fatal(err)
	}
	durations := make([]time.Duration, 0, 4096)
	i := 0
	for b.Loop() {
		start := time.Now()
		if err := s.Append(ctx, phone, turns[i%len(turns)]); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Load(ctx, phone); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
		i++
	}
	reportPercentiles(b, durations)
}

// BenchmarkLockUnlock is the uncontended per-message lock: one round trip
// to take it, one to release it.
func BenchmarkLockUnlock(b *testing.B) {
	raw := redistest.Need(b)
	s := newStore(b, redistest.URL(), redistest.Prefix(b, raw), redis.Options{})
	ctx := context.Background()
	phone := memorytest.Phone()
	durations := make([]time.Duration, 0, 4096)
	for b.Loop() {
		start := time.Now()
		unlock, err := s.Lock(ctx, phone)
		if err != nil {
			b.Fatal(err)
		}
		unlock()
		durations = append(durations, time.Since(start))
	}
	reportPercentiles(b, durations)
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	at := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
}

// BenchmarkBytesPerConversation reports what one conversation at the full
// window of realistic long messages costs Redis: the value's length
// (bytes/conv, target 4096) and MEMORY USAGE of the key (redis-bytes/conv).
func BenchmarkBytesPerConversation(b *testing.B) {
	raw := redistest.Need(b)
	prefix := redistest.Prefix(b, raw)
	s := newStore(b, redistest.URL(), prefix, redis.Options{})
	ctx := context.Background()
	var strlen, usage int64
	for b.Loop() {
		phone := memorytest.Phone()
		// Fifteen turns: ten kept, five folded into the summary.
		turns := append(memorytest.RealisticTurns(time.Now()), memorytest.RealisticTurns(time.Now())[:5]...)
		for _, t := range turns {
			if err := s.Append(ctx, phone, t); err != nil {
				b.Fatal(err)
			}
		}
		key := s.ConversationKey(phone)
		var err error
		if strlen, err = raw.StrLen(ctx, key).Result(); err != nil {
			b.Fatal(err)
		}
		if usage, err = raw.MemoryUsage(ctx, key).Result(); err != nil {
			b.Fatal(err)
		}
		raw.Del(ctx, key)
	}
	b.ReportMetric(float64(strlen), "bytes/conv")
	b.ReportMetric(float64(usage), "redis-bytes/conv")
}

// TestBytesPerConversation holds the size target in every test run.
func TestBytesPerConversation(t *testing.T) {
	raw := redistest.Need(t)
	s := newStore(t, redistest.URL(), redistest.Prefix(t, raw), redis.Options{})
	ctx := context.Background()
	phone := memorytest.Phone()
	turns := append(memorytest.RealisticTurns(time.Now()), memorytest.RealisticTurns(time.Now())[:5]...)
	for _, turn := range turns {
		if err := s.Append(ctx, phone, turn); err != nil {
			t.Fatal(err)
		}
	}
	strlen, _ := raw.StrLen(ctx, s.ConversationKey(phone)).Result()
	usage, _ := raw.MemoryUsage(ctx, s.ConversationKey(phone)).Result()
	t.Logf("conversation at the full window: %d bytes stored, MEMORY USAGE %d", strlen, usage)
	if strlen > memory.MaxBytes || strlen == 0 {
		t.Fatalf("%d bytes per conversation, bound %d", strlen, memory.MaxBytes)
	}
}
