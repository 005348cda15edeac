package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
)

// testStockNeeds: a stock chart's products in the order that matters. Out
// of stock first (committed stock counts against ready), the better-selling
// first; then the fewest days of cover, compared as fractions (5/2 is more
// than 7/3); then the products that did not sell. Ties go by name, never
// by SKU. Sales are committed and delivered orders created in [From, To),
// imported ones too; cancelled orders and imported open orders hold
// nothing and sell nothing.
func testStockNeeds(t *testing.T, s store.Store, _ *Clock) {
	if err := s.UpsertCustomers(ctx, customers()); err != nil {
		t.Fatal(err)
	}
	// SKUs run against the names, so that a tie settled by SKU shows.
	product := func(sku, name string, ready int64) domain.Product {
		return domain.Product{SKU: sku, Name: name, Unit: "piece", Price: 1000, GSTPercent: 1800, StockReady: ready, StockWIP: 7}
	}
	if err := s.UpsertProducts(ctx, []domain.Product{
		product("P13", "Agarbatti", 0),
		product("P12", "Bleach", 100),
		product("P11", "Charcoal", 0),
		product("P10", "Camphor", 0),
		product("P09", "Floor Cleaner", 300),
		product("P08", "Jute Bag", 100),
		product("P07", "Kettle", 5),
		product("P06", "Lamp", 7),
		product("P05", "Eraser", 500),
		product("P04", "Detergent", 1000),
		product("P03", "Glue", 50),
		product("P02", "Ink", 100),
		product("P01", "Hanger", 10),
	}); err != nil {
		t.Fatal(err)
	}
	from, to := T0.Add(-28*24*time.Hour), T0
	n := 0
	order := func(status domain.OrderStatus, at time.Time, sku string, qty int64) domain.Order {
		n++
		l := domain.PriceLine(domain.OrderLine{SKU: sku, Qty: qty, Price: 1000, GSTRate: 1800})
		return domain.Order{ID: fmt.Sprintf("T-%d", 100+n), CustomerID: "C01", Status: status, Lines: []domain.OrderLine{l},
			Subtotal: l.Amount, GST: l.GSTAmount, Total: l.Amount + l.GSTAmount, CreatedAt: at, CommittedAt: at}
	}
	week := T0.Add(-7 * 24 * time.Hour)
	if err := s.AddHistory(ctx, []domain.Order{
		order(domain.OrderCommitted, week, "P12", 120), // Bleach: 20 oversold, and sold
		order(domain.OrderDelivered, week, "P12", 30),
		order(domain.OrderDelivered, week, "P11", 30),
		order(domain.OrderDelivered, week, "P10", 30),
		order(domain.OrderCommitted, week, "P09", 100), // Floor Cleaner: 200 left of 300, 200 sold
		order(domain.OrderDelivered, week, "P09", 100),
		order(domain.OrderDelivered, week, "P07", 2),
		order(domain.OrderDelivered, from, "P06", 3), // the first instant of the period counts
		order(domain.OrderDelivered, week, "P05", 50),
		order(domain.OrderDelivered, week, "P04", 100),
		order(domain.OrderCancelled, week, "P03", 500),
		order(domain.OrderDelivered, from.Add(-time.Second), "P02", 20), // before the period
		order(domain.OrderDelivered, to, "P02", 20),                     // after it
	}, nil); err != nil {
		t.Fatal(err)
	}
	// An imported open order is a sale but holds no stock.
	if _, err := s.ImportHistory(ctx, []domain.Order{order(domain.OrderCommitted, week, "P08", 100)}, nil); err != nil {
		t.Fatal(err)
	}
	needs := func(q reports.StockNeedsQuery) []reports.StockLine {
		t.Helper()
		if q.From.IsZero() {
			q.From = from
		}
		q.To = to
		lines, err := s.StockNeeds(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return lines
	}
	names := func(lines []reports.StockLine) []string {
		var out []string
		for _, l := range lines {
			out = append(out, l.Name)
		}
		return out
	}
	all := needs(reports.StockNeedsQuery{})
	want := []string{
		"Bleach", "Camphor", "Charcoal", "Agarbatti", // out: 150, 30, 30, 0 sold
		"Floor Cleaner", "Jute Bag", "Lamp", "Kettle", "Detergent", "Eraser", // 200/200, 100/100, 7/3, 5/2, 1000/100, 500/50
		"Glue", "Hanger", "Ink", // no sales
	}
	if got := names(all); !slices.Equal(got, want) {
		t.Fatalf("stock needs\n%q, want\n%q", got, want)
	}
	got := map[string][3]int64{}
	for _, l := range all {
		got[l.Name] = [3]int64{l.Ready, l.Committed, l.WIP}
	}
	for name, w := range map[string][3]int64{"Bleach": {100, 120, 7}, "Floor Cleaner": {300, 100, 7}, "Jute Bag": {100, 0, 7}, "Glue": {50, 0, 7}} {
		if got[name] != w {
			t.Errorf("%s: ready, committed, in production = %v, want %v", name, got[name], w)
		}
	}
	if l := all[0]; l.SKU != "P12" || l.Unit != "piece" || l.Price != 1000 {
		t.Errorf("the first line = %+v", l)
	}

	if got := names(needs(reports.StockNeedsQuery{Limit: 5})); !slices.Equal(got, want[:5]) {
		t.Errorf("the first 5 = %q, want %q", got, want[:5])
	}
	if got := names(needs(reports.StockNeedsQuery{OutOnly: true})); !slices.Equal(got, want[:4]) {
		t.Errorf("out of stock = %q, want %q", got, want[:4])
	}
	named := needs(reports.StockNeedsQuery{SKUs: []string{"P02", "P04", "P11", "P06", "NOPE"}})
	if got, want := names(named), []string{"Charcoal", "Lamp", "Detergent", "Ink"}; !slices.Equal(got, want) {
		t.Errorf("named = %q, want %q", got, want)
	}
	if got := names(needs(reports.StockNeedsQuery{SKUs: []string{"P06", "P07", "P11"}, OutOnly: true})); !slices.Equal(got, []string{"Charcoal"}) {
		t.Errorf("named and out of stock = %q, want Charcoal", got)
	}
	// A period starting a second later leaves the lamp's sale out: the
	// lamp goes among the products that did not sell.
	later := needs(reports.StockNeedsQuery{From: from.Add(time.Second)})
	if got, want := names(later)[6:], []string{"Kettle", "Detergent", "Eraser", "Glue", "Hanger", "Ink", "Lamp"}; !slices.Equal(got, want) {
		t.Errorf("from a second later: %q, want %q after the first six", got, want)
	}
}
