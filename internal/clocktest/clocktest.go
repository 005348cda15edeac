// Package clocktest is a clock that tests move by hand, for the parts of
// Munshi that take a func() time.Time: leases, retries, refusal days and
// retention are tested without waiting for real time.
//
// It is for tests only and imports nothing from Munshi.
package clocktest

import (
	"sync"
	"time"
)

// Clock stands still until a test moves it; it is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// At returns a clock standing at t.
func At(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
