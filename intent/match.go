package intent

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// nameMatch is a product or customer name found at a position.
type nameMatch struct {
	v     *variant
	n     int // tokens covered
	fuzzy bool
	// plural: a word read as its singular though a name has it as it
	// stands; of equally long matches, the one that read it as it stands
	// wins.
	plural bool
}

// matchName finds the longest name starting at toks[i]. Every word must be
// equal, except that one word of five letters or more may carry one typo,
// provided it is not an ordinary word and a longer name keeps one exact
// word; a misspelt first word keeps its first letter. Words are compared
// whole: "Ashok" never contains "ok".
//
// Of equally long matches an exact one wins, then, for a name both a
// product and a customer have, the kind its neighbours suggest, then the
// one reached from the first word as written, then from the misspelt first
// word that is shortest and first in byte order, then the name made first.
func (l *lexicon) matchName(toks []Token, i int) (nameMatch, bool) {
	s := nameSearch{l: l, toks: toks, i: i}
	w := toks[i].Text
	l.steps(0, w, func(node int32, plural bool) { s.walk(node, 1, false, plural, route{}) })
	if l.mayBeTypo(w) {
		first, _ := utf8.DecodeRuneInString(w)
		var buf [8]int32
		for _, id := range l.typos.near(w, buf[:0]) {
			cand := l.wordText[id]
			if r, _ := utf8.DecodeRuneInString(cand); r != first {
				continue
			}
			if node, ok := l.edges[edgeOf(0, id)]; ok {
				s.walk(node, 1, true, false, route{typo: true, runes: utf8.RuneCountInString(cand), word: cand})
			}
		}
	}
	if id, ok := l.soundAlike(w); ok {
		if node, ok := l.edges[edgeOf(0, id)]; ok {
			cand := l.wordText[id]
			s.walk(node, 1, true, false, route{typo: true, runes: utf8.RuneCountInString(cand), word: cand})
		}
	}
	return s.best, s.ok
}

// steps calls f with each node a name goes on to from node through w: w
// as names write it (asNamed), and its English singular besides when a
// name has the plural itself ("sports shoes" for the alias "sports shoe",
// beside another product's "school shoes"), which f is told of. A plural
// is the same name, not a typo of it.
func (l *lexicon) steps(node int32, w string, f func(next int32, singular bool)) {
	if next, ok := l.step(node, l.asNamed(w)); ok {
		f(next, false)
	}
	if sg, ok := l.alsoSingular(w); ok {
		if next, ok := l.step(node, sg); ok {
			f(next, true)
		}
	}
}

// alsoSingular is w's English singular when w is a word of a name as it
// stands and the singular is one too.
func (l *lexicon) alsoSingular(w string) (string, bool) {
	if l.asNamed(w) != w || len(w) < 4 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") {
		return "", false
	}
	if _, ok := l.words[w]; !ok {
		return "", false
	}
	sg := w[:len(w)-1]
	_, ok := l.words[sg]
	return sg, ok
}

// asNamed is w as names write it: itself, or, when no name has the word,
// its singular if a name has that ("brooms", "rajeshs"), or the unit a
// unit word in a script names in Latin letters ("गार्बेज बैग" heard as
// Garbage Bag's "garbage bag").
func (l *lexicon) asNamed(w string) string {
	if _, ok := l.words[w]; ok {
		return w
	}
	if w != "" && w[0] >= 0x80 {
		if u, ok := l.units[w]; ok {
			if _, named := l.words[u.unit]; named {
				return u.unit
			}
		}
		return w
	}
	if len(w) < 4 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") {
		return w
	}
	if _, ok := l.words[w[:len(w)-1]]; ok {
		return w[:len(w)-1]
	}
	return w
}

// nameSearch walks the trie from one position of a message, keeping the
// best name found.
type nameSearch struct {
	l    *lexicon
	toks []Token
	i    int
	best nameMatch
	via  route
	ok   bool
}

// route is how a search reached a name: from the first word as written, or
// from a misspelt first word (ordered by length in runes, then bytes).
type route struct {
	typo  bool
	runes int
	word  string
}

func (r route) before(o route) bool {
	switch {
	case r.typo != o.typo:
		return !r.typo
	case r.runes != o.runes:
		return r.runes < o.runes
	}
	return r.word < o.word
}

