package orders

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// The books after an order are kept from three kinds of message, read
// here the way orders are: against the catalog and the customers, and
// anything not settled becomes a question, never a guess.

// PaymentNote is what a payment message says: who paid, how much, how, and
// the cheque or transfer reference.
type PaymentNote struct {
	CustomerID string             `json:"customer_id"`
	Amount     domain.Paise       `json:"amount_paise"`
	Mode       domain.PaymentMode `json:"mode"`
	Reference  string             `json:"reference"`
	Unresolved []string           `json:"-"`
	// Candidates are the customers a shared name could mean, when the
	// first question asks which one paid.
	Candidates []string `json:"-"`
}

// DeliveryNote is what a delivery message says: the order (or only its
// customer), and what of it did not reach the customer.
type DeliveryNote struct {
	OrderID string `json:"order_id"`
	// Short are the quantities not delivered ("GC 5 carton kam"); Only the
	// quantities that were, when the message says so ("sirf 3 carton GC
	// gaya"). Base units.
	Short      []Item   `json:"short"`
	Only       []Item   `json:"-"`
	Unresolved []string `json:"-"`
	// Said are the quantities a message names with no word that they
	// were short or all that went; shortOrAll asks which.
	Said []Item `json:"-"`

	// CustomerID is the customer a message names instead of an order
	// ("Rajesh ka maal de diya"), when it names no order; Candidates the
	// customers a shared name could mean, when the first question asks
	// which one.
	CustomerID string   `json:"-"`
	Candidates []string `json:"-"`

	// Units is the unit each product's quantity was said in ("bottle"),
	// so that the summary answers in it.
	Units map[string]string `json:"-"`
}

// ReceiptNote is what a goods-received message says.
type ReceiptNote struct {
	Items []Item `json:"items"`
	// FromWIP says the goods came out of the company's own production
	// (work in progress becomes ready stock), not from outside.
	FromWIP bool `json:"from_wip"`
	// Damaged is the part of the goods said to have come damaged, already
	// taken off Items.
	Damaged    []Item   `json:"damaged,omitempty"`
	Unresolved []string `json:"-"`
}

// ReadPayment reads a payment message.
func (p *Parser) ReadPayment(text string) PaymentNote {
	// In ASCII digits "१८,५००" groups as 18,500 does, and a cheque
	// number is written as the bank writes it.
	text = asciiDigits(text)
	n := p.heard(text)
	r := newReading(text, n)
	var note PaymentNote
	ref := p.reference(r)
	if ref >= 0 {
		end := spacedGroups(r, ref)
		note.Reference = strings.ToUpper(strings.Trim(strings.ReplaceAll(r.source(r.toks[ref].Start, r.toks[end].End), " ", ""), ".,;:#-"))
		for i := ref; i <= end; i++ {
			r.used[i] = true
		}
	}
	paidFor(r)
	var as []amount
	for _, a := range amounts(r) {
		if !r.used[a.start] && r.kind(a.start) != intent.EntityCustomer {
			as = append(as, a)
		}
	}
	if marked := markedOnly(as); len(marked) > 0 {
		as = marked
	}
	switch len(as) {
	case 0:
		note.Unresolved = append(note.Unresolved, "How much was paid? Please write the amount, e.g. 50000, 50k or 1.2 lakh.")
	case 1:
		note.Amount = as[0].paise
		for i := as[0].start; i < as[0].end; i++ {
			r.used[i] = true
		}
	default:
		var said []string
		for _, a := range as {
			said = append(said, a.paise.String())
		}
		note.Unresolved = append(note.Unresolved, "How much was paid: "+orList(said)+"?")
	}
	note.Mode = paymentModeOf(r)
	if note.Mode == "" {
		note.Unresolved = append(note.Unresolved, "How was it paid: cash, UPI, cheque or bank transfer?")
	}
	id, question, candidates := p.payer(r)
	note.CustomerID, note.Candidates = id, candidates
	if question != "" {
		note.Unresolved = append([]string{question}, note.Unresolved...)
	}
	return note
}

// spacedGroups is the last token of a reference written in groups of
// digits with single spaces between ("UTR 4199 0021 7733"), from its
// first group at i: the groups are one number, not amounts.
func spacedGroups(r *reading, i int) int {
	end := i
	for j := i + 1; j < len(r.toks) && len(r.toks[j].Text) >= 3 && isDigits(r.toks[j].Text) &&
		len(r.toks[end].Text) == 4 && isDigits(r.toks[end].Text) &&
		r.source(r.toks[end].End, r.toks[j].Start) == " "; j++ {
		end = j
	}
	return end
}

