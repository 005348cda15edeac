package orders_test

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// batteryShop is a shop selling two batteries that share an alias, and
// tyres and a tyre set of one brand, to one customer.
func batteryShop(t *testing.T) *shop {
	t.Helper()
	books, clock := openBooks(t)
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
	return shopOver(t, books, clock, products, customers)
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

// TestACustomerChosenByWordsThatNameGoods: "salem murugan, egg stores"
// answers which Murugan; its "egg", a word of Murugan Egg Stores, is no
// order of its own, and the 10 boxes said first stay with the eggs.
func TestACustomerChosenByWordsThatNameGoods(t *testing.T) {
	books, clock := openBooks(t)
	egg := func(sku, name string, aliases ...string) domain.Product {
		return domain.Product{SKU: sku, Name: name, Aliases: aliases, Unit: "egg", Price: 560, StockReady: 50000,
			PackSizes: []domain.PackSize{{Name: "tray", Units: 30}, {Name: "box", Units: 210}}}
	}
	products := []domain.Product{egg("EGGW", "White Egg Regular (Medium)", "egg", "muttai"), egg("EGGWL", "White Egg Large (Big)", "egg", "muttai", "periya muttai")}
	customer := func(id, name string, aliases ...string) domain.Customer {
		return domain.Customer{ID: id, Name: name, Aliases: aliases, CreditLimit: 1_000_000_000,
			PaymentModes: []domain.PaymentMode{domain.PayCheque, domain.PayCredit}}
	}
	s := shopOver(t, books, clock, products, []domain.Customer{
		customer("N02", "Murugan Egg Stores (Salem)", "murugan", "murugan egg", "murugan egg stores", "salem murugan"),
		customer("N05", "Murugan Poultry Farm (Tiruchengode)", "murugan", "murugan poultry farm")})
	for _, turn := range []string{"murugan ku muttai 10 box anuppunga", "salem murugan, egg stores", "periya muttai"} {
		if r := s.say(turn); r.Pending == "" {
			t.Fatalf("%q gave %s", turn, r.Text)
		}
	}
	if r := s.say("cheque"); r.About == "" {
		t.Fatalf("no summary: %s", r.Text)
	}
	s.wantDraft("N02", domain.PayCheque, "EGGWL:2100")
}
