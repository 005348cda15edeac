package erpsync

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/scheduler"
)

// Schedule adds one job per mapped entity, "sync:stock" and so on, each
// every tier. The masters (products, customers) run first: the other
// jobs wait for their first runs to end, so that a sale is never read
// before the products it names on a fresh start.
func (s *Syncer) Schedule(sc *scheduler.Scheduler) []*scheduler.Job {
	mapped := s.Mapping.Mapped()
	var masters sync.WaitGroup
	ready := make(chan struct{})
	for _, e := range mapped {
		if e == Products || e == Customers {
			masters.Add(1)
		}
	}
	go func() {
		masters.Wait()
		close(ready)
	}()
	var jobs []*scheduler.Job
	for _, e := range mapped {
		spec := s.Mapping.Entities[e]
		master := e == Products || e == Customers
		var once sync.Once
		jobs = append(jobs, sc.Every("sync:"+string(e), spec.TierOf(e), func(ctx context.Context) {
			if master {
				defer once.Do(masters.Done)
			} else {
				select {
				case <-ready:
				case <-ctx.Done():
					return
				}
			}
			if _, err := s.Run(ctx, e); err != nil {
				var f *Failure
				if !errors.As(err, &f) && ctx.Err() == nil {
					s.logger().Error("erpsync: run failed", "entity", e, "err", err)
				}
			}
		}))
	}
	return jobs
}

// EntityStatus is how fresh the books' copy of one entity is: for
// /readyz, /metrics and the "as of" of answers.
type EntityStatus struct {
	Entity   Entity
	Tier     time.Duration
	LastGood time.Time // zero: never synced in full
	LastRun  time.Time
	// Age is how old the data is (now − LastGood); Stale, that it is
	// older than three tiers, or was never synced.
	Age       time.Duration
	Stale     bool
	LastError string
	Failures  int // runs failed in a row
	Rows      int
	Watermark string
}

// StaleAfter is how many tiers old an entity's data is stale.
const StaleAfter = 3

// Status reports every mapped entity's freshness, in run order.
func (s *Syncer) Status(ctx context.Context) ([]EntityStatus, error) {
	states, err := s.Books.SyncStates(ctx)
	if err != nil {
		return nil, fmt.Errorf("erpsync: status: %w", err)
	}
	by := map[Entity]State{}
	for _, st := range states {
		by[st.Entity] = st
	}
	now := s.now()
	var out []EntityStatus
	for _, e := range s.Mapping.Mapped() {
		st := by[e]
		es := EntityStatus{Entity: e, Tier: s.Mapping.Entities[e].TierOf(e), LastGood: st.LastGood, LastRun: st.LastRun,
			LastError: st.LastError, Failures: st.Failures, Rows: st.Rows, Watermark: st.Watermark}
		if st.LastGood.IsZero() {
			es.Stale = true
		} else {
			es.Age = max(now.Sub(st.LastGood), 0)
			es.Stale = es.Age > StaleAfter*es.Tier
		}
		out = append(out, es)
	}
	return out, nil
}
