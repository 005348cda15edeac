package orders

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// build judges a proposal against the ledger: a refusal when the books do
// not allow it, else the summary, the changes and the messages.
// It reads nothing but the ledger: it runs inside the transaction that
// applies the proposal.
func build(p Proposal, l Ledger, by domain.User) (built, error) {
	switch p.Kind {
	case ProposeDelivery:
		return buildDelivery(p, l, by)
	case ProposeCancellation:
		return buildCancellation(p, l, by)
	case ProposePayment:
		return buildPayment(p, l)
	case ProposeReceipt:
		return buildReceipt(p, l)
	}
	return built{}, fmt.Errorf("orders: unknown proposal kind %q", p.Kind)
}

// placedOrder is the order a delivery or cancellation is about, if the
// books let it change. An order imported with the books' history may be
// delivered when it is still open there (the goods left the godown
// whoever took the order) but is cancelled where it was placed.
func placedOrder(p Proposal, l Ledger, doing string) (*domain.Order, error) {
	o := l.Order
	switch {
	case o == nil:
		return nil, refusal{fmt.Sprintf("I can't find a placed order %s. Please check the number.", p.OrderID)}
	case l.OrderSource == "import" && p.Kind != ProposeDelivery:
		return nil, refusal{fmt.Sprintf("%s is history imported from your books; %s it there.", o.ID, doing)}
	case o.Status == domain.OrderDelivered:
		return nil, refusal{fmt.Sprintf("%s was already delivered on %s.", o.ID, o.DeliveredAt.Format("2 Jan 2006"))}
	case o.Status == domain.OrderCancelled:
		return nil, refusal{fmt.Sprintf("%s was cancelled; it cannot be changed now.", o.ID)}
	case o.Status != domain.OrderCommitted:
		return nil, refusal{fmt.Sprintf("%s is not a placed order (it is %s).", o.ID, strings.ReplaceAll(string(o.Status), "_", " "))}
	}
	return o, nil
}

func buildCancellation(p Proposal, l Ledger, by domain.User) (built, error) {
	o, err := placedOrder(p, l, "cancel")
	if err != nil {
		return built{}, err
	}
	var b built
	var sum strings.Builder
	fmt.Fprintf(&sum, "❌ *Cancel %s* for %s — %s\n", o.ID, customerName(l, o.CustomerID), o.Total)
	fmt.Fprintf(&sum, "%s\n", lineList(o.Lines, l.Products))
	if p.Reason != "" {
		fmt.Fprintf(&sum, "Reason: %s\n", p.Reason)
	}
	b.changes = []Change{{Kind: ChangeCancel, OrderID: o.ID, Note: p.Reason}}
	if o.Payment == domain.PayCredit && l.Customer != nil {
		fmt.Fprintf(&sum, "Outstanding of %s: %s → %s\n", l.Customer.Name, domain.Dues(l.Customer.Outstanding), domain.Dues(l.Customer.Outstanding-o.Total))
		b.changes = append(b.changes, Change{Kind: ChangeDue, CustomerID: o.CustomerID, Amount: -o.Total})
	}
	sum.WriteString("The stock committed to it is released.")
	b.summary = sum.String()
	b.done = fmt.Sprintf("✅ %s is cancelled. Its stock is released and the dues are reversed.", o.ID)
	because := ""
	if p.Reason != "" {
		because = " (" + p.Reason + ")"
	}
	b.tellPlacer(o, by, fmt.Sprintf("❌ Your order %s for %s (%s) was cancelled by %s%s.", o.ID, customerName(l, o.CustomerID), o.Total, nameOf(by), because))
	b.detail = map[string]any{"order": o.ID, "total": int64(o.Total), "reason": p.Reason}
	after := *o
	after.Status = domain.OrderCancelled
	b.after = &after
	return b, nil
}

func buildPayment(p Proposal, l Ledger) (built, error) {
	n := p.Payment
	c := l.Customer
	switch {
	case n == nil || c == nil:
		return built{}, refusal{"I can't find that customer. Please send the name as it is in the customer list."}
	case n.Amount <= 0:
		return built{}, refusal{"A payment needs an amount above zero."}
	case l.ReferenceUsed:
		return built{}, refusal{fmt.Sprintf("A payment with reference %s is already recorded for %s, so this looks like a duplicate. Nothing was recorded.", n.Reference, c.Name)}
	}
	var sum strings.Builder
	fmt.Fprintf(&sum, "💰 *Payment from %s*\n", c.Name)
	fmt.Fprintf(&sum, "Amount: %s by %s", n.Amount, payModeName(n.Mode))
	if n.Reference != "" {
		fmt.Fprintf(&sum, " (ref %s)", n.Reference)
	}
	fmt.Fprintf(&sum, "\nIn words: %s", domain.InWords(n.Amount))
	after := c.Outstanding - n.Amount
	fmt.Fprintf(&sum, "\nOutstanding: %s → %s", domain.Dues(c.Outstanding), domain.Dues(after))
	var owner string
	if after < 0 {
		fmt.Fprintf(&sum, "\n⚠️ This is %s more than %s owes; the extra stays as an advance.", -after, c.Name)
		if owner = advanceNeedsOwner(*c, -after, l.MaxAdvance); owner != "" {
			fmt.Fprintf(&sum, "\n🔐 *Needs an owner's approval:* %s", owner)
		}
	}
	b := built{summary: sum.String(), owner: owner}
	b.changes = []Change{
		{Kind: ChangePayment, CustomerID: c.ID, Amount: n.Amount, Mode: n.Mode, Reference: n.Reference},
		{Kind: ChangeDue, CustomerID: c.ID, Amount: -n.Amount},
	}
	b.done = fmt.Sprintf("✅ Recorded %s from %s. Outstanding now %s.", n.Amount, c.Name, domain.Dues(after))
	b.detail = map[string]any{"customer": c.ID, "amount_paise": int64(n.Amount), "mode": string(n.Mode), "reference": n.Reference,
		"outstanding_before": int64(c.Outstanding), "outstanding_after": int64(after), "over": after < 0}
	if owner != "" {
		b.detail["needs_owner"] = owner
	}
	return b, nil
}

