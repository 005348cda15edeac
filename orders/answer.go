package orders

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Answer reads a message as the answer to the question a frame waits on
// (pending is Reply.Pending of Munshi's last question). It reports false
// when the message is not an answer — a new order, a question, a greeting
// — and the caller handles it as itself; the frame is then left as it was.
// A reply with Pending set asks the next question; one without it has
// settled the frame (a summary, or a question of another kind).
func (s *Service) Answer(ctx context.Context, user domain.User, pending string, d intent.Decision) (domain.Reply, bool) {
	f, err := decodeFrame(pending)
	if err != nil || len(f.Asks) == 0 {
		return domain.Reply{}, false
	}
	if d.Normalized.Tokens == nil {
		d.Normalized = s.parser().norm.Normalize(d.Text)
	}
	if f.Kind != frameOrder {
		return s.answerNote(ctx, user, f, d)
	}
	if user.Role != domain.RoleSales && user.Role != domain.RoleOwner {
		return domain.Reply{}, false
	}
	p := s.parser()
	if !answerShaped(d) && !(d.Intent == domain.IntentCancel && turnsDown(d.Normalized)) || intent.Garbled(d.Text, d.Normalized) {
		return domain.Reply{}, false
	}
	whole := p.ParseRouted(d)
	a := f.Asks[0]
	var picked string // the product offered that the answer chooses
	pickedOK := false
	if a.Slot == SlotProduct {
		picked, pickedOK = p.pickProduct(d.Normalized, a.Options)
	}
	// "flat plate" for Luminous' Flat Plate battery: words of one of the
	// products offered, though the order reader takes "flat" for a
	// customer it does not know.
	// "salem murugan, egg stores" answers which Murugan: its "egg" is a
	// word of Murugan Egg Stores, not goods of an order of its own.
	nameOnly := a.Slot == SlotCustomer && !d.Normalized.Has(intent.EntityNumber) && p.namesOfOptions(d.Normalized, a.Options)
	if ownOrder(d.Normalized, whole) && !pickedOK && !nameOnly {
		return domain.Reply{}, false
	}
	if m := onlyPayment(d.Normalized); m != "" && a.Slot != SlotPayment {
		// How it is paid, said before Munshi asked ("upi" to "how
		// many?"): taken, and the question asked again.
		f.Payment = m
		s.Audit.Record(ctx, user.Phone, "order_answer", "", map[string]any{"slot": string(SlotPayment), "left": len(f.Asks)})
		return s.carryOn(ctx, user, f, "Payment: "+ModeName(m)), true
	}
	rest := append([]Ask(nil), f.Asks[1:]...)
	var ack string
	switch a.Slot {
	case SlotCustomer:
		if d.Normalized.Has(intent.EntityProduct) && !p.namesOfOptions(d.Normalized, a.Options) {
			return domain.Reply{}, false
		}
		id, more, ok := p.pickCustomer(d.Normalized, a.Options)
		if !ok {
			if id, ok = s.choose(ctx, user, a, d.Text, p.namesOf(a.Options)); !ok {
				return domain.Reply{}, false
			}
		}
		if len(more) > 0 {
			rest = append([]Ask{{Slot: SlotCustomer, Options: more,
				Text: "Which one do you mean: " + p.candidateList(more, true) + "?"}}, rest...)
			break
		}
		f.Customer = id
		ack = p.customers[id].Name
		if m := paymentIn(d.Normalized); m != "" {
			f.Payment = m
		}
	case SlotPayment:
		if d.Normalized.Has(intent.EntityProduct) {
			return domain.Reply{}, false
		}
		m := paymentIn(d.Normalized)
		if m == "" {
			var names []string
			for _, o := range a.Options {
				names = append(names, ModeName(domain.PaymentMode(o)))
			}
			id, _ := s.choose(ctx, user, a, d.Text, names)
			m = domain.PaymentMode(id)
		}
		if m == "" {
			return domain.Reply{}, false
		}
		f.Payment, ack = m, ModeName(m)
	case SlotProduct:
		sku, ok := picked, pickedOK
		if !ok {
			if sku, ok = s.choose(ctx, user, a, d.Text, p.names(a.Options)); !ok {
				return domain.Reply{}, false
			}
		}
		ack = p.products[sku].Name
		rest = p.withQuantity(&f, sku, a.Said, d, rest)
	case SlotQuantity:
		prod, ok := p.products[a.SKU]
		item, weighed := p.weighed(d.Normalized, a.SKU) // "80 kilo" of bartan kept by the kg
		if !weighed || !ok || namesOtherProduct(d.Normalized, a.SKU) {
			said := d.Text
			if !d.Normalized.Has(intent.EntityNumber) {
				said, ok = p.spelledCount(d.Normalized, prod)
			}
			if !ok || namesOtherProduct(d.Normalized, a.SKU) {
				return domain.Reply{}, false
			}
			var problem string
			item, problem = p.QuantityOf(said, a.SKU)
			if problem == "" && d.Normalized.Has(intent.EntityNumber) {
				problem = p.unknownUnit(d, prod)
			}
			if problem != "" {
				rest = append([]Ask{{Slot: SlotQuantity, SKU: a.SKU, Text: problem}}, rest...)
				break
			}
		}
		f.addItem(item)
		ack = fmt.Sprintf("%s: %s", prod.Name, Quantity(item.Qty, prod))
	case SlotUnknown:
		skus := p.soldIn(answeredProduct(d.Normalized), a.Said, d.Text)
		switch {
		case len(skus) == 0 || d.Normalized.Has(intent.EntityCustomer) && !sameCustomer(d.Normalized, f.Customer):
			return domain.Reply{}, false
		case len(skus) > 1:
			rest = append([]Ask{{Slot: SlotProduct, Options: skus, Said: a.Said, Words: a.Words,
				Text: fmt.Sprintf("Which product do you mean: %s?", orList(p.names(skus)))}}, rest...)
		default:
			ack = p.products[skus[0]].Name
			rest = p.withQuantity(&f, skus[0], a.Said, d, rest)
		}
	case SlotItems:
		parsed := whole
		if len(parsed.Items) == 0 && len(parsed.Asks) == 0 {
			return domain.Reply{}, false
		}
		for _, it := range parsed.Items {
			f.addItem(it)
		}
		var more []Ask
		for _, q := range parsed.Asks {
			if q.Slot == SlotCustomer && f.Customer != "" {
				continue
			}
			more = append(more, q)
		}
		if f.Customer == "" && parsed.CustomerID != "" {
			f.Customer = parsed.CustomerID
		}
		if f.Payment == "" {
			f.Payment = parsed.Payment
		}
		rest = append(more, rest...)
	default:
		return domain.Reply{}, false
	}
	f.Asks = rest
	s.Audit.Record(ctx, user.Phone, "order_answer", "", map[string]any{"slot": string(a.Slot), "left": len(rest)})
	return s.carryOn(ctx, user, f, ack), true
}

