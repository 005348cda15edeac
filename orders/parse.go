package orders

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Parsed is what an order message says, resolved against the catalog and
// the customers. Anything that could not be resolved is a question in
// Unresolved: the parser never guesses.
type Parsed struct {
	CustomerID string             `json:"customer_id"`
	Payment    domain.PaymentMode `json:"payment"`
	Items      []Item             `json:"items"`
	Unresolved []string           `json:"unresolved"`
	// Candidates are the customers a shared name could mean.
	Candidates []string `json:"-"`
}

// MarshalJSON writes the contract's shape: customer_id and payment are null
// when the message did not settle them.
func (p Parsed) MarshalJSON() ([]byte, error) {
	type item struct {
		SKU string `json:"sku"`
		Qty int64  `json:"qty"`
	}
	out := struct {
		CustomerID *string  `json:"customer_id"`
		Payment    *string  `json:"payment"`
		Items      []item   `json:"items"`
		Unresolved []string `json:"unresolved"`
	}{Items: []item{}, Unresolved: p.Unresolved}
	if p.CustomerID != "" {
		out.CustomerID = &p.CustomerID
	}
	if p.Payment != "" {
		m := string(p.Payment)
		out.Payment = &m
	}
	for _, it := range p.Items {
		out.Items = append(out.Items, item{it.SKU, it.Qty})
	}
	if out.Unresolved == nil {
		out.Unresolved = []string{}
	}
	return json.Marshal(out)
}

// Complete reports whether the order can be priced: a customer, at least one
// item, and nothing left to ask.
func (p Parsed) Complete() bool {
	return p.CustomerID != "" && len(p.Items) > 0 && len(p.Unresolved) == 0
}

// MaxQty bounds one line, in base units: more is a typo, not an order.
const MaxQty = 1_000_000

// Normalizer recognises the catalog's and customers' names in a message.
type Normalizer interface {
	Normalize(text string) intent.Normalized
}

// Parser reads order messages for one catalog and customer list. It is
// immutable after NewParser and safe for concurrent use.
type Parser struct {
	norm      Normalizer
	products  map[string]domain.Product
	customers map[string]domain.Customer
	// sizes are the sizes printed in each product's name ("500ml"): a size
	// written beside the product must agree with one of them.
	sizes map[string][]measure
	// byMeasure holds the products whose base unit is a measure (kg,
	// litre): for them "50 kg" is a quantity, not a pack size.
	byMeasure map[string]measure
	// units holds each product's units by canonical name, in base units:
	// {"bottle": 1, "carton": 24, "box": 6}.
	units map[string]map[string]int64
	// customerNames are each customer's name and aliases in canonical words.
	customerNames map[string][][]string
	// hints is the index HintsFor reads in a large catalog, built once.
	hintOnce sync.Once
	hints    *hintIndex
	// unitSpellings maps the catalog's unit words, singular and plural, to
	// their canonical names: "bundles" → "bundle".
	unitSpellings map[string]string
}

// NewParser returns a parser; norm must have been built with the same
// products and customers.
func NewParser(norm Normalizer, products []domain.Product, customers []domain.Customer) *Parser {
	p := &Parser{norm: norm, products: make(map[string]domain.Product, len(products)),
		customers: make(map[string]domain.Customer, len(customers)), sizes: make(map[string][]measure, len(products)),
		byMeasure: map[string]measure{}, units: make(map[string]map[string]int64, len(products))}
	// A catalog has a few dozen unit and pack names for all its products,
	// and customers share names ("Gupta ji"): each is read once.
	cat := catalogWords{canonical: map[string]string{}, measures: map[string]measureOf{}, names: map[string][]string{},
		unitSets: map[string]map[string]int64{}, last: map[string]int{}}
	for _, x := range products {
		p.products[x.SKU] = x
		p.units[x.SKU] = cat.units(x)
		cat.unitName(x.Unit)
		for _, ps := range x.PackSizes {
			cat.unitName(ps.Name)
		}
		for _, e := range intent.Normalize(x.Name).Entities {
			if m, ok := parseMeasure(e.ID); ok && e.Kind == intent.EntitySize {
				p.sizes[x.SKU] = append(p.sizes[x.SKU], m)
			}
		}
		if m, ok := cat.measure(x.Unit); ok {
			p.byMeasure[x.SKU] = m
		}
	}
	p.unitSpellings = cat.spellings()
	p.customerNames = make(map[string][][]string, len(customers))
	for _, c := range customers {
		p.customers[c.ID] = c
		if ws := cat.words(c.Name); len(ws) > 0 {
			p.customerNames[c.ID] = append(p.customerNames[c.ID], ws)
		}
		for _, a := range c.Aliases {
			if ws := cat.words(a); len(ws) > 0 {
				p.customerNames[c.ID] = append(p.customerNames[c.ID], ws)
			}
		}
	}
	return p
}

// catalogWords reads the words a catalog repeats, each once.
type catalogWords struct {
	canonical map[string]string    // unit name → canonicalUnit
	measures  map[string]measureOf // base unit → the measure it is
	names     map[string][]string  // customer name → its canonical words
	// unitSets are the units of the products sold in the same units and
	// packs, shared: by their base unit and packs, written as a key.
	unitSets map[string]map[string]int64
	key      []byte
	// last is where each unit or pack name was last named.
	last  map[string]int
	named int
}

type measureOf struct {
	m  measure
	ok bool
}

func (c *catalogWords) canonicalUnit(name string) string {
	u, ok := c.canonical[name]
	if !ok {
		u = canonicalUnit(name)
		c.canonical[name] = u
	}
	return u
}

