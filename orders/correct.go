package orders

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Correct reads a message as a correction of the draft the person was
// shown (draftID) and still may say ok to: a quantity ("15 carton kar
// do", "GC 15 carton"), an item added ("aur 5 carton harpic") or removed
// ("harpic hata do"), the payment ("payment cheque se hoga") or the
// customer ("Rajesh nahi, Balaji ke liye"). The corrected order is priced
// and judged again and shown as a new draft, with what changed; only an
// ok to that summary places it. It reports false when the message is not
// a correction of that draft.
func (s *Service) Correct(ctx context.Context, user domain.User, draftID string, d intent.Decision) (domain.Reply, bool) {
	if user.Role != domain.RoleSales && user.Role != domain.RoleOwner || draftID == "" {
		return domain.Reply{}, false
	}
	// A cancel may be a correction ("remove soap", "Mehta nahi, Gupta
	// Brothers ka hai"); one that changes nothing is left to cancel.
	switch d.Intent {
	case domain.IntentConfirm, domain.IntentGreeting, domain.IntentHelp:
		return domain.Reply{}, false
	}
	if d.Normalized.Tokens == nil {
		d.Normalized = s.parser().norm.Normalize(d.Text)
	}
	// "total kitna hua?" asks what the draft comes to.
	if asksTotal(d.Normalized) {
		return s.draftTotal(ctx, user, draftID)
	}
	// "maggi ka stock kitna hai?" asks, between the summary and its ok;
	// it adds no maggi.
	if intent.IsQuestion(d.Intent) && d.Normalized.Asks() {
		return domain.Reply{}, false
	}
	dr, ok := s.openDraft(ctx, user, draftID, "a correction")
	if !ok {
		return domain.Reply{}, false
	}
	if intent.Garbled(d.Text, d.Normalized) {
		return domain.Reply{}, false // "jjjj kk ;;; 77": no new quantity
	}
	if text, ok := withoutOldQuantity(d.Text, d.Normalized, itemsOf(dr)); ok {
		d.Text, d.Normalized = text, s.parser().norm.Normalize(text) // "phenyl 10 nahi 12" is "phenyl 12"
	}
	c, ok := s.parser().correction(dr, d)
	if !ok {
		if !s.parser().restates(dr, d.Normalized) {
			return domain.Reply{}, false
		}
		// "1 litre wala", "cash": what the summary already says, often
		// the answer to a question that was not needed.
		r := s.show(ctx, user, dr.Customer.ID, dr.Payment, itemsOf(dr), dr.Instructions)
		if r.About != "" {
			r.Text = "✓ That is what the order already says; nothing changed.\n\n" + r.Text
		}
		return r, true
	}
	s.Audit.Record(ctx, user.Phone, "correction", dr.ID, map[string]any{"changes": c.changes, "question": c.question != ""})
	if c.question != "" {
		return domain.Reply{Text: c.question + "\n\nNothing was changed: order " + dr.ID + " is as it was shown.", Question: true}, true
	}
	r := s.show(ctx, user, c.customer, c.payment, c.items, dr.Instructions)
	if r.About != "" {
		r.Text = "✏️ Changed: " + strings.Join(c.changes, "; ") + "\n\n" + r.Text
	}
	return r, true
}

// corrected is a draft as a correction leaves it.
type corrected struct {
	customer string
	payment  domain.PaymentMode
	items    []Item
	changes  []string
	question string // set when the correction cannot be applied as it is
}