// carryOn asks the frame's next question, or, with none left, prices the
// order and shows its summary.
func (s *Service) carryOn(ctx context.Context, user domain.User, f Frame, ack string) domain.Reply {
	lead := ""
	if ack != "" {
		lead = "✓ " + ack + "\n"
	}
	if len(f.Asks) == 0 && f.Customer == "" {
		f.Asks = []Ask{{Slot: SlotCustomer, Text: "Which customer is this order for?"}}
	}
	if len(f.Asks) == 0 && len(f.Items) == 0 {
		f.Asks = []Ask{{Slot: SlotItems, Text: "Which products and how many?"}}
	}
	if len(f.Asks) > 0 {
		return domain.Reply{Text: lead + f.Asks[0].Text, Question: true, Pending: f.encode()}
	}
	r := s.show(ctx, user, f.Customer, f.Payment, f.items(), f.Instructions)
	if r.Pending != "" {
		r.Text = lead + r.Text
	}
	return r
}

// withQuantity adds the product an answer chose with the quantity written
// with the words it replaced, or asks how many.
func (p *Parser) withQuantity(f *Frame, sku string, said *Said, d intent.Decision, rest []Ask) []Ask {
	prod := p.products[sku]
	if d.Normalized.Has(intent.EntityNumber) && !onlyNumbersOfName(d.Normalized, prod) {
		// "5 litre wala, 10 carton": the answer's own quantity, when it
		// has one beside the size (a size is not a number); "500 wala"
		// names Azithral 500, it orders no 500.
		if item, problem := p.QuantityOf(d.Text, sku); problem == "" {
			f.addItem(item)
			return rest
		}
	}
	if said == nil {
		return append([]Ask{{Slot: SlotQuantity, SKU: sku, Text: fmt.Sprintf("How many %s? (%s)", prod.Name, unitChoices(prod))}}, rest...)
	}
	item, problem := p.toItem(prod, said.quantity())
	if problem != "" {
		return append([]Ask{{Slot: SlotQuantity, SKU: sku, Text: problem}}, rest...)
	}
	f.addItem(item)
	return rest
}