// paidFor claims the number of an order a payment is for ("4,200 diye
// order 1187 ke", "1318 wale order ka pura payment"), which is not the
// amount paid.
func paidFor(r *reading) {
	for k, e := range r.ents {
		if e.Kind != intent.EntityNumber || orderNumberAt(r, k) != numberMarked {
			continue
		}
		before := r.word(e.Start - 1)
		if numberWords[before] {
			before = r.word(e.Start - 2)
		}
		if orderWords[before] || r.word(e.End) == "wala" && orderWords[r.word(e.End+1)] {
			for i := e.Start; i < e.End; i++ {
				r.used[i] = true
			}
		}
	}
}

func markedOnly(as []amount) []amount {
	var out []amount
	for _, a := range as {
		if a.marked {
			out = append(out, a)
		}
	}
	return out
}

// A payment's reference is found by what marks it, strongest first:
// a word that says "reference" ("ref", "UTR", "txn id", "chq no"), a
// reference written as one word ("UTR991"), then a way of paying followed
// by something that looks like one ("cheque 123456", "neft N12345").
var (
	referenceWords = map[string]bool{"ref": true, "reference": true, "refno": true, "utr": true, "txn": true,
		"transaction": true, "trxn": true, "rrn": true}
	referenceFillers = map[string]bool{"no": true, "number": true, "num": true, "nos": true, "id": true, "ref": true,
		"reference": true, "refno": true, "utr": true, "txn": true, "#": true, "nr": true, "नंबर": true, "नं": true, "संख्या": true}
	modeReferenceWords = map[string]bool{"cheque": true, "chq": true, "cheq": true, "check": true, "chek": true, "upi": true,
		"neft": true, "rtgs": true, "imps": true, "चेक": true}
	referencePrefixes = []string{"utr", "txn", "ref", "chq", "neft", "rtgs", "imps", "upi"}
)

// reference finds the token holding the payment's reference, or -1.
func (p *Parser) reference(r *reading) int {
	after := func(i int) int { // the reference-like token after a marker at i
		j := i + 1
		for j < len(r.toks) && referenceFillers[r.toks[j].Text] {
			j++
		}
		// A reference is written as one word: "1.2 lakh", read as one
		// number, is the amount after the way of paying.
		if j < len(r.toks) && r.kind(j) != intent.EntityCustomer && looksLikeReference(r.toks[j].Text) &&
			!strings.ContainsAny(r.source(r.toks[j].Start, r.toks[j].End), ", ") && (!r.moneyMark(j, j+1) || r.opensNextAmount(j)) {
			return j
		}
		return -1
	}
	for i, t := range r.toks {
		// "chq no 220915" says reference as surely as "ref" does, before
		// the "cheque 40000" of the amount.
		marked := referenceWords[t.Text] || modeReferenceWords[t.Text] && referenceFillers[r.word(i+1)]
		if marked && r.kind(i) == "" {
			if j := after(i); j >= 0 {
				return j
			}
		}
	}
	for i, t := range r.toks {
		for _, pre := range referencePrefixes {
			rest := strings.TrimPrefix(t.Text, pre)
			if rest != t.Text && len(rest) >= 3 && hasDigit(rest) && r.kind(i) == "" {
				return i
			}
		}
	}
	for i, t := range r.toks {
		if modeReferenceWords[t.Text] && r.kind(i) == "" {
			if j := after(i); j >= 0 && r.word(j+1) != "k" && amountSuffixes[r.word(j+1)] == 0 {
				return j
			}
		}
	}
	// "cheque mila, no. 302211": with a cheque named anywhere, "no" before
	// six digits or more is its number ("15k ka check liya no 663120"
	// writes the cheque as check).
	cheque := false
	for _, t := range r.toks {
		cheque = cheque || t.Text == "cheque" || t.Text == "check"
	}
	if !cheque {
		return -1
	}
	for i, t := range r.toks {
		if numberWords[t.Text] && r.kind(i) == "" {
			if j := after(i); j >= 0 && len(r.toks[j].Text) >= 6 && r.word(j+1) != "k" && amountSuffixes[r.word(j+1)] == 0 {
				return j
			}
		}
	}
	return -1
}

