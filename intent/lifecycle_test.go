package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestCancelANamedOrderWithItsReason: "cancel ORD-1042 — customer
// refused" is a cancel, whatever the reason says; a question about a
// cancellation, or two orders at once, is not.
func TestCancelANamedOrderWithItsReason(t *testing.T) {
	r := demoRouter(t)
	for _, text := range []string{"cancel ORD-1042 — customer refused", "ORD-1042 cancel karo, party ne maal lene se mana kar diya",
		"ORD-1042 radd karo duplicate order tha", "please cancel order ORD-77 as shop is closed for renovation"} {
		if d := r.Route(t.Context(), text); d.Intent != domain.IntentCancel {
			t.Errorf("Route(%q) = %s (%s), want cancel", text, d.Intent, d.Reason)
		}
	}
	for _, text := range []string{"kya ORD-1042 cancel hua?", "why was ORD-1042 cancelled", "cancel ORD-1042 and ORD-1043",
		"cancel my uber booking customer refused"} {
		if d := r.Route(t.Context(), text); d.Intent == domain.IntentCancel && d.Reason == "rule: cancel a named order, with its reason" {
			t.Errorf("Route(%q) read as a cancellation of a named order", text)
		}
	}
}
