package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestAProductsNameWordAfterItsShorterName: a word said after a shorter
// name that every product it may mean has in its full name, in the
// plural or as a unit said without a count, belongs to the name ("2.75-18
// tyres", "ezee foil roll"), so the message is read as it would be
// without it; a word of the name as written, or of one product's name
// only, is left as a word of its own.
func TestAProductsNameWordAfterItsShorterName(t *testing.T) {
	r := routerFor(t, Vocabulary{
		Products: []domain.Product{
			{SKU: "CT275", Name: "Ceat Gripp 2.75-18 Tyre", Aliases: []string{"2.75-18"}, Unit: "piece"},
			{SKU: "MRF275", Name: "MRF Nylogrip Zapper 2.75-18 Tyre", Aliases: []string{"2.75-18"}, Unit: "piece"},
			{SKU: "EZF72", Name: "Ezee Aluminium Foil Roll 72 m", Aliases: []string{"ezee foil"}, Unit: "roll"},
		},
		Customers: []domain.Customer{{ID: "Y07", Name: "Venkateswara Tyres"}, {ID: "Y02", Name: "Reddy Tyre Centre", Aliases: []string{"reddy"}}},
	})
	spans := map[string]string{
		"reddy ki 2.75-18 tyres 30 bhejo": "2.75 18 tyres",
		"ezee foil roll chahiye":          "ezee foil roll",
		"2.75-18 tyre 5 bhejo":            "2.75 18", // a word of the names as written
		"2.75-18 gripps 5 bhejo":          "2.75 18", // of one product's name only
	}
	for text, want := range spans {
		if got := lastEntity(r, text, EntityProduct).Text; got != want {
			t.Errorf("%q: product read as %q, want %q", text, got, want)
		}
	}
	routedAs(t, r, domain.IntentOrder, "venkateswara tyres ki 2.75-18 tyres 30 bhejo, neft", "ezee foil roll chahiye")
}

// TestACustomerCalledWithoutTheBracketsOfTheirName: books write a shop's
// town in brackets beside its name; the shop is called without it.
func TestACustomerCalledWithoutTheBracketsOfTheirName(t *testing.T) {
	r := routerFor(t, Vocabulary{Customers: []domain.Customer{
		{ID: "Y03", Name: "Durga Auto Tyres (Guntur)", Aliases: []string{"durga auto"}},
	}})
	if got := lastEntity(r, "durga auto tyres 2 lakh aaya", EntityCustomer).Text; got != "durga auto tyres" {
		t.Errorf("customer read as %q, want %q", got, "durga auto tyres")
	}
	for name, want := range map[string]string{"Durga Auto Tyres (Guntur)": "Durga Auto Tyres", "Shah [Old] Traders": "Shah Traders",
		"(Guntur)": "", "Mehta Traders": "Mehta Traders", "Rao (": "Rao"} {
		if got := withoutBrackets(name); got != want {
			t.Errorf("withoutBrackets(%q) = %q, want %q", name, got, want)
		}
	}
}

// lastEntity is the last entity of kind that r reads in text.
func lastEntity(r *Router, text string, kind EntityKind) Entity {
	var last Entity
	for _, e := range r.Normalize(text).Entities {
		if e.Kind == kind {
			last = e
		}
	}
	return last
}
