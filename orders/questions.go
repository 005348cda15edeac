package orders

import (
	"fmt"
	"math"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// strayQuantity asks about a quantity no product took: the product's name
// is unknown ("5 carton pizza"), missing ("… aur 3 carton"), or the number
// competes with another quantity of the product beside it ("5 ctn GC 10").
func (p *Parser) strayQuantity(r *reading, q *quantity, ms []*mention, skip []bool, out *Parsed) {
	// A total: "2 ctn GC + 2 ctn TC = 4 ctn", "total 48 pcs".
	if w := r.word(q.start - 1); w == "total" || w == "kul" || w == "totl" ||
		strings.HasSuffix(strings.TrimSpace(r.source(r.toks[q.start].Start-3, r.toks[q.start].Start)), "=") {
		return
	}
	if name := unknownProduct(r, q); name != "" {
		out.ask(Ask{Slot: SlotUnknown, Said: saidOf([]*quantity{q}), Words: name,
			Text: fmt.Sprintf("I don't know the product %q. Which product from the catalog do you mean?", name)})
		return
	}
	said := formatQty(q.value)
	if q.unit != "" {
		said += " " + domain.Plural(q.unit, countOf(q.value))
	} else if q.measure != "" {
		said = q.measure
	}
	for _, m := range ms {
		if len(m.skus) == 1 && beside(skip, m, q) {
			prod := p.products[m.skus[0]]
			if it, problem := p.toItem(prod, q); problem == "" && m.qty > 0 && it.Qty == m.qty {
				return // the same quantity said again: "1 ctn GC (24 pcs)"
			}
			out.ask(Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s? The message also says %s beside it.", prod.Name, said)})
			p.dropItem(prod.SKU, out)
			return
		}
	}
	switch {
	case q.unit != "" || q.measure != "":
		out.ask(Ask{Slot: SlotUnknown, Said: saidOf([]*quantity{q}), Text: fmt.Sprintf("Which product are the %s for?", said)})
	case len(ms) == 0:
		out.ask(Ask{Slot: SlotUnknown, Said: saidOf([]*quantity{q}), Text: fmt.Sprintf("Which product is the %s for?", said)})
	}
}

// dropItem removes a SKU's item once its quantity is in question.
func (p *Parser) dropItem(sku string, out *Parsed) {
	for k, it := range out.Items {
		if it.SKU == sku {
			out.Items = append(out.Items[:k], out.Items[k+1:]...)
			return
		}
	}
}

// unknownProduct returns the words beside a quantity that name nothing
// known: after it ("5 carton pizza") or, failing that, before it ("pizza 5
// carton"), on the same line. The words are claimed, so that they are not
// also read as a customer's name.
func unknownProduct(r *reading, q *quantity) string {
	claim := func(from, to int) string {
		for from < to && fillers[r.word(from)] {
			from++
		}
		return r.claim(from, to)
	}
	to := q.end
	for to < len(r.toks) && to-q.end < 4 && !(to > 0 && r.newline(to-1, to)) && (fillers[r.word(to)] || r.plain(to)) {
		to++
	}
	for to > q.end && fillers[r.word(to-1)] {
		to--
	}
	if to > q.end {
		return claim(q.end, to)
	}
	from := q.start
	for from > 0 && q.start-from < 3 && !r.newline(from-1, from) && (fillers[r.word(from-1)] || r.plain(from-1)) {
		from--
	}
	return claim(from, q.start)
}

// saidQty writes quantities as the person said them: "5 cartons", "10
// bottles", "50kg".
func (p *Parser) saidQty(qs []*quantity, prod domain.Product) string {
	var parts []string
	for _, q := range qs {
		switch {
		case q.measure != "":
			parts = append(parts, q.measure)
		case q.unit == "":
			parts = append(parts, fmt.Sprintf("%s %s", formatQty(q.value), domain.Plural(prod.Unit, countOf(q.value))))
		default:
			parts = append(parts, fmt.Sprintf("%s %s", formatQty(q.value), domain.Plural(q.unit, countOf(q.value))))
		}
	}
	return strings.Join(parts, " ")
}

// countOf is the count a unit's name agrees with: one, or many.
func countOf(v float64) int64 {
	if v == 1 {
		return 1
	}
	return 2
}

// unitChoices lists the units a product is sold in: "bottles, carton of
// 24".
func unitChoices(p domain.Product) string {
	choices := []string{domain.Plural(p.Unit, 2)}
	for _, ps := range p.PackSizes {
		choices = append(choices, fmt.Sprintf("%s of %d", ps.Name, ps.Units))
	}
	return strings.Join(choices, ", ")
}

// formatQty writes a quantity without a needless decimal point.
func formatQty(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%g", f)
}

// maxListedCustomers is how many customers a question names: a name that
// hundreds share ("Gupta") is settled by the full name, not by reading a
// list.
const maxListedCustomers = 6

// candidateList names the customers a message could mean, with their ids
// when withIDs, at most maxListedCustomers of them and a count of the rest.
func (p *Parser) candidateList(ids []string, withIDs bool) string {
	var names []string
	for _, id := range ids[:min(len(ids), maxListedCustomers)] {
		if withIDs {
			names = append(names, fmt.Sprintf("%s (%s)", p.customers[id].Name, id))
		} else {
			names = append(names, p.customers[id].Name)
		}
	}
	if more := len(ids) - len(names); more > 0 {
		return strings.Join(names, ", ") + fmt.Sprintf(" or one of %d other customers with that name", more)
	}
	return orList(names)
}

// orList joins names as a question offers them: "a, b or c".
func orList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
