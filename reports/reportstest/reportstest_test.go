package reportstest

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
)

// TestBuild: a generated database reads back through the store as it was
// generated: its size, times within the days asked for, the recent orders
// still open, the drafts with the owners, and order numbers that go on
// past them.
func TestBuild(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "small.db")
	size := Size{Products: 30, Customers: 12, Lines: 400, Days: 20}
	if err := Build(ctx, path, size); err != nil {
		t.Fatal(err)
	}
	if err := Build(ctx, path, size); err == nil {
		t.Fatal("Build wrote over an existing database")
	}
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o, ok, err := s.Order(ctx, "ORD-1001")
	if err != nil || !ok {
		t.Fatalf("ORD-1001: %v %v", ok, err)
	}
	if o.CreatedAt.After(Now) || Now.Sub(o.CreatedAt) > 21*24*time.Hour || o.DeliveredAt.IsZero() {
		t.Fatalf("ORD-1001 created at %v, delivered at %v; want a delivered order within 20 days before %v", o.CreatedAt, o.DeliveredAt, Now)
	}
	if len(o.Lines) == 0 || o.Total != o.Subtotal+o.GST {
		t.Fatalf("order %+v", o)
	}
	if ps, err := s.Products(ctx); err != nil || len(ps) != size.Products {
		t.Fatalf("products: %d, %v", len(ps), err)
	}
	if cs, err := s.Customers(ctx); err != nil || len(cs) != size.Customers {
		t.Fatalf("customers: %d, %v", len(cs), err)
	}
	tot, open, err := s.OpenOrders(ctx, reports.OpenOrdersQuery{Page: reports.Page{Limit: reports.MaxRows}})
	if err != nil || tot.AwaitingApproval != PendingDrafts || tot.ToDeliver == 0 || tot.AwaitingApprovalValue <= 0 {
		t.Fatalf("open orders %+v, %v; want %d drafts with the owners and some orders to deliver", tot, err, PendingDrafts)
	}
	for _, o := range open {
		if o.Status == reports.ToDeliver && Now.Sub(o.CreatedAt) >= OpenDays*24*time.Hour {
			t.Errorf("%s is open but %v old", o.ID, Now.Sub(o.CreatedAt))
		}
	}
	last := open[0].ID
	for _, o := range open {
		if o.Status == reports.AwaitingApproval && o.ID > last {
			last = o.ID
		}
	}
	if id, err := s.NewDraftID(ctx); err != nil || len(id) < len(last) || (len(id) == len(last) && id <= last) {
		t.Fatalf("next draft id %s, %v; want past %s", id, err, last)
	}
	sales, _, err := s.SalesSummary(ctx, reports.SalesQuery{From: Now.Add(-time.Duration(size.Days+1) * 24 * time.Hour), To: Now.Add(time.Hour)})
	if err != nil || sales.Qty == 0 {
		t.Fatalf("sales %+v, %v", sales, err)
	}
}

// TestCachedIsKeyedBySizeAndSchema: the cache gives one file per size, the
// same one on a second call.
func TestCachedIsKeyedBySizeAndSchema(t *testing.T) {
	ctx := context.Background()
	a, err := Cached(ctx, Size{Products: 20, Customers: 8, Lines: 100, Days: 5})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Cached(ctx, Size{Products: 20, Customers: 8, Lines: 100, Days: 5})
	if err != nil || again != a {
		t.Fatalf("second Cached = %s, %v; want %s", again, err, a)
	}
	other, err := Cached(ctx, Size{Products: 21, Customers: 8, Lines: 100, Days: 5})
	if err != nil || other == a {
		t.Fatalf("another size cached as %s, %v", other, err)
	}
}

// TestCopyToHoldsTheBooks: a copy made through the store reads back as
// the original does, and never overwrites a database.
func TestCopyToHoldsTheBooks(t *testing.T) {
	ctx := context.Background()
	src, err := Cached(ctx, Size{Products: 20, Customers: 8, Lines: 100, Days: 5})
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := CopyTo(src, dst); err != nil {
		t.Fatal(err)
	}
	if err := CopyTo(src, dst); err == nil {
		t.Fatal("CopyTo wrote over an existing database")
	}
	read := func(path string) ([]domain.Product, []domain.Customer, domain.Order) {
		s, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ps, err := s.Products(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.Customers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		o, ok, err := s.Order(ctx, "ORD-1001")
		if err != nil || !ok {
			t.Fatalf("ORD-1001 in %s: %v %v", path, ok, err)
		}
		return ps, cs, o
	}
	ps, cs, o := read(src)
	cps, ccs, co := read(dst)
	if len(ps) != 20 || len(cs) != 8 || !reflect.DeepEqual(ps, cps) || !reflect.DeepEqual(cs, ccs) || !reflect.DeepEqual(o, co) {
		t.Fatalf("the copy holds %d products and %d customers, want the original's %d and %d as they are", len(cps), len(ccs), len(ps), len(cs))
	}
}
