package orders

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Extraction is what a language model read in an order message: raw text
// and numbers, trusted for nothing until Resolve has checked every field
// against the catalog, the customers and the message itself.
type Extraction struct {
	// Message is the text the model read. When set, Resolve accepts only
	// names, quantities and units the message itself contains, so a model
	// cannot add a customer or a line the person never wrote.
	Message string
	// FromSlip marks a reading of a photo of an order slip: there is no
	// message to check it against, and a question may quote the slip's
	// words as read, since the person holds the slip and can check them.
	FromSlip bool
	Customer string // as written; "" when the message names none
	Payment  string // as written; "" when the message says nothing
	Items    []ExtractedItem
}

// ExtractedItem is one line as the model read it.
type ExtractedItem struct {
	Product string  // as written
	Qty     float64 // as said, in Unit
	Unit    string  // as written; "" means the product's base unit
}

// Hints is the vocabulary a model is shown to find names in a message:
// names, aliases and units only. No SKU, customer id or price leaves the
// catalog this way.
type Hints struct {
	Products  []ProductHint
	Customers []CustomerHint
}

// ProductHint is how one product may be called and counted.
type ProductHint struct {
	Name    string
	Aliases []string
	Unit    string   // the base unit
	Packs   []string // pack names: carton, box, dozen…
}

// CustomerHint is how one customer may be called.
type CustomerHint struct {
	Name    string
	Aliases []string
}

// Hints returns the parser's whole vocabulary, in a stable order (by SKU,
// then by customer id) so that requests built from it repeat exactly.
func (p *Parser) Hints() Hints {
	return p.hintsOf(slices.Sorted(maps.Keys(p.products)), slices.Sorted(maps.Keys(p.customers)))
}

func (p *Parser) hintsOf(skus, ids []string) Hints {
	h := Hints{Products: []ProductHint{}, Customers: []CustomerHint{}}
	for _, sku := range skus {
		x := p.products[sku]
		ph := ProductHint{Name: x.Name, Aliases: append([]string{}, x.Aliases...), Unit: x.Unit, Packs: []string{}}
		for _, ps := range x.PackSizes {
			ph.Packs = append(ph.Packs, ps.Name)
		}
		h.Products = append(h.Products, ph)
	}
	for _, id := range ids {
		c := p.customers[id]
		h.Customers = append(h.Customers, CustomerHint{Name: c.Name, Aliases: append([]string{}, c.Aliases...)})
	}
	return h
}

// Limits on what Resolve reads: longer fields are not names, and more
// lines than this are not one WhatsApp order.
const (
	maxFieldRunes     = 100
	maxQuotedRunes    = 40
	maxExtractedLines = 50
)

// Resolve maps an extraction onto the catalog and the customers with the
// parser's own Normalizer, the way Parse maps a message: each product text
// must name exactly one catalog product, the customer text exactly one
// customer, the payment one mode in the parser's words, the unit a pack or
// the base unit of that product, and the quantity a positive whole number
// of base units no larger than MaxQty. Anything else becomes a question in
// Unresolved: Resolve never guesses, and only returns SKUs and customer ids
// that exist. Only the message's own words are quoted back, so a person
// never reads words the model made up.
func (p *Parser) Resolve(ex Extraction) Parsed {
	r := resolver{p: p, ex: ex}
	if ex.Message != "" {
		r.msg = p.norm.Normalize(ex.Message)
	}
	var out Parsed
	r.customer(&out)
	r.payment(&out)
	r.items(&out)
	if out.Items == nil {
		out.Items = []Item{}
	}
	if out.Unresolved == nil {
		out.Unresolved = []string{}
	}
	return out
}

// resolver holds one Resolve call's message, read once.
type resolver struct {
	p   *Parser
	ex  Extraction
	msg intent.Normalized // the message, when there is one
}

// grounded reports whether the message names id (a SKU or a customer id)
// or contains the model's words. Without a message, everything is.
func (r *resolver) grounded(kind intent.EntityKind, id, text string) bool {
	if r.ex.Message == "" {
		return true
	}
	for _, e := range r.msg.Entities {
		if e.Kind != kind {
			continue
		}
		if e.ID == id {
			return true
		}
		for _, x := range e.IDs {
			if x == id {
				return true
			}
		}
	}
	return r.verbatim(text)
}

func (r *resolver) verbatim(text string) bool {
	_, ok := r.span(text)
	return ok
}

