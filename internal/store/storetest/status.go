package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

func stateIDs(os []reports.OrderState) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.ID+" "+o.State)
	}
	return out
}

func testOrderStatuses(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	now := reportstest.Now
	l := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 24, Price: 9000, GSTRate: 1800})
	old := now.Add(-100 * 24 * time.Hour)
	if _, err := s.ImportHistory(ctx, []domain.Order{{ID: "T-77", CustomerID: "C03", PlacedBy: reportstest.KnownSales,
		Status: domain.OrderDelivered, Lines: []domain.OrderLine{l}, Subtotal: l.Amount, GST: l.GSTAmount,
		Total: l.Amount + l.GSTAmount, CreatedAt: old, CommittedAt: old}}, nil); err != nil {
		t.Fatal(err)
	}
	tot, all, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (reports.OrderStatusTotals{AwaitingApproval: 1, Committed: 2, Delivered: 5, Cancelled: 1}); tot != want {
		t.Fatalf("totals %+v, want %+v", tot, want)
	}
	want := []string{"ORD-1008 pending_approval", "ORD-1005 committed", "ORD-1004 committed", "ORD-1007 cancelled",
		"ORD-1003 delivered", "ORD-1002 delivered", "ORD-1001 delivered", "ORD-1006 delivered", "T-77 delivered"}
	if got := stateIDs(all); !reflect.DeepEqual(got, want) {
		t.Fatalf("newest first:\n got %v\nwant %v", got, want)
	}
	draft, first, imported := all[0], all[6], all[8]
	if draft.Total != 260544 || draft.Lines != 1 || draft.CustomerName != "Mehta Traders" || draft.PlacedByName != "Ravi Kumar" ||
		!draft.CreatedAt.Equal(now.Add(-time.Hour)) || draft.Imported {
		t.Errorf("the draft %+v", draft)
	}
	if first.Total != 521088 || first.PlacedBy != reportstest.KnownSales2 || first.PlacedByName != "Sunil Yadav" ||
		!first.ChangedAt.Equal(now.Add(-39*24*time.Hour)) {
		t.Errorf("ORD-1001 %+v; want delivered a day after it was placed", first)
	}
	if !imported.Imported || imported.Total != l.Amount+l.GSTAmount || !imported.ChangedAt.Equal(old) || imported.Lines != 1 {
		t.Errorf("the imported order %+v", imported)
	}
	// Filters: who placed it, customers, one order, a period; and a page.
	_, mine, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{PlacedBy: reportstest.KnownSales})
	if got := stateIDs(mine); err != nil || !reflect.DeepEqual(got, []string{"ORD-1008 pending_approval", "ORD-1004 committed", "T-77 delivered"}) {
		t.Errorf("Ravi's: %v, %v", got, err)
	}
	tot, rajesh, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{CustomerIDs: []string{"C01", "C02"}, Page: reports.Page{Offset: 1, Limit: 2}})
	if got := stateIDs(rajesh); err != nil || tot.Count() != 6 || !reflect.DeepEqual(got, []string{"ORD-1004 committed", "ORD-1003 delivered"}) {
		t.Errorf("C01 and C02, second page: %v %+v, %v", got, tot, err)
	}
	_, one, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{OrderIDs: []string{"ORD-1007", "ord-1007"}})
	if got := stateIDs(one); err != nil || !reflect.DeepEqual(got, []string{"ORD-1007 cancelled"}) {
		t.Errorf("ORD-1007: %v, %v", got, err)
	}
	tot, recent, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{From: now.Add(-3 * time.Hour), To: now})
	if got := stateIDs(recent); err != nil || tot.Count() != 2 || !reflect.DeepEqual(got, []string{"ORD-1008 pending_approval", "ORD-1005 committed"}) {
		t.Errorf("the last three hours: %v, %v", got, err)
	}
	if tot, none, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{OrderIDs: []string{"ORD-9999"}}); err != nil || tot.Count() != 0 || len(none) != 0 {
		t.Errorf("ORD-9999: %+v %v, %v", tot, none, err)
	}
	// A hostile page is clamped, not an error.
	if _, rows, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{Page: reports.Page{Offset: -3, Limit: 1 << 30}}); err != nil || len(rows) != 9 {
		t.Errorf("hostile page: %d rows, %v", len(rows), err)
	}
}
