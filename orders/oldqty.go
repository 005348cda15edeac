package orders

import (
	"strconv"
	"strings"

	"github.com/munshi/munshi/intent"
)

// A correction often says the quantity it replaces beside the new one:
// "phenyl 10 nahi 12", "colin 2 nahi 4 peti", "फिनाइल 10 की जगह 8
// कार्टन", "sabun 5 dozen se ghata ke 3 dozen", "they want 6 cartons of
// GC, not 2". Read as it stands the old number is a second quantity, and
// the message is not understood; the old one, with the word that turns it
// down, is cut before the correction is read.

// insteadWords say the quantity before them is the one replaced
// ("2 ki jagah 5", "३ ऐवजी ५"); reduceWords that it is brought down ("5
// dozen se ghata ke 3"). English says the old one after: "12 instead of
// 10".
var (
	insteadWords = words("jagah जगह ऐवजी")
	reduceWords  = words("ghata")
	insteadOf    = words("instead")
)

// withoutOldQuantity is text without the quantity a correction replaces,
// and the word that turns it down. A number turned down by a negation
// ("10 nahi 12", "6 cartons, not 2") counts only when it is the quantity
// a line of the draft was said in, and a product is named: "1.5 nahi 2.5"
// alone swaps a wire's size (swap.go). One said replaced in so many words
// ("2 ki jagah 5") counts whatever it was. A draft of one line needs no
// product named: "4 nai, 6 carton kar de" can only mean its line.
func withoutOldQuantity(text string, n intent.Normalized, items []Item) (string, bool) {
	if !n.Has(intent.EntityProduct) && len(items) != 1 {
		return text, false
	}
	toks := n.Tokens
	for k, e := range n.Entities {
		if e.Kind != intent.EntityNumber {
			continue
		}
		end := e.End // the old quantity's unit goes with it
		if unitAfter(n.Entities, k) {
			end = n.Entities[k+1].End
		}
		// "6 cartons of GC, not 2": the old number last, after a negation;
		// "12 cartons instead of 10".
		if k > 0 && e.End == len(toks) && e.Start > 0 && negations[toks[e.Start-1].Text] && saidInDraft(e, n, items) &&
			n.Entities[k-1].Kind != intent.EntityOrderRef {
			return cut(text, toks[e.Start-1].Start, toks[e.End-1].End), true
		}
		if k > 0 && e.Start > 1 && toks[e.Start-1].Text == "of" && insteadOf[toks[e.Start-2].Text] {
			return cut(text, toks[e.Start-2].Start, toks[end-1].End), true
		}
		if end >= len(toks) {
			continue
		}
		next := nextNumber(n, k+1)
		switch w := toks[end].Text; {
		case negations[w] && next >= 0 && n.Entities[next].Start <= end+2 && saidInDraft(e, n, items):
			// "phenyl 10 nahi 12": cut "10 nahi", and the new number is
			// in the old one's unit, said or the line's.
			return cut(withUnit(text, n, next, e, end, items), toks[e.Start].Start, toks[end].End), true
		case insteadWords[w] || end+1 < len(toks) && insteadWords[toks[end+1].Text] && toks[end].Text == "ki":
			last := end
			if !insteadWords[w] {
				last = end + 1
			}
			return cut(text, toks[e.Start].Start, toks[last].End), true
		case w == "se" && end+1 < len(toks) && reduceWords[toks[end+1].Text]:
			last := end + 1
			if last+1 < len(toks) && toks[last+1].Text == "ke" {
				last++
			}
			return cut(text, toks[e.Start].Start, toks[last].End), true
		}
	}
	return text, false
}

// withUnit is text with a unit after the new number at entity k when it
// has none: the old quantity's (the tokens from old.End to end), or the
// one the draft line it was said for was said in.
func withUnit(text string, n intent.Normalized, k int, old intent.Entity, end int, items []Item) string {
	e := n.Entities[k]
	if unitAfter(n.Entities, k) {
		return text
	}
	unit := ""
	if end > old.End {
		if from, to := n.Tokens[old.End].Start, n.Tokens[end-1].End; from >= 0 && from < to && to <= len(text) {
			unit = text[from:to]
		}
	} else if it, ok := lineSaid(old, n, items); ok {
		unit = it.SaidUnit
	}
	at := n.Tokens[e.End-1].End
	if unit == "" || at < 0 || at > len(text) {
		return text
	}
	return text[:at] + " " + unit + text[at:]
}

// unitAfter reports a unit written right after the entity at k: "10
// carton".
func unitAfter(ents []intent.Entity, k int) bool {
	return k+1 < len(ents) && ents[k+1].Kind == intent.EntityUnit && ents[k+1].Start == ents[k].End
}

// nextNumber is the index of the first number entity from k on, or -1.
func nextNumber(n intent.Normalized, k int) int {
	for ; k < len(n.Entities); k++ {
		if n.Entities[k].Kind == intent.EntityNumber {
			return k
		}
		if n.Entities[k].Kind != intent.EntityUnit {
			return -1
		}
	}
	return -1
}

// saidInDraft reports a number that is how much a line of the draft was
// said in, or its quantity in base units.
func saidInDraft(e intent.Entity, n intent.Normalized, items []Item) bool {
	_, ok := lineSaid(e, n, items)
	return ok
}

// lineSaid is the line of the draft said in the number e, or of that
// many base units: one of the products the message names first.
func lineSaid(e intent.Entity, n intent.Normalized, items []Item) (Item, bool) {
	v, err := strconv.ParseInt(e.ID, 10, 64)
	if err != nil {
		return Item{}, false
	}
	named := keptProducts(n)
	var first *Item
	for i, it := range items {
		if it.SaidQty != v && !(it.SaidQty == 0 && it.Qty == v) {
			continue
		}
		if contains(named, it.SKU) {
			return it, true
		}
		if first == nil {
			first = &items[i]
		}
	}
	if first == nil {
		return Item{}, false
	}
	return *first, true
}

// cut is text without the bytes from start to end, joined by one space.
func cut(text string, start, end int) string {
	if start < 0 || end > len(text) || start >= end {
		return text
	}
	return strings.TrimSpace(strings.TrimSpace(text[:start]) + " " + strings.TrimSpace(text[end:]))
}
