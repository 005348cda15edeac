package orders

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// toItem turns a quantity of a product into base units, or says why not.
func (p *Parser) toItem(prod domain.Product, q *quantity) (Item, string) {
	return itemOf(prod, q, p.units[prod.SKU])
}

// toItem is Parser.toItem for a product the caller holds alone.
func toItem(prod domain.Product, q *quantity) (Item, string) {
	return itemOf(prod, q, productUnits(prod))
}

// itemOf is toItem given the product's units by canonical name.
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
		if _, either := eitherPack(unit); either {
			return Item{}, fmt.Sprintf("How many %s? (%s)", prod.Name, unitChoices(prod))
		}
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
	if packs, ok := eitherPack(q.unit); ok {
		// A word for two packs the catalog keeps apart ("katta" where dal
		// comes by the bori and the bag): the one this product comes in,
		// or the size they share.
		var n int64
		for _, pack := range packs {
			if m, has := units[pack]; has {
				if n > 0 && m != n {
					return 0, false
				}
				n = m
			}
		}
		return n, n > 0
	}
	if ps, ok := prod.Pack(q.unit); ok {
		return ps.Units, true
	}
	if q.unit == "dozen" {
		return 12, true
	}
	if q.unit == "gross" {
		return 144, true // a dozen dozen
	}
	if q.unit == "pack" && packetBases[strings.ToLower(strings.TrimSpace(prod.Unit))] {
		return 1, true // "24 packet doodh": a milk pouch is a packet
	}
	return 0, false
}

// eitherPack splits a unit that may be any of several packs ("bag|bori").
func eitherPack(unit string) ([]string, bool) {
	if !strings.Contains(unit, "|") {
		return nil, false
	}
	return strings.Split(unit, "|"), true
}

// packetBases are base units that are themselves packets: where a product
// does not come in packs, a packet of it is one of them.
var packetBases = map[string]bool{"pouch": true, "pouches": true, "sachet": true, "sachets": true}

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

// canonicalUnit spells a catalog's unit the way the normaliser spells it in
// messages: "ctn" and "peti" are "carton", "pkt" is "pack".
func canonicalUnit(name string) string {
	return canonicalUnitIn(nil, name)
}

// canonicalUnitIn is canonicalUnit in a catalog whose products keep apart
// the packs in apart (intent.PacksApart: "bori" and "bag").
func canonicalUnitIn(apart map[string]string, name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if _, ok := apart[name]; ok {
		return name
	}
	if es := intent.Normalize("1 " + name).Entities; len(es) == 2 && es[1].Kind == intent.EntityUnit {
		return es[1].ID
	}
	return name
}

// byUnit settles a mention by the units its quantities were said in:
// of several products a name shares, the one that comes in that unit ("5
// bundle atta" is the atta sold in bundles); and a product that does not
// come in it gives way to the one other product whose name or alias has
// every word said and does ("2 tin oil" is the oil sold in tins, where
// "oil" alone names the pouch; "2 barrel pride" the Pride sold by the
// barrel, where "pride" names two buckets). said is what the message
// called it. The
// draft names the product before its ok.
func (p *Parser) byUnit(m *mention, said string) (string, bool) {
	if len(m.qs) == 0 {
		return "", false
	}
	for _, q := range m.qs {
		if q.unit == "" || q.measure != "" || q.unit == "piece" || q.unit == "unit" {
			return "", false
		}
	}
	takes := func(prod domain.Product) bool {
		for _, q := range m.qs {
			if _, ok := p.perUnit(prod, q); !ok {
				return false
			}
		}
		return true
	}
	if fit := p.taken(m.skus, takes); len(fit) > 0 {
		if len(m.skus) == 1 {
			return "", false
		}
		return oneOf(fit)
	}
	// None of them comes in that unit: "2 barrel pride" is the Pride
	// that comes by the barrel, though "pride" names the buckets.
	words := nameWords(said)
	if len(words) == 0 {
		return "", false
	}
	return oneOf(p.namedAndTaken(words, m.skus, takes))
}

// namedAndTaken are the active products, but those of except, whose name
// or an alias has every one of words and that takes accepts: where none
// of the products a name means comes in the unit said, the one that does.
func (p *Parser) namedAndTaken(words, except []string, takes func(domain.Product) bool) []string {
	var fit []string
	for sku, prod := range p.products {
		if !slices.Contains(except, sku) && !prod.Inactive && namedBy(prod, words) && takes(prod) {
			fit = append(fit, sku)
		}
	}
	return fit
}

// soldIn keeps those of skus that come in the unit a quantity was said
// in: "20 set", then "TVS wala", is the TVS set, not the TVS tyres, where
// "tvs" names the tyres alone and the set is the one product whose name
// has every word the answer says (text) and comes in sets. All of skus
// when no product does, or the quantity named no unit of its own.
func (p *Parser) soldIn(skus []string, said *Said, text string) []string {
	if len(skus) == 0 || said == nil || said.Unit == "" || said.Measure != "" || said.Unit == "piece" || said.Unit == "unit" {
		return skus
	}
	q := &quantity{value: said.Value, unit: said.Unit}
	takes := func(prod domain.Product) bool { _, ok := p.perUnit(prod, q); return ok }
	if fit := p.taken(skus, takes); len(fit) > 0 {
		return fit
	}
	var words []string
	for _, w := range nameWords(text) {
		if !answerFillers[w] {
			words = append(words, w)
		}
	}
	if len(words) > 0 {
		if fit := p.namedAndTaken(words, skus, takes); len(fit) == 1 {
			return fit
		}
	}
	return skus
}

// taken are those of skus that takes accepts.
func (p *Parser) taken(skus []string, takes func(domain.Product) bool) []string {
	var fit []string
	for _, sku := range skus {
		if takes(p.products[sku]) {
			fit = append(fit, sku)
		}
	}
	return fit
}

func oneOf(skus []string) (string, bool) {
	if len(skus) != 1 {
		return "", false
	}
	return skus[0], true
}

// namedBy reports whether the product's name or one of its aliases has
// every one of words.
func namedBy(prod domain.Product, words []string) bool {
	for _, name := range append([]string{prod.Name}, prod.Aliases...) {
		has := nameWords(name)
		all := true
		for _, w := range words {
			// A name's word as a message reads it: "XL" of leggings
			// arrives as "excel".
			all = all && slices.ContainsFunc(has, func(h string) bool { return h == w || intent.Spelled(h) == w })
		}
		if all {
			return true
		}
	}
	return false
}

// nameWords are a name's words, lower-cased, split at spaces and
// punctuation (a Devanagari vowel sign stays in its word).
func nameWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
}
