package orders

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// mention is a product named in the message: one SKU, or several when the
// name is shared.
type mention struct {
	skus       []string
	start, end int
	size       string // a size written beside it that disagrees with the catalog
	price      string // a price said beside it that no product it may mean has
	qs         []*quantity
	qty        int64 // what its quantities came to, in base units
}

// items reads the products and their quantities: each product named
// becomes an item or a question, and so does each quantity no product took.
func (p *Parser) items(r *reading, out *Parsed) {
	var ms []*mention
	var qs []*quantity
	var sizes []sizeSpan
	ents := r.ents
	for k := 0; k < len(ents); k++ {
		e := ents[k]
		switch e.Kind {
		case intent.EntityProduct:
			ms = append(ms, &mention{skus: e.Candidates(), start: e.Start, end: e.End})
		case intent.EntitySize:
			sizes = append(sizes, sizeSpan{e.ID, e.Start, e.End})
		case intent.EntityNumber:
			if sz, ok := r.gramsAfter(e); ok {
				sizes = append(sizes, sz)
				continue
			}
			if r.notQuantity(e.Start) {
				continue
			}
			q := &quantity{value: e.Value, start: e.Start, end: e.End}
			if r.repeatedWord(e) {
				// "paanch-paanch peti": the normaliser reads only the second.
				q.each, q.start = true, e.Start-1
			}
			// "5-5 carton": five cartons of each.
			if k+1 < len(ents) && ents[k+1].Kind == intent.EntityNumber && ents[k+1].Start == e.End &&
				ents[k+1].Value == e.Value && strings.TrimSpace(r.between(e.Start, e.End)) == "-" {
				q.each, q.end = true, ents[k+1].End
				k++
			}
			if k+1 < len(ents) && ents[k+1].Kind == intent.EntityUnit && ents[k+1].Start == q.end {
				q.unit, q.end = ents[k+1].ID, ents[k+1].End
				k++
			} else if u, ok := extraUnits[r.word(q.end)]; ok && q.end < len(r.toks) && r.ent[q.end] < 0 {
				q.unit, q.end = u, q.end+1
			}
			qs = append(qs, q)
		case intent.EntityUnit:
			// A unit before its number: "carton 5".
			if k+1 < len(ents) && ents[k+1].Kind == intent.EntityNumber && ents[k+1].Start == e.End && !r.notQuantity(e.End) {
				qs = append(qs, &quantity{value: ents[k+1].Value, unit: e.ID, start: e.Start, end: ents[k+1].End})
				k++
			}
		}
	}
	// Numbers glued to a unit the normaliser does not know: "2dz".
	for i, t := range r.toks {
		if r.ent[i] >= 0 || r.used[i] {
			continue
		}
		digits := strings.TrimRightFunc(t.Text, unicode.IsLetter)
		if u, ok := extraUnits[t.Text[len(digits):]]; ok && digits != "" {
			if v, err := strconv.ParseFloat(digits, 64); err == nil {
				qs = append(qs, &quantity{value: v, unit: u, start: i, end: i + 1})
			}
		}
	}
	byStart(qs)
	ms = p.joinNames(r, ms)
	qs = p.numbersOfNames(r, ms, qs)
	qs, tagged := p.taggedNames(r, ms, qs)
	ms = p.plurals(r, ms)
	ms = p.familyNames(r, ms)
	p.restOfNames(r, ms)
	p.unitsAfterNames(r, ms, qs)
	ms = p.siblings(r, ms, qs)

	named := make([]bool, len(r.toks)) // the last word of each product named
	for _, m := range ms {
		if m.end > 0 && m.end <= len(named) {
			named[m.end-1] = true
		}
	}
	skip := make([]bool, len(r.toks)) // tokens a quantity may be separated from its product by
	// "putty bhi 10 bag", "ghee chahiye 2 tin", "paneer chahiye 5 kg",
	// "khal bhejni hai 40 katte": what is wanted, then how many.
	wanting := func(i int) bool {
		w := r.word(i)
		return w == "bhi" || w == "hai" || wantWords[w] || sendWords[w]
	}
	for i, t := range r.toks {
		skip[i] = tagged[i] || fillers[t.Text] || eachWords[t.Text] || t.Text == "ek" && r.word(i-1) == "har"
		if !skip[i] && wanting(i) {
			first, last := i, i
			for first > 0 && wanting(first-1) {
				first--
			}
			for last+1 < len(r.toks) && wanting(last+1) {
				last++
			}
			skip[i] = first > 0 && named[first-1] &&
				(r.kindAt(last+1) == intent.EntityNumber || r.kindAt(last+1) == intent.EntitySize)
		}
	}
	ms = p.attachSizes(r, ms, sizes, skip, &qs)
	bindQuantities(r, ms, qs, skip)
	shareQuantities(r, ms, skip)

	bySKU := map[string]int{}
	for _, m := range ms {
		if len(ms) > 1 && len(m.qs) == 0 && negations[r.word(m.end)] {
			continue // "GC nahi chahiye, 5 carton phenyl": turned down
		}
		p.resolveMention(r, m, qs, skip, bySKU, out)
	}
	for _, q := range qs {
		if !q.used {
			p.strayQuantity(r, q, ms, skip, out)
		}
	}
	if len(ms) == 0 && len(qs) == 0 {
		out.ask(Ask{Slot: SlotItems, Text: "Which products and how many?"})
	}
}

