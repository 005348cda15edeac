package orders

import (
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
)

// swap is a product put in the place of one a draft has.
type swap struct{ old, new string }

// swapped reads a product put in the place of one of the draft's items:
// "DAP nahi, potash", "urea ki jagah DAP", "DAP instead of potash", "npk
// ke badle potash". The message names two products, one of them only the
// draft's and turned down or replaced, the other only not in the draft,
// or the one of its products the message's reading settled.
func (p *Parser) swapped(n intent.Normalized, items []Item, settled []string) (swap, bool) {
	var names []intent.Entity
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct {
			names = append(names, e)
		}
	}
	if len(names) != 2 {
		return swap{}, false
	}
	has := func(sku string) bool { return slices.ContainsFunc(items, func(it Item) bool { return it.SKU == sku }) }
	only := func(e intent.Entity, inDraft bool) string {
		var out []string
		for _, sku := range e.Candidates() {
			if has(sku) == inDraft {
				out = append(out, sku)
			}
		}
		if len(out) > 1 && !inDraft {
			// "cpvc nahi pvc chahiye aadha inch": the pvc the size settled.
			out = slices.DeleteFunc(out, func(sku string) bool { return !slices.Contains(settled, sku) })
		}
		if len(out) != 1 || inDraft && len(e.Candidates()) > 1 && !has(out[0]) {
			return ""
		}
		return out[0]
	}
	word := func(i int) string {
		if i >= 0 && i < len(n.Tokens) {
			return n.Tokens[i].Text
		}
		return ""
	}
	for k, e := range names {
		other := names[1-k]
		replaced := negatedAfter(n, e) && e.End < other.Start || // "DAP nahi, potash"
			placeWords[word(e.End+1)] && ofWords[word(e.End)] || // "urea ki jagah DAP"
			word(e.Start-1) == "of" && word(e.Start-2) == "instead" // "DAP instead of potash"
		if !replaced {
			continue
		}
		old, new := only(e, true), only(other, false)
		if old != "" && new != "" {
			return swap{old: old, new: new}, true
		}
	}
	return swap{}, false
}

// swappedByNumber reads a product put in the place of a draft's by the
// number their names differ in: "1.5 nahi 2.5" on a draft of 1.5 sq mm
// wire is the 2.5 sq mm wire, "8mm nahi 12mm" the 12 mm bar. The message
// is only the two numbers, the word that turns the first down and words
// that say nothing else; one draft item's name has the first, and one
// other product's name is that name with the second in its place.
func (p *Parser) swappedByNumber(n intent.Normalized, items []Item) (swap, bool) {
	var nums []intent.Entity
	for _, e := range n.Entities {
		switch e.Kind {
		case intent.EntityNumber, intent.EntitySize:
			nums = append(nums, e)
		default:
			return swap{}, false
		}
	}
	if len(nums) != 2 || nums[0].End >= len(n.Tokens) || !negations[n.Tokens[nums[0].End].Text] {
		return swap{}, false
	}
	for i, t := range n.Tokens {
		inNum := i >= nums[0].Start && i < nums[0].End || i >= nums[1].Start && i < nums[1].End
		if !inNum && !negations[t.Text] && !fillers[t.Text] && !changeVerbs[t.Text] && !plainWords[t.Text] && !addWords[t.Text] {
			return swap{}, false
		}
	}
	was, now := n.Tokens[nums[0].Start].Text, n.Tokens[nums[1].Start].Text
	return p.siblingIn(items, func(w string) (string, bool) {
		if w == was {
			return now, true
		}
		// "1.25 nahi 2.25" of a "1.25l" bottle: the number of a size, its
		// measure kept.
		unit, ok := strings.CutPrefix(w, was)
		if !ok || unit == "" || !isNumberWord(was) || !isNumberWord(now) || strings.ContainsAny(unit, "0123456789.") {
			return "", false
		}
		return now + unit, true
	}, p.productNamed)
}

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
	return p.siblingIn(items, func(w string) (string, bool) { return now, w == was }, p.nameOf)
}

// siblingIn is the one draft line and the product whose name is the
// line's with one word in another's place (with gives it, or false), as
// named finds it: the swap, unless two lines could be meant.
func (p *Parser) siblingIn(items []Item, with func(w string) (string, bool), named func([]string) (string, bool)) (swap, bool) {
	var found swap
	for _, it := range items {
		words := productWords(p.products[it.SKU].Name)
		for j, w := range words {
			now, ok := with(w)
			if !ok {
				continue
			}
			sibling := slices.Clone(words)
			sibling[j] = now
			sku, ok := named(sibling)
			if !ok || sku == it.SKU {
				continue
			}
			if found.old != "" {
				return swap{}, false // two lines could be meant
			}
			found = swap{old: it.SKU, new: sku}
		}
	}
	return found, found.old != ""
}

// nameOf is the one product whose whole name or alias the words are, as
// the catalog's normaliser reads them.
func (p *Parser) nameOf(words []string) (string, bool) {
	n := p.norm.Normalize(strings.Join(words, " "))
	if len(n.Entities) != 1 || n.Entities[0].Kind != intent.EntityProduct || n.Entities[0].Start != 0 ||
		n.Entities[0].End != len(n.Tokens) || len(n.Entities[0].Candidates()) != 1 {
		return "", false
	}
	return n.Entities[0].ID, true
}
