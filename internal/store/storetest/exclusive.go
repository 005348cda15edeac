package storetest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/munshi/munshi/internal/store"
)

// testExclusive: callers of Exclusive with one name run one at a time, and
// fn's error is the caller's.
func testExclusive(t *testing.T, s store.Store, _ *Clock) {
	ctx := context.Background()
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Exclusive(ctx, "sheets order log", func(context.Context) error {
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				for range 1000 {
					if inside.Load() != n {
						break
					}
				}
				inside.Add(-1)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d callers ran at once, want one at a time", most.Load())
	}
	boom := errors.New("boom")
	if err := s.Exclusive(ctx, "sheets order log", func(context.Context) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Exclusive = %v, want fn's error", err)
	}
}