// plurals adds the products named in the plural ("2 dozen mops", "20
// soaps"), which the normaliser leaves as plain words.
func (p *Parser) plurals(r *reading, ms []*mention) []*mention {
	added := false
	for i, t := range r.toks {
		w := t.Text
		if !r.plain(i) || len(w) < 4 || w[len(w)-1] != 's' {
			continue
		}
		for _, one := range []string{w[:len(w)-1], strings.TrimSuffix(w, "es")} {
			es := p.norm.Normalize(one).Entities
			if len(es) == 1 && es[0].Kind == intent.EntityProduct && es[0].Start == 0 && es[0].End == 1 && !es[0].Fuzzy {
				ms = append(ms, &mention{skus: es[0].Candidates(), start: i, end: i + 1})
				r.used[i], added = true, true
				break
			}
		}
	}
	if added {
		byMentionStart(ms)
	}
	return ms
}

// familyNames adds the words that end several products' names, said
// alone ("saree chahiye 2 bundle"): each names one of those products,
// which a question settles.
func (p *Parser) familyNames(r *reading, ms []*mention) []*mention {
	added := false
	for i, t := range r.toks {
		skus := p.families[t.Text]
		if len(skus) == 0 || !r.plain(i) {
			continue
		}
		r.used[i] = true
		if p.narrowBeside(r, ms, i) {
			continue
		}
		if m := nameGoesOn(r, ms, i, skus); m != nil {
			// "pvc pipe", "cpvc 3/4 inch pipe": the word goes on with the
			// name before it, which every product it may be ends with.
			m.end = max(m.end, i+1)
			continue
		}
		if m := nameComesAfter(ms, i, skus); m != nil {
			m.start = i // "50 pipe cpvc aadha inch": the same pipe
			continue
		}
		if m := p.ownWordBeside(r, ms, i); m != nil {
			// "cycle rose agarbatti": a word of the one product named
			// beside it, though the word ends other products' names.
			m.start, m.end = min(m.start, i), max(m.end, i+1)
			continue
		}
		ms = append(ms, &mention{skus: skus, start: i, end: i + 1})
		added = true
	}
	if added {
		byMentionStart(ms)
	}
	return ms
}

// ownWordBeside is the mention of one product just before or after the
// word at i whose name has that word.
func (p *Parser) ownWordBeside(r *reading, ms []*mention, i int) *mention {
	for _, m := range ms {
		if (m.end == i || m.start == i+1) && len(m.skus) == 1 && namedBy(p.products[m.skus[0]], []string{r.word(i)}) {
			return m
		}
	}
	return nil
}

// narrowBeside settles a name several products share by the word at i
// just before or after it, when that word is in the name of only one of
// them: "gents moze" is the gents' socks of the two called moze, though
// "gents" ends the names of many other products.
func (p *Parser) narrowBeside(r *reading, ms []*mention, i int) bool {
	for _, m := range ms {
		if m.end != i && m.start != i+1 {
			continue
		}
		if sku, ok := p.namedOnly(m.skus, r.word(i)); ok {
			m.skus, m.start, m.end = []string{sku}, min(m.start, i), max(m.end, i+1)
			return true
		}
	}
	return false
}

