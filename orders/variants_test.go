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
		wantItems(t, p, c.text, c.want)
	}
	if got := p.Parse("mittal 5 darjan moze udhaar"); len(got.Unresolved) != 1 || !strings.Contains(got.Unresolved[0], "Gents Cotton Socks") {
		t.Errorf("moze alone: asks %q, want which socks", got.Unresolved)
	}
}

// TestABrandBeforeWhatSetsItApart: the first word of several products'
// names, used to begin an alias of one of them, is a name of those
// products, so "100 box kajaria 2x4" is the 2x4 Kajaria as one line and
// "kajaria" alone asks which. A first word no alias begins ("essco")
// stays a word of the names only.
func TestABrandBeforeWhatSetsItApart(t *testing.T) {
	box := func(sku, name string, aliases ...string) domain.Product {
		return domain.Product{SKU: sku, Name: name, Aliases: aliases, Unit: "box", Price: 88000, GSTPercent: 1800}
	}
	ps := []domain.Product{
		box("KJ2X2", "Kajaria Vitrified 600x600 Glossy White (4 pc 15.5 sqft)", "2x2", "kajaria 2x2", "kajaria white"),
		box("SM2X2", "Somany Vitrified 600x600 Ivory Matt (4 pc 15.5 sqft)", "2x2", "somany 2x2"),
		box("KJ2X4", "Kajaria GVT 600x1200 Statuario (2 pc 15.5 sqft)", "2x4", "gvt", "kajaria gvt"),
		box("PILLAR", "Essco Pillar Cock Basin Tap", "pillar cock"),
		box("BIBCOCK", "Essco Bib Cock Long Body", "bib cock"),
	}
	cs := []domain.Customer{{ID: "T03", Name: "Kulkarni Constructions", Aliases: []string{"kulkarni"},
		PaymentModes: []domain.PaymentMode{domain.PayCredit, domain.PayCheque}}}
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser(r, ps, cs)
	for _, c := range []struct{ text, want string }{
		{"kulkarni ko 100 box kajaria 2x4 credit pe", "KJ2X4:100"},
		{"kulkarni ko 20 box kajaria white aur 10 box somany 2x2, cheque", "KJ2X2:20,SM2X2:10"},
	} {
		wantItems(t, p, c.text, c.want)
	}
	if got := p.Parse("kulkarni ko 10 box kajaria credit pe"); len(got.Unresolved) != 1 || !strings.Contains(got.Unresolved[0], "Kajaria GVT") {
		t.Errorf("kajaria alone: asks %q, want which Kajaria", got.Unresolved)
	}
	for _, e := range r.Normalize("essco ka stock").Entities {
		t.Errorf("essco, which no alias begins, names %+v", e)
	}
}

// wantItems checks that text parses to exactly the items want lists
// ("SKU:qty,…", in order) and asks nothing.
func wantItems(t *testing.T, p *Parser, text, want string) {
	t.Helper()
	got := p.Parse(text)
	var items []string
	for _, it := range got.Items {
		items = append(items, it.SKU+":"+strconv.FormatInt(it.Qty, 10))
	}
	if strings.Join(items, ",") != want || len(got.Unresolved) > 0 {
		t.Errorf("%q: items %v, asks %q; want %s", text, items, got.Unresolved, want)
	}
}
