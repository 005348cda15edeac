package sqlbooks_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
)

// BenchmarkSalesAfterWrites is "last 7 days sales" by product through
// the store on the demo's books, on a database just seeded ("quiet") and
// after the writes of 2,000 answered messages (8,000 audit entries, each
// committed alone). Each run checks that the week had sales. With glibc's
// default trim threshold (without malloc_linux.go) both ran at 250–690
// µs a query on a 2-core VM, every query faulting in again the page
// caches of its temporary b-trees; with it, 105–127 µs.
func BenchmarkSalesAfterWrites(b *testing.B) {
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	for _, writes := range []int{0, 8000} {
		name := "quiet"
		if writes > 0 {
			name = fmt.Sprintf("after-%d-writes", writes)
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			s, err := store.Open(ctx, filepath.Join(b.TempDir(), "munshi.db"), store.WithClock(func() time.Time { return now }))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if _, err := demo.Seed(ctx, s, now); err != nil {
				b.Fatal(err)
			}
			for i := range writes {
				if err := s.AppendAudit(ctx, audit.Entry{Actor: "+919900000001", Kind: "inbound", Subject: fmt.Sprintf("SM%032d", i),
					Detail: map[string]any{"text": "GC ka stock kitna hai"}}); err != nil {
					b.Fatal(err)
				}
			}
			q := reports.SalesQuery{From: now.AddDate(0, 0, -7), To: now, Page: reports.Page{Limit: 20}}
			for b.Loop() {
				t, lines, err := s.SalesSummary(ctx, q)
				if err != nil || len(lines) == 0 || t.Amount <= 0 {
					b.Fatalf("a week's sales: %+v, %d lines, %v", t, len(lines), err)
				}
			}
		})
	}
}
