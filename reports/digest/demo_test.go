package digest_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
)

// TestDemoDigestShowsEveryPart: whatever day the demo is started, its
// digest of yesterday has sales against a baseline, each kind of customer
// event, a product running out and an order waiting.
func TestDemoDigestShowsEveryPart(t *testing.T) {
	loc := domain.DefaultLocation()
	for _, now := range []time.Time{
		time.Date(2026, 11, 30, 10, 0, 0, 0, loc), // a Monday: yesterday was a quiet Sunday
		time.Date(2026, 3, 14, 9, 30, 0, 0, loc),  // a Saturday
		time.Date(2026, 7, 1, 0, 20, 0, 0, loc),   // just after midnight, a new month
	} {
		t.Run(now.Format("2006-01-02"), func(t *testing.T) {
			s, err := store.Open(ctx, filepath.Join(t.TempDir(), "demo.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := demo.Seed(ctx, s, now); err != nil {
				t.Fatal(err)
			}
			e, err := digest.Compose(ctx, s, digest.Yesterday(now, loc), digest.Options{Location: loc})
			if err != nil {
				t.Fatal(err)
			}
			f := e.Facts
			if f.Sales.Orders == 0 || f.Baseline.Mean == 0 {
				t.Errorf("sales %+v, baseline %s", f.Sales, f.Baseline.Mean)
			}
			for _, k := range []digest.EventKind{digest.NoOrder, digest.Surge, digest.Drop, digest.PaymentReceived, digest.CreditRisk} {
				if len(f.Of(k)) == 0 {
					t.Errorf("no %s event", k)
				}
			}
			low := false
			for _, l := range f.Stock {
				low = low || !l.Out && l.Cover < digest.CoverDays
			}
			if !low || f.Waiting.LateCount == 0 {
				t.Errorf("stock %+v, waiting %+v", f.Stock, f.Waiting)
			}
			if reports.Chars(e.OwnerText) > digest.MaxBriefChars {
				t.Errorf("brief of %d characters", reports.Chars(e.OwnerText))
			}
			t.Logf("\n%s\n\n%s", e.OwnerText, e.AccountsText)
		})
	}
}
