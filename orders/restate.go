package orders

import (
	"slices"

	"github.com/munshi/munshi/intent"
)

// A message after a summary may only say again what the summary shows:
// the customer, how they pay, a product of the order or its size, a line's
// quantity ("cash", "Rajesh Kirana Store", "1 litre wala", "10 carton").
// It is often the answer to a question Munshi did not need to ask. It
// changes nothing, and the summary's ok still places it.

// restates reports whether n only says again what draft dr has: every
// name one of its own, every number a line's quantity, every size a
// size of one of its products, and no other word but a word of one of
// its products' names or one that carries no meaning of its own.
func (p *Parser) restates(dr Draft, n intent.Normalized) bool {
	if len(n.Tokens) == 0 || len(n.Tokens) > 8 || n.Question {
		return false
	}
	items := itemsOf(dr)
	r := newReading("", n)
	r.turnDown = true // "cash nahi" names no mode
	var out Parsed
	payment(r, &out)
	if out.Payment != "" && out.Payment != dr.Payment {
		return false
	}
	said := out.Payment != ""
	for _, e := range n.Entities {
		switch e.Kind {
		case intent.EntityCustomer:
			if !slices.Contains(e.Candidates(), dr.Customer.ID) {
				return false
			}
		case intent.EntityProduct:
			if !slices.ContainsFunc(items, func(it Item) bool { return slices.Contains(e.Candidates(), it.SKU) }) {
				return false
			}
		case intent.EntityNumber:
			if !slices.ContainsFunc(items, func(it Item) bool { return it.SaidQty == int64(e.Value) || it.Qty == int64(e.Value) }) ||
				e.Value != float64(int64(e.Value)) {
				return false
			}
		case intent.EntitySize:
			sz, ok := parseMeasure(e.ID)
			if !ok || !slices.ContainsFunc(items, func(it Item) bool { return slices.ContainsFunc(p.sizes[it.SKU], sz.equal) }) {
				return false
			}
		case intent.EntityUnit:
		default:
			return false
		}
		said = true
	}
	for i, t := range n.Tokens {
		if negations[t.Text] || removeWords[t.Text] || dropWords[t.Text] || addWords[t.Text] || alsoWords[t.Text] {
			return false // "cash nahi", "GC bhi": a change, or one not understood
		}
		if m, mode := paymentWords[t.Text]; mode && m == dr.Payment {
			continue
		}
		covered := r.ent[i] >= 0
		if pairedMode(r, i) {
			continue
		}
		if !covered && slices.ContainsFunc(items, func(it Item) bool {
			return hasLetter(t.Text) && namedBy(p.products[it.SKU], []string{t.Text})
		}) {
			said = true // "loose wala kg": words of Camphor (Karpoora) Loose per kg's name
			continue
		}
		if !covered && !fillers[t.Text] && !answerFillers[t.Text] && !honorifics[t.Text] && !restateWords[t.Text] {
			return false
		}
	}
	return said
}

// restateWords may stand beside what is said again: "haan, cash hi",
// "Rajesh Kirana Store ke liye", "10 carton hi".
var restateWords = words(`hi ok okay theek haan ji liye keliye ku ge la ne me mein mai payment se pe mode in by to`)

// pairedMode reports a word at i that is half of a way of paying said in
// two words ("cash on delivery" aside, "bank transfer").
func pairedMode(r *reading, i int) bool {
	_, before := paymentPhrases[[2]string{r.word(i - 1), r.word(i)}]
	_, after := paymentPhrases[[2]string{r.word(i), r.word(i + 1)}]
	return before || after
}
