package orders_test

import (
	"context"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestAPaymentGivenIsReadAsOneReceived: "X ne 2,000 cash diya" and its
// variants are routed as a payment and answered exactly as "X se 2000
// cash mila" is: the same summary for a customer, the same question for a
// name the customer list does not hold.
func TestAPaymentGivenIsReadAsOneReceived(t *testing.T) {
	ctx := context.Background()
	for _, payer := range []string{"Mehta", "Krishna"} {
		s := newShop(t, nil)
		said := func(text string) string {
			t.Helper()
			if d := s.router.Route(ctx, text); d.Intent != domain.IntentPayment {
				t.Fatalf("%q routed as %s (%s)", text, d.Intent, d.Reason)
			}
			return s.svc.RecordPayment(ctx, priya, text).Text
		}
		want := said(payer + " se 2000 cash mila")
		for _, text := range []string{payer + " ne 2,000 cash diya", payer + " ne 2000 cash diye", payer + " ne 2k cash de diya",
			payer + " ne ₹2,000/- cash de diye"} {
			if got := said(text); got != want {
				t.Errorf("%q answered\n%s\nwant, as for the payment received,\n%s", text, got, want)
			}
		}
	}
}
