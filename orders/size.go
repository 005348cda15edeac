package orders

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/munshi/munshi/intent"
)

// measure is a size in millilitres or grams, a power in watts, a width
// in inches or a thickness in millimetres.
type measure struct {
	amount float64
	dim    byte // 'v' volume, 'm' mass, 'w' power, 'i' width in inches, 't' thickness in mm
}

// parseMeasure reads a canonical size: "500ml", "1l", "1.5kg", "200g",
// "9w", "0.8mm".
func parseMeasure(s string) (measure, bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || v <= 0 {
		return measure{}, false
	}
	switch s[i:] {
	case "ml":
		return measure{v, 'v'}, true
	case "l":
		return measure{v * 1000, 'v'}, true
	case "g":
		return measure{v, 'm'}, true
	case "kg":
		return measure{v * 1000, 'm'}, true
	case "w":
		return measure{v, 'w'}, true
	case "inch":
		return measure{v, 'i'}, true
	case "mm":
		return measure{v, 't'}, true // a sheet's, a bar's or a wire's: "laminate 0.8mm", "12mm sariya"
	}
	return measure{}, false
}

// equal reports the same size, up to rounding.
func (m measure) equal(o measure) bool {
	return m.dim == o.dim && math.Abs(m.amount-o.amount) < 1e-9*math.Max(1, m.amount)
}

// formatMeasure writes a size the way a catalog does: "500ml", "1L",
// "1.5kg".
func formatMeasure(m measure) string {
	switch {
	case m.dim == 'w':
		return formatQty(m.amount) + "W"
	case m.dim == 'i':
		return formatQty(m.amount) + " inch"
	case m.dim == 't':
		return formatQty(m.amount) + "mm"
	case m.dim == 'v' && m.amount >= 1000:
		return formatQty(m.amount/1000) + "L"
	case m.dim == 'v':
		return formatQty(m.amount) + "ml"
	case m.amount >= 1000:
		return formatQty(m.amount/1000) + "kg"
	}
	return formatQty(m.amount) + "g"
}

// sizeSpan is a size written in the message: tokens [start, end).
type sizeSpan struct {
	ID         string // canonical: "500ml", "1kg"
	Start, End int
}

