package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// testSaleLines: the lines an export lists are the lines the summaries
// sum, oldest order first, filtered the same way, and the stream stops
// when its reader or its context does.
func testSaleLines(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	p, err := reports.MakePeriod("last_30_days", reportstest.Now, domain.DefaultLocation())
	if err != nil {
		t.Fatal(err)
	}
	q := reports.SalesQuery{From: p.From, To: p.To}
	collect := func(q reports.SalesQuery) []reports.SaleLine {
		t.Helper()
		var out []reports.SaleLine
		for l, err := range s.SaleLines(ctx, q) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, l)
		}
		return out
	}
	lines := collect(q)
	type row struct {
		order, customer, sku string
		qty                  int64
		amount               domain.Paise
	}
	var got []row
	var amount, gst domain.Paise
	for _, l := range lines {
		got = append(got, row{l.OrderID, l.CustomerID, l.SKU, l.Qty, l.Amount})
		amount, gst = amount+l.Amount, gst+l.GST
		if l.Amount != l.Rate*domain.Paise(l.Qty) || l.At.Before(p.From) || !l.At.Before(p.To) {
			t.Errorf("line %+v: amount is not qty × rate, or outside the period", l)
		}
	}
	// Cancelled ORD-1007, the draft ORD-1008 and ORD-1001 (40 days ago) are
	// not sales of the period.
	want := []row{
		{"ORD-1002", "C01", "PH1L", 120, 780000},
		{"ORD-1003", "C01", "GC500", 24, 220800},
		{"ORD-1004", "C01", "GC500", 96, 883200},
		{"ORD-1004", "C01", "BR01", 120, 960000},
		{"ORD-1005", "C02", "PH1L", 240, 1560000},
	}
	if len(got) != len(want) {
		t.Fatalf("lines = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("line %d = %+v, want %+v (all: %+v)", i, got[i], want[i], got)
		}
	}
	// They add up to the summary of the same period, to the paisa.
	if amount != 4404000 || gst != 735120 {
		t.Fatalf("lines add up to %d + GST %d, want 4404000 + 735120", amount, gst)
	}
	br := lines[3]
	if br.Customer != "Rajesh Kirana Store" || br.Product != "Floor Broom" || br.Unit != "piece" || br.Rate != 8000 || br.GSTRate != 1200 || br.GST != 115200 {
		t.Fatalf("broom line = %+v", br)
	}
	if gc := collect(reports.SalesQuery{From: p.From, To: p.To, SKUs: []string{"GC500"}}); len(gc) != 2 || gc[0].OrderID != "ORD-1003" || gc[1].OrderID != "ORD-1004" {
		t.Fatalf("GC500 lines = %+v", gc)
	}
	if c2 := collect(reports.SalesQuery{From: p.From, To: p.To, CustomerIDs: []string{"C02"}}); len(c2) != 1 || c2[0].OrderID != "ORD-1005" {
		t.Fatalf("C02 lines = %+v", c2)
	}
	if none := collect(reports.SalesQuery{From: p.To, To: p.To.AddDate(0, 0, 7)}); len(none) != 0 {
		t.Fatalf("lines of a period with no sales = %+v", none)
	}
	// A reader that stops early releases the stream: the books still take
	// writes and answer.
	for range s.SaleLines(ctx, q) {
		break
	}
	if err := s.UpsertCustomers(ctx, []domain.Customer{{ID: "C09", Name: "After The Stream", CreditLimit: 100, PaymentModes: []domain.PaymentMode{domain.PayCOD}}}); err != nil {
		t.Fatalf("a write after an abandoned stream: %v", err)
	}
	// A context that ends stops the stream with its error.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	var stopped error
	for _, err := range s.SaleLines(cctx, q) {
		if err != nil {
			stopped = err
			break
		}
	}
	if !errors.Is(stopped, context.Canceled) {
		t.Fatalf("a cancelled stream ended with %v, want context.Canceled", stopped)
	}
}