// span finds text's words in the message, compared in canonical form and
// whole words only, and returns the message's own spelling of them.
func (r *resolver) span(text string) (string, bool) {
	if r.ex.Message == "" || utf8.RuneCountInString(text) > maxFieldRunes {
		return "", false
	}
	want, have := r.p.norm.Normalize(text).Tokens, r.msg.Tokens
	if len(want) == 0 {
		return "", false
	}
	for i := 0; i+len(want) <= len(have); i++ {
		k := 0
		for k < len(want) && have[i+k].Text == want[k].Text {
			k++
		}
		if k < len(want) {
			continue
		}
		from, to := have[i].Start, have[i+k-1].End
		if from < 0 || from > to || to > len(r.ex.Message) {
			return "", false
		}
		return strings.TrimSpace(r.ex.Message[from:to]), true
	}
	return "", false
}

// quote returns the message's spelling of text, quoted, when the message
// has it and it is short enough to repeat; else "".
func (r *resolver) quote(text string) string {
	if r.ex.FromSlip {
		return slipQuote(text)
	}
	said, ok := r.span(strings.TrimSpace(text))
	if !ok || said == "" || utf8.RuneCountInString(said) > maxQuotedRunes {
		return ""
	}
	return strconv.Quote(said)
}

func (r *resolver) customer(out *Parsed) {
	text := strings.TrimSpace(r.ex.Customer)
	if text == "" {
		out.ask(Ask{Slot: SlotCustomer, Text: "Which customer is this order for?"})
		return
	}
	var ids []string
	var shared []string
	if utf8.RuneCountInString(text) <= maxFieldRunes {
		for _, e := range r.p.norm.Normalize(text).Entities {
			if e.Kind != intent.EntityCustomer {
				continue
			}
			if len(e.IDs) > 1 {
				shared = e.IDs
				continue
			}
			if !slices.Contains(ids, e.ID) {
				ids = append(ids, e.ID)
			}
		}
	}
	switch {
	case len(ids) == 1 && shared == nil:
		if !r.grounded(intent.EntityCustomer, ids[0], text) {
			out.ask(Ask{Slot: SlotCustomer, Text: "Which customer is this order for?"})
			return
		}
		out.CustomerID = ids[0]
	case len(ids) > 1 || (len(ids) == 1 && shared != nil):
		for _, id := range shared {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		sort.Strings(ids)
		out.Candidates = ids
		out.ask(Ask{Slot: SlotCustomer, Options: ids, Text: "Which customer is this order for: " + r.p.candidateList(ids, false) + "?"})
	case shared != nil:
		out.Candidates = append([]string(nil), shared...)
		out.ask(Ask{Slot: SlotCustomer, Options: out.Candidates, Text: "Which one do you mean: " + r.p.candidateList(out.Candidates, true) + "?"})
	default:
		if q := r.quote(text); q != "" {
			out.ask(Ask{Slot: SlotCustomer, Text: fmt.Sprintf("I don't know a customer called %s. Which customer is this order for? (Or ask the office to add them.)", q)})
		} else {
			out.ask(Ask{Slot: SlotCustomer, Text: "Which customer is this order for? Please use a name from the customer list."})
		}
	}
}

func (r *resolver) payment(out *Parsed) {
	text := strings.TrimSpace(r.ex.Payment)
	if text == "" {
		return
	}
	var modes []domain.PaymentMode
	if utf8.RuneCountInString(text) <= maxFieldRunes {
		modes = paymentModesIn(r.p.norm.Normalize(text))
	}
	switch len(modes) {
	case 0:
		all := make([]string, len(domain.PaymentModes))
		for i, m := range domain.PaymentModes {
			all[i] = ModeName(m)
		}
		if q := r.quote(text); q != "" {
			out.ask(Ask{Slot: SlotPayment, Text: fmt.Sprintf("I don't know the payment mode %s — %s?", q, orList(all))})
		} else {
			out.ask(Ask{Slot: SlotPayment, Text: "Which payment mode: " + orList(all) + "?"})
		}
	case 1:
		// A mode the message never mentions was made up: it is dropped, as
		// if the message said nothing, which is what Parse would read.
		if r.ex.Message == "" || slices.Contains(paymentModesIn(r.msg), modes[0]) {
			out.Payment = modes[0]
		}
	default:
		names := make([]string, len(modes))
		for i, m := range modes {
			names[i] = ModeName(m)
		}
		out.ask(Ask{Slot: SlotPayment, Text: "Which payment mode: " + orList(names) + "?"})
	}
}

// paymentModesIn lists the modes n names in the parser's words, in the
// order of domain.PaymentModes.
func paymentModesIn(n intent.Normalized) []domain.PaymentMode {
	found := map[domain.PaymentMode]bool{}
	for i, t := range n.Tokens {
		if m, ok := paymentWords[t.Text]; ok {
			found[m] = true
		}
		if i+1 < len(n.Tokens) {
			if m, ok := paymentPhrases[[2]string{t.Text, n.Tokens[i+1].Text}]; ok {
				found[m] = true
			}
		}
	}
	var modes []domain.PaymentMode
	for _, m := range domain.PaymentModes {
		if found[m] {
			modes = append(modes, m)
		}
	}
	return modes
}

func (r *resolver) items(out *Parsed) {
	switch {
	case len(r.ex.Items) == 0:
		out.ask(Ask{Text: "Which products and how many?"})
		return
	case len(r.ex.Items) > maxExtractedLines:
		out.ask(Ask{Text: fmt.Sprintf("That is more than %d lines for one order — please send it in parts.", maxExtractedLines)})
		return
	}
	bySKU := map[string]int{}
	for _, x := range r.ex.Items {
		item, problem := r.item(x)
		if problem.Text != "" {
			if !slices.Contains(out.Unresolved, problem.Text) {
				out.ask(problem)
			}
			continue
		}
		if k, ok := bySKU[item.SKU]; ok {
			out.Items[k].Qty += item.Qty
			out.Items[k].SaidQty, out.Items[k].SaidUnit = 0, ""
			if out.Items[k].Qty > MaxQty {
				prod := r.p.products[item.SKU]
				out.ask(Ask{Text: fmt.Sprintf("%s adds up to more than %d %s — please check the quantities.", prod.Name, MaxQty, domain.Plural(prod.Unit, 2))})
			}
			continue
		}
		bySKU[item.SKU] = len(out.Items)
		out.Items = append(out.Items, item)
	}
}

// item resolves one line, or says what to ask instead.
func (r *resolver) item(x ExtractedItem) (Item, Ask) {
	text := strings.TrimSpace(x.Product)
	var skus []string
	if text != "" && utf8.RuneCountInString(text) <= maxFieldRunes {
		for _, e := range r.p.norm.Normalize(text).Entities {
			if e.Kind != intent.EntityProduct {
				continue
			}
			for _, id := range append([]string{e.ID}, e.IDs...) {
				if !slices.Contains(skus, id) {
					skus = append(skus, id)
				}
			}
		}
	}
	switch {
	case len(skus) == 0 && r.ex.FromSlip:
		return Item{}, r.unknownOnSlip(x, text)
	case len(skus) == 0:
		if q := r.quote(text); q != "" {
			return Item{}, Ask{Text: fmt.Sprintf("I don't know the product %s. Please use a name from the catalog.", q)}
		}
		return Item{}, Ask{Text: "One of the products is not in the catalog. Please use names from the catalog."}
	case len(skus) > 1:
		sort.Strings(skus)
		names := make([]string, len(skus))
		for i, id := range skus {
			names[i] = r.p.products[id].Name
		}
		return Item{}, Ask{Slot: SlotProduct, Options: skus, Said: r.said(x), Words: text, Text: "Which product do you mean: " + orList(names) + "?"}
	}
	prod := r.p.products[skus[0]]
	if !r.grounded(intent.EntityProduct, prod.SKU, text) {
		return Item{}, Ask{Text: fmt.Sprintf("I could not find %s in your message — please send the order again with the product's name.", prod.Name)}
	}

	unit, ok := r.unit(x.Unit)
	if !ok {
		if q := r.quote(x.Unit); q != "" {
			return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("%s does not come in %s — %s?", prod.Name, q, unitChoices(prod))}
		}
		return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s, and in which unit? (%s)", prod.Name, unitChoices(prod))}
	}
	per, ok := r.p.perUnit(prod, &quantity{unit: unit})
	switch {
	case !ok:
		return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("%s does not come in %s — %s?", prod.Name, domain.Plural(unit, 2), unitChoices(prod))}
	case per != 1 && !r.saidUnit(unit):
		return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s, and in which unit? (%s)", prod.Name, unitChoices(prod))}
	case per == 1:
		unit = prod.Unit
	}

	// Quantities are never repeated back: the message may not contain
	// the model's number.
	v := x.Qty
	total := v * float64(per)
	switch {
	case !r.saidNumber(v):
		return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s? (%s)", prod.Name, unitChoices(prod))}
	case math.IsNaN(v) || math.IsInf(v, 0) || total > MaxQty:
		return Item{}, Ask{Text: fmt.Sprintf("The quantity of %s looks wrong — please check it.", prod.Name)}
	case v <= 0:
		return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s? The quantity must be more than zero. (%s)", prod.Name, unitChoices(prod))}
	case total != math.Trunc(total):
		return Item{}, Ask{Slot: SlotQuantity, SKU: prod.SKU, Text: fmt.Sprintf("How many %s? That is not a whole number of %s. (%s)", prod.Name, domain.Plural(prod.Unit, 2), unitChoices(prod))}
	}
	said := int64(v)
	if float64(said) != v {
		said, unit = int64(total), prod.Unit
	}
	return Item{SKU: prod.SKU, Qty: int64(total), SaidQty: said, SaidUnit: unit}, Ask{}
}

