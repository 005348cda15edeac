package intent

import (
	"fmt"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestAPaymentGivenReadsAsAPaymentReceived: "X ne <amount> <mode> diya"
// (diye, de diya, de diye), the amount written any way, is a payment
// exactly when "X se <amount> <mode> mila" is: for a customer, by the
// rules, and for a name the customer list does not hold, which is asked
// afterwards, the same for both.
func TestAPaymentGivenReadsAsAPaymentReceived(t *testing.T) {
	v := demoVocabulary(t)
	v.Customers = append(v.Customers, domain.Customer{ID: "C20", Name: "Krishna Medical", Aliases: []string{"Krishna"}})
	known, err := NewRouter(v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	unknown := demoRouter(t) // no Krishna among its customers
	variants := []string{"%s ne 2000 cash diya", "%s ne 2,000 cash diya", "%s ne 2k cash diye", "%s ne ₹2,000/- cash de diya",
		"%s ne 2000 cash de diye", "%s ne 2,000 UPI diya", "%s ne 2k cheque de diya"}
	for _, c := range []struct {
		name   string
		router *Router
		payer  string
		rules  bool // the rules decide, not the model
	}{
		{"a customer", unknown, "Mehta", true},
		// "krishna" is also a word of greetings: a weak name, read by the
		// model.
		{"a customer of a weak name", known, "Krishna", false},
		{"a name not in the customer list", unknown, "Krishna", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			received := c.router.Route(t.Context(), c.payer+" se 2000 cash mila")
			if received.Intent != domain.IntentPayment {
				t.Fatalf("%s se 2000 cash mila = %s (%s)", c.payer, received.Intent, received.Reason)
			}
			for _, f := range variants {
				text := fmt.Sprintf(f, c.payer)
				d := c.router.Route(t.Context(), text)
				if d.Intent != domain.IntentPayment {
					t.Errorf("Route(%q) = %s (%s), want payment as %q is", text, d.Intent, d.Reason, received.Text)
				}
				if c.rules && d.Tier != TierRules {
					t.Errorf("Route(%q) decided by %s (%s), want the rules", text, d.Tier, d.Reason)
				}
			}
		})
	}
	// Money given away, asked for, or asked about is not a payment
	// received.
	for _, text := range []string{"Mehta ko 2000 cash de do", "Mehta 2000 cash de", "Mehta ne 2000 cash de diya kya",
		"maine Mehta ko 2000 cash de diya", "Mehta ko 2000 de diya", "papa ne 1000 diye"} {
		if d := unknown.Route(t.Context(), text); d.Intent == domain.IntentPayment {
			t.Errorf("Route(%q) = payment (%s)", text, d.Reason)
		}
	}
}

// TestAPaymentComeInTheRegionsWords: money said to have come from a
// customer in Gujarati ("ma thi … aavya"), Punjabi ("ton … aaye"),
// Konkani ("kodlean … aile", "कडल्यान … आयले"), Tamil ("kitta irundhu
// … vandhuchu") and Kannada ("inda … bantu", "banthu"), its amount in
// their words.
func TestAPaymentComeInTheRegionsWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPayment, "rajesh kirana ma thi vis hajar aavya gpay ma", "rajesh kirana ton veeh hazaar aaye gpay te",
		"rajesh kirana kodlean vis hazar aile gpay-r", "rajesh kirana kitta irundhu iruvathu aayiram vandhuchu gpay la",
		"rajesh kirana inda ippattu saavira bantu gpay alli", "राजेश किराना कडल्यान धा हजार रोख आयले",
		"rajesh kirana inda 1.2 lakh banthu")
}
