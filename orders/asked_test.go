package orders_test

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestACustomerNamedLikeAGreetingAnswersWhichCustomer: "Shree Ram", the
// name of Shree Ram Machine Tools, is also a greeting; said alone to
// "which customer?", it is the customer. "jai shree ram" stays a
// greeting.
func TestACustomerNamedLikeAGreetingAnswersWhichCustomer(t *testing.T) {
	books, clock := openBooks(t)
	products := []domain.Product{{SKU: "OS40", Name: "Oil Seal 40x62x8", Aliases: []string{"oil seal"}, Unit: "piece",
		Price: 3400, GSTPercent: 18, StockReady: 2500}}
	customers := []domain.Customer{
		{ID: "R03", Name: "Shree Ram Machine Tools", Aliases: []string{"shree ram"}, CreditLimit: 1_000_000_000,
			PaymentModes: []domain.PaymentMode{domain.PayCredit}},
		{ID: "R07", Name: "Ambica Industries", Aliases: []string{"ambica"}, CreditLimit: 1_000_000_000,
			PaymentModes: []domain.PaymentMode{domain.PayCredit}},
	}
	s := shopOver(t, books, clock, products, customers)
	if r := s.say("100 oil seal credit pe"); r.Pending == "" {
		t.Fatalf("no question: %s", r.Text)
	}
	s.say("Shree Ram")
	s.wantDraft("R03", domain.PayCredit, "OS40:100")
}

// TestAPaymentSaidInWordsAnswersHowTheyPay: "udhaar pe likh de" answers
// how the customer pays, though "udhaar" alone may ask after dues.
func TestAPaymentSaidInWordsAnswersHowTheyPay(t *testing.T) {
	s := newShop(t, nil)
	if r := s.say("Rajesh ke liye 5 carton GC"); r.Pending == "" {
		t.Fatalf("no question: %s", r.Text)
	}
	s.say("udhaar pe likh de")
	s.wantDraft("C01", domain.PayCredit, "GC500:120")
}

// TestTheTotalOfTheShownDraft: asked what the draft comes to, Munshi
// says so and shows it again, still waiting for its ok; the question
// changes nothing, and a question naming a product is no total.
func TestTheTotalOfTheShownDraft(t *testing.T) {
	s := newShop(t, nil)
	first := s.say("Rajesh ke liye 10 carton GC, cash")
	for _, q := range []string{"total kitna hua bhidu?", "total ketla thaya?", "GST serisi total eshtu aaytu?"} {
		r := s.say(q)
		if !strings.Contains(r.Text, "comes to") || r.About != first.About {
			t.Fatalf("%q: %s (about %q)", q, r.Text, r.About)
		}
	}
	s.wantDraft("C01", domain.PayCOD, "GC500:240")
}
