package orders_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// batteryShop is a shop selling two batteries that share an alias, and
// tyres and a tyre set of one brand, to one customer.
func batteryShop(t *testing.T) *shop {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 16, 5, 30, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	books, err := store.Open(ctx, filepath.Join(t.TempDir(), "m.db"), store.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { books.Close() })
	product := func(sku, name, unit string, aliases ...string) domain.Product {
		return domain.Product{SKU: sku, Name: name, Aliases: aliases, Unit: unit, Price: 500000, GSTPercent: 18, StockReady: 500}
	}
	products := []domain.Product{
		product("LU150FP", "Luminous Red Charge 150Ah Flat Plate Battery", "piece", "luminous 150ah"),
		product("LU150TT", "Luminous Inverlast 150Ah Tall Tubular Battery", "piece", "luminous 150ah"),
		product("TVS9090", "TVS Eurogrip 90/90-17 Tyre", "piece", "tvs 90/90-17", "tvs"),
		product("TVS80100", "TVS Eurogrip 80/100-18 Tyre", "piece", "tvs 80/100-18", "tvs"),
		product("SETTVS", "TVS Tyre Set HF Deluxe", "set", "tvs set", "hf deluxe set"),
		product("TUBE17", "Butyl Tube 90/90-17 (17 inch)", "piece", "tube"),
		product("TUBE18", "Butyl Tube 2.75/3.00-18 (18 inch)", "piece", "tube"),
		product("TUBE8", "Auto Tube 4.00-8 (3-wheeler)", "piece", "tube", "auto tube"),
	}
	customers := []domain.Customer{{ID: "B08", Name: "Rastogi Enterprises", Aliases: []string{"rastogi"},
		CreditLimit: 1_000_000_000, PaymentModes: []domain.PaymentMode{domain.PayCheque, domain.PayCredit}}}
	if err := books.UpsertProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
	if err := books.UpsertCustomers(ctx, customers); err != nil {
		t.Fatal(err)
	}
	router, err := intent.NewRouter(intent.Vocabulary{Products: products, Customers: customers}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &orders.Service{Books: books, Parser: orders.NewParser(router, products, customers),
		Audit: audit.New(books, nil, quiet), Logger: quiet, Now: clock, MinimumOrder: 2500000}
	return &shop{t: t, svc: svc, books: books, router: router,
		ravi: domain.User{Phone: "+919900000003", Name: "Ravi", Role: domain.RoleSales}}
}

// TestAnAnswerNamedByWordsOfOneOption: "flat plate" chooses the flat
// plate battery, though the order reader alone would take "flat" for a
// customer it does not know; "TVS wala", answering which product 20 sets
// are, is the one TVS product sold by the set, though "tvs" names only
// the tyres.
func TestAnAnswerNamedByWordsOfOneOption(t *testing.T) {
	for _, c := range []struct {
		turns []string
		line  string
	}{
		{[]string{"rastogi enterprises 20 luminous 150ah cheque", "flat plate"}, "LU150FP:20"},
		{[]string{"rastogi 20 set bhejo cheque", "TVS wala"}, "SETTVS:20"},
	} {
		s := batteryShop(t)
		for i, turn := range c.turns {
			r := s.say(turn)
			if last := i == len(c.turns)-1; !last && r.Pending == "" || last && r.About == "" {
				t.Fatalf("%v: %q gave %s", c.turns, turn, r.Text)
			}
		}
		s.wantDraft("B08", domain.PayCheque, c.line)
	}
}

// TestASizeSaidKeepsTheProductsOfThatSize: "tube 17 inch" is the 17-inch
// tube, not also the auto tube whose name gives no size in inches.
func TestASizeSaidKeepsTheProductsOfThatSize(t *testing.T) {
	s := batteryShop(t)
	if r := s.say("rastogi 30 tube 17 inch cheque"); r.About == "" {
		t.Fatalf("no summary: %s", r.Text)
	}
	s.wantDraft("B08", domain.PayCheque, "TUBE17:30")
}
