package conversation

import (
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/reports"
)

// continuers open a follow-up that keeps the last question's subject:
// "aur Gupta Traders ka?", "and yesterday?", "what about harpic".
var continuers = map[string]bool{"aur": true, "and": true, "what": true, "how": true, "also": true}

// followUpFillers are the other words such a follow-up may have.
var followUpFillers = map[string]bool{"ka": true, "ki": true, "ke": true, "about": true, "bhi": true, "ji": true,
	"the": true, "for": true, "of": true, "batao": true, "bata": true, "hai": true, "kya": true, "kitna": true, "kitni": true,
	"pe": true}

// followUp reads a message the router could not place as a follow-up of
// the question answered last, when it is short, opens like one and names
// a customer, a product or a period: it asks that question again about
// what it names, keeping the period (or the names) it does not.
func followUp(d intent.Decision, conv memory.Conversation) (intent.Decision, bool) {
	if d.Intent != domain.IntentUnknown || len(d.Normalized.Tokens) == 0 || len(d.Normalized.Tokens) > 7 {
		return d, false
	}
	n := d.Normalized
	if !continuers[n.Tokens[0].Text] {
		return d, false
	}
	covered := make([]bool, len(n.Tokens))
	for _, e := range n.Entities {
		for i := max(e.Start, 0); i < e.End && i < len(covered); i++ {
			covered[i] = true
		}
	}
	period := reports.PeriodName(d.Text)
	for i, t := range n.Tokens[1:] {
		if !covered[i+1] && !followUpFillers[t.Text] && !inPeriod(n.Tokens, i+1) {
			return d, false
		}
	}
	named := n.Has(intent.EntityCustomer) || n.Has(intent.EntityProduct)
	if !named && period == "" {
		return d, false
	}
	// The question answered last: the person's turn before Munshi's
	// last reply, when that reply came from a tool.
	i := lastReply(conv)
	if i < 1 || conv.Turns[i-1].Role != memory.RolePerson {
		return d, false
	}
	if t := conv.Turns[i].Tool; t == "" || t == toolQuestion || t == toolUnread {
		return d, false
	}
	asked := &conv.Turns[i-1]
	switch asked.Intent {
	case domain.IntentStock, domain.IntentOutstanding, domain.IntentPendingOrders, domain.IntentReport, domain.IntentOrderStatus,
		domain.IntentPaymentsReceived:
	default:
		return d, false
	}
	d.Intent, d.Reason = asked.Intent, "follow-up of "+string(asked.Intent)
	if period == "" {
		if p := reports.PeriodName(asked.Text); p != "" {
			n.Text += " " + strings.ToLower(asked.Text)
		}
	}
	if !named {
		ref := memory.Reference{Kind: memory.RefPronoun}
		if len(asked.Products) > 0 {
			ref.Product = asked.Products[0]
		}
		if len(asked.Customers) > 0 {
			ref.Customer, ref.Customers = asked.Customers[0], asked.Customers[:1]
		}
		d.Normalized = n
		return withReferents(d, ref), true
	}
	d.Normalized = n
	return d, true
}

// inPeriod reports whether token i names a period, alone ("kal") or with
// the word beside it ("is mahine", "last week").
func inPeriod(toks []intent.Token, i int) bool {
	if reports.PeriodName(toks[i].Text) != "" {
		return true
	}
	if i > 0 && reports.PeriodName(toks[i-1].Text+" "+toks[i].Text) != "" {
		return true
	}
	return i+1 < len(toks) && reports.PeriodName(toks[i].Text+" "+toks[i+1].Text) != ""
}
