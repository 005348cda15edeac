package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/reports/reportstest"
)

// largeMain runs the whole program over a copy of the generated books of
// 10,000 SKUs and 500,000 order lines (reportstest.Large), with the books
// and the tools at reportstest.Now so that periods hold sales.
func largeMain(b *testing.B) *Main {
	cached, err := reportstest.Cached(context.Background(), reportstest.Large)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "munshi.db")
	if err := reportstest.CopyTo(cached, path); err != nil {
		b.Fatal(err)
	}
	at := func() time.Time { return reportstest.Now }
	return startMain(b, newFakeTwilio(b).URL, map[string]string{"MUNSHI_DB": path}, func(m *Main) {
		m.Now, m.Reports.Now = at, at
	})
}

// BenchmarkChartRoundTripLarge is an owner's "send me the sales trend"
// through the webhook at the 10,000-SKU / 500,000-line scale: routing,
// the sales tool's SQL, the PNG and the HTML page drawn and stored, the
// audit entries and the TwiML with its <Media>. Target: under 300 ms.
func BenchmarkChartRoundTripLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "last 30 days sales ka chart bhejo",
		want{has: []string{"📈 *Sales last 30 days", "by day", "Open the interactive chart"}})
}

// BenchmarkTopCustomersChartLarge: "top 10 customers chart" at the same
// scale, bars of 2,000 customers' sales this month.
func BenchmarkTopCustomersChartLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "top 10 customers chart",
		want{has: []string{"📈 *Top customers this month", "Open the interactive chart"}})
}

// BenchmarkOutstandingExcelLarge: "outstanding excel" at the same scale,
// every customer who owes, paged from the books into the file.
func BenchmarkOutstandingExcelLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "outstanding excel mein bhejo",
		want{has: []string{"📎 *Who owes us*", "The Excel file is attached"}})
}

// BenchmarkStockChartLarge: "stock chart" over 10,000 SKUs: every
// product's stock and four weeks of sales by product read to rank them,
// the ten that need attention drawn.
func BenchmarkStockChartLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "stock chart",
		want{has: []string{"📈 *Stock · 14 Mar 2026", "10 of 10,000 products (9,990 left out)", "Open the interactive chart"}})
}
