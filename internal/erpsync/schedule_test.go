package erpsync_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/scheduler"
	"github.com/munshi/munshi/internal/scheduler/schedulertest"
)

// TestSchedule: one job per entity, named sync:<entity>, each on its
// tier; on a fresh start the masters run before what names them, so the
// first runs of every entity are good.
func TestSchedule(t *testing.T) {
	f := newFixture(t)
	clk := schedulertest.NewClock(T0)
	sc := scheduler.New(scheduler.Options{Clock: clk, Logger: quiet})
	jobs := f.s.Schedule(sc)
	var names []string
	for _, j := range jobs {
		names = append(names, j.Name())
	}
	want := []string{"sync:products", "sync:customers", "sync:dues", "sync:bills", "sync:sales", "sync:payments", "sync:receipts"}
	if !slices.Equal(names, want) {
		t.Fatalf("jobs %v, want %v", names, want)
	}
	c, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); sc.Run(c) }()
	defer func() { cancel(); <-done }()
	// Every job has run once and waits for its next tick.
	due := clk.WaitTimers(t, len(jobs))
	slices.SortFunc(due, func(a, b time.Time) int { return a.Compare(b) })
	if !due[0].Equal(T0.Add(2*time.Minute)) || !due[len(due)-1].Equal(T0.Add(time.Hour)) {
		t.Errorf("next runs due %v", due)
	}
	states, err := f.books.SyncStates(ctx)
	if err != nil || len(states) != len(jobs) {
		t.Fatalf("states %+v %v", states, err)
	}
	for _, st := range states {
		if st.LastError != "" || st.LastGood.IsZero() {
			t.Errorf("%s: %+v", st.Entity, st)
		}
	}
	entries, _ := f.books.AuditEntries(ctx, erpsync.AuditKind)
	first := map[string]int{}
	for i, e := range entries {
		if _, ok := first[e.Subject]; !ok {
			first[e.Subject] = i
		}
	}
	for _, e := range []string{"dues", "bills", "sales", "payments", "receipts"} {
		if first[e] < first["products"] || first[e] < first["customers"] {
			t.Errorf("%s ran before the masters: %v", e, first)
		}
	}
}
