package intent

import (
	"context"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// businessIntents are the intents that answer from, or write to, the
// books.
var businessIntents = map[domain.Intent]bool{
	domain.IntentOrder: true, domain.IntentConfirm: true, domain.IntentCancel: true, domain.IntentStock: true,
	domain.IntentOutstanding: true, domain.IntentPendingOrders: true, domain.IntentReport: true,
	domain.IntentDelivery: true, domain.IntentPayment: true, domain.IntentStockReceived: true,
	domain.IntentOrderStatus: true, domain.IntentPaymentsReceived: true,
}

// TestOutOfDomainHinglish: the code-switched test set of Hinglish-TOP
// (corpus/hinglish-top: 6,408 everyday requests to a phone's assistant
// about alarms, timers, weather, music, messages, events, reminders and
// navigation; none about a business) is routed to a business intent at
// most 0.3% of the time, and never to an order, a change of the books or
// the office.
func TestOutOfDomainHinglish(t *testing.T) {
	exs := readCorpus(t, "corpus/hinglish-top/test.jsonl")
	if len(exs) < 6000 {
		t.Fatalf("%d messages", len(exs))
	}
	r := demoRouter(t)
	business := 0
	for _, ex := range exs {
		d := r.Route(context.Background(), ex.Text)
		if d.Intent == domain.IntentHandoff {
			t.Errorf("%q handed over to the office (%s)", ex.Text, d.Reason)
		}
		if !businessIntents[d.Intent] {
			continue
		}
		business++
		switch d.Intent {
		case domain.IntentOrder, domain.IntentConfirm, domain.IntentCancel, domain.IntentDelivery,
			domain.IntentPayment, domain.IntentStockReceived:
			t.Errorf("%q read as %s (%s, %s)", ex.Text, d.Intent, d.Tier, d.Reason)
		default:
			if testing.Verbose() {
				t.Logf("%q read as %s (%s)", ex.Text, d.Intent, d.Tier)
			}
		}
	}
	if rate := float64(business) / float64(len(exs)); rate > 0.003 {
		t.Errorf("%d of %d (%.2f%%) read as a business intent; at most 0.3%%", business, len(exs), 100*rate)
	}
	t.Logf("%d of %d read as a business intent", business, len(exs))
}