// Words that say how a correction changes an item.
var (
	removeWords = words(`hatao remove delete nikal nikalo nikaal drop cut हटा nako nakko venda vendaam vaddu tiseyandi beda nalage kata tegedu
		kaadh kadhun kadhi naka trav` +
		// Taken out or not wanted in Tamil ("vendam, eduthudunga"),
		// Gujarati ("kadhi nakho"), Punjabi ("kadh deo"), Konkani
		// ("nakka, kaad"); Hindi's "hata de" and "rehne do" (let it be).
		` eduthudunga nakho kadh kaad nakka hata vendam rehne`)
	// dropWords remove the lines they name ("handwash cancel karo");
	// naming every line, they cancel the order.
	dropWords = words(`cancel रद्द`)
	addWords  = words(`add plus more saath sathe`)
	// alsoWords add to the line they are said with ("maggi bhi", "GC 5
	// carton aur bhejo"); "aur" before a number or a product joins two
	// lines instead ("parle 25 carton aur 5 carton maggi").
	alsoWords = words(`aur bhi ani ane suddha kuda inka um vi naal nale sethu adhoda pan पण` +
		// More, in Kannada ("innu … kooda"), Tamil ("innum"), Punjabi
		// ("hor") and Konkani ("anik").
		` innu kooda innum hor anik`)
	wantWords = words(`chahiye chaiye chahie zarurat lena needed चाहिए lagbe chahida` +
		// Wanted, in Punjabi ("nahi chahide"), Gujarati ("nathi joitu")
		// and Chhattisgarhi ("nai lagay").
		` chahide joitu lagay`)
	sendWords = words(`bhejo bhejna bhejiye dena daalo dalna lagao`)
	// changeVerbs say that a message changes the order; they name no
	// customer ("change odonil to 3 cartons").
	changeVerbs = words(`change make update kar karo reduce kara`)
)

// lineNamedInPart is the one line of the draft whose product's name has
// words of the message that name no other line: "pav bhaji nikal do" of
// Badshah Pav Bhaji Masala 100g, called by words of its name that are no
// name of their own.
func (p *Parser) lineNamedInPart(r *reading, items []Item) []string {
	found := ""
	for i := range r.toks {
		w := r.word(i)
		if !r.plain(i) || utf8.RuneCountInString(w) < 3 || removeWords[w] || wantWords[w] || negations[w] {
			continue
		}
		var named []string
		for _, it := range items {
			if namedBy(p.products[it.SKU], []string{w}) {
				named = append(named, it.SKU)
			}
		}
		switch {
		case len(named) != 1:
		case found == "":
			found = named[0]
		case found != named[0]:
			return nil
		}
	}
	if found == "" {
		return nil
	}
	return []string{found}
}