// opensNextAmount reports that the only mark of money beside token j is
// a currency word after it that begins the next amount: in "chq 220044
// Rs 60000" the rupees are the 60000, and 220044 is the cheque.
func (r *reading) opensNextAmount(j int) bool {
	if currencyWords[r.word(j-1)] || !currencyWords[r.word(j+1)] || r.kind(j+2) != intent.EntityNumber {
		return false
	}
	before := strings.ToLower(strings.TrimRight(r.source(r.toks[j].Start-3, r.toks[j].Start), " "))
	return !strings.HasSuffix(before, "₹") && !strings.HasSuffix(before, "rs") && !strings.HasSuffix(before, "rs.")
}

// asciiDigits writes Devanagari digits in ASCII: "१८,५००" is 18,500 and
// "चेक नं ११२२३३" cheque 112233.
func asciiDigits(s string) string {
	return strings.Map(func(c rune) rune {
		if c >= '०' && c <= '९' {
			return '0' + (c - '०')
		}
		return c
	}, s)
}

// looksLikeReference: letters and digits, at least four, with a digit.
func looksLikeReference(s string) bool {
	if len(s) < 4 || len(s) > 40 || !hasDigit(s) {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-' || c == '/') {
			return false
		}
	}
	return true
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// paymentModeOf is the way the money came, from the words outside names.
// Credit is how an order is paid, not how money arrives: it is not one.
func paymentModeOf(r *reading) domain.PaymentMode {
	var out Parsed
	payment(r, &out)
	if out.Payment == domain.PayCredit {
		return ""
	}
	if out.Payment == "" {
		for i, t := range r.toks {
			// "check" alone is a cheque in a payment message; a UTR, with
			// no other way said, is the bank's number for a transfer.
			if t.Text == "check" && r.kind(i) == "" {
				return domain.PayCheque
			}
			if t.Text == "utr" {
				return domain.PayBankTransfer
			}
		}
	}
	return out.Payment
}

// payer is the customer a payment message names, or the question to ask.
func (p *Parser) payer(r *reading) (string, string, []string) {
	var named [][]string
	for _, e := range r.ents {
		if e.Kind == intent.EntityCustomer {
			named = append(named, e.Candidates())
		}
	}
	ids := unsettled(named) // "Sharma … Sharma General Store"
	switch {
	case len(ids) == 0:
		if name := p.unlisted(r, payerFrom, payerMarks); name != "" {
			return "", fmt.Sprintf("I don't know a customer called %q. Please send the name as it is in the customer list.", name), nil
		}
		return "", "Which customer paid? Please send their name as it is in the customer list.", nil
	case len(ids) > 1 && !sameIDs(ids):
		var names, cands []string
		for _, set := range ids {
			names, cands = append(names, p.customerName(set[0])), append(cands, set[0])
		}
		return "", "Which customer paid: " + orList(names) + "?", cands
	case len(ids[0]) > 1:
		var names []string
		for _, id := range ids[0] {
			names = append(names, p.customerName(id))
		}
		return "", "Which one: " + orList(names) + "?", ids[0]
	}
	return ids[0][0], "", nil
}

func sameIDs(sets [][]string) bool {
	for _, s := range sets[1:] {
		if strings.Join(s, ",") != strings.Join(sets[0], ",") {
			return false
		}
	}
	return true
}

func (p *Parser) customerName(id string) string {
	if c, ok := p.customers[id]; ok {
		return c.Name
	}
	return id
}

// shortWords mark what did not reach the customer; onlyWords what did.
var (
	shortWords = map[string]bool{"kam": true, "kum": true, "short": true, "less": true, "missing": true, "return": true,
		"returned": true, "wapas": true, "vapas": true, "baki": true, "baaki": true, "pending": true, "undelivered": true,
		"कम": true, "वापस": true, "बाकी": true, "shortage": true, "damaged": true, "damage": true, "toota": true, "tuta": true}
	onlyWords = map[string]bool{"only": true, "sirf": true, "keval": true, "bas": true, "सिर्फ": true, "केवल": true}
)

// ReadDelivery reads a delivery message. It names its order by number,
// or only its customer ("Rajesh ka maal de diya"): then CustomerID is set
// and the order is found in the books among the customer's open ones.
func (p *Parser) ReadDelivery(text string) DeliveryNote { return p.deliveryFor(text, "", nil) }