// gramsAfter reads "500 gm", which the normaliser spells "500 good
// morning", as the size 500g.
func (r *reading) gramsAfter(e intent.Entity) (sizeSpan, bool) {
	j := e.End
	for j < len(r.toks) && r.ent[j] < 0 {
		t := r.toks[j]
		if w := strings.ToLower(r.source(t.Start, t.End)); w != "gm" && w != "gms" {
			break
		}
		j++
	}
	if j == e.End {
		return sizeSpan{}, false
	}
	return sizeSpan{formatNumber(e.Value) + "g", e.Start, j}, true
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// attachSizes gives each size written beside a product its meaning: the
// quantity of a product sold by measure ("chini 50 kg"), the choice between
// products that share a name ("apex 4 ltr"), or a check of the product's
// own size ("GC 500ml"; "GC 1 ltr" is asked about).
func (p *Parser) attachSizes(r *reading, ms []*mention, sizes []sizeSpan, skip []bool, qs *[]*quantity) []*mention {
	added := false
	for _, e := range sizes {
		sz, ok := parseMeasure(e.ID)
		if !ok {
			continue
		}
		var m *mention
		for _, c := range ms {
			if c.end <= e.Start && gapOnly(skip, c.end, e.Start) {
				m = c // a size after the name: "GC 500ml"
			}
		}
		var next *mention
		for _, c := range ms {
			if c.start >= e.End && gapOnly(skip, e.End, c.start) {
				next = c // before it: "500ml wala GC"
				break
			}
		}
		// Between two names, a size is the quantity of the one after it
		// that is sold by that measure, unless it is the one before's:
		// "100 cup dahi, 30 kg paneer", "20 kg paneer 10 kg khoa". A size
		// that ends the line of the name before it is that name's: "kaju
		// 200 kg⏎almonds 100 kg⏎raisins 50 kg".
		if m == nil || next != nil && p.soldBy(next, sz) && !p.sizedAs(m, sz) &&
			(!p.soldBy(m, sz) || countedBefore(*qs, skip, m)) && !r.endsLineOf(m, e, next) {
			m = next
		}
		if m == nil {
			if el := p.elided(r, ms, e, sz); el != nil {
				ms, added = append(ms, el), true
			}
			continue
		}
		if unit, ok := p.countedIn(m.skus, sz.dim); ok {
			*qs = append(*qs, &quantity{value: sz.amount / unit.amount, measure: e.ID, start: e.Start, end: e.End, of: m})
			byStart(*qs)
			continue
		}
		// The products of that size; else those whose names give no size
		// of its kind. "tube 17 inch" is the 17-inch tube, not the auto
		// tube whose name gives none.
		var fit, unsized []string
		for _, sku := range m.skus {
			if !p.hasSizeOf(sku, sz.dim) {
				unsized = append(unsized, sku)
				continue
			}
			if slices.ContainsFunc(p.sizes[sku], sz.equal) {
				fit = append(fit, sku)
			}
		}
		if len(fit) == 0 {
			fit = unsized
		}
		if len(fit) == 0 {
			fit = p.siblingSized(r, m, sz)
		}
		if kept, unit, ok := p.keptBy(m.skus, fit, sz); ok {
			// "10 kg karpoora": the loose camphor, kept by the kg, is the
			// one of its name sold by weight, and 10 kg is how much of it;
			// "20 kg mozzarella" is 20 of the kg a 2 kg block is kept in,
			// and "20 kg cheese" 20 kg of whichever block is meant.
			m.skus = kept
			*qs = append(*qs, &quantity{value: sz.amount / unit.amount, measure: e.ID, start: e.Start, end: e.End, of: m})
			byStart(*qs)
			continue
		}
		for i := e.Start; i < e.End; i++ {
			skip[i] = true
		}
		switch {
		case len(fit) == 0:
			m.size = formatMeasure(sz)
		case len(fit) < len(m.skus) || fit[0] != m.skus[0]:
			m.skus = fit
		}
	}
	if added {
		byMentionStart(ms)
	}
	return ms
}

// elided is a mention, at a size said alone, of the one product of that
// size the last name before it may mean: "phenyl 1L 10 carton, 5L 5
// carton", "4 inch lamp 20 pcs, 6 inch 10pcs". Nil when the name's words
// name no other product of that size, or more than one.
func (p *Parser) elided(r *reading, ms []*mention, e sizeSpan, sz measure) *mention {
	last := lastBefore(ms, e.Start)
	if last == nil {
		return nil
	}
	var words []string
	for i := last.start; i < last.end; i++ {
		if w := r.word(i); hasLetter(w) && !strings.ContainsAny(w, "0123456789") {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil
	}
	var fit []string
	for sku, prod := range p.products {
		if !prod.Inactive && slices.ContainsFunc(p.sizes[sku], sz.equal) && namedBy(prod, words) {
			fit = append(fit, sku)
		}
	}
	if len(fit) != 1 || slices.Equal(last.skus, fit) {
		return nil
	}
	return &mention{skus: fit, start: e.Start, end: e.End}
}

// countedIn is the measure the products are all counted in, when it is
// of dimension dim and their names give no other size of it: "100 kg
// grout" is a count of Tile Grout 1 kg, whose unit is the kg, and "1 kilo
// marchu" a count of either loose chilli.
func (p *Parser) countedIn(skus []string, dim byte) (measure, bool) {
	var unit measure
	for i, sku := range skus {
		u, ok := p.byMeasure[sku]
		if !ok || u.dim != dim || i > 0 && !u.equal(unit) {
			return measure{}, false
		}
		for _, s := range p.sizes[sku] {
			if s.dim == dim && !s.equal(u) {
				return measure{}, false
			}
		}
		unit = u
	}
	return unit, len(skus) > 0
}

// keptBy is the products a size leaves (fit, else the mention's own)
// when each is kept in the same unit of the size's measure and the size
// is not one a name of theirs gives: the size is then how much of it.
func (p *Parser) keptBy(skus, fit []string, sz measure) ([]string, measure, bool) {
	if len(fit) == 0 {
		fit = skus
	}
	var unit measure
	for i, sku := range fit {
		u, ok := p.byMeasure[sku]
		if !ok || u.dim != sz.dim || slices.ContainsFunc(p.sizes[sku], sz.equal) || i > 0 && !u.equal(unit) {
			return nil, measure{}, false
		}
		unit = u
	}
	return fit, unit, len(fit) > 0
}

// weighed is the count a message's one weight or volume makes of a
// product kept in that measure ("80 kilo" of bartan kept by the kg),
// when the message says no other count but the one it says was wrong
// ("100 नहीं 120 किलो").
func (p *Parser) weighed(n intent.Normalized, sku string) (Item, bool) {
	var size *intent.Entity
	for k, e := range n.Entities {
		switch e.Kind {
		case intent.EntityNumber:
			if e.End < len(n.Tokens) && correctionWords[n.Tokens[e.End].Text] {
				continue
			}
			return Item{}, false
		case intent.EntitySize:
			if size != nil {
				return Item{}, false
			}
			size = &n.Entities[k]
		}
	}
	if size == nil {
		return Item{}, false
	}
	sz, ok := parseMeasure(size.ID)
	if !ok {
		return Item{}, false
	}
	unit, ok := p.countedIn([]string{sku}, sz.dim)
	if !ok {
		return Item{}, false
	}
	it, problem := p.toItem(p.products[sku], &quantity{value: sz.amount / unit.amount, measure: size.ID})
	return it, problem == ""
}

// siblingSized is the one product that comes in sz and whose name has
// every word of a mention of one other product: "led bulb 12 watt" names
// the 12 W bulb though "led bulb" is the 9 W bulb's alias. Nil when there
// is none, or more than one.
func (p *Parser) siblingSized(r *reading, m *mention, sz measure) []string {
	if len(m.skus) != 1 {
		return nil
	}
	var cands []string
	for i := m.start; i < m.end; i++ {
		skus, ok := p.sizedByWord[r.word(i)]
		if !ok {
			return nil
		}
		if cands == nil {
			cands = skus
			continue
		}
		cands = slices.DeleteFunc(slices.Clone(cands), func(sku string) bool { return !slices.Contains(skus, sku) })
	}
	var out []string
	for _, sku := range cands {
		if sku != m.skus[0] && slices.ContainsFunc(p.sizes[sku], sz.equal) {
			out = append(out, sku)
		}
	}
	if len(out) != 1 {
		return nil
	}
	return out
}

// endsLineOf reports a size on the line of mention m, the next mention
// next on a line after it.
func (r *reading) endsLineOf(m *mention, e sizeSpan, next *mention) bool {
	return !r.newline(m.end-1, e.Start) && r.newline(e.End-1, next.start)
}

// countedBefore reports a mention whose quantity is written before it.
func countedBefore(qs []*quantity, skip []bool, m *mention) bool {
	for _, q := range qs {
		if precedes(skip, m, q) {
			return true
		}
	}
	return false
}

// soldBy reports a mention of one product sold by sz's measure, its
// name giving no size of it: "paneer" for "30 kg".
func (p *Parser) soldBy(m *mention, sz measure) bool {
	if len(m.skus) != 1 {
		return false
	}
	unit, ok := p.byMeasure[m.skus[0]]
	return ok && unit.dim == sz.dim && !p.hasSizeOf(m.skus[0], sz.dim)
}

// sizedAs reports a mention of which a product's name gives sz: "ghee
// 15kg" for "15 kilo".
func (p *Parser) sizedAs(m *mention, sz measure) bool {
	for _, sku := range m.skus {
		for _, s := range p.sizes[sku] {
			if s.equal(sz) {
				return true
			}
		}
	}
	return false
}

// hasSizeOf reports whether the product's name gives a size of that
// dimension (a volume or a mass).
func (p *Parser) hasSizeOf(sku string, dim byte) bool {
	for _, s := range p.sizes[sku] {
		if s.dim == dim {
			return true
		}
	}
	return false
}