// walk visits the names through node, n tokens into the match; fuzzy says
// whether a typo was spent on the way, plural whether a word that names
// have as it stands was read as its singular.
func (s *nameSearch) walk(node int32, n int, fuzzy, plural bool, via route) {
	for v := s.l.ends[node]; v != nil; v = v.next {
		s.offer(nameMatch{v, n, fuzzy, plural}, via)
	}
	if s.i+n >= len(s.toks) {
		return
	}
	t := s.toks[s.i+n].Text
	s.l.steps(node, t, func(next int32, sg bool) { s.walk(next, n+1, fuzzy, plural || sg, via) })
	if id, ok := s.l.soundAlike(t); ok {
		if next, ok := s.l.edges[edgeOf(node, id)]; ok {
			s.walk(next, n+1, true, plural, via)
		}
	}
	if fuzzy || !s.l.mayBeTypo(t) {
		return
	}
	var buf [8]int32
	for _, id := range s.l.typos.near(t, buf[:0]) {
		if next, ok := s.l.edges[edgeOf(node, id)]; ok {
			s.walk(next, n+1, true, plural, via)
		}
	}
}

// offer keeps m if it beats the best match so far: longer, then exact over
// misspelt, then the kind its neighbours suggest, then found first.
func (s *nameSearch) offer(m nameMatch, via route) {
	if s.ok {
		best := s.best
		switch {
		case m.n != best.n:
			if m.n < best.n {
				return
			}
		case m.fuzzy != best.fuzzy:
			if m.fuzzy {
				return
			}
		case m.plural != best.plural:
			if m.plural {
				return
			}
		case m.v.kind != best.v.kind:
			if s.l.preferProduct(s.toks, s.i, m.n) != (m.v.kind == EntityProduct) {
				return
			}
		case via != s.via:
			if !via.before(s.via) {
				return
			}
		case m.v.seq > best.v.seq:
			return
		}
	}
	s.best, s.via, s.ok = m, via, true
}

