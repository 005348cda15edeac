package orders

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/intent"
)

// Goods received with a part damaged: "FC 1L 45 ctn aa gaya, 1 ctn leak",
// "handwash 12 ctn aaye, 4 bottle ka pump tuta", "300 ctn phenyl arrived,
// 5 ctn leaking, 295 ok". The count just before a word of damage, after
// the count of what came, is the damaged part: read apart, in the unit
// and of the goods named before it when it names none, and taken off
// what came. A count of the good part said again ("295 ok") is not more
// goods.

// damageWords say goods came damaged.
var damageWords = map[string]bool{"damaged": true, "damage": true, "leak": true, "leaking": true, "toota": true,
	"tuta": true, "tute": true, "tuti": true, "broken": true, "kharab": true, "defective": true, "phata": true, "phati": true}

// goodWords say a count is of the good part: "295 ok", "43 good".
var goodWords = map[string]bool{"ok": true, "good": true, "sahi": true, "theek": true}

// damagedParts splits n's entities into those of what came and, for each
// damaged part, the words that name it: its goods, count and unit, or
// the goods and unit named last before it where it names none ("phenyl
// 2 carton" for "45 cartons of phenyl, 2 leaking").
func damagedParts(n intent.Normalized) (intent.Normalized, []string) {
	ents := n.Entities
	counts := 0
	for _, e := range ents {
		if e.Kind == intent.EntityNumber {
			counts++
		}
	}
	if counts < 2 {
		return n, nil
	}
	drop := make([]bool, len(ents))
	var parts []string
	seen := 0
	for k, e := range ents {
		if e.Kind != intent.EntityNumber {
			continue
		}
		if seen++; seen == 1 {
			continue // the first count is of what came
		}
		first, last := k, k
		// Its own goods just before it ("GC 2 carton leak") and its unit
		// or goods just after.
		for first > 0 && (ents[first-1].Kind == intent.EntityProduct || ents[first-1].Kind == intent.EntitySize) && ents[first-1].End == ents[first].Start {
			first--
		}
		if first < k && first > 0 && counted(n.Tokens, ents[first-1], ents[first]) {
			first = k // "45 cartons of phenyl, 2 leaking": the goods of the count before
		}
		if unitAfter(ents, last) {
			last++
		}
		if last+1 < len(ents) && ents[last+1].Kind == intent.EntityProduct && ents[last+1].Start-ents[last].End <= 1 &&
			(last+2 >= len(ents) || ents[last+2].Kind != intent.EntityNumber) {
			last++ // "2 carton phenyl leak"
		}
		end := ents[last].End
		switch {
		case damageAfter(n.Tokens, end), damageBefore(n.Tokens, ents[first].Start) && !(end < len(n.Tokens) && goodWords[n.Tokens[end].Text]):
			parts = append(parts, partWords(ents[:first], ents[first:last+1]))
		case end < len(n.Tokens) && goodWords[n.Tokens[end].Text] && anyDamage(n.Tokens):
		default:
			continue
		}
		for j := first; j <= last; j++ {
			drop[j] = true
		}
	}
	arrived := n
	arrived.Entities = nil
	for k, e := range ents {
		if !drop[k] {
			arrived.Entities = append(arrived.Entities, e)
		}
	}
	return arrived, parts
}

// damageAfter reports a word of damage within three tokens after end,
// before any other count.
func damageAfter(toks []intent.Token, end int) bool { return damageFrom(toks, end, 1, 4) }

// damageBefore reports a damage word in the three words before a count
// that follows what came: "handwash 5 ctn received, seal tuta hua 1
// carton me" (a count said good after it, "2 leaking so 43 good", is the
// rest).
func damageBefore(toks []intent.Token, start int) bool { return damageFrom(toks, start-1, -1, 3) }

// damageFrom reports a word of damage among the n tokens from i, stepping
// by step, before any count.
func damageFrom(toks []intent.Token, i, step, n int) bool {
	for ; n > 0 && i >= 0 && i < len(toks); i, n = i+step, n-1 {
		if damageWords[toks[i].Text] {
			return true
		}
		if t := toks[i].Text; t != "" && t[0] >= '0' && t[0] <= '9' {
			return false
		}
	}
	return false
}

// counted reports goods named just after a count and its unit, as theirs:
// "45 cartons of phenyl", "20 carton GC".
func counted(toks []intent.Token, before, goods intent.Entity) bool {
	if before.Kind != intent.EntityUnit && before.Kind != intent.EntityNumber {
		return false
	}
	gap := goods.Start - before.End
	return gap == 0 || gap == 1 && (ofWords[toks[before.End].Text] || toks[before.End].Text == "of")
}

func anyDamage(toks []intent.Token) bool {
	for _, t := range toks {
		if damageWords[t.Text] {
			return true
		}
	}
	return false
}

// partWords are the words of a damaged part: its own goods, count and
// unit, with the goods (and their size) and the unit named last before
// it where it names none of its own.
func partWords(before, own []intent.Entity) string {
	has := map[intent.EntityKind]bool{}
	for _, e := range own {
		has[e.Kind] = true
	}
	var goods, unit []string
	if !has[intent.EntityProduct] {
		for j := len(before) - 1; j >= 0; j-- {
			if before[j].Kind == intent.EntityProduct {
				goods = append(goods, before[j].Text)
				if j+1 < len(before) && before[j+1].Kind == intent.EntitySize {
					goods = append(goods, before[j+1].Text)
				}
				break
			}
		}
	}
	if !has[intent.EntityUnit] {
		for j := len(before) - 1; j >= 0; j-- {
			if before[j].Kind == intent.EntityUnit {
				unit = append(unit, before[j].Text)
				break
			}
		}
	}
	words := goods
	for _, e := range own {
		words = append(words, e.Text)
	}
	return strings.Join(append(words, unit...), " ")
}

// netOfDamage takes the damaged goods off what came, SKU by SKU. Damage of
// goods that did not come, or more than came, is asked about.
func netOfDamage(items, damaged []Item, unresolved []string) ([]Item, []string) {
	for _, d := range damaged {
		left := d.Qty
		for i := range items {
			if items[i].SKU != d.SKU || left == 0 {
				continue
			}
			take := min(left, items[i].Qty)
			items[i].Qty -= take
			left -= take
		}
		if left > 0 {
			unresolved = append(unresolved, fmt.Sprintf("More %s came damaged than came in all: how many arrived, and how many of them were damaged?", d.SKU))
		}
	}
	out := items[:0]
	for _, it := range items {
		if it.Qty > 0 {
			out = append(out, it)
		}
	}
	return out, unresolved
}