// answerShaped reports whether a message could be an answer: not an "ok",
// a cancel, a greeting, help, or a question of its own. A question's words
// may be an answer when short ("udhaar" reads as dues, and answers "how
// will they pay?").
func answerShaped(d intent.Decision) bool {
	// Help or a greeting only the model guessed may still be an answer:
	// "construction" for Patil Construction Co read as a help request.
	// What it does not answer is read as itself after all.
	// So may a greeting that is a customer's name alone: "Shree Ram" for
	// Shree Ram Machine Tools.
	guessed := d.Tier == intent.TierModel && (d.Intent == domain.IntentHelp || d.Intent == domain.IntentGreeting) ||
		d.Intent == domain.IntentGreeting && onlyNamesAndFillers(d.Normalized)
	if replyWords(d.Intent) && !guessed {
		return false
	}
	switch d.Intent {
	case domain.IntentStock, domain.IntentOutstanding, domain.IntentPendingOrders, domain.IntentReport,
		domain.IntentOrderStatus, domain.IntentPaymentsReceived:
		return !d.Normalized.Question && (len(d.Normalized.Tokens) <= 3 || onlyNamesAndFillers(d.Normalized) || saysPayment(d.Normalized))
	}
	return true
}

// saysPayment reports a short message that names a way of paying and
// nothing else, asking nothing: "udhaar pe likh de" answers how it is
// paid, though "udhaar" alone may ask after dues.
func saysPayment(n intent.Normalized) bool {
	return len(n.Tokens) <= 5 && len(n.Entities) == 0 && !n.Asks() && paymentIn(n) != ""
}

// onlyNamesAndFillers reports a short message of names and the words
// that carry no choice: "rajesh bhai ka hai" names whom, it asks nothing.
func onlyNamesAndFillers(n intent.Normalized) bool {
	if len(n.Tokens) > 6 || len(n.Entities) == 0 {
		return false
	}
	covered := make([]bool, len(n.Tokens))
	for _, e := range n.Entities {
		for i := max(e.Start, 0); i < e.End && i < len(covered); i++ {
			covered[i] = true
		}
	}
	for i, t := range n.Tokens {
		if !covered[i] && !answerFillers[t.Text] {
			return false
		}
	}
	return true
}

// spelledCount reads an answer to "how many?" that is a number in words
// and nothing else ("bees", "pachees"): the normaliser counts such a word
// only before a unit, because "do" is also "give", so the answer is read
// again with the product's unit after it. It returns that reading.
func (p *Parser) spelledCount(n intent.Normalized, prod domain.Product) (string, bool) {
	if len(n.Tokens) != 1 || prod.Unit == "" {
		return "", false
	}
	said := n.Tokens[0].Text + " " + prod.Unit
	again := p.norm.Normalize(said)
	if len(again.Tokens) != 2 || len(again.Entities) != 2 || again.Entities[0].Kind != intent.EntityNumber ||
		again.Entities[1].Kind != intent.EntityUnit {
		return "", false
	}
	return said, true
}