// correction reads what a message changes in draft dr; false when it
// changes nothing of it.
func (p *Parser) correction(dr Draft, d intent.Decision) (corrected, bool) {
	n := d.Normalized
	c := corrected{customer: dr.Customer.ID, payment: dr.Payment, items: itemsOf(dr)}
	removing, adding, cancelling := false, false, false
	r := newReading(d.Text, n)
	also := alsoLines(r)
	clause := clausesOf(r)
	removes := map[int]bool{} // the clauses that remove what they name
	for i, t := range n.Tokens {
		if k := r.kind(i); k == intent.EntityProduct || k == intent.EntityCustomer {
			continue // "clinic plus" adds nothing
		}
		cancelling = cancelling || dropWords[t.Text]
		if removeWords[t.Text] || dropWords[t.Text] ||
			negations[t.Text] && i+1 < len(n.Tokens) && (wantWords[n.Tokens[i+1].Text] || sendWords[n.Tokens[i+1].Text]) ||
			wantWords[t.Text] && i+1 < len(n.Tokens) && negations[n.Tokens[i+1].Text] { // "mop ki zarurat nahi"
			removing, removes[clause[i]] = true, true
		}
		adding = adding || addWords[t.Text]
	}
	for k, e := range n.Entities {
		// "no garbage bags needed"; in "chana dal nahi, arhar dal
		// chahiye" the "nahi" is the first name's.
		if e.Kind == intent.EntityProduct && e.Start > 0 && e.End < len(n.Tokens) && negations[n.Tokens[e.Start-1].Text] &&
			wantWords[n.Tokens[e.End].Text] && !(k > 0 && n.Entities[k-1].Kind == intent.EntityProduct && n.Entities[k-1].End == e.Start-1) {
			removing, removes[clause[e.Start]] = true, true
		}
	}
	inDraft := func(skus []string) []string {
		var out []string
		for _, sku := range skus {
			for _, it := range c.items {
				if it.SKU == sku {
					out = append(out, sku)
				}
			}
		}
		return out
	}
	parsed := p.ParseRouted(d)
	if ownOrder(n, parsed) {
		return c, false
	}
	changed := false
	if m := paymentIn(n); m != "" && m != c.payment {
		c.changes = append(c.changes, fmt.Sprintf("payment %s → %s", ModeName(c.payment), ModeName(m)))
		c.payment, changed = m, true
	}
	if id, more, ok := p.pickCustomer(n, nil); ok && !n.Has(intent.EntityProduct) && customerChange(n) {
		switch {
		case len(more) > 0:
			c.question = "Which customer do you mean: " + p.candidateList(more, true) + "?"
			return c, true
		case id != c.customer:
			c.changes = append(c.changes, fmt.Sprintf("customer %s → %s", p.customers[c.customer].Name, p.customers[id].Name))
			c.customer, changed = id, true
		}
	}
	// "ors hata do, vicks 3 box": a clause of its own that removes
	// nothing changes its line.
	others := false
	for _, e := range n.Entities {
		others = others || e.Kind == intent.EntityProduct && !removes[clause[e.Start]]
	}
	if removing {
		var gone []string
		for _, e := range n.Entities {
			if e.Kind != intent.EntityProduct || others && !removes[clause[e.Start]] ||
				e.Start > 0 && onlyWords[n.Tokens[e.Start-1].Text] { // "bahamas nahi chahiye, sirf flite"
				continue
			}
			gone = append(gone, inDraft(e.Candidates())...)
		}
		if len(gone) == 0 && !n.Has(intent.EntityProduct) {
			gone = p.lineNamedInPart(r, c.items)
		}
		if len(gone) == 0 {
			if changed {
				return c, true
			}
			return c, false
		}
		var kept []Item
		for _, it := range c.items {
			if contains(gone, it.SKU) {
				c.changes = append(c.changes, "removed "+p.products[it.SKU].Name)
				continue
			}
			kept = append(kept, it)
		}
		if len(kept) == 0 {
			if cancelling || d.Intent == domain.IntentCancel {
				return c, false // "GC wala order cancel karo": the cancel drops the order
			}
			c.question = "That would leave the order with nothing in it. Reply *cancel* to drop the order, or tell me what to change."
			return c, true
		}
		c.items = kept
		if !others {
			return c, true
		}
		changed = true
		parsed.Items = slices.DeleteFunc(parsed.Items, func(it Item) bool { return contains(gone, it.SKU) })
		parsed.Asks = slices.DeleteFunc(parsed.Asks, func(a Ask) bool { return a.SKU != "" && contains(gone, a.SKU) })
	}
	set := func(it Item) {
		prod := p.products[it.SKU]
		for k := range c.items {
			if c.items[k].SKU != it.SKU {
				continue
			}
			old := c.items[k].Qty
			if adding || also[it.SKU] {
				it.Qty += old
				it.SaidQty, it.SaidUnit = 0, ""
			}
			if it.Qty != old {
				c.changes = append(c.changes, fmt.Sprintf("%s %s → %s", prod.Name, Quantity(old, prod), Quantity(it.Qty, prod)))
				c.items[k], changed = it, true
			}
			return
		}
		c.items = append(c.items, it)
		c.changes = append(c.changes, fmt.Sprintf("added %s %s", prod.Name, Quantity(it.Qty, prod)))
		changed = true
	}
	var settled []string // the products the message's own reading settled on
	for _, it := range parsed.Items {
		settled = append(settled, it.SKU)
	}
	for _, a := range parsed.Asks {
		if a.Slot == SlotQuantity {
			settled = append(settled, a.SKU)
		}
	}
	sw, ok := p.swapped(n, c.items, settled)
	if !ok {
		if sw, ok = p.swappedByNumber(n, c.items); !ok {
			sw, ok = p.swappedByWord(n, c.items)
		}
		if ok {
			// "1.5 nahi 2.5", "splendor nahi activa wala": the whole
			// message is the swap.
			parsed.Items, parsed.Asks = nil, nil
		}
	}
	if ok {
		// "DAP nahi, potash": the product named in the place of one the
		// draft has takes its line, at the quantity said for it or else
		// at the one the line was said in.
		k := slices.IndexFunc(c.items, func(it Item) bool { return it.SKU == sw.old })
		was := c.items[k]
		q := &quantity{value: float64(was.Qty)}
		if was.SaidQty > 0 {
			q = &quantity{value: float64(was.SaidQty), unit: was.SaidUnit}
		}
		it, problem := p.toItem(p.products[sw.new], q)
		named := slices.IndexFunc(parsed.Items, func(it Item) bool { return it.SKU == sw.new })
		if named >= 0 {
			it, problem = parsed.Items[named], ""
			parsed.Items = slices.Delete(parsed.Items, named, named+1)
		}
		if problem == "" {
			c.items = slices.Delete(c.items, k, k+1)
			parsed.Asks = slices.DeleteFunc(parsed.Asks, func(a Ask) bool {
				return a.Slot == SlotQuantity && (a.SKU == sw.new || a.SKU == sw.old)
			})
			c.changes = append(c.changes, p.products[sw.old].Name+" → "+p.products[sw.new].Name)
			set(it)
		}
	}
	for _, it := range parsed.Items {
		set(it)
	}
	for _, a := range parsed.Asks {
		switch a.Slot {
		case SlotProduct:
			// "phenyl 20 karo": the phenyl the draft has.
			if skus := inDraft(a.Options); len(skus) == 1 && a.Said != nil {
				if it, problem := p.toItem(p.products[skus[0]], a.Said.quantity()); problem == "" {
					set(it)
					continue
				}
			}
			c.question = a.Text
		case SlotUnknown:
			if !changeWordsOnly(a.Words) || a.Said == nil {
				c.question = a.Text
				continue
			}
			// "nahi 15 carton kar do": the one line the quantity fits;
			// "odonil sirf 2 carton": the line named, words between.
			named := inDraft(keptProducts(n))
			var fit []string
			for _, it := range c.items {
				if len(named) > 0 && !contains(named, it.SKU) {
					continue
				}
				if _, problem := p.toItem(p.products[it.SKU], a.Said.quantity()); problem == "" {
					fit = append(fit, it.SKU)
				}
			}
			if len(fit) != 1 {
				c.question = fmt.Sprintf("Which product should be %s?", saidText(a.Said, p.products[c.items[0].SKU]))
				continue
			}
			it, _ := p.toItem(p.products[fit[0]], a.Said.quantity())
			set(it)
		case SlotQuantity:
			if len(inDraft([]string{a.SKU})) == 0 {
				c.question = a.Text
			}
		}
	}
	if !changed && c.question == "" && len(parsed.Items) == 0 && !n.Has(intent.EntityProduct) {
		// "ना 3 किलो करो": a weight alone sets the one line kept in it.
		var fit []Item
		for _, it := range c.items {
			if w, ok := p.weighed(n, it.SKU); ok {
				fit = append(fit, w)
			}
		}
		if len(fit) == 1 {
			set(fit[0])
		}
	}
	if c.question != "" {
		return c, true
	}
	return c, changed
}

