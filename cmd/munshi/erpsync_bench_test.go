package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erp/legacyerp"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/store"
)

// syncer opens the reviewed mapping over the legacy ERP at dsn, writing
// into books.
func benchSyncer(b testing.TB, dsn string, books store.Store) *erpsync.Syncer {
	b.Helper()
	raw, err := legacyerp.Mapping(legacyerp.SQLite)
	if err != nil {
		b.Fatal(err)
	}
	mp, err := erpsync.Parse(raw, func(k string) string {
		if k == "ERP_DSN" {
			return dsn
		}
		return ""
	})
	if err != nil {
		b.Fatal(err)
	}
	src, err := erp.Open(context.Background(), dsn, erp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { src.Close() })
	return &erpsync.Syncer{Mapping: mp, Source: src, Books: books}
}

func legacyFor(b *testing.B, items, lines int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "erp.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := legacyerp.Build(context.Background(), db, legacyerp.SQLite, legacyerp.Options{Seed: 7, Items: items, SalesLines: lines, Now: legacyAt}); err != nil {
		b.Fatal(err)
	}
	return "sqlite:" + path
}

// BenchmarkFirstSync times the first run of every entity of the legacy
// ERP (10,000 products, 100,000 sales lines) into empty SQLite books,
// and reports the source queries and rows written.
func BenchmarkFirstSync(b *testing.B) {
	dsn := legacyFor(b, 10000, 100000)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		books, err := store.Open(ctx, filepath.Join(b.TempDir(), "munshi.db"))
		if err != nil {
			b.Fatal(err)
		}
		s := benchSyncer(b, dsn, books)
		b.StartTimer()
		rs, err := s.Once(ctx)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		queries, written := 0, 0
		for _, r := range rs {
			queries += r.Queries
			written += r.Written.Added + r.Written.Updated
		}
		n, _ := books.Products(ctx)
		if len(n) != 10000 {
			b.Fatalf("%d products synced", len(n))
		}
		b.ReportMetric(float64(queries), "queries")
		b.ReportMetric(float64(written), "rows-written")
		books.Close()
		b.StartTimer()
	}
}

// BenchmarkTierRun times one run of the 2-minute tier (dues, bills,
// payments) and of the incremental sales after a few orders and payments
// changed at the source.
func BenchmarkTierRun(b *testing.B) {
	dsn := legacyFor(b, 400, 100000)
	ctx := context.Background()
	books, err := store.Open(ctx, filepath.Join(b.TempDir(), "munshi.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer books.Close()
	s := benchSyncer(b, dsn, books)
	if _, err := s.Once(ctx); err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("sqlite3", strings.TrimPrefix(dsn, "sqlite:"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ps, _ := books.Products(ctx)
	cs, _ := books.Customers(ctx)
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		at := legacyAt.Add(time.Duration(i) * time.Minute)
		if _, err := legacyerp.AddOrder(ctx, db, legacyerp.SQLite, legacyerp.Order{CustomerID: cs[i%len(cs)].ID, Date: at, ModifiedOn: at,
			Lines: []legacyerp.Line{{SKU: ps[i%len(ps)].SKU, Qty: 12}}}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		queries, written := 0, 0
		for _, e := range []erpsync.Entity{erpsync.Dues, erpsync.Bills, erpsync.Payments, erpsync.Sales} {
			r, err := s.Run(ctx, e)
			if err != nil {
				b.Fatal(err)
			}
			queries += r.Queries
			written += r.Written.Added + r.Written.Updated
		}
		b.StopTimer()
		if written == 0 {
			b.Fatal("the changed order was not written")
		}
		b.ReportMetric(float64(queries), "queries")
		b.ReportMetric(float64(written), "rows-written")
		b.StartTimer()
	}
}

// BenchmarkStockQuestionDuringSync answers "<item> ka stock kitna hai"
// over the webhook, idle and while full syncs of every entity run back
// to back, and reports the p99 of each.
func BenchmarkStockQuestionDuringSync(b *testing.B) {
	dsn := legacyFor(b, 400, 100000)
	for _, syncing := range []bool{false, true} {
		name := "idle"
		if syncing {
			name = "syncing"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			dbPath := filepath.Join(b.TempDir(), "munshi.db")
			books, err := store.Open(ctx, dbPath)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := benchSyncer(b, dsn, books).Once(ctx); err != nil {
				b.Fatal(err)
			}
			books.Close()
			m := startMain(b, newFakeTwilio(b).URL, map[string]string{"MUNSHI_DB": dbPath})
			owner := domain.User{Phone: "+919900000101", Name: "Owner", Role: domain.RoleOwner}
			if err := m.Store.UpsertUsers(ctx, []domain.User{owner}); err != nil {
				b.Fatal(err)
			}
			ps, _ := m.Store.Products(ctx)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			if syncing {
				s := benchSyncer(b, dsn, m.Store)
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						for _, e := range []erpsync.Entity{erpsync.Products, erpsync.Dues, erpsync.Sales} {
							s.Run(ctx, e)
						}
					}
				}()
			}
			var took []time.Duration
			i := 0
			for b.Loop() {
				i++
				p := ps[i%len(ps)]
				form := loadtest.Form(fmt.Sprintf("SMst%06d", i), testSID, owner.Phone, loadtest.DefaultTo, p.SKU+" ka stock kitna hai")
				req, _ := hook(m).Request(ctx, form)
				start := time.Now()
				resp, err := http.DefaultClient.Do(req)
				took = append(took, time.Since(start))
				if err != nil || resp.StatusCode != 200 {
					b.Fatalf("%v %v", err, resp)
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if bodies, _, err := loadtest.ParseTwiML(raw); err != nil || !strings.Contains(strings.Join(bodies, "\n"), p.Name) {
					b.Fatalf("%s ka stock kitna hai: %q %v", p.SKU, bodies, err)
				}
			}
			close(stop)
			wg.Wait()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
