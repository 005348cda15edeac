package orders

import (
	"math"
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// joinNames makes one mention of two names side by side that share a
// product: "havells wire" (a brand and its product's word, each an
// alias) is one line, and "सीमेंट अल्ट्राटेक" (cement, which two brands
// are, then the brand) is the product both name. So is a name of one
// product beside words of that product's name that name others too:
// "barrel pride", where "barrel" is the Pride barrel's alias and "pride"
// names its buckets. Names that share none ("GC TC") stay two, and so do
// names a mark or a line break parts.
func (p *Parser) joinNames(r *reading, ms []*mention) []*mention {
	out := ms[:0]
	for _, m := range ms {
		if k := len(out) - 1; k >= 0 && out[k].end == m.start && strings.TrimSpace(r.between(m.start-1, m.start)) == "" {
			if both := shared(out[k].skus, m.skus); len(both) > 0 {
				out[k].skus, out[k].end = both, m.end
				continue
			}
			if sku, ok := p.oneNamingBoth(r, out[k], m); ok {
				out[k].skus, out[k].end = []string{sku}, m.end
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// oneNamingBoth is the product one of two names names alone whose name
// has every word of the other; or, of a name several products share, the
// one product whose name has every word of the other: "dewalt angle
// grinder", where "dewalt" is the Dewalt drill's short name, is Dewalt's
// of the two angle grinders.
func (p *Parser) oneNamingBoth(r *reading, a, b *mention) (string, bool) {
	wordsOf := func(m *mention) []string {
		var words []string
		for i := m.start; i < m.end; i++ {
			words = append(words, r.word(i))
		}
		return words
	}
	for _, pair := range [2][2]*mention{{a, b}, {b, a}} {
		one, other := pair[0], pair[1]
		if len(one.skus) == 1 && namedBy(p.products[one.skus[0]], wordsOf(other)) {
			return one.skus[0], true
		}
	}
	for _, pair := range [2][2]*mention{{a, b}, {b, a}} {
		shared, other := pair[0], pair[1]
		if len(shared.skus) < 2 {
			continue
		}
		words := wordsOf(other)
		var fit []string
		for _, sku := range shared.skus {
			if namedBy(p.products[sku], words) {
				fit = append(fit, sku)
			}
		}
		if len(fit) == 1 {
			return fit[0], true
		}
	}
	return "", false
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
		if len(fit) == 0 && len(m.skus) > 1 && slices.ContainsFunc(qs, func(q *quantity) bool { return q.end == m.start }) {
			// "1 peti kitchen king 500", counted already: the one of the
			// sizes whose amount it is (MDH Kitchen King 500g).
			for _, sku := range m.skus {
				if slices.ContainsFunc(p.sizes[sku], func(s measure) bool { return s.amount == qs[k].value }) {
					fit = append(fit, sku)
				}
			}
			if len(fit) > 1 {
				fit = nil
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
// product's name or of an alias, or its price: "500 wala" of Azithral
// 500, "45 wala" of the brush sold at ₹45.
func onlyNumbersOfName(n intent.Normalized, prod domain.Product) bool {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityNumber && !soldAt(prod.Price, e.Value) &&
			(e.Start >= len(n.Tokens) || !namedBy(prod, []string{n.Tokens[e.Start].Text})) {
			return false
		}
	}
	return true
}

// soldAt reports a price in rupees that is the price: "45 wala" names the
// brush sold at ₹45.
func soldAt(price domain.Paise, rupees float64) bool {
	return price > 0 && price == domain.Paise(math.Round(rupees*100))
}

// taggedNames reads a number said as a tag beside a product's name, not
// its quantity: "10 rupay wala parle", "20 wala kurkure", "parle 5 rupee
// wala". Of the products the name may mean and their siblings that differ
// from them by a number (Parle-G Rs 5 and Rs 10), the one whose name has
// that number is meant; the number is no quantity, and a quantity may
// stand across the tag from its name (tagged). A tag that settles nothing
// is left as it was.
func (p *Parser) taggedNames(r *reading, ms []*mention, qs []*quantity) (_ []*quantity, tagged []bool) {
	tagged = make([]bool, len(r.toks))
	for _, m := range ms {
		k, from, to, money, ok := tagBeside(r, m)
		if !ok {
			continue
		}
		n := r.word(k)
		var fit []string
		add := func(sku string) {
			if !slices.Contains(fit, sku) {
				fit = append(fit, sku)
			}
		}
		for _, sku := range m.skus {
			if namedBy(p.products[sku], []string{n}) {
				add(sku)
				continue
			}
			words := productWords(p.products[sku].Name)
			for j, w := range words {
				if !isNumberWord(w) || w == n {
					continue
				}
				sibling := slices.Clone(words)
				sibling[j] = n
				if other, ok := p.productNamed(sibling); ok {
					add(other)
				}
			}
		}
		if len(fit) == 0 && money && len(m.skus) == 1 && pricedName(productWords(p.products[m.skus[0]].Name)) {
			// "15 rupay wala parle", and no Parle-G costs ₹15; beside a
			// name with no price in it ("₹90 GC"), a price is the rate.
			m.price = n
		}
		if len(fit) != 1 {
			continue
		}
		m.skus = fit
		for i := from; i < to; i++ {
			r.used[i], tagged[i] = true, true
		}
		qs = slices.DeleteFunc(qs, func(q *quantity) bool { return q.start >= from && q.end <= to })
	}
	return qs, tagged
}

// tagBeside finds a number said as a tag right before or after a mention:
// the number (at k), with "rupees" before or after it or "wala" after,
// spanning tokens [from, to); money when it is a price.
func tagBeside(r *reading, m *mention) (k, from, to int, money, ok bool) {
	tagAt := func(start int) (k, end int, money, ok bool) { // a tag starting at start
		i := start
		if r.word(i) == "rupees" {
			i++
		}
		if !isNumberWord(r.word(i)) {
			return 0, 0, false, false
		}
		k, end, money = i, i+1, i > start
		if r.word(end) == "rupees" {
			end, money = end+1, true
		}
		if wala[r.word(end)] {
			return k, end + 1, money, true
		}
		return k, end, money, money
	}
	for start := max(0, m.start-4); start < m.start; start++ {
		if k, end, money, ok := tagAt(start); ok && end == m.start {
			return k, start, end, money, true
		}
	}
	if k, end, money, ok := tagAt(m.end); ok {
		return k, m.end, end, money, true
	}
	return 0, 0, 0, false, false
}

// pricedName reports a name that says its price: "parle g rupees 5".
func pricedName(words []string) bool {
	for j := 0; j+1 < len(words); j++ {
		if words[j] == "rupees" && isNumberWord(words[j+1]) {
			return true
		}
	}
	return false
}

// wala mark what they follow as what tells a thing apart: "10 wala".
var wala = words(`wala wali wale`)