// units are the product's units by canonical name, in base units, shared
// by the products sold the same way (the maps are never written after).
func (c *catalogWords) units(x domain.Product) map[string]int64 {
	// Each name's length before it, so that no two lists write one key.
	k := strconv.AppendInt(c.key[:0], int64(len(x.Unit)), 10)
	k = append(append(k, ':'), x.Unit...)
	for _, ps := range x.PackSizes {
		k = strconv.AppendInt(k, int64(len(ps.Name)), 10)
		k = append(append(k, ':'), ps.Name...)
		k = append(strconv.AppendInt(k, ps.Units, 10), ';')
	}
	c.key = k
	if u, ok := c.unitSets[string(k)]; ok {
		return u
	}
	u := productUnitsIn(x, c.canonicalUnit)
	c.unitSets[string(k)] = u
	return u
}

// unitName notes a unit or pack name the catalog uses.
func (c *catalogWords) unitName(name string) {
	c.named++
	c.last[name] = c.named
}

// spellings maps the singular and plural spellings of the catalog's unit
// and pack names to their canonical names: "bundles" → "bundle". Where
// two names share a spelling, the one named last wins.
func (c *catalogWords) spellings() map[string]string {
	names := make([]string, 0, len(c.last))
	for name := range c.last {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return c.last[names[i]] < c.last[names[j]] })
	out := map[string]string{}
	for _, name := range names {
		u, w := c.canonicalUnit(name), strings.ToLower(strings.TrimSpace(name))
		for _, s := range []string{u, u + "s", u + "es", w, w + "s", w + "es"} {
			if hasLetter(s) {
				out[s] = u
			}
		}
	}
	return out
}

// measure is the measure a product's base unit is ("kg", "litre"), if it
// is one.
func (c *catalogWords) measure(unit string) (measure, bool) {
	u := strings.TrimSpace(unit)
	if u == "" {
		return measure{}, false
	}
	mo, ok := c.measures[u]
	if !ok {
		if es := intent.Normalize("1 " + u).Entities; len(es) == 1 && es[0].Kind == intent.EntitySize {
			mo.m, mo.ok = parseMeasure(es[0].ID)
		}
		c.measures[u] = mo
	}
	return mo.m, mo.ok
}

// words are a customer's name or alias in canonical words.
func (c *catalogWords) words(name string) []string {
	ws, ok := c.names[name]
	if !ok {
		for _, t := range intent.Normalize(name).Tokens {
			ws = append(ws, t.Text)
		}
		c.names[name] = ws
	}
	return ws
}

// Products returns the catalog the parser knows, by SKU.
func (p *Parser) Products() map[string]domain.Product { return p.products }

// Customer returns a customer by id.
func (p *Parser) Customer(id string) (domain.Customer, bool) {
	c, ok := p.customers[id]
	return c, ok
}

// paymentWords maps the canonical words of a message to payment modes.
var paymentWords = map[string]domain.PaymentMode{
	"cash": domain.PayCOD, "cod": domain.PayCOD, "nakad": domain.PayCOD, "naqad": domain.PayCOD, "nagad": domain.PayCOD,
	"kash": domain.PayCOD, "कैश": domain.PayCOD, "नकद": domain.PayCOD, "नगद": domain.PayCOD,
	"credit": domain.PayCredit, "udhaar": domain.PayCredit, "crdt": domain.PayCredit, "क्रेडिट": domain.PayCredit,
	"upi": domain.PayUPI, "gpay": domain.PayUPI, "phonepe": domain.PayUPI, "paytm": domain.PayUPI, "bhim": domain.PayUPI,
	"googlepay": domain.PayUPI, "यूपीआई": domain.PayUPI,
	"cheque": domain.PayCheque, "chq": domain.PayCheque, "cheq": domain.PayCheque, "chek": domain.PayCheque, "चेक": domain.PayCheque,
	"check": domain.PayCheque,
	"neft":  domain.PayBankTransfer, "rtgs": domain.PayBankTransfer, "imps": domain.PayBankTransfer,
	"netbanking": domain.PayBankTransfer,
}

// weakPaymentWords name a mode only beside a word about paying: "check"
// is also "please check".
var weakPaymentWords = map[string]bool{"check": true}

// paymentPhrases are two-word spellings.
var paymentPhrases = map[[2]string]domain.PaymentMode{
	{"bank", "transfer"}: domain.PayBankTransfer, {"online", "transfer"}: domain.PayBankTransfer,
	{"net", "banking"}: domain.PayBankTransfer, {"bank", "se"}: domain.PayBankTransfer,
	{"google", "pay"}: domain.PayUPI, {"phone", "pe"}: domain.PayUPI, {"by", "check"}: domain.PayCheque,
	{"on", "credit"}: domain.PayCredit, {"cash", "on"}: domain.PayCOD,
}

// fillers may stand between a quantity and its product ("5 carton of GC",
// "10 peti ka phenyl", "GC wala 5 ctn") without breaking the binding.
var fillers = map[string]bool{"of": true, "ka": true, "ki": true, "ke": true, "x": true, "nos": true, "qty": true,
	"quantity": true, "wala": true}

// separators end a run of words ("5 pizza aur 2 GC").
var separators = map[string]bool{"aur": true, "and": true, "or": true, "plus": true, "for": true, "ke": true, "ko": true,
	"liye": true, "keliye": true, "bhi": true, "bhejo": true, "bhej": true, "dedo": true, "de": true, "do": true,
	"chahiye": true, "send": true, "order": true, "please": true, "pls": true, "payment": true, "with": true, "in": true,
	"se": true, "ka": true, "ki": true, "hai": true, "karo": true, "kar": true, "dena": true, "lena": true, "lo": true,
	"to": true, "ya": true, "mein": true, "pe": true, "par": true, "by": true, "the": true, "a": true, "an": true}

