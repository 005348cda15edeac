package orders

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/catalogtest"
)

// largeRouter is the router of a generated catalog, built before the
// timer of the benchmarks that use it.
func largeRouter(tb testing.TB, books catalogtest.Books) *intent.Router {
	r, err := intent.NewRouter(intent.Vocabulary{Products: books.Products, Customers: books.Customers}, intent.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// readRight reports whether the order's customer and products were read
// as they were written: an item of each product it names, in order.
func readRight(p *Parser, m catalogtest.Message) (Parsed, bool) {
	got := p.Parse(m.Text)
	var skus []string
	for _, it := range got.Items {
		skus = append(skus, it.SKU)
	}
	return got, got.CustomerID == m.CustomerID && slices.Equal(skus, m.SKUs)
}

// checkOrder fails unless a complete order was read whole: its customer,
// its products, its payment, and no question asked.
func checkOrder(tb testing.TB, p *Parser, m catalogtest.Message) {
	if got, ok := readRight(p, m); !ok || !got.Complete() || got.Payment == "" {
		tb.Fatalf("%q: customer %q, payment %q, items %+v, questions %q; want %s and %v",
			m.Text, got.CustomerID, got.Payment, got.Items, got.Unresolved, m.CustomerID, m.SKUs)
	}
}

// BenchmarkNewParser is building the order parser for a large catalog,
// as a reload or a restart does after building the router.
func BenchmarkNewParser(b *testing.B) {
	for _, n := range catalogtest.BenchSizes() {
		books := catalogtest.Shared(n)
		r := largeRouter(b, books)
		b.Run(fmt.Sprintf("skus=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			meter := catalogtest.StartMeter()
			var p *Parser
			for b.Loop() {
				p = NewParser(r, books.Products, books.Customers)
			}
			meter.Report(b)
			checkOrder(b, p, books.Order(len(books.Products)-1))
		})
	}
}

// BenchmarkParseLargeCatalog is reading ordinary order messages (in
// English and Hinglish, one or two products named in full, a customer)
// against large catalogs.
func BenchmarkParseLargeCatalog(b *testing.B) {
	for _, n := range catalogtest.BenchSizes() {
		books := catalogtest.Shared(n)
		p := NewParser(largeRouter(b, books), books.Products, books.Customers)
		// The orders must be read as they were written, but for a few a
		// question is fair: a pack size the product is not sold in, or a
		// name another product's name continues.
		var texts []string
		right := 0
		for _, m := range books.Messages(700, 4) {
			if !m.Order {
				continue
			}
			texts = append(texts, m.Text)
			if _, ok := readRight(p, m); ok {
				right++
			}
		}
		if right*10 < len(texts)*9 {
			b.Fatalf("only %d of %d orders read right", right, len(texts))
		}
		for i := range 20 {
			checkOrder(b, p, books.Order(i*len(books.Products)/20))
		}
		b.Run(fmt.Sprintf("skus=%d", n), func(b *testing.B) {
			lat := make([]time.Duration, 0, 1<<16)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				p.Parse(texts[i%len(texts)])
				if len(lat) < cap(lat) {
					lat = append(lat, time.Since(start))
				}
			}
			catalogtest.ReportP99(b, lat)
		})
	}
}
