package orders

import (
	"fmt"
	"html"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// notifications are what a commit tells people of the draft placed as
// order id: every accounts user on WhatsApp, the salesperson who placed
// it, and the accounts mailbox.
func (s *Service) notifications(id string, d Draft, placer, approver domain.User, accounts []domain.User) []domain.Effect {
	products := s.parser().Products()
	var b strings.Builder
	fmt.Fprintf(&b, "🧾 *New order %s* — %s\n", id, d.Customer.Name)
	writeLines(&b, d, products)
	fmt.Fprintf(&b, "Payment: %s\n", ModeName(d.Payment))
	writeInstructions(&b, d)
	fmt.Fprintf(&b, "Placed by %s", nameOf(placer))
	if approver.Phone != placer.Phone {
		fmt.Fprintf(&b, ", approved by %s", nameOf(approver))
	}
	// Should accounts' copy be refused for good, the person who placed the
	// order hears of it and can tell them directly.
	warn := domain.Notice{About: id, TellOnFailure: d.PlacedBy}
	var effects []domain.Effect
	for _, a := range accounts {
		m := domain.Outbound{To: a.Phone, Body: b.String()}
		if a.Phone != d.PlacedBy {
			m.Notice = warn
		}
		effects = append(effects, domain.WhatsApp(m))
	}
	var c strings.Builder
	fmt.Fprintf(&c, "✅ *Order %s confirmed* for %s", id, d.Customer.Name)
	if approver.Phone != placer.Phone {
		fmt.Fprintf(&c, " (approved by %s)", nameOf(approver))
	}
	c.WriteString("\n")
	writeLines(&c, d, products)
	writeInstructions(&c, d)
	effects = append(effects, domain.WhatsApp(domain.Outbound{To: d.PlacedBy, Body: c.String()}))

	if len(s.AccountsEmail) > 0 {
		effects = append(effects, domain.Mail(domain.Email{
			To:      s.AccountsEmail,
			Subject: fmt.Sprintf("Order %s — %s — %s", id, d.Customer.Name, d.Total),
			Text:    b.String(),
			HTML:    emailHTML(id, d, placer, approver, products),
			Notice:  warn,
		}))
	}
	return effects
}

// emailHTML is the order as a table for the accounts mailbox.
func emailHTML(id string, d Draft, placer, approver domain.User, products map[string]domain.Product) string {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, "<h2>Order %s</h2>\n<p><b>Customer:</b> %s (%s)<br><b>Payment:</b> %s<br><b>Placed by:</b> %s",
		e(id), e(d.Customer.Name), e(d.Customer.ID), e(ModeName(d.Payment)), e(nameOf(placer)))
	if approver.Phone != placer.Phone {
		fmt.Fprintf(&b, "<br><b>Approved by:</b> %s", e(nameOf(approver)))
	}
	if d.Instructions != "" {
		fmt.Fprintf(&b, "<br><b>Instructions:</b> %s", e(d.Instructions))
	}
	b.WriteString("</p>\n<table border=\"1\" cellpadding=\"4\" cellspacing=\"0\">\n")
	b.WriteString("<tr><th>#</th><th>SKU</th><th>Product</th><th>Quantity</th><th>Rate</th><th>Amount</th><th>GST</th></tr>\n")
	for i, l := range d.Lines {
		p := products[l.SKU]
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s (%s)</td></tr>\n",
			i+1, e(l.SKU), e(p.Name), e(domain.Units(l.Qty, p.Unit)), e(l.Price.String()), e(l.Amount.String()),
			e(l.GSTAmount.String()), e(l.GSTRate.String()))
	}
	fmt.Fprintf(&b, "<tr><td colspan=\"5\">Subtotal</td><td colspan=\"2\">%s</td></tr>\n", e(d.Subtotal.String()))
	fmt.Fprintf(&b, "<tr><td colspan=\"5\">GST</td><td colspan=\"2\">%s</td></tr>\n", e(d.GST.String()))
	fmt.Fprintf(&b, "<tr><td colspan=\"5\"><b>Total</b></td><td colspan=\"2\"><b>%s</b></td></tr>\n</table>\n", e(d.Total.String()))
	return b.String()
}
