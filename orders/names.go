package orders

import (
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// joinNames makes one mention of two names side by side that share a
// product: "havells wire" (a brand and its product's word, each an
// alias) is one line, and "सीमेंट अल्ट्राटेक" (cement, which two brands
// are, then the brand) is the product both name. Names that share none
// ("GC TC") stay two, and so do names a mark or a line break parts.
func joinNames(r *reading, ms []*mention) []*mention {
	out := ms[:0]
	for _, m := range ms {
		if k := len(out) - 1; k >= 0 && out[k].end == m.start && strings.TrimSpace(r.between(m.start-1, m.start)) == "" {
			if both := shared(out[k].skus, m.skus); len(both) > 0 {
				out[k].skus, out[k].end = both, m.end
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// shared are the SKUs of a that b has too, in a's order.
func shared(a, b []string) []string {
	var out []string
	for _, sku := range a {
		if slices.Contains(b, sku) {
			out = append(out, sku)
		}
	}
	return out
}

// numbersOfNames takes out of the quantities a number said just after a
// product's name that is a word of that name: "dolo 650" is Dolo 650
// Tablet, not 650 of it, and "azithral 250", of two Azithrals, the one
// whose name has 250. It returns the quantities left.
func (p *Parser) numbersOfNames(r *reading, ms []*mention, qs []*quantity) []*quantity {
	for _, m := range ms {
		k := slices.IndexFunc(qs, func(q *quantity) bool {
			return q.start == m.end && q.end == q.start+1 && q.unit == "" && q.measure == "" && !q.each
		})
		if k < 0 {
			continue
		}
		var fit []string
		for _, sku := range m.skus {
			if namedBy(p.products[sku], []string{r.word(qs[k].start)}) {
				fit = append(fit, sku)
			}
		}
		if len(fit) > 0 {
			m.skus, m.end = fit, qs[k].end
			qs = slices.Delete(qs, k, k+1)
		}
	}
	return qs
}

// onlyNumbersOfName reports that every number n says is a word of the
// product's name or of an alias: "500 wala" of Azithral 500.
func onlyNumbersOfName(n intent.Normalized, prod domain.Product) bool {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityNumber && (e.Start >= len(n.Tokens) || !namedBy(prod, []string{n.Tokens[e.Start].Text})) {
			return false
		}
	}
	return true
}
