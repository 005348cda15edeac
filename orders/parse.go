package orders

// How a message flows through the parser's files: Parse (this file) has
// the Normalizer find the catalog's and customers' names, numbers, units
// and sizes, and keeps what each token became in a reading (reading.go).
// customerSpan (customer.go) first claims a name the message gives its
// customer ("for …", "… ko", "…:"), known or not, so that its words are not
// taken for a product; payment (payment.go) reads the mode. items
// (resolve.go) gathers the product mentions and the quantities
// (quantity.go) and sizes (size.go) written beside them, binds each
// quantity to its product (bind.go), turns it into base units (units.go)
// and resolves each mention into an item or a question; a quantity no
// product took becomes a question in questions.go, with the wording that
// questions share (units, quantities, lists of names). Last, customer
// (customer.go) settles who the order is for, or asks. The word lists they
// all read are in words.go; catalogwords.go is NewParser's single reading
// of the catalog's unit, pack and customer names.

import (
	"encoding/json"
	"strings"
	"sync"

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
	// Asks are the questions of Unresolved as data, one for each, in
	// order: what each asks about and the answers it offered.
	Asks []Ask `json:"-"`
	// Instructions are what else the message told whoever fills the
	// order, as written ("12+1 scheme lagana"); see instructions.go.
	Instructions string `json:"-"`
}

// ask leaves a question: its text in Unresolved, the question in Asks.
func (p *Parsed) ask(a Ask) {
	p.Unresolved = append(p.Unresolved, a.Text)
	p.Asks = append(p.Asks, a)
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
		// Instructions are an addition to the contract's shape, present
		// only when the message gave some.
		Instructions string `json:"instructions,omitempty"`
	}{Items: []item{}, Unresolved: p.Unresolved, Instructions: p.Instructions}
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
	// families are the last words that several products' names end with,
	// sizes and units aside ("saree" of Cotton Saree and Art Silk
	// Saree), and those products: said alone, the word names one of them.
	families map[string][]string
	// sizedByWord are the products whose names give a size, by each word
	// of their names: a size that the product named does not come in may
	// be a sibling's ("led bulb 12 watt" beside an alias of the 9 W bulb).
	sizedByWord map[string][]string
	// numbered are the products whose names have a number, by the name
	// with its numbers masked (numberedKey): siblings that differ only by
	// a number ("Havells Wire 1.5 sq mm", "… 2.5 sq mm") share a key.
	numbered map[string][]string
}

// numberedKey is a name's words with each word that has a digit masked;
// false when none has one.
func numberedKey(toks []intent.Token) (string, bool) {
	var b strings.Builder
	masked := false
	for _, t := range toks {
		w := t.Text
		if strings.ContainsAny(w, "0123456789") {
			w, masked = "#", true
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	return b.String(), masked
}

// maxFamily is the most products a word that ends their names may be
// asked about as one of: "tablet" ending hundreds of medicines' names says
// too little to offer them all.
const maxFamily = 8

// NewParser returns a parser; norm must have been built with the same
// products and customers.
func NewParser(norm Normalizer, products []domain.Product, customers []domain.Customer) *Parser {
	p := &Parser{norm: norm, products: make(map[string]domain.Product, len(products)),
		customers: make(map[string]domain.Customer, len(customers)), sizes: make(map[string][]measure, len(products)),
		byMeasure: map[string]measure{}, units: make(map[string]map[string]int64, len(products)),
		families: map[string][]string{}, sizedByWord: map[string][]string{}, numbered: map[string][]string{}}
	// A catalog has a few dozen unit and pack names for all its products,
	// and customers share names ("Gupta ji"): each is read once.
	cat := catalogWords{apart: intent.PacksApart(products), canonical: map[string]string{}, measures: map[string]measureOf{}, names: map[string][]string{},
		unitSets: map[string]map[string]int64{}, last: map[string]int{}}
	for _, x := range products {
		p.products[x.SKU] = x
		p.units[x.SKU] = cat.units(x)
		cat.unitName(x.Unit)
		for _, ps := range x.PackSizes {
			cat.unitName(ps.Name)
		}
		name := intent.Normalize(x.Name)
		for _, e := range name.Entities {
			if m, ok := parseMeasure(e.ID); ok && e.Kind == intent.EntitySize {
				p.sizes[x.SKU] = append(p.sizes[x.SKU], m)
			}
		}
		if k, ok := numberedKey(name.Tokens); ok {
			p.numbered[k] = append(p.numbered[k], x.SKU)
		}
		if len(p.sizes[x.SKU]) > 0 {
			for _, t := range name.Tokens {
				if fs := p.sizedByWord[t.Text]; hasLetter(t.Text) && (len(fs) == 0 || fs[len(fs)-1] != x.SKU) {
					p.sizedByWord[t.Text] = append(fs, x.SKU) // a word said twice in a name counts once
				}
			}
		}
		if w := headWord(name); w != "" {
			p.families[w] = append(p.families[w], x.SKU)
		}
		if m, ok := cat.measure(x.Unit); ok {
			p.byMeasure[x.SKU] = m
		}
	}
	p.unitSpellings = cat.spellings()
	for w, skus := range p.families {
		if _, unit := p.unitSpellings[w]; len(skus) < 2 || len(skus) > maxFamily || unit || intent.RoutingWord(w) {
			delete(p.families, w)
		}
	}
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

// Parse reads one order message.
func (p *Parser) Parse(text string) Parsed {
	return p.parse(text, p.norm.Normalize(text))
}

// ParseRouted reads the order message the router read, from the reading
// it made: the message is not normalised a second time. A decision made
// from text alone, without a reading, is read as Parse reads it.
func (p *Parser) ParseRouted(d intent.Decision) Parsed {
	if d.Normalized.Tokens == nil {
		return p.Parse(d.Text)
	}
	return p.parse(d.Text, d.Normalized)
}

// parse reads text, normalised as n by p's Normalizer.
func (p *Parser) parse(text string, n intent.Normalized) Parsed {
	r := newReading(text, n)
	var out, who Parsed
	named := p.customerSpan(r)
	payment(r, &out)
	p.items(r, &out)
	p.customer(r, named, &who)
	out.Instructions = r.instructions()
	out.CustomerID, out.Candidates = who.CustomerID, who.Candidates
	out.Unresolved = append(who.Unresolved, out.Unresolved...)
	out.Asks = append(who.Asks, out.Asks...)
	if out.Items == nil {
		out.Items = []Item{}
	}
	if out.Unresolved == nil {
		out.Unresolved = []string{}
	}
	return out
}

// Products returns the catalog the parser knows, by SKU.
func (p *Parser) Products() map[string]domain.Product { return p.products }

// Customer returns a customer by id.
func (p *Parser) Customer(id string) (domain.Customer, bool) {
	c, ok := p.customers[id]
	return c, ok
}
