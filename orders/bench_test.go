package orders

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// BenchmarkParseRulesPrice is the work of one order message before the
// database: parse against the catalog, price with GST, and run the five
// rules in parallel against a snapshot.
func BenchmarkParseRulesPrice(b *testing.B) {
	p := demoParser(b)
	products, customers, _, _ := demo.Data()
	catalog := map[string]domain.Product{}
	for _, x := range products {
		catalog[x.SKU] = x
	}
	byID := map[string]domain.Customer{}
	for _, c := range customers {
		byID[c.ID] = c
	}
	texts := []string{
		"10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD",
		"Sharma ji ko 3 peti harpic aur do dozen sabun bhej do, udhaar",
		"Mehta Traders: 20 ctn lizol, 10 bag surf, cheque",
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		parsed := p.Parse(texts[i%len(texts)])
		if !parsed.Complete() {
			b.Fatalf("%q: %v", texts[i%len(texts)], parsed.Unresolved)
		}
		snap := Snapshot{Customer: byID[parsed.CustomerID], Products: catalog, Committed: map[string]int64{}, MinimumOrder: 2500000}
		d, err := Price(snap.Customer, parsed.Payment, parsed.Items, catalog)
		if err != nil {
			b.Fatal(err)
		}
		d.Results = CheckRules(ctx, d, snap)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
