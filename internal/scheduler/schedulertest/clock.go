// Package schedulertest has a clock that tests move by hand, so that
// scheduled work is tested without sleeping.
package schedulertest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/scheduler"
)

// Clock is a scheduler.Clock that stands still until the test moves it.
// Its timers fire when Set or Advance moves it past their deadline, or
// when Fire fires them early.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*timer
	changed chan struct{} // closed and replaced whenever a timer is added
}

var _ scheduler.Clock = (*Clock)(nil)

// NewClock returns a clock that reads now.
func NewClock(now time.Time) *Clock {
	return &Clock{now: now, changed: make(chan struct{})}
}

type timer struct {
	c        *Clock
	deadline time.Time
	ch       chan time.Time
}

func (t *timer) C() <-chan time.Time { return t.ch }

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	return t.c.remove(t)
}

// remove takes t off the pending list; c.mu is held.
func (c *Clock) remove(t *timer) bool {
	i := slices.Index(c.timers, t)
	if i < 0 {
		return false
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	return true
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer that fires when the clock reaches now+d.
func (c *Clock) NewTimer(d time.Duration) scheduler.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, deadline: c.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
		return t
	}
	c.timers = append(c.timers, t)
	close(c.changed)
	c.changed = make(chan struct{})
	return t
}

// Advance moves the clock d forward and fires the timers it passes.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the clock to now (backwards too) and fires the timers whose
// deadline is not after it.
func (c *Clock) Set(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = now
	for _, t := range slices.Clone(c.timers) {
		if !t.deadline.After(now) {
			c.remove(t)
			t.ch <- now
		}
	}
}

// Fire fires every pending timer whatever the time, as a system timer
// does when the wall clock was set back while it ran.
func (c *Clock) Fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		t.ch <- c.now
	}
	c.timers = nil
}

// Deadlines are the times the pending timers fire at, earliest first.
func (c *Clock) Deadlines() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Time, 0, len(c.timers))
	for _, t := range c.timers {
		out = append(out, t.deadline)
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return out
}

// WaitTimers waits until at least n timers are pending and returns their
// deadlines, earliest first; it fails the test after a generous minute.
func (c *Clock) WaitTimers(tb testing.TB, n int) []time.Time {
	tb.Helper()
	deadline := time.After(time.Minute)
	for {
		c.mu.Lock()
		pending, changed := len(c.timers), c.changed
		c.mu.Unlock()
		if pending >= n {
			return c.Deadlines()
		}
		select {
		case <-changed:
		case <-deadline:
			tb.Fatalf("schedulertest: %d timers pending after a minute, want %d", pending, n)
			return nil
		}
	}
}
