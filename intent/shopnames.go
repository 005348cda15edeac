package intent

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The words of customers' names that name no one: what kind of shop, its
// trade, a title. A name is also read without them.

// businessWords end customer names without naming anyone, so "Rajesh
// Kirana Store" is also called "Rajesh".
var businessWords = map[string]bool{
	"store": true, "stores": true, "kirana": true, "general": true, "traders": true,
	"trader": true, "trading": true, "supermart": true, "supermarket": true, "mart": true,
	"medical": true, "medicals": true, "medicos": true, "enterprises": true, "enterprise": true,
	"agency": true, "agencies": true, "brothers": true, "bros": true, "sons": true, "and": true,
	"co": true, "company": true, "pvt": true, "ltd": true, "provision": true, "provisions": true,
	"shop": true, "bhandar": true, "emporium": true, "depot": true, "distributors": true,
	"wholesale": true, "retail": true, "corporation": true, "industries": true, "centre": true,
	"center": true, "mall": true, "bazaar": true, "bazar": true, "mandi": true,
}

// tradeNames end customer names by saying the trade, and are left out of
// their short forms as businessWords are: "Ganesh Plumbing Works" is
// also Ganesh, "Gill Auto Parts" Gill. Routing does not read them.
var tradeNames = map[string]bool{
	"hardware": true, "sanitary": true, "plumbing": true, "works": true, "paints": true, "motors": true,
	"garage": true, "builders": true, "auto": true, "parts": true, "spares": true,
}

// titles begin customer names without naming anyone: "Shree Ganesh
// Sanitary" is also Ganesh's.
var titles = map[string]bool{"shree": true, "shri": true, "sri": true}

// placeWords say what kind of place a customer is when written after
// their name, and belong to it: "Shivam hotel" is Hotel Shivam, "Sharma
// store" Sharma General Store. ("and", "co" join or end other names.)
var placeWords = func() map[string]bool {
	m := map[string]bool{"hotel": true}
	for w := range businessWords {
		if w != "and" && w != "co" && w != "company" {
			m[w] = true
		}
	}
	return m
}()

// aliasHeads are the last words of products' aliases of more than one
// word, by the products (their places in the vocabulary) whose aliases
// end with them: "tanki" of "500 litre tanki" and "badi tanki", where
// the names say "Water Tank". Said alone, such a word names one of those
// products, and the order asks which. A word of those products' names is
// left to the names (orders reads the words names end with), and so is a
// name of one word already.
type aliasHeads struct {
	products map[string][]int
	named    map[string]bool // names of one word
}

// maxAliasHead is the most products a word may name this way.
const maxAliasHead = 8

// note reads one of the product's names or aliases, in canonical words.
func (h *aliasHeads) note(words []string, product int, alias bool) {
	h.noteOne(words)
	if !alias || len(words) < 2 {
		return
	}
	w := words[len(words)-1]
	if strings.IndexFunc(w, unicode.IsLetter) < 0 || strings.ContainsAny(w, "0123456789") || RoutingWord(w) {
		return
	}
	if h.products == nil {
		h.products = map[string][]int{}
	}
	if ps := h.products[w]; len(ps) == 0 || ps[len(ps)-1] != product {
		h.products[w] = append(ps, product)
	}
}

// noteOne notes a name of one word.
func (h *aliasHeads) noteOne(words []string) {
	if len(words) != 1 {
		return
	}
	if h.named == nil {
		h.named = map[string]bool{}
	}
	h.named[words[0]] = true
}

// each calls f with each word that ends the aliases of two to
// maxAliasHead products and is no name of one word, in word order.
func (h *aliasHeads) each(f func(word string, products []int)) {
	words := make([]string, 0, len(h.products))
	for w, ps := range h.products {
		if len(ps) >= 2 && len(ps) <= maxAliasHead && !h.named[w] {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	for _, w := range words {
		f(w, h.products[w])
	}
}

// nameBrands are the first words of products' names that begin the names
// of two to maxAliasHead products and begin an alias of one of them too:
// "kajaria" of "Kajaria Vitrified 600x600 …" and "Kajaria GVT 600x1200
// …", called "kajaria 2x2" and "kajaria gvt". People say the brand
// before what sets the product apart ("100 box kajaria 2x4"), and the
// order reads the two names side by side as one product. A brand that
// is a name of one word already is left to that name.
type nameBrands struct {
	products map[string][]int
	prefix   map[string]bool // begins an alias of more than one word
}

// noteName reads a product's name, in canonical words.
func (b *nameBrands) noteName(words []string, product int) {
	if len(words) < 2 || !brandWord(words[0]) {
		return
	}
	if b.products == nil {
		b.products = map[string][]int{}
	}
	if ps := b.products[words[0]]; len(ps) == 0 || ps[len(ps)-1] != product {
		b.products[words[0]] = append(ps, product)
	}
}

// noteAlias reads one of a product's aliases, in canonical words.
func (b *nameBrands) noteAlias(words []string) {
	if len(words) < 2 || !brandWord(words[0]) {
		return
	}
	if b.prefix == nil {
		b.prefix = map[string]bool{}
	}
	b.prefix[words[0]] = true
}

// brandWord reports a word that may be a brand: three letters or more,
// no digit, and no word routing reads.
func brandWord(w string) bool {
	return utf8.RuneCountInString(w) >= 3 && strings.IndexFunc(w, unicode.IsDigit) < 0 &&
		strings.IndexFunc(w, unicode.IsLetter) >= 0 && !RoutingWord(w)
}

// each calls f with each brand and its products, in word order, leaving
// out the words named holds (names of one word).
func (b *nameBrands) each(named map[string]bool, f func(word string, products []int)) {
	words := make([]string, 0, len(b.products))
	for w, ps := range b.products {
		if len(ps) >= 2 && len(ps) <= maxAliasHead && b.prefix[w] && !named[w] {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	for _, w := range words {
		f(w, b.products[w])
	}
}
