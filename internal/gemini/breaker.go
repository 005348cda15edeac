package gemini

import (
	"sync"
	"time"
)

// breaker stops calling Gemini after consecutive failures, so that an
// outage costs each message nothing instead of a timeout. After the
// cool-down it lets a single probe through (half-open) and closes when the
// probe succeeds.
type breaker struct {
	mu        sync.Mutex
	threshold int
	coolDown  time.Duration
	now       func() time.Time
	failures  int
	open      bool
	openedAt  time.Time
	probing   bool // half-open: the one probe is in flight
}

// verdict is what a request says about Gemini's health.
type verdict int

const (
	healthy   verdict = iota // it answered, even with malformed output
	unhealthy                // error, timeout or quota
	unknown                  // the caller gave up: says nothing
)

func newBreaker(threshold int, coolDown time.Duration, now func() time.Time) *breaker {
	return &breaker{threshold: threshold, coolDown: coolDown, now: now}
}

// allow reports whether a request may be made, and whether it is the
// probe of a half-open breaker.
func (b *breaker) allow() (ok, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case !b.open:
		return true, false
	case b.probing || b.now().Sub(b.openedAt) < b.coolDown:
		return false, false
	}
	b.probing = true
	return true, true
}

// closed reports whether requests flow freely: a retry is never a probe.
func (b *breaker) closed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.open
}

// done records the outcome of an allowed request. Any answer closes the
// breaker; a failed probe opens it for another cool-down.
func (b *breaker) done(v verdict, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch v {
	case healthy:
		b.open, b.probing, b.failures = false, false, 0
	case unhealthy:
		b.failures++
		if probe || (!b.open && b.failures >= b.threshold) {
			b.open, b.probing, b.openedAt = true, false, b.now()
		}
	case unknown:
		if probe {
			b.probing = false
		}
	}
}