// plainWords are everyday words of an order message that never name a
// product or a customer: they are skipped when quoting an unknown name.
var plainWords = words(`
	ek one do two
	hi hello namaste pranam ji sir bhai madam sahab saab seth boss dear team bro
	please pls kindly urgent jaldi asap abhi aaj kal parso today tomorrow tonight morning evening subah shaam
	new naya fresh same usual regular again phir bhi also only just sirf total
	order orders maal item items saman samaan product products stock
	send bhejo bhej bheja dedo de do dena lena lo chahiye karo kar deliver delivery dispatch supply
	want need give take book note likho likh
	hai tha hain ho hoga rahe raha
	customer party shop dukaan dukan store godown address
	ok okay theek haan yes no nahi na thanks
	rate price mrp discount scheme offer free bill invoice
	mera meri mere mujhe hum hamara apna uska unka iska yeh ye woh wo
	is am are was be it this that these those my our your his her their
	at on in of to from with by for as per each all every
	tak yahan wahan idhar udhar
`)

// honorifics follow a person's name: "Verma ji ko".
var honorifics = words(`ji bhai sir sahab saab seth sethji babu uncle madam`)

// rangeWords join two quantities into a range ("5 se 6", "5 or 6").
var rangeWords = words(`to se ya or till`)

// correctionWords say that the quantity before was wrong ("5 nahi 6").
var correctionWords = words(`nahi no not na sorry galat wrong matlab actually sry`)

// andWords join the parts of one quantity ("2 carton aur 6 bottle").
var andWords = words(`aur and plus n`)

// afterNotQuantity are words that make the number before them something
// else than a quantity: a duration, a time, a date, a percentage, a price.
var afterNotQuantity = words(`
	day days din dino dinon week weeks month months year years
	baje bje bajey pm am hrs hr hour hours ghante ghanta minute minutes min mins
	tarikh tareekh date percent pct off discount tak
	rupees rs inr paise
`)

// beforeNotQuantity are words that make the number after them something
// else than a quantity: a price, a date, an address, a phone number.
var beforeNotQuantity = words(`
	rupees rs inr rate price mrp daam dam
	date tarikh tareekh dated
	number num shop plot sector gali flat room phone mobile mob pin pincode invoice bill
`)

// extraUnits are spellings of units that a message may use beside a number
// when the normaliser did not recognise them.
var extraUnits = map[string]string{"dz": "dozen", "dzs": "dozen", "pkg": "pack", "pkgs": "pack", "pck": "pack",
	"pcks": "pack"}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Parse reads one order message.
func (p *Parser) Parse(text string) Parsed {
	n := p.norm.Normalize(text)
	r := newReading(text, n)
	var out, who Parsed
	named := p.customerSpan(r)
	payment(r, &out)
	p.items(r, &out)
	p.customer(r, named, &who)
	out.CustomerID, out.Candidates = who.CustomerID, who.Candidates
	out.Unresolved = append(who.Unresolved, out.Unresolved...)
	if out.Items == nil {
		out.Items = []Item{}
	}
	if out.Unresolved == nil {
		out.Unresolved = []string{}
	}
	return out
}

// reading is a normalised message with what each token has become.
type reading struct {
	text string
	toks []intent.Token
	ents []intent.Entity
	ent  []int  // per token: the index in ents of the entity covering it, or -1
	used []bool // per token: claimed by a quantity, a name or a question
}

func newReading(text string, n intent.Normalized) *reading {
	r := &reading{text: text, toks: n.Tokens, ents: n.Entities, ent: make([]int, len(n.Tokens)), used: make([]bool, len(n.Tokens))}
	for i := range r.ent {
		r.ent[i] = -1
	}
	for k, e := range n.Entities {
		for i := max(e.Start, 0); i < e.End && i < len(r.toks); i++ {
			r.ent[i] = k
		}
	}
	return r
}

func (r *reading) word(i int) string {
	if i < 0 || i >= len(r.toks) {
		return ""
	}
	return r.toks[i].Text
}

// kind returns the kind of entity covering token i, or "".
func (r *reading) kind(i int) intent.EntityKind {
	if i < 0 || i >= len(r.toks) || r.ent[i] < 0 {
		return ""
	}
	return r.ents[r.ent[i]].Kind
}

// source returns the message text from byte a to b, safely.
func (r *reading) source(a, b int) string {
	a, b = max(0, min(a, len(r.text))), max(0, min(b, len(r.text)))
	if a >= b {
		return ""
	}
	return r.text[a:b]
}

// between returns the source text between tokens i and j (i < j).
func (r *reading) between(i, j int) string {
	if i < 0 || j >= len(r.toks) || i >= j {
		return ""
	}
	return r.source(r.toks[i].End, r.toks[j].Start)
}

// newline reports whether a line break separates tokens i and j.
func (r *reading) newline(i, j int) bool {
	return strings.ContainsAny(r.between(i, j), "\n\r")
}

// span returns the source text of tokens [from, to).
func (r *reading) span(from, to int) string {
	if from >= to || from < 0 || to > len(r.toks) {
		return ""
	}
	return strings.TrimSpace(r.source(r.toks[from].Start, r.toks[to-1].End))
}

// plain reports a token that is no entity, no payment word and no
// structure word: a candidate for an unknown name.
func (r *reading) plain(i int) bool {
	if i < 0 || i >= len(r.toks) || r.ent[i] >= 0 || r.used[i] {
		return false
	}
	w := r.toks[i].Text
	if _, pay := paymentWords[w]; pay || separators[w] || fillers[w] || plainWords[w] {
		return false
	}
	return hasLetter(w) && !strings.ContainsAny(w, "0123456789")
}

func hasLetter(w string) bool {
	for _, c := range w {
		if unicode.IsLetter(c) {
			return true
		}
	}
	return false
}

