package orders_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// countingNormalizer counts the messages the order parser normalises.
type countingNormalizer struct {
	router *intent.Router
	calls  atomic.Int64
}

func (c *countingNormalizer) Normalize(text string) intent.Normalized {
	c.calls.Add(1)
	return c.router.Normalize(text)
}

// Take reads an order from the router's reading of the message, never
// normalising it again, and shows the same draft it shows for a decision
// made from the text alone, which it normalises once.
func TestTakeReadsWhatTheRouterRead(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	books, err := store.Open(ctx, filepath.Join(t.TempDir(), "m.db"), store.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer books.Close()
	if _, err := demo.Seed(ctx, books, now); err != nil {
		t.Fatal(err)
	}
	products, customers, _, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	router, err := intent.NewRouter(intent.Vocabulary{Products: products, Customers: customers}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	norm := &countingNormalizer{router: router}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &orders.Service{Books: books, Parser: orders.NewParser(norm, products, customers),
		Audit: audit.New(books, nil, quiet), Logger: quiet, Now: clock}
	ravi := domain.User{Phone: demo.SalesPhone, Name: "Ravi", Role: domain.RoleSales}
	const text = "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD"

	d := router.Route(ctx, text)
	if d.Intent != domain.IntentOrder {
		t.Fatalf("%q routed to %s", text, d.Intent)
	}
	routed := svc.Take(ctx, ravi, d)
	if n := norm.calls.Load(); n != 0 {
		t.Errorf("Take normalised the routed message %d times, want 0", n)
	}
	for _, want := range []string{"*Order ", "Rajesh Kirana Store", "10 cartons (240 bottles)", "Total: ₹30,656.40", "Reply *ok*"} {
		if !strings.Contains(routed.Text, want) {
			t.Fatalf("Take of the routed message said %q, without %q", routed.Text, want)
		}
	}

	bare := svc.Take(ctx, ravi, intent.Decision{Text: text})
	if n := norm.calls.Load(); n != 1 {
		t.Errorf("Take of text alone normalised it %d times, want 1", n)
	}
	if routed.About == "" || bare.About == routed.About {
		t.Fatalf("drafts %q and %q", routed.About, bare.About)
	}
	if got := strings.ReplaceAll(bare.Text, bare.About, routed.About); got != routed.Text {
		t.Errorf("the routed reading and the text alone gave different drafts:\n%s\n---\n%s", routed.Text, bare.Text)
	}
}
