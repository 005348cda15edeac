package storetest

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/store"
)

// edition is the digest of date as it might be kept, its sales written
// in its texts and its figures.
func edition(date, sales string) briefing.Kept {
	return briefing.Kept{Date: date, Headline: "Mon 30 Nov: sales " + sales,
		Owner: "*Munshi digest · Mon 30 Nov*\nsales " + sales, Accounts: "*Munshi dues · Mon 30 Nov*\nDue now ₹3,40,000",
		OwnerFigures:    []briefing.Figure{{Name: "sales", Value: sales}, {Name: "orders", Value: "3"}},
		AccountsFigures: []briefing.Figure{{Name: "due", Value: "₹3,40,000"}}}
}

// testDigestEditionKeptOnce: the first edition kept for a date stays, with
// its texts, figures and time, whatever is kept for that date later; a
// date with none kept has none.
func testDigestEditionKeptOnce(t *testing.T, s store.Store, c *Clock) {
	if _, ok, err := s.KeptEdition(ctx, "2026-11-30"); err != nil || ok {
		t.Fatalf("KeptEdition before any = %v, %v; want none", ok, err)
	}
	first := edition("2026-11-30", "₹49,288")
	keptAt := c.Now()
	got, err := s.KeepEdition(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	first.KeptAt = got.KeptAt
	if !got.KeptAt.Equal(keptAt) || !reflect.DeepEqual(got, first) {
		t.Fatalf("KeepEdition = %+v; want %+v kept at %v", got, first, keptAt)
	}
	// A later send of the same day, after a cancellation: the first stays.
	c.Advance(5 * time.Hour)
	if got, err := s.KeepEdition(ctx, edition("2026-11-30", "₹18,000")); err != nil || !reflect.DeepEqual(got, first) {
		t.Fatalf("a second KeepEdition = %+v, %v; want the first %+v", got, err, first)
	}
	if got, ok, err := s.KeptEdition(ctx, "2026-11-30"); err != nil || !ok || !reflect.DeepEqual(got, first) || !got.KeptAt.Equal(keptAt) {
		t.Fatalf("KeptEdition = %+v, %v, %v; want the first, kept at %v", got, ok, err, keptAt)
	}
	// Another date is another edition; one without figures keeps none.
	bare := briefing.Kept{Date: "2026-11-29", Headline: "Sun 29 Nov: no sales", Owner: "no sales"}
	if got, err := s.KeepEdition(ctx, bare); err != nil || got.Owner != "no sales" || len(got.OwnerFigures)+len(got.AccountsFigures) != 0 {
		t.Fatalf("KeepEdition(29 Nov) = %+v, %v", got, err)
	}
	if got, ok, err := s.KeptEdition(ctx, "2026-11-30"); err != nil || !ok || got.Owner != first.Owner {
		t.Fatalf("30 Nov after 29 Nov was kept = %+v, %v, %v", got, ok, err)
	}
}

// testDigestEditionRace: instances keeping editions of one date at once
// all get back the one that was kept.
func testDigestEditionRace(t *testing.T, s store.Store, _ *Clock) {
	for round := range rounds {
		date := fmt.Sprintf("2026-02-%02d", round+1)
		var (
			mu   sync.Mutex
			got  = map[string]int{}
			errs []error
			fns  []func()
		)
		for i := range 20 {
			fns = append(fns, func() {
				k, err := s.KeepEdition(ctx, edition(date, fmt.Sprintf("₹%d", i)))
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				}
				got[k.Owner]++
			})
		}
		atOnce(fns...)
		kept, ok, err := s.KeptEdition(ctx, date)
		if len(errs) > 0 || len(got) != 1 || err != nil || !ok || got[kept.Owner] != 20 {
			t.Fatalf("%s: editions returned %v (errors %v), kept %q; want all 20 the one kept", date, got, errs, kept.Owner)
		}
	}
}
