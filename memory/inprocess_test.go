package memory_test

import (
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/memory/memorytest"
)

// clock is a settable time for the in-process store.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestInProcess(t *testing.T) {
	memorytest.Run(t, func(t *testing.T) memorytest.Backend {
		clk := &clock{now: time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC)}
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
		clk := &clock{now: time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC)}
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
