package reports_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// benchOrderStatus answers text as an order_status question for user over
// the large books, end to end below the webhook: the decision (made here,
// as the router would), the tool call with its SQL, the audit entry and
// the rendering.
func benchOrderStatus(b *testing.B, user domain.User, text, want string) {
	books := largeBooks(b)
	ctx := context.Background()
	decide := func() intent.Decision {
		return intent.Decision{Text: text, Intent: domain.IntentOrderStatus, Normalized: books.router.Normalize(text)}
	}
	if got := books.tools.Answer(ctx, user, decide()).Text; !strings.Contains(got, want) {
		b.Fatalf("%q answered:\n%s", text, got)
	}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		reply := books.tools.Answer(ctx, user, decide())
		took = append(took, time.Since(start))
		if reply.Text == "" {
			b.Fatal("no answer")
		}
	}
	reportPercentiles(b, took)
}

// BenchmarkOrderStatusAll: an owner's "orders ka status" over every order
// of the year, newest first.
func BenchmarkOrderStatusAll(b *testing.B) {
	benchOrderStatus(b, owner, "orders ka status", "*Orders*:")
}

// BenchmarkOrderStatusMineToday: a salesperson's "aaj ke mere orders".
func BenchmarkOrderStatusMineToday(b *testing.B) {
	benchOrderStatus(b, sales, "aaj ke mere orders", "*Your orders, today")
}

// BenchmarkOrderStatusOne: "ORD-1042 kahan hai", one order by number.
func BenchmarkOrderStatusOne(b *testing.B) {
	benchOrderStatus(b, owner, "ORD-1042 kahan hai", "*ORD-1042* for")
}

// BenchmarkOrderStatusCustomer: "Mehta ka order gaya kya?" (a busy
// customer).
func BenchmarkOrderStatusCustomer(b *testing.B) {
	benchOrderStatus(b, owner, "Mehta ka order gaya kya?", "*Orders for Mehta Traders*")
}