// deliveryFor reads a delivery message whose customer, when it names no
// order, is customer if that is set: an answer chose it.
func (p *Parser) deliveryFor(text, customer string, goods []string) DeliveryNote {
	n := within(p.heard(text), goods)
	var note DeliveryNote
	at := -1
	ms := orderMentions(newReading(text, n))
	if distinctOrders(ms) > 1 {
		return DeliveryNote{Unresolved: []string{"Which one order was delivered? Please send one order number at a time."}}
	}
	switch {
	case len(ms) > 0:
		note.OrderID, at = ms[0].ref, ms[0].at
	case customer != "":
		note.CustomerID = customer
	default:
		id, question, candidates := p.deliveredTo(newReading(text, n))
		note.CustomerID, note.Candidates = id, candidates
		if question != "" {
			note.Unresolved = append(note.Unresolved, question)
		}
		if id == "" && len(candidates) == 0 {
			return note
		}
	}
	// What else the message says is about quantities: read them as an
	// order's items, without the order number.
	rest := n
	if at >= 0 {
		rest.Entities = append(append([]intent.Entity(nil), n.Entities[:at]...), n.Entities[at+1:]...)
	}
	r := newReading(text, rest)
	short, only := false, false
	for i, t := range r.toks {
		short = short || shortWords[t.Text]
		only = only || onlyWords[t.Text]
		// "harpic ke 3 carton nahi gaye": goods that did not go.
		if negations[t.Text] && i > 0 && (r.kind(i-1) == intent.EntityUnit || r.kind(i-1) == intent.EntityProduct) {
			short = true
		}
	}
	// Goods named with no quantity and no word of short or only describe
	// the order ("B-3303 wala pipe ka order deliver ho gaya"); they say
	// nothing of how much went.
	if !hasQuantityOrProduct(rest) || !rest.Has(intent.EntityNumber) && !short && !only {
		return note
	}
	var out Parsed
	p.items(r, &out)
	note.Unresolved = append(note.Unresolved, out.Unresolved...)
	switch {
	case short:
		note.Short, note.Units = out.Items, saidUnits(out.Items)
	case only:
		note.Only, note.Units = out.Items, saidUnits(out.Items)
	default:
		note.Said = out.Items
		note.Unresolved = append(note.Unresolved, shortOrAll)
	}
	return note
}

// shortOrAll asks what quantities named with a delivery mean.
const shortOrAll = "Were those quantities short (say \"GC 5 carton kam\") or all that was delivered (say \"sirf 3 carton GC gaya\")?"

// within narrows the products a shared name may mean to the goods of the
// order meant, when that leaves one: "phenyl" in an order of Phenyl 1L.
func within(n intent.Normalized, goods []string) intent.Normalized {
	if len(goods) == 0 {
		return n
	}
	ents := slices.Clone(n.Entities)
	for i, e := range ents {
		if e.Kind != intent.EntityProduct || len(e.IDs) < 2 {
			continue
		}
		var in []string
		for _, id := range e.IDs {
			if slices.Contains(goods, id) {
				in = append(in, id)
			}
		}
		if len(in) == 1 {
			ents[i].ID, ents[i].IDs = in[0], nil
		}
	}
	n.Entities = ents
	return n
}

// gujaratiOf reports "no" at i as Gujarati's "of" before the goods or
// the order: "Mehta Masala Bhandar no maal pahochadi didho".
func gujaratiOf(r *reading, i int) bool {
	return r.toks[i].Text == "no" && i+1 < len(r.toks) && ofGoods[r.toks[i+1].Text]
}

var ofGoods = words(`maal order orders goods saman`)

// deliveredTo is the customer a delivery message names when it names no
// order, or the question to ask and the customers it offers.
func (p *Parser) deliveredTo(r *reading) (string, string, []string) {
	var named [][]string
	for _, e := range r.ents {
		if e.Kind != intent.EntityCustomer || e.End < len(r.toks) && negations[r.toks[e.End].Text] && !gujaratiOf(r, e.End) {
			continue // "Rajesh nahi, Mehta ka"
		}
		named = append(named, e.Candidates())
	}
	ids := unsettled(named)
	switch {
	case len(ids) == 0:
		if name := p.unlisted(r, placeAt, placeMarks); name != "" {
			return "", fmt.Sprintf("I don't know a customer called %q. Which order was delivered? Please send its number, e.g. ORD-1042, or the customer's name as it is in the customer list.", name), nil
		}
		return "", "Which order was delivered? Please send its number (e.g. ORD-1042 delivered) or the customer's name.", nil
	case len(ids) > 1 && !sameIDs(ids):
		var names, cands []string
		for _, set := range ids {
			names, cands = append(names, p.customerName(set[0])), append(cands, set[0])
		}
		return "", "Whose order was delivered: " + orList(names) + "? Please send one customer at a time.", cands
	case len(ids[0]) > 1:
		var names []string
		for _, id := range ids[0] {
			names = append(names, p.customerName(id))
		}
		return "", "Which customer's order was delivered: " + orList(names) + "?", ids[0]
	}
	return ids[0][0], "", nil
}

