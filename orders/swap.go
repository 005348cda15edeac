package orders

import (
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
)

// swappedByWord reads a product put in the place of a draft's by the one
// word their names differ in: "splendor nahi activa wala" on a draft of
// Brake Shoe Splendor is Brake Shoe Activa. The message is the two words
// with the one that turns the first down between them, and words that
// say nothing else; one draft item's name has the first, and one other
// product's name is that name with the second in its place.
func (p *Parser) swappedByWord(n intent.Normalized, items []Item) (swap, bool) {
	var said []string
	for _, t := range n.Tokens {
		if negations[t.Text] || !fillers[t.Text] && !answerFillers[t.Text] && !changeVerbs[t.Text] && !plainWords[t.Text] {
			said = append(said, t.Text)
		}
	}
	if len(said) != 3 || !negations[said[1]] || said[0] == said[2] || !hasLetter(said[0]) || !hasLetter(said[2]) {
		return swap{}, false
	}
	was, now := said[0], said[2]
	var found swap
	for _, it := range items {
		words := productWords(p.products[it.SKU].Name)
		for j, w := range words {
			if w != was {
				continue
			}
			sibling := slices.Clone(words)
			sibling[j] = now
			skus := p.named[strings.Join(sibling, " ")]
			if len(skus) != 1 || skus[0] == it.SKU {
				continue
			}
			if found.old != "" {
				return swap{}, false // two lines could be meant
			}
			found = swap{old: it.SKU, new: skus[0]}
		}
	}
	return found, found.old != ""
}
