package llmbudget

import (
	"context"
	"sync"
	"sync/atomic"
)

type budgetKey struct{}

// budget counts the requests one inbound message may still make.
type budget struct{ left atomic.Int64 }

// WithCallBudget returns a context that allows at most n requests to the
// language model, retries included, across every purpose: one per inbound
// message (Munshi's is 2). A context without a budget is not counted.
func WithCallBudget(ctx context.Context, n int) context.Context {
	b := &budget{}
	b.left.Store(int64(max(n, 0)))
	return context.WithValue(ctx, budgetKey{}, b)
}

func budgetOf(ctx context.Context) *budget {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	return b
}

// Take spends one request of ctx's budget and reports whether there was
// one to spend. Without a budget it always succeeds.
func Take(ctx context.Context) bool {
	b := budgetOf(ctx)
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

// Refund returns a request that Take granted but that was not made after
// all (the adapter refused it before sending).
func Refund(ctx context.Context) {
	if b := budgetOf(ctx); b != nil {
		b.left.Add(1)
	}
}

// Remaining reports whether a request may still be made with ctx.
func Remaining(ctx context.Context) bool {
	b := budgetOf(ctx)
	return b == nil || b.left.Load() > 0
}

// Left is how many requests ctx still allows; ok is false when ctx has no
// budget (and so no limit).
func Left(ctx context.Context) (n int, ok bool) {
	b := budgetOf(ctx)
	if b == nil {
		return 0, false
	}
	return int(b.left.Load()), true
}

type summaryKey struct{}

// WithSummary attaches a summary of the conversation so far to ctx. An
// adapter sends it with every request made with ctx as quoted data in the
// request's contents, never in the system instruction, so the instruction
// stays byte-identical.
func WithSummary(ctx context.Context, summary string) context.Context {
	return WithSummaryFunc(ctx, func() string { return summary })
}

// WithSummaryFunc is WithSummary with the summary written only when a
// request first reads it: most messages are answered without the LLM,
// and writing the summary costs as much as reading the memory.
func WithSummaryFunc(ctx context.Context, summary func() string) context.Context {
	return context.WithValue(ctx, summaryKey{}, sync.OnceValue(summary))
}

// Summary is the summary attached to ctx, or "".
func Summary(ctx context.Context) string {
	if f, ok := ctx.Value(summaryKey{}).(func() string); ok {
		return f()
	}
	return ""
}