func hasQuantityOrProduct(n intent.Normalized) bool {
	return n.Has(intent.EntityProduct) || n.Has(intent.EntityNumber)
}

// wipWords say the goods came out of the company's own production.
var wipWords = map[string]bool{"production": true, "prodn": true, "factory": true, "plant": true, "wip": true,
	"ready": true, "taiyar": true, "tayyar": true, "taiyaar": true, "bana": true, "bane": true, "bani": true, "banke": true,
	"manufactured": true, "produced": true, "packed": true, "packing": true, "उत्पादन": true, "तैयार": true, "फैक्ट्री": true,
	"output": true, "shift": true, "bottling": true, "bhara": true, "bhari": true, "fill": true, "filled": true}

// ReadReceipt reads a goods-received message. A part said to be damaged
// ("45 ctn aa gaya, 1 ctn leak") is read apart, as Damaged, and taken
// off what came: damaged goods are not ready stock.
func (p *Parser) ReadReceipt(text string) ReceiptNote {
	n := p.heard(text)
	r := newReading(text, n)
	var note ReceiptNote
	for i, t := range r.toks {
		if wipWords[t.Text] && r.kind(i) == "" {
			note.FromWIP = true
		}
	}
	arrived, damaged := damagedParts(n)
	var out Parsed
	p.items(newReading(text, arrived), &out)
	note.Items, note.Unresolved = out.Items, out.Unresolved
	for _, part := range damaged {
		var d Parsed
		p.items(newReading(part, p.heard(part)), &d)
		note.Damaged = append(note.Damaged, d.Items...)
		note.Unresolved = append(note.Unresolved, d.Unresolved...)
	}
	note.Items, note.Unresolved = netOfDamage(note.Items, note.Damaged, note.Unresolved)
	return note
}

// itemJSON is an item as the route contract writes it.
type itemJSON struct {
	SKU string `json:"sku"`
	Qty int64  `json:"qty"`
}

func itemsJSON(items []Item) []itemJSON {
	out := make([]itemJSON, 0, len(items))
	for _, it := range items {
		out = append(out, itemJSON{it.SKU, it.Qty})
	}
	return out
}

// nullable is s, or null when it is empty.
func nullable[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// MarshalJSON writes the contract's shape: what was not read is null.
func (n PaymentNote) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		CustomerID *string             `json:"customer_id"`
		Amount     *domain.Paise       `json:"amount_paise"`
		Mode       *domain.PaymentMode `json:"mode"`
		Reference  *string             `json:"reference"`
	}{nullable(n.CustomerID), nullable(n.Amount), nullable(n.Mode), nullable(n.Reference)})
}

// MarshalJSON writes the contract's shape.
func (n DeliveryNote) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		OrderID *string    `json:"order_id"`
		Short   []itemJSON `json:"short"`
	}{nullable(n.OrderID), itemsJSON(n.Short)})
}

// MarshalJSON writes the contract's shape.
func (n ReceiptNote) MarshalJSON() ([]byte, error) {
	var damaged []itemJSON
	if len(n.Damaged) > 0 {
		damaged = itemsJSON(n.Damaged)
	}
	return json.Marshal(struct {
		Items   []itemJSON `json:"items"`
		FromWIP bool       `json:"from_wip"`
		Damaged []itemJSON `json:"damaged,omitempty"`
	}{itemsJSON(n.Items), n.FromWIP, damaged})
}

// hearer reads a message with its Devanagari words nobody listed heard as
// the catalog's names they sound like (intent.Router.Hear).
type hearer interface {
	Hear(text string) intent.Normalized
}

// heard reads a note's message, hearing names by their sound when the
// normaliser can: a note is shown as a summary before its "ok", so a name
// guessed by sound ("हार्पिक" for Harpic) is seen before it changes the
// books.
func (p *Parser) heard(text string) intent.Normalized {
	if h, ok := p.norm.(hearer); ok {
		return h.Hear(text)
	}
	return p.norm.Normalize(text)
}
