package orders

import (
	"slices"
	"strings"
	"unicode"
)

// Kin: products of one family, told apart only by size or pack ("Fortune
// Soyabean Oil 1L" and "Fortune Soyabean Oil 15L Tin", "Aashirvaad Atta
// 10kg" and "5kg"). A word for one of them may mean another of the family
// where the message's own product does not fit: the order of the tin is
// "tel wala order" too.

// kinWords is how many words of their names, besides sizes, two products
// must share to be kin: one shared word ("cleaner") makes no family.
const kinWords = 2

// kinOf is skus with their kin, each once.
func (p *Parser) kinOf(skus []string) []string {
	out := slices.Clone(skus)
	for _, sku := range skus {
		mine := familyWords(p.products[sku].Name)
		if len(mine) < kinWords {
			continue
		}
		for other, prod := range p.products {
			if prod.Inactive || slices.Contains(out, other) {
				continue
			}
			shared := 0
			for _, w := range familyWords(prod.Name) {
				if slices.Contains(mine, w) {
					shared++
				}
			}
			if shared >= kinWords {
				out = append(out, other)
			}
		}
	}
	return out
}

// familyWords are a name's words without its sizes and numbers ("1L",
// "500ml", "650").
func familyWords(name string) []string {
	var out []string
	for _, w := range nameWords(name) {
		if !strings.ContainsFunc(w, unicode.IsDigit) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