// customerSpan finds a name the message gives for its customer after "for"
// or before "ke liye", "ko" or ":", whether or not it is known; the tokens
// of an unknown one are not read as an unknown product.
func (p *Parser) customerSpan(r *reading) (name string) {
	toks := r.toks
	claim := func(from, to int) string {
		s := r.span(from, to)
		if s == "" {
			return ""
		}
		for i := from; i < to; i++ {
			r.used[i] = true
		}
		return s
	}
	for i, t := range toks {
		switch t.Text {
		case "for":
			j := i + 1
			for j < len(toks) && j < i+4 && r.plain(j) && !r.newline(j-1, j) {
				j++
			}
			if s := claim(i+1, j); s != "" {
				return s
			}
		case "liye", "keliye", "ko":
			last := i
			if last > 0 && toks[last-1].Text == "ke" {
				last--
			}
			end := last // "Verma ji ko": the honorific belongs to the name
			for end > 0 && honorifics[toks[end-1].Text] {
				end--
			}
			j := end
			for j > 0 && j > end-3 && r.plain(j-1) && !r.newline(j-1, j) {
				j--
			}
			if j < end {
				if s := claim(j, last); s != "" {
					return s
				}
			}
		}
	}
	// "Verma Stores: 5 ctn GC".
	if head, _, ok := strings.Cut(r.text, ":"); ok && utf8.RuneCountInString(head) <= 40 &&
		!strings.ContainsAny(head, "0123456789\n") {
		var in []int
		for i, t := range toks {
			if t.End <= len(head) {
				in = append(in, i)
			}
		}
		if len(in) > 0 {
			all := true
			for _, i := range in {
				all = all && r.plain(i)
			}
			if all {
				return claim(in[0], in[len(in)-1]+1)
			}
		}
	}
	return ""
}

func (p *Parser) customer(r *reading, named string, out *Parsed) {
	ids := map[string]bool{}
	var shared [][]string
	for _, e := range r.ents {
		if e.Kind != intent.EntityCustomer {
			continue
		}
		if len(e.IDs) > 1 {
			if fit := p.narrowCustomer(r, e); len(fit) == 1 {
				ids[fit[0]] = true
			} else {
				shared = append(shared, e.IDs)
			}
			continue
		}
		ids[e.ID] = true
	}
	// A shared name that a named customer settles ("Gupta Supermart …
	// Gupta ji") adds nothing.
	var open [][]string
	for _, s := range shared {
		settled := false
		for _, id := range s {
			settled = settled || ids[id]
		}
		if !settled {
			open = append(open, s)
		}
	}
	switch {
	case len(ids) == 1 && len(open) == 0:
		for id := range ids {
			out.CustomerID = id
		}
	case len(ids) >= 1:
		cands := map[string]bool{}
		for id := range ids {
			cands[id] = true
		}
		for _, s := range open {
			for _, id := range s {
				cands[id] = true
			}
		}
		for id := range cands {
			out.Candidates = append(out.Candidates, id)
		}
		sort.Strings(out.Candidates)
		out.Unresolved = append(out.Unresolved, "This message names more than one customer. Which one is the order for: "+p.candidateList(out.Candidates, true)+"?")
	case len(open) > 0:
		seen := map[string]bool{}
		for _, s := range open {
			for _, id := range s {
				if !seen[id] {
					seen[id] = true
					out.Candidates = append(out.Candidates, id)
				}
			}
		}
		out.Unresolved = append(out.Unresolved, "Which one do you mean: "+p.candidateList(out.Candidates, true)+"? Please send the order again with the full name.")
	default:
		if named != "" {
			out.Unresolved = append(out.Unresolved, fmt.Sprintf("I don't know a customer called %q. Please check the name (or ask the office to add them).", named))
		} else if lead := leadingName(r); lead != "" {
			out.Unresolved = append(out.Unresolved, fmt.Sprintf("Which customer is this order for? I don't know a customer called %q.", lead))
		} else {
			out.Unresolved = append(out.Unresolved, "Which customer is this order for?")
		}
	}
}

// narrowCustomer returns the customers sharing a name whose full name the
// next words continue: "Jain Sanitary" is Jain Sanitary and Paints, not
// Jain Brothers.
func (p *Parser) narrowCustomer(r *reading, e intent.Entity) []string {
	said := make([]string, 0, e.End-e.Start)
	for i := e.Start; i < e.End; i++ {
		said = append(said, r.word(i))
	}
	var fit []string
	for _, id := range e.IDs {
		for _, name := range p.customerNames[id] {
			if continues(r, said, e.End, name) || (len(said) > 1 && continues(r, said[:len(said)-1], e.End, name)) {
				fit = append(fit, id)
				break
			}
		}
	}
	return fit
}

// continues reports whether name starts with the words said and goes on
// with the message's words from token next.
func continues(r *reading, said []string, next int, name []string) bool {
	if len(name) <= len(said) {
		return false
	}
	for k, w := range said {
		if name[k] != w {
			return false
		}
	}
	return next < len(r.toks) && r.ent[next] < 0 && r.word(next) == name[len(said)]
}

// leadingName returns the unknown words a message starts with when a
// product or quantity follows them: "Verma 5 ctn GC" names Verma.
func leadingName(r *reading) string {
	j := 0
	for j < len(r.toks) && j < 3 && r.plain(j) && !r.newline(j-1, j) {
		j++
	}
	if j == 0 || j >= len(r.toks) {
		return ""
	}
	switch r.kind(j) {
	case intent.EntityNumber, intent.EntityProduct, intent.EntityUnit:
		return r.span(0, j)
	}
	return ""
}

