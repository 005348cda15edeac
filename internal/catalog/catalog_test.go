package catalog_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/catalog"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// parsers records the parsers a reload hands over.
type parsers struct{ got []*orders.Parser }

func (p *parsers) UseParser(x *orders.Parser) { p.got = append(p.got, x) }

func names(n intent.Normalized, sku string) bool {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct && e.ID == sku {
			return true
		}
	}
	return false
}

// demoBooks are books holding the demo's catalog and customers, closed
// when the test ends, and the demo's users, not yet imported.
func demoBooks(t *testing.T) (store.Store, []domain.User) {
	t.Helper()
	ctx := context.Background()
	books, err := store.Open(ctx, filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { books.Close() })
	products, customers, users, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	if err := books.UpsertProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
	if err := books.UpsertCustomers(ctx, customers); err != nil {
		t.Fatal(err)
	}
	return books, users
}

// A product imported under a running Munshi is read in messages after the
// next Check, by the router and the order parser alike; a Check with the
// books unchanged rebuilds nothing.
func TestWatchReloadsWhatTheBooksChanged(t *testing.T) {
	ctx := context.Background()
	books, _ := demoBooks(t)
	var got parsers
	w := &catalog.Watch{Books: books, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Orders: &got}
	parser, err := w.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const text = "Rajesh ke liye 5 jar Kesar Agarbatti, COD"
	if names(w.Router.Normalize(text), "KSR1") || parser.Parse(text).Complete() {
		t.Fatalf("%q is read before the product exists", text)
	}
	w.Check(ctx)
	w.Check(ctx)
	if len(got.got) != 0 {
		t.Fatalf("%d reloads with the books unchanged", len(got.got))
	}

	kesar := domain.Product{SKU: "KSR1", Name: "Kesar Agarbatti", Unit: "jar", Price: 4000, GSTPercent: 1200, StockReady: 100}
	if err := books.UpsertProducts(ctx, []domain.Product{kesar}); err != nil {
		t.Fatal(err)
	}
	w.Check(ctx)
	if len(got.got) != 1 {
		t.Fatalf("%d reloads after an import, want 1", len(got.got))
	}
	if !names(w.Router.Normalize(text), "KSR1") {
		t.Errorf("the router does not name KSR1 in %q after the reload", text)
	}
	if d := w.Router.Route(ctx, text); d.Intent != domain.IntentOrder {
		t.Errorf("%q routed to %s after the reload", text, d.Intent)
	}
	p := got.got[0].Parse(text)
	if !p.Complete() || p.CustomerID != "C01" || len(p.Items) != 1 || p.Items[0].SKU != "KSR1" || p.Items[0].Qty != 5 {
		t.Errorf("the new parser read %+v", p)
	}
	w.Check(ctx)
	if len(got.got) != 1 {
		t.Errorf("%d reloads, want still 1", len(got.got))
	}
}

// A product imported after Load and before the first Check (a sheet
// pulled as the server starts) is read at that Check: the version the
// router was built on is the one read before it was, not the one the
// first Check finds.
func TestWatchReadsAChangeBeforeItsFirstCheck(t *testing.T) {
	ctx := context.Background()
	books, _ := demoBooks(t)
	var got parsers
	w := &catalog.Watch{Books: books, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Orders: &got}
	if _, err := w.Load(ctx); err != nil {
		t.Fatal(err)
	}
	kesar := domain.Product{SKU: "KSR1", Name: "Kesar Agarbatti", Unit: "jar", Price: 4000, GSTPercent: 1200, StockReady: 100}
	if err := books.UpsertProducts(ctx, []domain.Product{kesar}); err != nil {
		t.Fatal(err)
	}
	w.Check(ctx)
	if len(got.got) != 1 || !names(w.Router.Normalize("5 jar Kesar Agarbatti"), "KSR1") {
		t.Fatalf("%d reloads, and the router does not name KSR1: the change before the first Check was lost", len(got.got))
	}
	w.Check(ctx)
	if len(got.got) != 1 {
		t.Errorf("%d reloads with the books unchanged since, want 1", len(got.got))
	}
}

// The users the books keep are the vocabulary's Staff: a message that
// asks for one of them by name hands over to the office.
func TestVocabularyNamesTheUsers(t *testing.T) {
	ctx := context.Background()
	books, users := demoBooks(t)
	if err := books.UpsertUsers(ctx, users); err != nil {
		t.Fatal(err)
	}
	v, err := catalog.Vocabulary(ctx, books)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Staff) != len(users) {
		t.Fatalf("staff %v, want the %d users' names", v.Staff, len(users))
	}
	r, err := intent.NewRouter(v, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Route(ctx, "Priya ka number bhejo"); d.Intent != domain.IntentHandoff {
		t.Errorf("a user asked for by name: %s (%s)", d.Intent, d.Reason)
	}
}
