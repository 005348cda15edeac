package reports_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/reportstest"
)

// The owners' questions on a distributor of 10,000 SKUs and 500,000 order
// lines (reportstest.Large), end to end below the webhook: routing the
// text, the tool call with its SQL, the audit entry written to the same
// database, and the WhatsApp rendering. Each benchmark reports ns/op and
// the p50 and p99 of its iterations:
//
//	go test -run '^$' -bench . -benchtime 2000x ./reports/
//
// The first run builds the database (about 15 s) and caches it in
// os.TempDir; later runs copy it.

var large struct {
	once sync.Once
	b    *books
	err  error
}

func largeBooks(tb testing.TB) *books {
	large.once.Do(func() {
		ctx := context.Background()
		cached, err := reportstest.Cached(ctx, reportstest.Large)
		if err != nil {
			large.err = err
			return
		}
		// A private copy: the benchmarks write audit entries.
		dir, err := largeDir()
		if err != nil {
			large.err = err
			return
		}
		path := filepath.Join(dir, "munshi.db")
		if err := reportstest.CopyTo(cached, path); err != nil {
			large.err = err
			return
		}
		s, err := store.Open(ctx, path, store.WithClock(func() time.Time { return reportstest.Now }))
		if err != nil {
			large.err = err
			return
		}
		large.b = wire(tb, s, reportstest.Now)
	})
	if large.err != nil {
		tb.Fatal(large.err)
	}
	return large.b
}

var largeTemp struct {
	once sync.Once
	dir  string
	err  error
}

// largeDir is one temporary directory for the whole benchmark process
// (b.TempDir would be removed after the first benchmark).
func largeDir() (string, error) {
	largeTemp.once.Do(func() {
		largeTemp.dir, largeTemp.err = os.MkdirTemp("", "munshi-reports-bench-")
	})
	return largeTemp.dir, largeTemp.err
}

// TestMain removes the benchmarks' copy of the large database.
func TestMain(m *testing.M) {
	code := m.Run()
	if large.b != nil {
		large.b.store.Close()
	}
	if largeTemp.dir != "" {
		os.RemoveAll(largeTemp.dir)
	}
	os.Exit(code)
}

func benchQuestion(b *testing.B, text, wantPrefix string) {
	books := largeBooks(b)
	ctx := context.Background()
	if got := books.ask(b, owner, text); !strings.HasPrefix(got, wantPrefix) {
		b.Fatalf("%q answered:\n%s", text, got)
	}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		d := books.router.Route(ctx, text)
		reply := books.tools.Answer(ctx, owner, d)
		took = append(took, time.Since(start))
		if reply.Text == "" {
			b.Fatal("no answer")
		}
	}
	reportPercentiles(b, took)
}

func reportPercentiles(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	pct := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkStockOneProduct: "GC ka stock kitna hai" (GC500 is among the
// busiest SKUs, on about 2,900 order lines).
func BenchmarkStockOneProduct(b *testing.B) {
	benchQuestion(b, "GC ka stock kitna hai", "*Glass Cleaner 500ml* (GC500)")
}

// BenchmarkStockCatalog: "how much stock do we have?" over 10,000 SKUs.
func BenchmarkStockCatalog(b *testing.B) {
	benchQuestion(b, "how much stock do we have?", "*Stock*: 10,000 products")
}

// BenchmarkStockCommit: "can we commit 200 cartons of phenyl?".
func BenchmarkStockCommit(b *testing.B) {
	benchQuestion(b, "can we commit 200 cartons of phenyl?", "✅ Yes: 2,400 bottles (200 cartons) of Phenyl 1L")
}

// BenchmarkOutstandingAll: "who owes us money?" over 2,000 customers.
func BenchmarkOutstandingAll(b *testing.B) {
	benchQuestion(b, "who owes us money?", "*Who owes us*:")
}

// BenchmarkOutstandingOne: "Mehta ji ka outstanding" (a busy customer).
func BenchmarkOutstandingOne(b *testing.B) {
	benchQuestion(b, "Mehta ji ka outstanding", "*Mehta Traders* (C03)")
}

// BenchmarkOutOfStock, BenchmarkPendingOrders and the sales questions, for
// the record.
func BenchmarkOutOfStock(b *testing.B) {
	benchQuestion(b, "out of stock kya hai", "*Out of stock*:")
}

func BenchmarkPendingOrders(b *testing.B) {
	benchQuestion(b, "pending orders dikhao", "*Pending orders*")
}

func BenchmarkSalesLastWeek(b *testing.B) {
	benchQuestion(b, "pichle hafte ki sales", "*Sales last week (2–8 Mar)*")
}

func BenchmarkSalesLastMonthByCustomer(b *testing.B) {
	benchQuestion(b, "last month sales by customer", "*Sales last month (1–28 Feb)*")
}

func BenchmarkWhoBoughtLastWeek(b *testing.B) {
	benchQuestion(b, "who bought glass cleaner last week?", "*Who bought Glass Cleaner 500ml*")
}

// BenchmarkStockCatalogAfterChange: "how much stock do we have?" right
// after the stock changed (a product's ready stock is updated before each
// question), so the stock committed to open orders is summed again rather
// than reused. The update is outside the timed p50/p99, not outside ns/op.
// It runs last: it changes the books.
func BenchmarkStockCatalogAfterChange(b *testing.B) {
	books := largeBooks(b)
	ctx := context.Background()
	ps, err := books.store.Products(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var gc domain.Product
	for _, p := range ps {
		if p.SKU == "GC500" {
			gc = p
		}
	}
	d := books.router.Route(ctx, "how much stock do we have?")
	var took []time.Duration
	for b.Loop() {
		gc.StockReady ^= 1
		if err := books.store.UpsertProducts(ctx, []domain.Product{gc}); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		reply := books.tools.Answer(ctx, owner, d)
		took = append(took, time.Since(start))
		if !strings.HasPrefix(reply.Text, "*Stock*: 10,000 products") {
			b.Fatalf("answered:\n%s", reply.Text)
		}
	}
	reportPercentiles(b, took)
}