// turnsDown reports whether a message turns one name down for another of
// the same kind ("Ashok nahi, Rajesh", "dettol nahi, hand wash"): read as
// a cancel, it is an answer that replaces what it turns down.
func turnsDown(n intent.Normalized) bool {
	down := map[intent.EntityKind]bool{}
	for _, e := range n.Entities {
		if e.Kind != intent.EntityCustomer && e.Kind != intent.EntityProduct {
			continue
		}
		if negatedAfter(n, e) {
			down[e.Kind] = true
			continue
		}
		if down[e.Kind] {
			return true
		}
	}
	return false
}

// replyWords reports the intents of a message that speaks to Munshi, not
// of something it asked: ok, cancel, a greeting, help.
func replyWords(i domain.Intent) bool {
	switch i {
	case domain.IntentConfirm, domain.IntentCancel, domain.IntentGreeting, domain.IntentHelp:
		return true
	}
	return false
}

// paymentIn is the one payment mode a message names, or "".
func paymentIn(n intent.Normalized) domain.PaymentMode {
	var out Parsed
	r := newReading("", n)
	// An answer or a correction may turn a mode down for another: "cheque
	// nahi, RTGS karenge". (An order's own "cash nahi UPI" is asked about.)
	r.turnDown = true
	payment(r, &out)
	return out.Payment
}

// onlyPayment returns the way of paying a short message says when it
// names nothing else: no product, customer, number or unit.
func onlyPayment(n intent.Normalized) domain.PaymentMode {
	if len(n.Tokens) > 3 || len(n.Entities) > 0 {
		return ""
	}
	return paymentIn(n)
}

// namesOtherProduct reports whether a message names a product other
// than sku.
func namesOtherProduct(n intent.Normalized, sku string) bool {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct {
			other := true
			for _, id := range e.Candidates() {
				other = other && id != sku
			}
			if other {
				return true
			}
		}
	}
	return false
}

// sameCustomer reports whether every customer a message names is id.
func sameCustomer(n intent.Normalized, id string) bool {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityCustomer && e.ID != id {
			return false
		}
	}
	return id != ""
}

// answeredProduct is the product an answer names: the last one it does
// not turn down ("dettol nahi, hand wash" names hand wash), as the SKUs
// its name could mean.
func answeredProduct(n intent.Normalized) []string {
	names := keptNames(n)
	if len(names) == 0 {
		return nil
	}
	return names[len(names)-1]
}

// negations turn down what they follow: "dettol nahi", "Rajesh nahi",
// Telugu's "cheque kaadu" and Dakhini's "card nakko"; Tamil's "illa"
// (its script's "இல்ல" reads "ill"), Gujarati's "nathi", Konkani's
// "न्हय".
var negations = words(`nahi nahin nai na not no mat नहीं नही मत kaadu कादु koni nakko alla nohoi nuhen venda vendaam vaddu beda nalage
	hoina illa ill nathi न्हय`)

// names are the products' names, in order.
func (p *Parser) names(skus []string) []string {
	out := make([]string, len(skus))
	for i, sku := range skus {
		out[i] = p.products[sku].Name
	}
	return out
}

// answerNote reads an answer to a question about a payment, a delivery or
// goods received: the note's message so far is read again with the answer
// beside it, and taken if that settles more than before.
func (s *Service) answerNote(ctx context.Context, user domain.User, f Frame, d intent.Decision) (domain.Reply, bool) {
	if replyWords(d.Intent) {
		return domain.Reply{}, false
	}
	kind := ProposalKind(f.Kind)
	read := s.noteReader(ctx, kind)
	if read == nil {
		return domain.Reply{}, false
	}
	p := s.parser()
	next, ok := p.answered(kind, f, d)
	if !ok {
		return domain.Reply{}, false
	}
	before := read(p, f)
	after := read(p, next)
	if slices.Equal(after.unresolved, before.unresolved) && after.refusal == before.refusal && after.err == nil {
		return domain.Reply{}, false
	}
	if reply, ok := s.allowed(ctx, user, kind); !ok {
		return reply, true
	}
	return s.noted(ctx, user, kind, next, after), true
}

