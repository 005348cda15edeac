package orders

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Summary is the itemised draft a salesperson reads before saying ok.
func Summary(d Draft, products map[string]domain.Product) string {
	var b strings.Builder
	fmt.Fprintf(&b, "*Order %s* for *%s*\n", d.ID, d.Customer.Name)
	writeLines(&b, d, products)
	fmt.Fprintf(&b, "Payment: %s\n", ModeName(d.Payment))
	writeInstructions(&b, d)
	b.WriteString("\n")
	for _, r := range d.Results {
		mark := "✅"
		switch r.Outcome {
		case Escalate:
			mark = "⚠️"
		case Block:
			mark = "❌"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", mark, ruleTitle(r.Rule), r.Reason)
		if r.Suggestion != "" && r.Outcome != Pass {
			fmt.Fprintf(&b, "   ↳ %s\n", r.Suggestion)
		}
	}
	b.WriteString("\n")
	switch d.Verdict() {
	case Pass:
		b.WriteString("Reply *ok* to place this order, or *cancel*.")
	case Escalate:
		b.WriteString("Reply *ok* to send it to the owner for approval, or *cancel*.")
	case Block:
		b.WriteString("This order cannot be placed as it is. Send a corrected order, or *cancel*.")
	}
	return b.String()
}

// writeInstructions writes the salesperson's instructions, when the order
// has any, on a line of their own.
func writeInstructions(b *strings.Builder, d Draft) {
	if d.Instructions != "" {
		fmt.Fprintf(b, "📝 Instructions: %s\n", d.Instructions)
	}
}

// writeLines writes the items and totals, shared by the summary and the
// notifications.
func writeLines(b *strings.Builder, d Draft, products map[string]domain.Product) {
	for i, l := range d.Lines {
		p := products[l.SKU]
		name := p.Name
		if name == "" {
			name = l.SKU
		}
		said := Quantity(l.Qty, p)
		if l.SaidUnit != "" && l.SaidQty > 0 {
			said = fmt.Sprintf("%d %s", l.SaidQty, domain.Plural(l.SaidUnit, l.SaidQty))
		}
		base := domain.Units(l.Qty, p.Unit)
		qty := said
		if said != base {
			qty = fmt.Sprintf("%s (%s)", said, base)
		}
		fmt.Fprintf(b, "%d. %s — %s × %s = %s\n", i+1, name, qty, l.Price, l.Amount)
	}
	fmt.Fprintf(b, "Subtotal: %s\nGST: %s\n*Total: %s*\n", d.Subtotal, d.GST, d.Total)
}

func ruleTitle(rule string) string {
	switch rule {
	case RuleMinimumOrder:
		return "Minimum order"
	case RuleCreditLimit:
		return "Credit limit"
	case RuleInventory:
		return "Stock"
	case RulePaymentMode:
		return "Payment mode"
	case RuleGST:
		return "GST"
	}
	return rule
}