// preferProduct settles a name that is both a product and a customer: a
// product when a quantity or unit stands beside it.
func (l *lexicon) preferProduct(toks []Token, i, n int) bool {
	near := func(j int) bool {
		if j < 0 || j >= len(toks) {
			return false
		}
		_, unit := l.unitFor(toks[j].Text)
		return unit || counted(toks[j].Text)
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

// soundAlike is the word of a name that a Latin word no name has sounds
// like, written with some of its vowels left out ("restrant", "perl",
// "bulders" for Restaurant, Pearl, Builders): the same first letter and
// consonants, no vowel the name's word does not have in that order, and
// no other word of a name with them. Vowels written otherwise are another
// word: "sabine" is not sabun.
func (l *lexicon) soundAlike(w string) (int32, bool) {
	if len(w) < 4 || len(l.sounds.full) == 0 || reservedWord(w) {
		return 0, false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return 0, false
		}
	}
	if _, ok := l.words[w]; ok {
		return 0, false
	}
	if _, ok := l.units[w]; ok {
		return 0, false
	}
	if _, ok := numberWords[w]; ok {
		return 0, false
	}
	if l.known != nil {
		if _, ok := l.known[w]; ok {
			return 0, false
		}
	}
	k, ok := soundKey(w, false)
	if !ok {
		return 0, false
	}
	m, ok := l.sounds.full[k]
	if !ok || m == ambiguous || m == w || m[0] != w[0] || !vowelsWithin(w, m) {
		return 0, false
	}
	id, ok := l.words[m]
	return id, ok
}

// vowelsWithin reports whether the vowels of w are, in order, some of
// the vowels of name.
func vowelsWithin(w, name string) bool {
	j := 0
	for i := 0; i < len(w); i++ {
		if !strings.ContainsRune("aeiou", rune(w[i])) {
			continue
		}
		for j < len(name) && name[j] != w[i] {
			j++
		}
		if j == len(name) {
			return false
		}
		j++
	}
	return true
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

// brokenBetween reports punctuation that ends a sentence or a clause
// between two tokens: "Mehta Traders. Seth ji se milna hai" names the
// shop, then the seth, who is not part of its name.
func brokenBetween(text string, a, b Token) bool {
	if a.End < 0 || a.End > b.Start || b.Start > len(text) {
		return false
	}
	return strings.ContainsAny(text[a.End:b.Start], ".,;:!?।\n")
}

// findEntities recognises names first (they may contain numbers and units:
// "Garbage Bags 30pc"), then units, numbers, sizes and order references in
// the words left. It rewrites unit words to the canonical unit.
func (l *lexicon) findEntities(text string, toks []Token) []Entity {
	var ents []Entity
	covered := 0 // tokens before this index belong to a name
	for i := 0; i < len(toks); i++ {
		t := toks[i].Text
		if i >= covered {
			m, ok := l.matchName(toks, i)
			shared := 0 // "6301 bearing": the shared name after the number
			if ok && isNumber(t) {
				ok, shared = l.numberLedProduct(toks, i, m)
			}
			ok = ok && (!m.v.guarded || i > 0 && (isNumber(toks[i-1].Text) || l.unitAt(toks, i-1)))
			if ok {
				end := i + m.n + shared
				if m.v.kind == EntityCustomer && end < len(toks) && (honorifics[toks[end].Text] || placeWords[toks[end].Text]) &&
					!brokenBetween(text, toks[end-1], toks[end]) {
					end++
				}
				if m.v.kind == EntityProduct && end < len(toks) && l.nameWordAfter(m.v.ids, toks[end].Text) &&
					!brokenBetween(text, toks[end-1], toks[end]) && !l.productAt(toks, end) {
					end++
				}
				ents = append(ents, Entity{Kind: m.v.kind, ID: m.v.ids[0], IDs: m.v.ids, Kin: m.v.kin, Start: i, End: end, Fuzzy: m.fuzzy, Weak: m.v.weak})
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
		case strings.HasPrefix(t, "order-"), strings.HasPrefix(t, "draft-"), strings.HasPrefix(t, "prp-"), isBooksRef(t):
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
			if u.unit == "pack" && !counted && packedAt(toks, i) {
				toks[i].Text = "packed" // "३५ कार्टन फिनाइल पैक हो गई": the verb
				continue
			}
			toks[i].Text = u.unit
			ents = append(ents, Entity{Kind: EntityUnit, ID: u.id(), Start: i, End: i + 1})
		}
	}
	return ents
}

// numberLedProduct reports a product whose name starts with a number at
// i (m, the name matched there), read as the name rather than as a quantity: a seed known by its
// variety ("20 bag 1121"), a fertiliser by its grade ("12 32 16"). A
// number is a quantity first, so the name must span more than the one
// number, or stand where a quantity cannot: after a quantity and its
// unit, or before "ka" ("1121 ka stock"), or before a name it shares
// with other products ("6301 bearing"), whose length it also returns.
func (l *lexicon) numberLedProduct(toks []Token, i int, m nameMatch) (ok bool, shared int) {
	if m.fuzzy && m.n < 3 || m.v.kind != EntityProduct {
		return false, 0 // "1.5 sqmm cabel" may carry a typo, "12 phenl" not
	}
	end := i + m.n
	if end < len(toks) && (l.unitAt(toks, end) || measureAt(toks, end)) {
		return false, 0 // "5 carton": a quantity
	}
	shared = l.sharedAfter(toks, end, m)
	if m.n > 1 || shared > 0 {
		return true, shared
	}
	counted := i >= 2 && isNumber(toks[i-2].Text) && l.unitAt(toks, i-1)
	return counted || end < len(toks) && ofWords[toks[end].Text], 0
}

// sharedAfter is the length of the name at i when it is one the product m
// names shares with others ("bearing", after "6301" of Ball Bearing
// 6301), so that the number and the shared name read as the one product;
// else 0.
func (l *lexicon) sharedAfter(toks []Token, i int, m nameMatch) int {
	if i >= len(toks) || m.v.kind != EntityProduct || len(m.v.ids) != 1 {
		return 0
	}
	next, ok := l.matchName(toks, i)
	if !ok || next.fuzzy || next.v.kind != EntityProduct || len(next.v.ids) < 2 || !slices.Contains(next.v.ids, m.v.ids[0]) {
		return 0
	}
	return next.n
}

// ofWords make the word before them what is talked about.
var ofWords = words("ka ki ke")

// packedAt reports "pack" at i said done, a verb and not a unit: "pack ho
// gaya", "pack hui", "pack kar diya", "pack kiye" ("pack kar do" asks for
// it).
func packedAt(toks []Token, i int) bool {
	next := func(k int) string {
		if i+k < len(toks) {
			return toks[i+k].Text
		}
		return ""
	}
	switch next(1) {
	case "hua", "hui", "hue", "kiya", "kiye":
		return true
	case "ho":
		return strings.HasPrefix(next(2), "gay") || next(2) == "gai"
	case "kar":
		return strings.HasPrefix(next(2), "di") || strings.HasPrefix(next(2), "li")
	}
	return false
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