// answered is a note's frame with the answer taken in. The customer a
// delivery's question offered and the answer chose is kept as the
// frame's: read again, "Rajesh aur Mehta ka maal" would still name both.
// Any other answer joins the message so far, to be read with it.
func (p *Parser) answered(kind ProposalKind, f Frame, d intent.Decision) (Frame, bool) {
	a := f.Asks[0]
	if kind == ProposeDelivery && a.Slot == SlotCustomer && len(a.Options) > 0 {
		if id, more, ok := p.pickCustomer(d.Normalized, a.Options); ok && len(more) == 0 {
			f.Customer = id
			return f, true
		}
	}
	answer := p.answerWords(a, d)
	if answer == "" {
		return f, false
	}
	f.Text += "\n" + answer
	return f, true
}

// answerWords is an answer as the note's reader should see it: an option
// chosen by position or part of its name becomes its full name, an order
// its number; "" when the answer chooses none of the orders offered.
func (p *Parser) answerWords(a Ask, d intent.Decision) string {
	switch {
	case a.Slot == SlotCustomer && len(a.Options) > 0:
		if id, more, ok := p.pickCustomer(d.Normalized, a.Options); ok && len(more) == 0 {
			return p.customers[id].Name
		}
	case a.Slot == SlotOrder:
		return p.pickOrder(d.Text, d.Normalized, a)
	}
	return d.Text
}

// noteReader is how a kind of note is read from its message so far (and,
// for a delivery, the customer a question chose); nil for a kind that is
// not read from a message.
func (s *Service) noteReader(ctx context.Context, kind ProposalKind) func(*Parser, Frame) noteRead {
	switch kind {
	case ProposePayment:
		return func(p *Parser, f Frame) noteRead {
			n := p.ReadPayment(f.Text)
			nr := noteRead{prop: Proposal{Subject: n.CustomerID, Payment: &n}, unresolved: n.Unresolved}
			if len(n.Candidates) > 0 && n.CustomerID == "" {
				nr.ask = Ask{Slot: SlotCustomer, Options: n.Candidates}
			}
			return nr
		}
	case ProposeDelivery:
		return func(p *Parser, f Frame) noteRead { return s.readDelivery(ctx, p, f) }
	case ProposeReceipt:
		return func(p *Parser, f Frame) noteRead {
			n := p.ReadReceipt(f.Text)
			var skus []string
			for _, it := range n.Items {
				skus = append(skus, it.SKU)
			}
			return noteRead{prop: Proposal{Subject: strings.Join(skus, ","), Receipt: &n}, unresolved: n.Unresolved}
		}
	}
	return nil
}

// choose asks the Chooser which of a question's options an answer means,
// offering their names; it returns the option (a customer id, SKU or
// payment mode) it picked. Without a Chooser, or when it fails or picks
// none, there is no choice.
func (s *Service) choose(ctx context.Context, user domain.User, a Ask, answer string, names []string) (string, bool) {
	if s.Chooser == nil || len(a.Options) == 0 || len(a.Options) != len(names) || len(a.Options) > maxFrameOptions {
		return "", false
	}
	k, err := s.Chooser.Choose(ctx, a.Text, answer, names)
	s.Audit.Record(ctx, user.Phone, "answer_choice", "", map[string]any{"slot": string(a.Slot), "options": len(names), "picked": k, "failed": err != nil})
	if err != nil || k < 0 || k >= len(a.Options) {
		return "", false
	}
	return a.Options[k], true
}

// namesOf are the customers' names, in order.
func (p *Parser) namesOf(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = p.customers[id].Name
	}
	return out
}
