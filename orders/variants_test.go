package orders

import (
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// footwearParser reads a footwear wholesaler's books: two hawai chappals
// told apart by gents and ladies, two socks, and "gents" at the end of
// many products' names.
func footwearParser(t *testing.T) *Parser {
	t.Helper()
	pair := func(sku, name string, aliases ...string) domain.Product {
		return domain.Product{SKU: sku, Name: name, Aliases: aliases, Unit: "pair", Price: 10000, GSTPercent: 500,
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}}}
	}
	ps := []domain.Product{
		pair("PHG", "Paragon Hawai Chappal Gents (7-10)", "hawai", "hawai chappal", "gents hawai"),
		pair("PHL", "Paragon Hawai Chappal Ladies (5-8)", "hawai", "hawai chappal", "ladies hawai"),
		pair("BAH", "Relaxo Bahamas Flip Flop Gents", "bahamas"),
		pair("FLITE", "Relaxo Flite PU Slipper Gents", "flite"),
		pair("SPX", "Sparx Sports Shoe Gents", "sparx"),
		pair("SOCKG", "Gents Cotton Socks", "socks", "moze", "gents socks"),
		pair("SOCKK", "School Socks White Kids", "socks", "moze", "kids socks"),
	}
	cs := []domain.Customer{{ID: "F07", Name: "Mittal Traders", Aliases: []string{"mittal"},
		PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit}}}
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return NewParser(r, ps, cs)
}

// TestAWordOfOneNameBesideASharedNameSettlesIt: a word of only one of the
// products a name is shared by, said just before or after that name,
// names that product, even when the word also ends other products' names.
func TestAWordOfOneNameBesideASharedNameSettlesIt(t *testing.T) {
	p := footwearParser(t)
	for _, c := range []struct{ text, want string }{
		{"mittal 5 darjan gents moze udhaar", "SOCKG:60"},
		{"mittal 5 darjan moze gents udhaar", "SOCKG:60"},
		{"mittal 5 darjan hawai ladies udhaar", "PHL:60"},
		{"mittal 5 darjan ladies hawai udhaar", "PHL:60"},
		{"mittal 2 darjan kids moze aur 3 darjan hawai gents, cash", "SOCKK:24,PHG:36"},
	} {
		got := p.Parse(c.text)
		var items []string
		for _, it := range got.Items {
			items = append(items, it.SKU+":"+strconv.FormatInt(it.Qty, 10))
		}
		if strings.Join(items, ",") != c.want || len(got.Unresolved) > 0 {
			t.Errorf("%q: items %v, asks %q; want %s", c.text, items, got.Unresolved, c.want)
		}
	}
	if got := p.Parse("mittal 5 darjan moze udhaar"); len(got.Unresolved) != 1 || !strings.Contains(got.Unresolved[0], "Gents Cotton Socks") {
		t.Errorf("moze alone: asks %q, want which socks", got.Unresolved)
	}
}
