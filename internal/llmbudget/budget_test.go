package llmbudget_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/munshi/munshi/internal/llmbudget"
)

// TestBudgetSpendsAndRefunds: a budget of n grants n requests, refuses the
// next, and a refund makes one more possible.
func TestBudgetSpendsAndRefunds(t *testing.T) {
	ctx := llmbudget.WithCallBudget(context.Background(), 2)
	for i := range 2 {
		if !llmbudget.Remaining(ctx) || !llmbudget.Take(ctx) {
			t.Fatalf("request %d refused", i+1)
		}
	}
	if llmbudget.Remaining(ctx) || llmbudget.Take(ctx) {
		t.Fatal("a third request was granted")
	}
	llmbudget.Refund(ctx)
	if n, ok := llmbudget.Left(ctx); !ok || n != 1 {
		t.Fatalf("after a refund Left = %d, %v; want 1, true", n, ok)
	}
	if !llmbudget.Take(ctx) {
		t.Fatal("the refunded request was refused")
	}
}

// TestBudgetAbsentIsUnlimited: a context without a budget is not counted,
// and a negative budget allows nothing.
func TestBudgetAbsentIsUnlimited(t *testing.T) {
	ctx := context.Background()
	for range 100 {
		if !llmbudget.Take(ctx) {
			t.Fatal("a context without a budget refused a request")
		}
	}
	llmbudget.Refund(ctx) // no budget: nothing to refund, no panic
	if _, ok := llmbudget.Left(ctx); ok {
		t.Fatal("Left reports a budget on a bare context")
	}
	if neg := llmbudget.WithCallBudget(ctx, -3); llmbudget.Take(neg) || llmbudget.Remaining(neg) {
		t.Fatal("a negative budget granted a request")
	}
}

// TestBudgetSharedAcrossGoroutines: concurrent callers on one message's
// context never spend more than the budget between them.
func TestBudgetSharedAcrossGoroutines(t *testing.T) {
	ctx := llmbudget.WithCallBudget(context.Background(), 5)
	var granted atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if llmbudget.Take(ctx) {
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	if granted.Load() != 5 {
		t.Fatalf("%d requests granted of a budget of 5", granted.Load())
	}
}

// TestSummaryTravelsWithTheContext: the summary set on a context is read
// back from it and from contexts derived from it, unicode and all.
func TestSummaryTravelsWithTheContext(t *testing.T) {
	if s := llmbudget.Summary(context.Background()); s != "" {
		t.Fatalf("bare context has summary %q", s)
	}
	want := "राजेश: draft shown 👍; \"quoted\"\nnext line"
	ctx := llmbudget.WithSummary(context.Background(), want)
	child, cancel := context.WithCancel(llmbudget.WithCallBudget(ctx, 1))
	defer cancel()
	if got := llmbudget.Summary(child); got != want {
		t.Fatalf("summary %q, want %q", got, want)
	}
}