// namedOnly is the one of several products whose name or alias has the
// word w, when only one has it.
func (p *Parser) namedOnly(skus []string, w string) (string, bool) {
	if len(skus) < 2 {
		return "", false
	}
	var fit []string
	for _, sku := range skus {
		if namedBy(p.products[sku], []string{w}) {
			fit = append(fit, sku)
		}
	}
	if len(fit) != 1 {
		return "", false
	}
	return fit[0], true
}

// restOfNames lets a product's name said in part go on with the words
// of its name after it: "servo 20L bucket x 3" is Servo 4T Xtra 20 Litre
// Bucket, called by its alias "servo 20L" and then the last word of its
// name, which is no other product. Its words before it are its too: "150
// kg loose steel bartan" weighs the loose bartan.
func (p *Parser) restOfNames(r *reading, ms []*mention) {
	for _, m := range ms {
		p.wordBeside(r, m)
		if len(m.skus) != 1 {
			continue
		}
		for p.nameWordAt(r, m.end, m.skus[0]) {
			r.used[m.end] = true
			m.end++
		}
		for p.nameWordAt(r, m.start-1, m.skus[0]) {
			m.start--
			r.used[m.start] = true
		}
	}
}

// wordBeside settles a name several products share by a word of one of
// their names said just before or after it: "ptmt tonti" is the PTMT Tap
// of the two taps called tonti, "hawai ladies" the ladies' one of the two
// hawai chappals.
func (p *Parser) wordBeside(r *reading, m *mention) {
	for _, i := range []int{m.start - 1, m.end} {
		if i < 0 || i >= len(r.toks) || !r.plain(i) || !hasLetter(r.word(i)) || fillers[r.word(i)] {
			continue
		}
		if sku, ok := p.namedOnly(m.skus, r.word(i)); ok {
			r.used[i] = true
			m.skus, m.start, m.end = []string{sku}, min(m.start, i), max(m.end, i+1)
		}
	}
}

// nameWordAt reports a word at i that no reading has taken and that is a
// word of the product's name or of an alias.
func (p *Parser) nameWordAt(r *reading, i int, sku string) bool {
	return i >= 0 && i < len(r.toks) && r.plain(i) && hasLetter(r.word(i)) && !fillers[r.word(i)] &&
		namedBy(p.products[sku], []string{r.word(i)})
}

// nameGoesOn is the mention whose name the word at i goes on with: the
// one just before it (sizes between them aside) whose products all end
// their names with it, which are among family.
func nameGoesOn(r *reading, ms []*mention, i int, family []string) *mention {
	j := i
	for j > 0 && r.kind(j-1) == intent.EntitySize {
		j--
	}
	for _, m := range ms {
		if m.end == j && len(m.skus) > 0 {
			return ofFamily(m, family)
		}
	}
	return nil
}

// nameComesAfter is the mention just after the word at i whose products
// all end their names with it, which are among family.
func nameComesAfter(ms []*mention, i int, family []string) *mention {
	for _, m := range ms {
		if m.start == i+1 && ofFamily(m, family) != nil {
			return m
		}
	}
	return nil
}

// ofFamily is m when it names some products and every one is in family.
func ofFamily(m *mention, family []string) *mention {
	if len(m.skus) == 0 || slices.ContainsFunc(m.skus, func(sku string) bool { return !slices.Contains(family, sku) }) {
		return nil
	}
	return m
}

// headWord is the last word of a product's name read by the normaliser,
// its sizes, units and numbers aside: "saree" of "Art Silk Saree",
// "milk" of "Toned Milk 500ml Pouch"; "" when there is none.
func headWord(name intent.Normalized) string {
	kinds := make([]intent.EntityKind, len(name.Tokens))
	for _, e := range name.Entities {
		for k := e.Start; k < e.End && k < len(kinds); k++ {
			kinds[k] = e.Kind
		}
	}
	for k := len(name.Tokens) - 1; k >= 0; k-- {
		w := name.Tokens[k].Text
		if kinds[k] != "" || !hasLetter(w) || strings.ContainsAny(w, "0123456789") || intent.IsUnitWord(w) {
			continue
		}
		return w
	}
	return ""
}