// alsoLines are the products a word of "also" is said with: the words
// from one joining "aur" (or the start) to the next are one line's.
func alsoLines(r *reading) map[string]bool {
	out := map[string]bool{}
	var skus []string
	also := false
	flush := func() {
		for _, sku := range skus {
			out[sku] = out[sku] || also
		}
		skus, also = nil, false
	}
	for i, t := range r.toks {
		if r.kindAt(i) == intent.EntityProduct {
			skus = append(skus, r.ents[r.ent[i]].Candidates()...)
			continue
		}
		if !alsoWords[t.Text] {
			continue
		}
		// "aur" before a number or a product begins another line.
		if next := r.kindAt(i + 1); t.Text == "aur" && (next == intent.EntityNumber || next == intent.EntityProduct) {
			flush()
			continue
		}
		also = true
	}
	flush()
	return out
}

// clausesOf numbers each token by its clause: a comma, a semicolon, a
// full stop or a line break between two tokens begins the next.
func clausesOf(r *reading) []int {
	out := make([]int, len(r.toks))
	k := 0
	for i := 1; i < len(r.toks); i++ {
		if strings.ContainsAny(r.between(i-1, i), ",;.\n") {
			k++
		}
		out[i] = k
	}
	return out
}

// isNumberWord reports a word of digits, with a decimal point or not.
func isNumberWord(w string) bool {
	return w != "" && strings.Trim(w, "0123456789.") == "" && strings.Count(w, ".") <= 1 && w[0] != '.'
}

// productWords are a product name's words as the normaliser reads them.
func productWords(name string) []string {
	toks := intent.Normalize(name).Tokens
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out
}

// productNamed is the one product whose name has a number and reads as
// words.
func (p *Parser) productNamed(words []string) (string, bool) {
	toks := make([]intent.Token, len(words))
	for i, w := range words {
		toks[i] = intent.Token{Text: w}
	}
	key, _ := numberedKey(toks)
	var skus []string
	for _, c := range p.numbered[key] {
		if slices.Equal(productWords(p.products[c].Name), words) {
			skus = append(skus, c)
		}
	}
	if len(skus) != 1 {
		return "", false
	}
	return skus[0], true
}

