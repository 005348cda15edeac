package gemini

import (
	"context"
	"sync/atomic"
)

type budgetKey struct{}

// callBudget counts the requests one inbound message may still make.
type callBudget struct{ left atomic.Int64 }

// WithCallBudget returns a context that allows at most n requests to
// Gemini, retries included, across every purpose: one per inbound message
// (Munshi's is 2). A request beyond it fails with ErrNoBudget without being
// made. A context without a budget is not counted.
func WithCallBudget(ctx context.Context, n int) context.Context {
	b := &callBudget{}
	b.left.Store(int64(max(n, 0)))
	return context.WithValue(ctx, budgetKey{}, b)
}

func budgetOf(ctx context.Context) *callBudget {
	b, _ := ctx.Value(budgetKey{}).(*callBudget)
	return b
}

// take spends one request; false when none is left.
func (b *callBudget) take() bool {
	if b == nil {
		return true
	}
	for {
		n := b.left.Load()
		if n <= 0 {
			return false
		}
		if b.left.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// refund returns a request that was not made after all.
func (b *callBudget) refund() {
	if b != nil {
		b.left.Add(1)
	}
}

func (b *callBudget) remaining() bool { return b == nil || b.left.Load() > 0 }

type summaryKey struct{}

// WithSummary attaches a summary of the conversation so far to ctx. Every
// call made with ctx sends it as quoted data in the request's contents,
// never in the system instruction, so the instruction stays byte-identical.
func WithSummary(ctx context.Context, summary string) context.Context {
	return context.WithValue(ctx, summaryKey{}, summary)
}

func summaryOf(ctx context.Context) string {
	s, _ := ctx.Value(summaryKey{}).(string)
	return s
}