func buildReceipt(p Proposal, l Ledger) (built, error) {
	n := p.Receipt
	if n == nil || len(n.Items) == 0 {
		return built{}, refusal{"Which products arrived, and how many?"}
	}
	var b built
	var sum strings.Builder
	if n.FromWIP {
		sum.WriteString("🏭 *Ready from production*\n")
	} else {
		sum.WriteString("📦 *Goods received*\n")
	}
	got := map[string]int64{}
	var order []string
	for _, it := range n.Items {
		if got[it.SKU] == 0 {
			order = append(order, it.SKU)
		}
		got[it.SKU] += it.Qty
	}
	var said []string
	for _, sku := range order {
		prod, ok := l.Products[sku]
		if !ok {
			return built{}, refusal{fmt.Sprintf("%s is no longer in the catalog.", sku)}
		}
		q := got[sku]
		ch := Change{Kind: ChangeStock, SKU: sku, Ready: q}
		fmt.Fprintf(&sum, "• %s: +%s, ready %s → %s", productName(l.Products, sku), Quantity(q, prod),
			domain.Units(prod.StockReady, prod.Unit), domain.Units(prod.StockReady+q, prod.Unit))
		if n.FromWIP {
			if prod.StockWIP < q {
				return built{}, refusal{fmt.Sprintf("Only %s of %s is in production, not %s. If these came from outside, say so without \"production\" (e.g. \"%s aaya\").",
					domain.Units(prod.StockWIP, prod.Unit), productName(l.Products, sku), Quantity(q, prod), Quantity(q, prod))}
			}
			ch.WIP = -q
			fmt.Fprintf(&sum, "; in production %s → %s", domain.Units(prod.StockWIP, prod.Unit), domain.Units(prod.StockWIP-q, prod.Unit))
		}
		sum.WriteString("\n")
		b.changes = append(b.changes, ch)
		said = append(said, fmt.Sprintf("%s %s", productName(l.Products, sku), Quantity(q, prod)))
	}
	var damaged []string
	for _, it := range n.Damaged {
		if prod, ok := l.Products[it.SKU]; ok {
			damaged = append(damaged, fmt.Sprintf("%s %s", productName(l.Products, it.SKU), Quantity(it.Qty, prod)))
		}
	}
	if len(damaged) > 0 {
		fmt.Fprintf(&sum, "⚠️ Came damaged, not added to stock: %s\n", strings.Join(damaged, ", "))
	}
	b.summary = strings.TrimRight(sum.String(), "\n")
	b.done = fmt.Sprintf("✅ Stock updated: %s.", strings.Join(said, ", "))
	b.detail = map[string]any{"items": said, "from_wip": n.FromWIP}
	if len(damaged) > 0 {
		b.detail["damaged"] = damaged
	}
	return b, nil
}

// tellPlacer has the change message whoever placed the order, unless they
// are the one making it.
func (b *built) tellPlacer(o *domain.Order, by domain.User, text string) {
	if o.PlacedBy == "" || o.PlacedBy == by.Phone {
		return
	}
	b.placer = o.PlacedBy
	b.effects = append(b.effects, domain.WhatsApp(domain.Outbound{To: o.PlacedBy, Body: text}))
}

func customerName(l Ledger, id string) string {
	if l.Customer != nil && l.Customer.ID == id {
		return l.Customer.Name
	}
	return id
}

func productName(products map[string]domain.Product, sku string) string {
	if p, ok := products[sku]; ok && p.Name != "" {
		return p.Name
	}
	return sku
}

func lineList(lines []domain.OrderLine, products map[string]domain.Product) string {
	var out []string
	for _, ln := range lines {
		out = append(out, fmt.Sprintf("%s %s", productName(products, ln.SKU), Quantity(ln.Qty, products[ln.SKU])))
	}
	return strings.Join(out, ", ")
}

// payModeName names how money came in: cash, not "cash on delivery".
func payModeName(m domain.PaymentMode) string {
	if m == domain.PayCOD {
		return "cash"
	}
	return ModeName(m)
}
