package clocktest

import (
	"sync"
	"testing"
	"time"
)

func TestClockMovesOnlyWhenTold(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	c := At(t0)
	if !c.Now().Equal(t0) || !c.Now().Equal(c.Now()) {
		t.Fatalf("Now = %v, want %v standing still", c.Now(), t0)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { c.Advance(time.Second) })
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(t0.Add(8 * time.Second)) {
		t.Fatalf("after eight concurrent seconds: %v", got)
	}
	c.Set(t0.Add(-time.Hour))
	if got := c.Now(); !got.Equal(t0.Add(-time.Hour)) {
		t.Fatalf("Set back an hour: %v", got)
	}
}
