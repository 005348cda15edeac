package orders_test

import (
	"context"
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
	ctx := context.Background()
	if r, ok := s.svc.Correct(ctx, s.ravi, s.shown, s.router.Route(ctx, "GC ka total stock kitna hai?")); ok {
		t.Errorf("a stock question read as the draft's total: %s", r.Text)
	}
}

// TestAThicknessSaidAfterASharedName: "laminate 0.8mm" is the laminate
// whose name gives that thickness, as "laminate 1mm" is the other.
func TestAThicknessSaidAfterASharedName(t *testing.T) {
	for said, sku := range map[string]string{"0.8mm": "LAM08", "1mm": "LAM1MM", "1 mm": "LAM1MM"} {
		books, clock := openBooks(t)
		products := []domain.Product{
			{SKU: "LAM1MM", Name: "Greenlam Laminate 1mm Suede 8x4", Aliases: []string{"laminate"}, Unit: "sheet", Price: 138000, GSTPercent: 18, StockReady: 1800},
			{SKU: "LAM08", Name: "Merino Laminate 0.8mm Gloss 8x4", Aliases: []string{"laminate"}, Unit: "sheet", Price: 76000, GSTPercent: 18, StockReady: 1400},
		}
		customers := []domain.Customer{{ID: "N08", Name: "Bhoyar Constructions", Aliases: []string{"bhoyar"}, CreditLimit: 1_000_000_000,
			PaymentModes: []domain.PaymentMode{domain.PayCredit}}}
		s := shopOver(t, books, clock, products, customers)
		s.say("bhoyar ko 100 sheet laminate " + said + " credit")
		s.wantDraft("N08", domain.PayCredit, sku+":100")
	}
}

// TestALetterAnswersWhichSize: of leggings sized L and XL, "L" alone
// answers which, and "XL" after the shared name settles it, though a
// message reads XL as excel.
func TestALetterAnswersWhichSize(t *testing.T) {
	shop := func() *shop {
		books, clock := openBooks(t)
		products := []domain.Product{
			{SKU: "LYRL", Name: "Lyra Ankle Leggings Cotton Lycra L", Aliases: []string{"leggings", "lyra leggings"}, Unit: "piece", Price: 14500, GSTPercent: 5, StockReady: 1000},
			{SKU: "LYRXL", Name: "Lyra Ankle Leggings Cotton Lycra XL", Aliases: []string{"leggings", "lyra leggings"}, Unit: "piece", Price: 15500, GSTPercent: 5, StockReady: 1000},
		}
		customers := []domain.Customer{{ID: "G01", Name: "Sarkar Hosiery Corner", Aliases: []string{"sarkar"}, CreditLimit: 1_000_000_000,
			PaymentModes: []domain.PaymentMode{domain.PayUPI}}}
		return shopOver(t, books, clock, products, customers)
	}
	s := shop()
	if r := s.say("sarkar 5 leggings upi"); r.Pending == "" {
		t.Fatalf("no question: %s", r.Text)
	}
	s.say("L")
	s.wantDraft("G01", domain.PayUPI, "LYRL:5")
	s = shop()
	s.say("sarkar 5 lyra leggings XL upi")
	s.wantDraft("G01", domain.PayUPI, "LYRXL:5")
}
