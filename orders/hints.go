package orders

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The most a model is shown of a large catalog for one message. A catalog
// and customer list this small go whole, in a stable order, so that a
// provider caches the request's prefix; a larger one would not fit a
// request, and only the names near the message go.
const (
	MaxHintProducts  = 300
	MaxHintCustomers = 150
)

// HintsFor returns the vocabulary a model is shown to read text: all of it
// for a small catalog, else the products and customers whose names share a
// word, or the first letters of one, with the message — the most shared
// first, then by SKU or id.
func (p *Parser) HintsFor(text string) Hints {
	if len(p.products) <= MaxHintProducts && len(p.customers) <= MaxHintCustomers {
		return p.Hints()
	}
	ix := p.nameIndex()
	keys := hintKeys(text)
	return p.hintsOf(ix.products.nearest(keys, MaxHintProducts), ix.customers.nearest(keys, MaxHintCustomers))
}

// nameIndex is built on the first large request and kept: the parser does
// not change once made.
func (p *Parser) nameIndex() *hintIndex {
	p.hintOnce.Do(func() {
		ix := &hintIndex{products: wordIndex{}, customers: wordIndex{}}
		for sku, x := range p.products {
			ix.products.add(sku, append([]string{x.Name, sku}, x.Aliases...))
		}
		for id, c := range p.customers {
			ix.customers.add(id, append([]string{c.Name}, c.Aliases...))
		}
		p.hints = ix
	})
	return p.hints
}

type hintIndex struct{ products, customers wordIndex }

// wordIndex maps a name's words, and their first three letters, to the
// keys (SKUs, customer ids) of the names they are in.
type wordIndex map[string][]string

func (w wordIndex) add(key string, names []string) {
	seen := map[string]bool{}
	for _, n := range names {
		for _, k := range hintKeys(n) {
			if !seen[k] {
				seen[k] = true
				w[k] = append(w[k], key)
			}
		}
	}
}

// nearest ranks keys by how many of the message's words and word starts
// their names share, a whole word counting double, and returns at most n.
func (w wordIndex) nearest(keys []string, n int) []string {
	score := map[string]int{}
	for _, k := range keys {
		weight := 2
		if strings.HasPrefix(k, "^") {
			weight = 1
		}
		for _, key := range w[k] {
			score[key] += weight
		}
	}
	out := make([]string, 0, len(score))
	for key := range score {
		out = append(out, key)
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out[:min(len(out), n)]
}

// hintKeys are a text's words of two letters or more, lower-cased, and the
// first three letters of each longer one marked with "^", so that a
// misspelt "clenar" still meets "cleaner".
func hintKeys(text string) []string {
	var keys []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.In(r, unicode.Mn, unicode.Mc)
	}) {
		if utf8.RuneCountInString(w) < 2 || plainWords[w] {
			continue
		}
		keys = append(keys, w)
		if utf8.RuneCountInString(w) > 3 {
			r := []rune(w)
			keys = append(keys, "^"+string(r[:3]))
		}
	}
	return keys
}