func payment(r *reading, out *Parsed) {
	found := map[domain.PaymentMode]bool{}
	toks := r.toks
	named := func(i int) bool { // inside a product's or customer's name
		k := r.kind(i)
		return k == intent.EntityProduct || k == intent.EntityCustomer
	}
	for i, t := range toks {
		if named(i) {
			continue
		}
		if m, ok := paymentWords[t.Text]; ok && !weakPaymentWords[t.Text] {
			found[m] = true
		}
		if i+1 < len(toks) && !named(i+1) {
			if m, ok := paymentPhrases[[2]string{t.Text, toks[i+1].Text}]; ok {
				found[m] = true
			}
		}
		if weakPaymentWords[t.Text] && (r.word(i-1) == "payment" || r.word(i+1) == "payment" || r.word(i+1) == "se" ||
			r.word(i-1) == "by" || r.word(i-1) == "via") {
			found[paymentWords[t.Text]] = true
		}
	}
	switch len(found) {
	case 0:
	case 1:
		for m := range found {
			out.Payment = m
		}
	default:
		var names []string
		for _, m := range domain.PaymentModes {
			if found[m] {
				names = append(names, ModeName(m))
			}
		}
		out.Unresolved = append(out.Unresolved, "Which payment mode: "+orList(names)+"?")
	}
}

// measure is a size in millilitres or grams.
type measure struct {
	amount float64
	dim    byte // 'v' volume, 'm' mass
}

// parseMeasure reads a canonical size: "500ml", "1l", "1.5kg", "200g".
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
	}
	return measure{}, false
}

func (m measure) equal(o measure) bool {
	return m.dim == o.dim && math.Abs(m.amount-o.amount) < 1e-9*math.Max(1, m.amount)
}

// mention is a product named in the message: one SKU, or several when the
// name is shared.
type mention struct {
	skus       []string
	start, end int
	size       string // a size written beside it that disagrees with the catalog
	qs         []*quantity
	qty        int64 // what its quantities came to, in base units
}

// quantity is a number with the unit written beside it.
type quantity struct {
	value      float64
	unit       string // canonical unit; "" is the base unit
	measure    string // set when written as a size: "50kg"
	start, end int    // token span, unit included
	used       bool
	each       bool // said of every product of a list: "5-5 carton"
}

// eachWords say that one quantity is for every product of a list: "GC aur
// TC 5 ctn each", "dono 2 peti".
var eachWords = words(`each har harek dono both sab sabhi all`)

func (p *Parser) items(r *reading, out *Parsed) {
	var ms []*mention
	var qs []*quantity
	var sizes []sizeSpan
	ents := r.ents
	for k := 0; k < len(ents); k++ {
		e := ents[k]
		switch e.Kind {
		case intent.EntityProduct:
			skus := e.IDs
			if len(skus) == 0 {
				skus = []string{e.ID}
			}
			ms = append(ms, &mention{skus: skus, start: e.Start, end: e.End})
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
	sort.SliceStable(qs, func(a, b int) bool { return qs[a].start < qs[b].start })
	ms = p.plurals(r, ms)
	p.unitsAfterNames(r, ms, qs)

	skip := make([]bool, len(r.toks)) // tokens a quantity may be separated from its product by
	for i, t := range r.toks {
		skip[i] = fillers[t.Text] || eachWords[t.Text] || t.Text == "ek" && r.word(i-1) == "har"
	}
	p.attachSizes(r, ms, sizes, skip, &qs)
	bindQuantities(r, ms, qs, skip)
	shareQuantities(r, ms, skip)

	bySKU := map[string]int{}
	for _, m := range ms {
		p.resolveMention(r, m, qs, skip, bySKU, out)
	}
	for _, q := range qs {
		if !q.used {
			p.strayQuantity(r, q, ms, skip, out)
		}
	}
	if len(ms) == 0 && len(qs) == 0 {
		out.Unresolved = append(out.Unresolved, "Which products and how many?")
	}
}

// unitsAfterNames reads "5 GC carton" and "10 rassi bundle": a bare number
// before a product and a unit of the product after it.
func (p *Parser) unitsAfterNames(r *reading, ms []*mention, qs []*quantity) {
	covered := make([]bool, len(r.toks))
	for _, q := range qs {
		for i := q.start; i < q.end && i < len(covered); i++ {
			covered[i] = true
		}
	}
	for _, m := range ms {
		i := m.end
		if len(m.skus) != 1 || i >= len(r.toks) || covered[i] || r.newline(i-1, i) {
			continue
		}
		var unit string
		switch r.kind(i) {
		case intent.EntityUnit:
			unit = r.ents[r.ent[i]].ID
		case "":
			// A unit that is an ordinary word too ("bundle", "can") counts
			// only when the product comes in it.
			if u, ok := p.unitSpellings[r.word(i)]; ok && p.units[m.skus[0]][u] > 0 {
				unit = u
			}
		}
		if unit == "" {
			continue
		}
		for _, q := range qs {
			if q.end == m.start && q.unit == "" && q.measure == "" {
				q.unit, covered[i] = unit, true
				r.used[i] = true
				break
			}
		}
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
				skus := es[0].IDs
				if len(skus) == 0 {
					skus = []string{es[0].ID}
				}
				ms = append(ms, &mention{skus: skus, start: i, end: i + 1})
				r.used[i], added = true, true
				break
			}
		}
	}
	if added {
		sort.SliceStable(ms, func(a, b int) bool { return ms[a].start < ms[b].start })
	}
	return ms
}

