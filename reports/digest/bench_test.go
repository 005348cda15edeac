package digest_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/reports/reportstest"
)

// BenchmarkCompose builds a whole digest — the facts, both briefs, both
// mails with the 13-week chart and the day's sales file — on a
// distributor of 10,000 SKUs and 500,000 order lines over a year
// (reportstest.Large; the first run builds and caches it, about 15 s):
//
//	go test -run '^$' -bench Compose -benchtime 20x ./reports/digest/
func BenchmarkCompose(b *testing.B) {
	s := largeStore(b)
	loc := domain.DefaultLocation()
	day := digest.Yesterday(reportstest.Now, loc)
	o := digest.Options{Location: loc}
	e, err := digest.Compose(ctx, s, day, o)
	if err != nil {
		b.Fatal(err)
	}
	if e.Facts.Sales.Orders == 0 || len(e.OwnerMail.Attachments) != 2 {
		b.Fatalf("digest of %v: %d orders, %d attachments", day, e.Facts.Sales.Orders, len(e.OwnerMail.Attachments))
	}
	b.Logf("%d orders, %d events, %d stock lines, %d late\n%s", e.Facts.Sales.Orders, len(e.Facts.Events), len(e.Facts.Stock), e.Facts.Waiting.LateCount, e.OwnerText)
	b.ResetTimer()
	for b.Loop() {
		if _, err := digest.Compose(ctx, s, day, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFacts is the context engine alone: the SQL and the rules.
func BenchmarkFacts(b *testing.B) {
	s := largeStore(b)
	loc := domain.DefaultLocation()
	day := digest.Yesterday(reportstest.Now, loc)
	for b.Loop() {
		if _, err := digest.Build(ctx, s, day, digest.Options{Location: loc}); err != nil {
			b.Fatal(err)
		}
	}
}

// largeStore opens a private copy of the large books (the digest only
// reads, but the shared file is never opened for writing).
func largeStore(b *testing.B) store.Store {
	cached, err := reportstest.Cached(ctx, reportstest.Large)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "munshi.db")
	if err := reportstest.CopyTo(cached, path); err != nil {
		b.Fatal(err)
	}
	s, err := store.Open(ctx, path, store.WithClock(func() time.Time { return reportstest.Now }))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}