// resolveMention turns a product mention and its quantities into an item,
// or into the question that settles it.
func (p *Parser) resolveMention(r *reading, m *mention, qs []*quantity, skip []bool, bySKU map[string]int, out *Parsed) {
	if sku, ok := p.byUnit(m, r.span(m.start, m.end)); ok {
		m.skus = []string{sku}
	}
	if len(m.skus) > 1 {
		var names []string
		for _, sku := range m.skus {
			names = append(names, p.products[sku].Name)
		}
		said := ""
		if len(m.qs) > 0 {
			said = " (" + p.saidQty(m.qs, p.products[m.skus[0]]) + ")"
		}
		out.ask(Ask{Slot: SlotProduct, Options: m.skus, Said: saidOf(m.qs), Words: r.span(m.start, m.end),
			Text: fmt.Sprintf("Which product do you mean by %q%s: %s?", r.span(m.start, m.end), said, orList(names))})
		return
	}
	prod := p.products[m.skus[0]]
	if m.price != "" {
		out.ask(Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("%s is not sold at ₹%s. How many %s do you mean? (%s)",
			prod.Name, m.price, prod.Name, unitChoices(prod))})
		return
	}
	if m.size != "" {
		var sz []string
		for _, s := range p.sizes[prod.SKU] {
			sz = append(sz, formatMeasure(s))
		}
		out.ask(Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("%s comes in %s, not %s. How many %s do you mean? (%s)",
			prod.Name, orList(sz), m.size, prod.Name, unitChoices(prod))})
		return
	}
	if len(m.qs) == 0 {
		out.ask(Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s? (%s)", prod.Name, unitChoices(prod))})
		return
	}
	item, problem := p.combine(r, prod, m.qs, skip)
	if problem != "" {
		out.ask(Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: problem})
		return
	}
	m.qty = item.Qty
	if k, ok := bySKU[item.SKU]; ok {
		sum := out.Items[k].Qty + item.Qty
		if sum > MaxQty {
			out.ask(Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("%s of %s in all looks wrong — how many %s?", domain.Units(sum, prod.Unit), prod.Name, prod.Name)})
			out.Items = append(out.Items[:k], out.Items[k+1:]...)
			delete(bySKU, item.SKU)
			for s, j := range bySKU {
				if j > k {
					bySKU[s] = j - 1
				}
			}
			return
		}
		out.Items[k].Qty = sum
		out.Items[k].SaidQty, out.Items[k].SaidUnit = 0, ""
		return
	}
	bySKU[item.SKU] = len(out.Items)
	out.Items = append(out.Items, item)
}

// combine reads the quantities bound to one product: one quantity, or the
// parts of one ("2 carton 6 bottle", largest unit first). Two quantities
// that are alternatives ("5 se 6", "5 nahi 6", "5 6 carton") are asked about.
func (p *Parser) combine(r *reading, prod domain.Product, qs []*quantity, skip []bool) (Item, string) {
	if len(qs) == 1 {
		return p.toItem(prod, qs[0])
	}
	parts := true
	for k := 1; k < len(qs) && parts; k++ {
		a, b := qs[k-1], qs[k]
		pa, oka := p.perUnit(prod, a)
		pb, okb := p.perUnit(prod, b)
		parts = a.unit != "" && b.unit != "" && oka && okb && pa > pb
		for t := a.end; t < b.start && parts; t++ {
			parts = skip[t] || andWords[r.word(t)]
		}
	}
	if !parts {
		// "5-6 carton" is "5 or 6 cartons": a bare number takes the unit
		// of the quantity after it.
		var said []string
		for k, q := range qs {
			if k+1 < len(qs) && q.unit == "" && q.measure == "" && qs[k+1].unit != "" {
				q = &quantity{value: q.value, unit: qs[k+1].unit}
			}
			said = append(said, p.saidQty([]*quantity{q}, prod))
		}
		return Item{}, fmt.Sprintf("How many %s: %s?", prod.Name, orList(said))
	}
	var total int64
	for _, q := range qs {
		it, problem := p.toItem(prod, q)
		if problem != "" {
			return Item{}, problem
		}
		total += it.Qty
	}
	if total > MaxQty {
		return Item{}, fmt.Sprintf("%s of %s looks wrong — please check the quantity.", domain.Units(total, prod.Unit), prod.Name)
	}
	return Item{SKU: prod.SKU, Qty: total}, ""
}