// repeatedWord reports a number said twice, the first time in a word the
// normaliser left as a word: "paanch-paanch", "do-do".
func (r *reading) repeatedWord(e intent.Entity) bool {
	i := e.Start - 1
	if i < 0 || r.ent[i] >= 0 || strings.TrimSpace(r.between(i, e.Start)) != "-" {
		return false
	}
	es := intent.Normalize(r.word(i) + " dozen").Entities
	return len(es) > 0 && es[0].Kind == intent.EntityNumber && es[0].Value == e.Value
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

// notQuantity reports a number that is something else: a list marker
// ("1. GC 5 ctn" at a line's start), a price ("@ 90", "₹90", "rate 90"), a
// duration, time, date or percentage ("15 days", "5 baje", "10%"), a phone
// number.
func (r *reading) notQuantity(i int) bool {
	t := r.toks[i]
	after := r.source(t.End, t.End+3)
	before := strings.TrimRight(r.source(t.Start-4, t.Start), " ")
	if afterNotQuantity[r.word(i+1)] || beforeNotQuantity[r.word(i-1)] {
		return true
	}
	if strings.HasPrefix(strings.TrimLeft(after, " "), "%") || strings.HasPrefix(after, "/-") ||
		strings.HasSuffix(before, "₹") || strings.HasSuffix(before, "@") || strings.HasSuffix(before, "#") {
		return true
	}
	// 5:30, 12/05: times and dates.
	if (strings.HasPrefix(after, ":") || strings.HasPrefix(after, "/")) && len(after) > 1 && after[1] >= '0' && after[1] <= '9' {
		return true
	}
	if b := r.source(t.Start-2, t.Start); len(b) == 2 && (b[1] == ':' || b[1] == '/') && b[0] >= '0' && b[0] <= '9' {
		return true
	}
	if len(t.Text) >= 10 && !strings.Contains(t.Text, ".") {
		return true
	}
	// A list marker: a small number first on its line, then "." or ")".
	if (strings.HasPrefix(after, ".") || strings.HasPrefix(after, ")")) && len(t.Text) <= 2 && r.lineStart(i) &&
		i+1 < len(r.toks) && !r.newline(i, i+1) {
		return true
	}
	return false
}

// lineStart reports whether token i is the first word of its line, after
// nothing but spaces and bullets.
func (r *reading) lineStart(i int) bool {
	head := r.text[:min(r.toks[i].Start, len(r.text))]
	if k := strings.LastIndexAny(head, "\n\r"); k >= 0 {
		head = head[k+1:]
	}
	return strings.Trim(head, " \t-*•·>(") == ""
}

// attachSizes gives each size written beside a product its meaning: the
// quantity of a product sold by measure ("chini 50 kg"), the choice between
// products that share a name ("apex 4 ltr"), or a check of the product's
// own size ("GC 500ml"; "GC 1 ltr" is asked about).
func (p *Parser) attachSizes(r *reading, ms []*mention, sizes []sizeSpan, skip []bool, qs *[]*quantity) {
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
		if m == nil {
			for _, c := range ms {
				if c.start >= e.End && gapOnly(skip, e.End, c.start) {
					m = c // before it: "500ml wala GC"
					break
				}
			}
		}
		if m == nil {
			continue
		}
		if len(m.skus) == 1 {
			sku := m.skus[0]
			if unit, ok := p.byMeasure[sku]; ok && unit.dim == sz.dim && !p.hasSizeOf(sku, sz.dim) {
				*qs = append(*qs, &quantity{value: sz.amount / unit.amount, measure: e.ID, start: e.Start, end: e.End})
				sort.SliceStable(*qs, func(a, b int) bool { return (*qs)[a].start < (*qs)[b].start })
				continue
			}
		}
		var fit []string
		for _, sku := range m.skus {
			if !p.hasSizeOf(sku, sz.dim) {
				fit = append(fit, sku)
				continue
			}
			for _, s := range p.sizes[sku] {
				if s.equal(sz) {
					fit = append(fit, sku)
					break
				}
			}
		}
		for i := e.Start; i < e.End; i++ {
			skip[i] = true
		}
		switch {
		case len(fit) == 0:
			m.size = formatMeasure(sz)
		case len(fit) < len(m.skus):
			m.skus = fit
		}
	}
}

func (p *Parser) hasSizeOf(sku string, dim byte) bool {
	for _, s := range p.sizes[sku] {
		if s.dim == dim {
			return true
		}
	}
	return false
}

// gapOnly reports whether tokens [from, to) are all skippable.
func gapOnly(skip []bool, from, to int) bool {
	for k := from; k < to; k++ {
		if k < 0 || k >= len(skip) || !skip[k] {
			return false
		}
	}
	return true
}

// bindQuantities gives each product the quantity written beside it. The
// message's style decides which way quantities bind first: "5 carton GC"
// (quantity first) or "GC 5 carton" (product first); a second pass binds
// what the style missed ("GC 5 carton aur 10 phenyl").
func bindQuantities(r *reading, ms []*mention, qs []*quantity, skip []bool) {
	// A size that is a quantity binds to its product first.
	for _, q := range qs {
		if q.measure == "" {
			continue
		}
		for _, m := range ms {
			if (m.end <= q.start && gapOnly(skip, m.end, q.start)) || (q.end <= m.start && gapOnly(skip, q.end, m.start)) {
				m.qs, q.used = append(m.qs, q), true
				break
			}
		}
	}
	var firstQ *quantity
	for _, q := range qs {
		if !q.used {
			firstQ = q
			break
		}
	}
	productFirst := len(ms) > 0 && firstQ != nil && ms[0].start < firstQ.start
	after := func(m *mention, q *quantity) bool { return q.start >= m.end && gapOnly(skip, m.end, q.start) }
	before := func(m *mention, q *quantity) bool { return q.end <= m.start && gapOnly(skip, q.end, m.start) }
	for _, m := range ms {
		if len(m.qs) > 0 {
			continue
		}
		if productFirst {
			for _, q := range qs {
				if !q.used && after(m, q) {
					m.qs, q.used = append(m.qs, q), true
					break
				}
			}
			continue
		}
		for k := len(qs) - 1; k >= 0; k-- {
			if q := qs[k]; !q.used && before(m, q) {
				m.qs, q.used = append(m.qs, q), true
				break
			}
		}
	}
	for _, m := range ms {
		if len(m.qs) > 0 {
			continue
		}
		for _, q := range qs {
			if !q.used && (before(m, q) || after(m, q)) {
				m.qs, q.used = append(m.qs, q), true
				break
			}
		}
	}
	// A quantity next to a bound one is part of it ("2 ctn 6 pcs") or a
	// second thought ("5 se 6 ctn", "5 ctn nahi 6 ctn"): either way it
	// belongs to the same product, which then decides.
	for _, m := range ms {
		for grew := len(m.qs) > 0; grew; {
			grew = false
			first, last := m.qs[0], m.qs[len(m.qs)-1]
			for _, q := range qs {
				if q.used || q.measure != "" {
					continue
				}
				if (q.start >= last.end && joinable(r, skip, last.end, q.start)) || (q.end <= first.start && joinable(r, skip, q.end, first.start)) {
					m.qs, q.used, grew = append(m.qs, q), true, true
					sort.SliceStable(m.qs, func(a, b int) bool { return m.qs[a].start < m.qs[b].start })
					break
				}
			}
		}
	}
}