// unknownOnSlip asks about a line of a slip that names no product of the
// catalog: quoting the slip's words when it could read them, so the
// answer ("hand wash", "dettol nahi, hand wash 10") fills that line.
func (r *resolver) unknownOnSlip(x ExtractedItem, text string) Ask {
	a := Ask{Slot: SlotUnknown, Said: r.said(x)}
	if q := slipQuote(text); q != "" {
		a.Words = slipWords(text)
		a.Text = fmt.Sprintf("I can't find %s from the slip in the catalog. Which product is it%s?", q, howMany(a.Said))
		return a
	}
	a.Text = fmt.Sprintf("I couldn't read one line of the slip. Which product is it%s?", howMany(a.Said))
	return a
}

// howMany adds ", and how many" to a question whose line had no readable
// quantity.
func howMany(s *Said) string {
	if s == nil {
		return ", and how many"
	}
	return ""
}

// said is a line's quantity as the model read it, kept for the product
// an answer names; nil when it read none.
func (r *resolver) said(x ExtractedItem) *Said {
	if x.Qty <= 0 || math.IsNaN(x.Qty) || math.IsInf(x.Qty, 0) || x.Qty > MaxQty || !r.saidNumber(x.Qty) {
		return nil
	}
	unit, ok := r.unit(x.Unit)
	if !ok || (unit != "" && !r.saidUnit(unit)) {
		return nil
	}
	return &Said{Value: x.Qty, Unit: unit}
}