// placeWords put what follows in the place of the name before them with
// "ki" or "ke": "urea ki jagah", "npk ke badle".
var placeWords = words(`jagah badle bajaye`)

// keptProducts are the SKUs of the products a message names and does not
// turn down ("GC nahi").
func keptProducts(n intent.Normalized) []string {
	var out []string
	for _, skus := range keptNames(n) {
		out = append(out, skus...)
	}
	return out
}

// keptNames are, for each product a message names and does not turn down,
// in order, the SKUs its name may mean.
func keptNames(n intent.Normalized) [][]string {
	var out [][]string
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct && !negatedAfter(n, e) {
			out = append(out, e.Candidates())
		}
	}
	return out
}

// negatedAfter reports a name turned down by the word after it: "GC nahi".
func negatedAfter(n intent.Normalized, e intent.Entity) bool {
	return e.End < len(n.Tokens) && negations[n.Tokens[e.End].Text]
}

// saidText writes a kept quantity as said: "15 cartons".
func saidText(s *Said, prod domain.Product) string {
	if s.Measure != "" {
		return s.Measure
	}
	unit := s.Unit
	if unit == "" {
		unit = prod.Unit
	}
	return formatQty(s.Value) + " " + domain.Plural(unit, countOf(s.Value))
}

// ownOrder reports whether a message is an order of its own: it names a
// customer, and products or quantities. It starts again rather than
// answer a question or correct a draft.
func ownOrder(n intent.Normalized, parsed Parsed) bool {
	return namesCustomer(n, parsed) && (n.Has(intent.EntityProduct) || n.Has(intent.EntityNumber))
}

// namesCustomer reports whether a message names a customer, known or not.
func namesCustomer(n intent.Normalized, parsed Parsed) bool {
	if n.Has(intent.EntityCustomer) || parsed.CustomerID != "" {
		return true
	}
	for _, a := range parsed.Asks {
		if a.Slot == SlotCustomer && (a.Words != "" && !changeWordsOnly(a.Words) || len(a.Options) > 0) {
			return true
		}
	}
	return false
}

// customerMarkers say that a name is whom the order is for.
// Dakhini's and Tamil's "ku" and Kannada's "ge" are Hindi's "ko".
var customerMarkers = words(`liye keliye ko for customer party naam name instead under ku ge`)

// Whose the order is: "ye order City Hospital ka hai", "Mehta ka order hai".
var (
	// Punjabi's "da" and Marwari's "ro" are Hindi's "ka": "Bansal Bartan
	// Bhandar da order hai", "khandelwal tent ro hai"; "annapurna ke
	// likhiye" is written to their name.
	ofWords    = words(`ka ki ke da ro`)
	ownedWords = words(`hai order likho likhiye`)
)

// customerChange reports whether a message that names a customer says
// the order is for them ("Balaji ke liye", "Rajesh nahi, Balaji"): a
// name alone is not a correction.
func customerChange(n intent.Normalized) bool {
	if len(n.Tokens) > 0 && negations[n.Tokens[0].Text] {
		return true // "nahi, Sharma General Store"
	}
	word := func(i int) string {
		if i < len(n.Tokens) {
			return n.Tokens[i].Text
		}
		return ""
	}
	for _, e := range n.Entities {
		if e.Kind != intent.EntityCustomer {
			continue
		}
		if negations[word(e.End)] || ofWords[word(e.End)] && ownedWords[word(e.End+1)] {
			return true
		}
		if e.Start > 0 && word(e.Start-1) == "not" {
			return true // English's "sorry, not Naik: Sea Breeze"
		}
	}
	for _, t := range n.Tokens {
		if customerMarkers[t.Text] {
			return true
		}
	}
	return false
}

// changeWordsOnly reports whether the words a quantity was written with
// only say how to change it ("add karo", "kar do"), naming no product.
func changeWordsOnly(said string) bool {
	for _, w := range intent.Normalize(said).Tokens {
		if !addWords[w.Text] && !removeWords[w.Text] && !changeVerbs[w.Text] && !fillers[w.Text] && !plainWords[w.Text] && !negations[w.Text] {
			return false
		}
	}
	return true
}
