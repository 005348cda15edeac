package orders

import (
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// Distributors are named after gods and greetings: Shree Krishna, Ram
// Traders, Om Sai, Jai Hind, Ganesh, Laxmi, New India. A customer's alias
// wins over those words inside an order or a question, while a greeting
// alone stays a greeting.
func TestGreetingWordsAsCustomerNames(t *testing.T) {
	ps, cs, _, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	add := func(id, name string, aliases ...string) {
		cs = append(cs, domain.Customer{ID: id, Name: name, Aliases: aliases, PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit}})
	}
	add("K1", "Shree Krishna Traders", "Krishna", "Shree Krishna")
	add("R1", "Ram Traders", "Ram")
	add("O1", "Om Sai Stores", "Om Sai")
	add("J1", "Jai Hind Provision", "Jai Hind")
	add("G1", "Ganesh Agencies", "Ganesh")
	add("L1", "Laxmi Stores", "Laxmi")
	add("N1", "New India Traders", "New India")
	add("H1", "Radhe Radhe General", "Radhe")
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser(r, ps, cs)
	for _, c := range []struct{ text, customer string }{
		{"Krishna ke liye 7 pack naphthalene", "K1"},
		{"Ram ko 5 carton GC", "R1"},
		{"Shree Krishna ko 2 carton phenyl cash", "K1"},
		{"Om Sai ko 10 phenyl", "O1"},
		{"Jai Hind ke liye 2 carton GC", "J1"},
		{"Ganesh ko 3 carton GC cash", "G1"},
		{"Laxmi ke liye 5 GC", "L1"},
		{"New India ko 4 carton phenyl", "N1"},
		{"Radhe ke liye 6 GC udhaar", "H1"},
		{"ram ram bhai, Sharma ko 5 carton GC bhejo", "C02"},
	} {
		got := p.Parse(c.text)
		if got.CustomerID != c.customer {
			t.Errorf("Parse(%q) customer %q (asks %q), want %q", c.text, got.CustomerID, got.Unresolved, c.customer)
		}
		if d := r.Route(t.Context(), c.text); d.Intent != domain.IntentOrder {
			t.Errorf("Route(%q) = %s, want order", c.text, d.Intent)
		}
	}
	for _, g := range []string{"jai shri krishna", "ram ram bhai", "radhe radhe", "jai shree krishna ji", "ram ram"} {
		if d := r.Route(t.Context(), g); d.Intent != domain.IntentGreeting {
			t.Errorf("Route(%q) = %s (%s), want greeting", g, d.Intent, d.Reason)
		}
	}
	for _, q := range []string{"Krishna ka outstanding", "Ram Traders ka outstanding kitna hai"} {
		found := false
		for _, e := range r.Normalize(q).Entities {
			found = found || e.Kind == intent.EntityCustomer
		}
		if !found {
			t.Errorf("%q names no customer", q)
		}
	}
}