// shareQuantities gives a quantity said of every product of a list ("GC
// aur TC 5-5 ctn", "2 ctn each of GC and TC") to the products of that list
// that have none.
func shareQuantities(r *reading, ms []*mention, skip []bool) {
	linked := func(from, to int) bool { // only "and", commas and fillers between
		for k := from; k < to; k++ {
			if !skip[k] && !andWords[r.word(k)] {
				return false
			}
		}
		return !r.newline(max(from-1, 0), min(to, len(r.toks)-1))
	}
	for i, m := range ms {
		if len(m.qs) != 1 || !saidOfEach(r, m.qs[0]) {
			continue
		}
		q := m.qs[0]
		for j := i - 1; j >= 0 && len(ms[j].qs) == 0 && linked(ms[j].end, ms[j+1].start); j-- {
			ms[j].qs = []*quantity{q}
		}
		for j := i + 1; j < len(ms) && len(ms[j].qs) == 0 && linked(ms[j-1].end, ms[j].start); j++ {
			ms[j].qs = []*quantity{q}
		}
	}
}

// saidOfEach reports a quantity written "5-5" or beside a word such as
// "each" or "dono".
func saidOfEach(r *reading, q *quantity) bool {
	if q.each {
		return true
	}
	for _, i := range []int{q.start - 1, q.start - 2, q.end, q.end + 1} {
		if eachWords[r.word(i)] {
			return true
		}
	}
	return false
}

// joinable reports whether tokens [from, to) may stand between two
// quantities of one product: nothing, fillers, or a word that joins,
// ranges or corrects them, on one line.
func joinable(r *reading, skip []bool, from, to int) bool {
	if from > 0 && to < len(r.toks) && r.newline(from-1, to) {
		return false
	}
	for k := from; k < to; k++ {
		w := r.word(k)
		if !skip[k] && !rangeWords[w] && !correctionWords[w] && !andWords[w] {
			return false
		}
	}
	return to-from <= 2
}

