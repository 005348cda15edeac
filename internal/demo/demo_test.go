package demo_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	drafts "github.com/munshi/munshi/orders"
)

func TestDemoIsABelievableDistributor(t *testing.T) {
	products, customers, users, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	if len(products) < 12 || len(customers) < 8 {
		t.Fatalf("%d SKUs, %d customers", len(products), len(customers))
	}
	packs, aliases := 0, 0
	for _, p := range products {
		if len(p.PackSizes) > 0 {
			packs++
		}
		if len(p.Aliases) > 0 {
			aliases++
		}
	}
	if packs != len(products) || aliases != len(products) {
		t.Fatalf("every SKU needs aliases and pack sizes: %d packs, %d aliases", packs, aliases)
	}
	segments := map[string]bool{}
	for _, c := range customers {
		segments[c.Segment] = true
	}
	if len(segments) < 5 {
		t.Fatalf("customers in %d segments", len(segments))
	}
	roles := map[domain.Role]bool{}
	for _, u := range users {
		roles[u.Role] = true
	}
	if !roles[domain.RoleOwner] || !roles[domain.RoleSales] || !roles[domain.RoleAccounts] {
		t.Fatalf("roles %v", roles)
	}
}

func TestSeedWritesHistoryOnceOnly(t *testing.T) {
	ctx := context.Background()
	books, err := store.Open(ctx, filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer books.Close()
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	if seeded, err := demo.Seed(ctx, books, now); err != nil || !seeded {
		t.Fatalf("seed: %v %v", seeded, err)
	}
	if seeded, err := demo.Seed(ctx, books, now); err != nil || seeded {
		t.Fatalf("a second seed must leave the books alone: %v %v", seeded, err)
	}
	products, customers, users, _ := demo.Data()
	orders, payments := demo.History(products, customers, users, now)
	if len(orders) < 200 || len(payments) < 100 {
		t.Fatalf("%d orders, %d payments", len(orders), len(payments))
	}
	oldest, open := now, 0
	for _, o := range orders {
		if o.CreatedAt.Before(oldest) {
			oldest = o.CreatedAt
		}
		if o.Status == domain.OrderCommitted {
			open++
		}
		var sum domain.Paise
		for _, l := range o.Lines {
			sum += l.Amount + l.GSTAmount
		}
		if sum != o.Total {
			t.Fatalf("%s: lines add to %d, total %d", o.ID, sum, o.Total)
		}
	}
	if now.Sub(oldest) < 90*24*time.Hour || open == 0 {
		t.Fatalf("history from %v, %d open orders", oldest, open)
	}
	// The open orders fit in the demo stock, so the demo starts consistent.
	held, _ := books.Committed(ctx, "GC500", "PH1L", "TC500", "DB200", "SP75")
	for _, p := range products {
		if held[p.SKU] > p.StockReady {
			t.Fatalf("%s: %d committed, %d ready", p.SKU, held[p.SKU], p.StockReady)
		}
	}
	// The first order placed after the seed follows the history's last.
	last := orders[len(orders)-1]
	d := drafts.Draft{PlacedBy: last.PlacedBy, Customer: domain.Customer{ID: last.CustomerID}, Lines: last.Lines, Status: drafts.DraftOpen, CreatedAt: now}
	if d.ID, err = books.NewDraftID(ctx); err != nil {
		t.Fatal(err)
	}
	if err := books.SaveDraft(ctx, d); err != nil {
		t.Fatal(err)
	}
	id, err := books.Commit(ctx, drafts.Commitment{Draft: d, By: d.PlacedBy, Judge: func(drafts.Snapshot) error { return nil }})
	if err != nil || id <= last.ID && len(id) == len(last.ID) {
		t.Fatalf("the first order placed is %q, %v; it does not follow the history's %s", id, err, last.ID)
	}
}