// unreadableMarks are what a reading of a slip writes for a line it
// could not read; slipQuote never repeats them.
var unreadableMarks = []string{"?", "unreadable", "illegible"}

// slipWords are words read off a slip as a question repeats them: plain
// text on one line.
func slipWords(text string) string {
	return strings.Join(strings.Fields(domain.PlainText(text, maxFieldRunes+1)), " ")
}

// slipQuote quotes words read off a slip, tidied and short, or "" for
// none worth repeating.
func slipQuote(text string) string {
	t := slipWords(text)
	if t == "" || utf8.RuneCountInString(t) > maxQuotedRunes {
		return ""
	}
	for _, m := range unreadableMarks {
		if strings.EqualFold(strings.Trim(t, "?.[]() "), strings.Trim(m, "?")) {
			return ""
		}
	}
	return strconv.Quote(t)
}

// canonical spells a catalog unit the way the Normalizer spells units.
func (r *resolver) canonical(name string) string {
	if u, ok := r.unit(name); ok {
		return u
	}
	return strings.ToLower(strings.TrimSpace(name))
}

// unit canonicalises a unit as written ("peti", "ctns") with the parser's
// Normalizer. A unit that is an ordinary word too ("bar", "can") is only
// read beside a number, so one is put before it.
func (r *resolver) unit(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", true
	}
	if utf8.RuneCountInString(text) > maxQuotedRunes {
		return "", false
	}
	n := r.p.norm.Normalize("1 " + text)
	var unit string
	for _, e := range n.Entities {
		switch e.Kind {
		case intent.EntityUnit:
			if unit != "" && unit != e.ID {
				return "", false
			}
			unit = e.ID
		case intent.EntityNumber:
			if e.Start != 0 {
				return "", false // "2 dozen" is a quantity, not a unit
			}
		default:
			return "", false
		}
	}
	return unit, unit != ""
}

// saidUnit reports whether the message names unit (after canonicalising).
func (r *resolver) saidUnit(unit string) bool {
	if r.ex.Message == "" {
		return true
	}
	for _, e := range r.msg.Entities {
		if e.Kind == intent.EntityUnit && e.ID == unit {
			return true
		}
	}
	return false
}

// saidNumber reports whether the message says the quantity v, in digits or
// in words.
func (r *resolver) saidNumber(v float64) bool {
	if r.ex.Message == "" {
		return true
	}
	for _, e := range r.msg.Entities {
		if e.Kind == intent.EntityNumber && e.Value == v {
			return true
		}
	}
	return false
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