// resolveMention turns a product mention and its quantities into an item,
// or into the question that settles it.
func (p *Parser) resolveMention(r *reading, m *mention, qs []*quantity, skip []bool, bySKU map[string]int, out *Parsed) {
	if len(m.skus) > 1 {
		var names []string
		for _, sku := range m.skus {
			names = append(names, p.products[sku].Name)
		}
		said := ""
		if len(m.qs) > 0 {
			said = " (" + p.saidQty(m.qs, p.products[m.skus[0]]) + ")"
		}
		out.Unresolved = append(out.Unresolved, fmt.Sprintf("Which product do you mean by %q%s: %s?", r.span(m.start, m.end), said, orList(names)))
		return
	}
	prod := p.products[m.skus[0]]
	if m.size != "" {
		var sz []string
		for _, s := range p.sizes[prod.SKU] {
			sz = append(sz, formatMeasure(s))
		}
		out.Unresolved = append(out.Unresolved, fmt.Sprintf("%s comes in %s, not %s. Which product do you mean, and how many? (%s)",
			prod.Name, orList(sz), m.size, unitChoices(prod)))
		return
	}
	if len(m.qs) == 0 {
		out.Unresolved = append(out.Unresolved, fmt.Sprintf("How many %s? (%s)", prod.Name, unitChoices(prod)))
		return
	}
	item, problem := p.combine(r, prod, m.qs, skip)
	if problem != "" {
		out.Unresolved = append(out.Unresolved, problem)
		return
	}
	m.qty = item.Qty
	if k, ok := bySKU[item.SKU]; ok {
		sum := out.Items[k].Qty + item.Qty
		if sum > MaxQty {
			out.Unresolved = append(out.Unresolved, fmt.Sprintf("%s of %s in all looks wrong — please check the quantities.", domain.Units(sum, prod.Unit), prod.Name))
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

// perUnit is how many base units one of q's unit holds for the product.
// Units compare in canonical form, so a catalog's "ctn" pack is the
// message's "carton" or "peti".
func (p *Parser) perUnit(prod domain.Product, q *quantity) (int64, bool) {
	return perUnit(prod, q, p.units[prod.SKU])
}

// perUnit is how many base units one of q's unit holds for the product,
// given the product's units by canonical name.
func perUnit(prod domain.Product, q *quantity, units map[string]int64) (int64, bool) {
	if q.unit == "" || q.unit == "piece" || q.unit == "unit" {
		return 1, true
	}
	if n, ok := units[q.unit]; ok {
		return n, true
	}
	if ps, ok := prod.Pack(q.unit); ok {
		return ps.Units, true
	}
	if q.unit == "dozen" {
		return 12, true
	}
	return 0, false
}

// canonicalUnit spells a catalog's unit the way the normaliser spells it in
// messages: "ctn" and "peti" are "carton", "pkt" is "pack".
func canonicalUnit(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if es := intent.Normalize("1 " + name).Entities; len(es) == 2 && es[1].Kind == intent.EntityUnit {
		return es[1].ID
	}
	return name
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

func countOf(v float64) int64 {
	if v == 1 {
		return 1
	}
	return 2
}

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
		out.Unresolved = append(out.Unresolved, fmt.Sprintf("I don't know the product %q. Please use a name from the catalog.", name))
		return
	}
	said := formatQty(q.value)
	if q.unit != "" {
		said += " " + domain.Plural(q.unit, countOf(q.value))
	} else if q.measure != "" {
		said = q.measure
	}
	for _, m := range ms {
		if len(m.skus) == 1 && ((m.end <= q.start && gapOnly(skip, m.end, q.start)) || (q.end <= m.start && gapOnly(skip, q.end, m.start))) {
			prod := p.products[m.skus[0]]
			if it, problem := p.toItem(prod, q); problem == "" && m.qty > 0 && it.Qty == m.qty {
				return // the same quantity said again: "1 ctn GC (24 pcs)"
			}
			out.Unresolved = append(out.Unresolved, fmt.Sprintf("How many %s? The message also says %s beside it.", prod.Name, said))
			p.dropItem(prod.SKU, out)
			return
		}
	}
	switch {
	case q.unit != "" || q.measure != "":
		out.Unresolved = append(out.Unresolved, fmt.Sprintf("Which product are the %s for?", said))
	case len(ms) == 0:
		out.Unresolved = append(out.Unresolved, fmt.Sprintf("Which product is the %s for?", said))
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

// toItem turns a quantity of a product into base units, or says why not.
func (p *Parser) toItem(prod domain.Product, q *quantity) (Item, string) {
	return itemOf(prod, q, p.units[prod.SKU])
}

// toItem is Parser.toItem for a product the caller holds alone.
func toItem(prod domain.Product, q *quantity) (Item, string) {
	return itemOf(prod, q, productUnits(prod))
}

// productUnits lists a product's units by canonical name, in base units:
// {"bottle": 1, "carton": 24, "box": 6}.
func productUnits(prod domain.Product) map[string]int64 {
	return productUnitsIn(prod, canonicalUnit)
}

// productUnitsIn is productUnits with the units' canonical names from
// canonical.
func productUnitsIn(prod domain.Product, canonical func(string) string) map[string]int64 {
	units := make(map[string]int64, len(prod.PackSizes)+1)
	for _, ps := range prod.PackSizes {
		if ps.Units > 0 {
			units[canonical(ps.Name)] = ps.Units
		}
	}
	units[canonical(prod.Unit)] = 1
	return units
}

func itemOf(prod domain.Product, q *quantity, units map[string]int64) (Item, string) {
	unit := q.unit
	if q.value < 0 {
		// "-5 carton GC": a return or a typo, never an order to guess at.
		if unit == "" || q.measure != "" {
			unit = prod.Unit
		}
		return Item{}, fmt.Sprintf("How many %s of %s? A quantity can't be negative.", domain.Plural(unit, 2), prod.Name)
	}
	per, ok := perUnit(prod, q, units)
	switch {
	case q.measure != "":
		unit = prod.Unit
	case !ok:
		return Item{}, fmt.Sprintf("%s does not come in %s. How many? (%s)", prod.Name, domain.Plural(unit, 2), unitChoices(prod))
	case per == 1:
		unit = prod.Unit
	}
	// Rounded to a millionth, so that 0.7 carton of 10 is 7, not
	// 7.000000000000001.
	total := math.Round(q.value*float64(per)*1e6) / 1e6
	switch {
	case q.value <= 0:
		return Item{}, fmt.Sprintf("How many %s? %s is not a quantity.", prod.Name, formatQty(q.value))
	case total > MaxQty:
		return Item{}, fmt.Sprintf("%s %s of %s looks wrong — please check the quantity.", formatQty(q.value), domain.Plural(unit, 2), prod.Name)
	case total != math.Trunc(total) && per == 1:
		return Item{}, fmt.Sprintf("How many %s? %s is not a whole number of %s.", prod.Name, formatQty(q.value), domain.Plural(prod.Unit, 2))
	case total != math.Trunc(total):
		return Item{}, fmt.Sprintf("How many %s? %s %s is %s %s, not a whole number.", prod.Name, formatQty(q.value),
			domain.Plural(unit, countOf(q.value)), formatQty(total), domain.Plural(prod.Unit, 2))
	}
	said := int64(q.value)
	if float64(said) != q.value || q.measure != "" {
		said, unit = int64(total), prod.Unit
	}
	return Item{SKU: prod.SKU, Qty: int64(total), SaidQty: said, SaidUnit: unit}, ""
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
		for i := from; i < to; i++ {
			r.used[i] = true
		}
		return r.span(from, to)
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

func unitChoices(p domain.Product) string {
	choices := []string{domain.Plural(p.Unit, 2)}
	for _, ps := range p.PackSizes {
		choices = append(choices, fmt.Sprintf("%s of %d", ps.Name, ps.Units))
	}
	return strings.Join(choices, ", ")
}

func formatMeasure(m measure) string {
	switch {
	case m.dim == 'v' && m.amount >= 1000:
		return formatQty(m.amount/1000) + "L"
	case m.dim == 'v':
		return formatQty(m.amount) + "ml"
	case m.amount >= 1000:
		return formatQty(m.amount/1000) + "kg"
	}
	return formatQty(m.amount) + "g"
}

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

func orList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
