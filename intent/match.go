package intent

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// nameMatch is a product or customer name found at a position.
type nameMatch struct {
	v     *variant
	n     int // tokens covered
	fuzzy bool
}

// matchName finds the longest name starting at toks[i]. Every word must be
// equal, except that one word of five letters or more may carry one typo,
// provided it is not an ordinary word and a longer name keeps one exact
// word. Words are compared whole: "Ashok" never contains "ok".
func (l *lexicon) matchName(toks []Token, i int) (best nameMatch, ok bool) {
	consider := func(vs []*variant, firstFuzzy bool) {
		for _, v := range vs {
			if len(v.words) > len(toks)-i || len(v.words) < best.n {
				continue
			}
			fuzzy := firstFuzzy
			exact := 0
			if !firstFuzzy {
				exact = 1
			}
			fits := true
			for k := 1; k < len(v.words) && fits; k++ {
				t := toks[i+k].Text
				switch {
				case t == v.words[k]:
					exact++
				case !fuzzy && l.typoOf(t, v.words[k]):
					fuzzy = true
				default:
					fits = false
				}
			}
			if !fits || (fuzzy && len(v.words) > 1 && exact == 0) {
				continue
			}
			if m := (nameMatch{v, len(v.words), fuzzy}); !ok || l.better(m, best, toks, i) {
				best, ok = m, true
			}
		}
	}
	w := toks[i].Text
	consider(l.first[w], false)
	if l.mayBeTypo(w) {
		r, _ := utf8.DecodeRuneInString(w)
		n := utf8.RuneCountInString(w)
		for d := -1; d <= 1; d++ {
			for _, cand := range l.fuzzy[fuzzyKey{r, n + d}] {
				if withinOneEdit(w, cand) {
					consider(l.first[cand], true)
				}
			}
		}
	}
	return best, ok
}

// better reports whether m beats the best match so far: longer, then exact
// over misspelt, then, for a name both a product and a customer have, the
// kind its neighbours suggest.
func (l *lexicon) better(m, best nameMatch, toks []Token, i int) bool {
	switch {
	case m.n != best.n:
		return m.n > best.n
	case m.fuzzy != best.fuzzy:
		return !m.fuzzy
	case m.v.kind != best.v.kind:
		return l.preferProduct(toks, i, m.n) == (m.v.kind == EntityProduct)
	}
	return false
}

// preferProduct settles a name that is both a product and a customer: a
// product when a quantity or unit stands beside it.
func (l *lexicon) preferProduct(toks []Token, i, n int) bool {
	near := func(j int) bool {
		if j < 0 || j >= len(toks) {
			return false
		}
		_, unit := l.unitFor(toks[j].Text)
		_, word := numberWords[toks[j].Text]
		return unit || word || isNumber(toks[j].Text)
	}
	return near(i-1) || near(i+n)
}

// mayBeTypo reports whether a message word may be a misspelt name: long
// enough, letters only, and not a word Munshi knows as something else.
func (l *lexicon) mayBeTypo(w string) bool {
	if !fuzzyWord(w) || reservedWord(w) {
		return false
	}
	if _, ok := l.units[w]; ok {
		return false
	}
	if l.known != nil {
		if _, ok := l.known[w]; ok {
			return false
		}
	}
	return true
}

func (l *lexicon) typoOf(word, name string) bool {
	return fuzzyWord(name) && l.mayBeTypo(word) && withinOneEdit(word, name)
}

func (l *lexicon) productAt(toks []Token, i int) bool {
	if i >= len(toks) {
		return false
	}
	m, ok := l.matchName(toks, i)
	return ok && m.v.kind == EntityProduct
}

func (l *lexicon) unitAt(toks []Token, i int) bool {
	if i >= len(toks) {
		return false
	}
	_, ok := l.unitFor(toks[i].Text)
	return ok
}

// findEntities recognises names first (they may contain numbers and units:
// "Garbage Bags 30pc"), then units, numbers, sizes and order references in
// the words left. It rewrites unit words to the canonical unit.
func (l *lexicon) findEntities(toks []Token) []Entity {
	var ents []Entity
	covered := 0 // tokens before this index belong to a name
	for i := 0; i < len(toks); i++ {
		t := toks[i].Text
		if i >= covered && !isNumber(t) {
			if m, ok := l.matchName(toks, i); ok {
				end := i + m.n
				if m.v.kind == EntityCustomer && end < len(toks) && honorifics[toks[end].Text] {
					end++
				}
				ents = append(ents, Entity{Kind: m.v.kind, ID: m.v.ids[0], IDs: m.v.ids, Start: i, End: end, Fuzzy: m.fuzzy})
				covered = end
				i = end - 1
				continue
			}
		}
		if i < covered {
			continue
		}
		switch {
		case isNumber(t):
			v, _ := strconv.ParseFloat(t, 64)
			ents = append(ents, Entity{Kind: EntityNumber, ID: t, Value: v, Start: i, End: i + 1})
		case isSize(t):
			ents = append(ents, Entity{Kind: EntitySize, ID: t, Start: i, End: i + 1})
		case strings.HasPrefix(t, "order-"):
			ents = append(ents, Entity{Kind: EntityOrderRef, ID: strings.ToUpper(t), Start: i, End: i + 1})
		default:
			u, ok := l.unitFor(t)
			if !ok {
				continue
			}
			counted := (i > 0 && isNumber(toks[i-1].Text)) || (i+1 < len(toks) && isNumber(toks[i+1].Text))
			if u.needsCount && !counted {
				continue
			}
			toks[i].Text = u.unit
			ents = append(ents, Entity{Kind: EntityUnit, ID: u.unit, Start: i, End: i + 1})
		}
	}
	return ents
}

// withinOneEdit reports whether a and b differ by at most one insertion,
// deletion, substitution or swap of neighbouring letters.
func withinOneEdit(a, b string) bool {
	if a == b {
		return true
	}
	var ra, rb [48]rune
	x, y := toRunes(a, ra[:0]), toRunes(b, rb[:0])
	if len(x) < len(y) {
		x, y = y, x
	}
	if len(x)-len(y) > 1 {
		return false
	}
	i := 0
	for i < len(y) && x[i] == y[i] {
		i++
	}
	if len(x) == len(y) {
		if i+1 < len(x) && x[i] == y[i+1] && x[i+1] == y[i] && equalRunes(x[i+2:], y[i+2:]) {
			return true
		}
		return equalRunes(x[i+1:], y[i+1:])
	}
	return equalRunes(x[i+1:], y[i:])
}

func toRunes(s string, buf []rune) []rune {
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf
}

func equalRunes(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
