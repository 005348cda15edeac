package patience

import (
	"testing"
	"time"
)

// Limit bounds every wait for something that must happen: far beyond what
// it takes on a loaded machine, so that only a hang reaches it.
const Limit = 20 * time.Second

// WaitFor polls cond until it holds, failing the test if it still does not
// after Limit. cond runs on the test's goroutine.
func WaitFor(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(Limit)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("still waiting for %s after %v", what, Limit)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// Within runs fn on another goroutine and fails the test if it has not
// returned after Limit.
func Within(tb testing.TB, what string, fn func()) {
	tb.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(Limit):
		tb.Fatalf("%s still running after %v", what, Limit)
	}
}
