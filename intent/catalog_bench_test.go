package intent

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/catalogtest"
)

func vocabularyOf(b catalogtest.Books) Vocabulary {
	return Vocabulary{Products: b.Products, Customers: b.Customers}
}

// BenchmarkNewRouter is building the router's vocabulary from a large
// catalog: what a reload or a restart pays besides reading the books (the
// model is trained once per process, before the timer).
func BenchmarkNewRouter(b *testing.B) {
	sharedTraining()
	for _, n := range catalogtest.BenchSizes() {
		books := catalogtest.Shared(n)
		last := books.Products[len(books.Products)-1]
		b.Run(fmt.Sprintf("skus=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			meter := catalogtest.StartMeter()
			var r *Router
			for b.Loop() {
				var err error
				if r, err = NewRouter(vocabularyOf(books), Options{}); err != nil {
					b.Fatal(err)
				}
			}
			meter.Report(b)
			if !namesProduct(r.Entities(last.Name), last.SKU) {
				b.Fatalf("the last product %q is not recognised", last.Name)
			}
		})
	}
}

// BenchmarkRouteLargeCatalog is routing ordinary messages (orders, stock
// and dues questions, one in five with a typo in a product's name) against
// large catalogs with a customer for every five SKUs.
func BenchmarkRouteLargeCatalog(b *testing.B) {
	for _, n := range catalogtest.BenchSizes() {
		books := catalogtest.Shared(n)
		r, err := NewRouter(vocabularyOf(books), Options{})
		if err != nil {
			b.Fatal(err)
		}
		msgs := largeCatalogMessages(b, r, books)
		b.Run(fmt.Sprintf("skus=%d", n), func(b *testing.B) {
			ctx := context.Background()
			lat := make([]time.Duration, 0, 1<<16)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				d := r.Route(ctx, msgs[i%len(msgs)])
				if len(lat) < cap(lat) {
					lat = append(lat, d.Latency)
				}
			}
			catalogtest.ReportP99(b, lat)
		})
	}
}

// largeCatalogMessages returns ordinary messages naming products from the
// whole catalog, after checking that the router recognises the products
// they name, and most misspelt names. (A generated brand may be a word
// Munshi reads otherwise: "Sola" is also sixteen.)
func largeCatalogMessages(b *testing.B, r *Router, books catalogtest.Books) []string {
	var msgs []string
	bySKU := make(map[string]int, len(books.Products))
	for i, p := range books.Products {
		bySKU[p.SKU] = i
	}
	named, found, missed := 0, 0, ""
	typos, typosFound := 0, 0
	for k, m := range books.Messages(500, 3) {
		for _, sku := range m.SKUs {
			named++
			if namesProduct(r.Entities(m.Text), sku) {
				found++
			} else {
				missed = fmt.Sprintf("%s in %q", sku, m.Text)
			}
		}
		msgs = append(msgs, m.Text)
		if k%5 != 0 || len(m.SKUs) == 0 {
			continue
		}
		p := books.Products[bySKU[m.SKUs[0]]]
		if typo := catalogtest.Typo(p.Name); typo != "" {
			text := typo + " ka stock kitna hai?"
			msgs = append(msgs, text)
			typos++
			if namesProduct(r.Entities(text), p.SKU) {
				typosFound++
			}
		}
	}
	if found*100 < named*99 || typos < 20 || typosFound*10 < typos*9 {
		b.Fatalf("%d of %d products recognised (not %s), %d of %d misspelt names", found, named, missed, typosFound, typos)
	}
	return msgs
}

func namesProduct(es []Entity, sku string) bool {
	for _, e := range es {
		if e.Kind == EntityProduct && (e.ID == sku || slices.Contains(e.IDs, sku)) {
			return true
		}
	}
	return false
}
