package intent

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Vocabulary is what a distributor sells and to whom: the names the router
// recognises in messages. Only SKU, Name, Aliases, Unit and PackSizes of a
// product and ID, Name and Aliases of a customer are read.
type Vocabulary struct {
	Products  []domain.Product
	Customers []domain.Customer
}

// lexicon is a Vocabulary compiled for matching token sequences.
type lexicon struct {
	first map[string][]*variant // by first canonical word, longest first
	fuzzy map[fuzzyKey][]string // first words that may match with a typo
	units map[string]unitWord
	// known are ordinary words, never read as a misspelt name. Nil means
	// only the reserved words.
	known map[string]struct{}
}

// variant is one way of writing a product or customer name.
type variant struct {
	words []string
	kind  EntityKind
	ids   []string
}

type fuzzyKey struct {
	first rune
	runes int
}

// minFuzzyRunes is the shortest word matched with a typo: shorter words are
// too close to each other ("soap"/"soup", "mop"/"map").
const minFuzzyRunes = 5

// honorifics may follow a customer's name and belong to it: "Sharma ji".
var honorifics = map[string]bool{
	"ji": true, "bhai": true, "sir": true, "seth": true, "sahab": true, "saab": true,
	"babu": true, "uncle": true, "madam": true, "sethji": true,
}

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

func mustLexicon(v Vocabulary) *lexicon {
	l, err := newLexicon(v)
	if err != nil {
		panic(err)
	}
	return l
}

func newLexicon(v Vocabulary) (*lexicon, error) {
	l := &lexicon{
		first: map[string][]*variant{},
		fuzzy: map[fuzzyKey][]string{},
		units: map[string]unitWord{},
	}
	for w, u := range builtinUnits {
		l.units[w] = u
	}
	seen := map[string]bool{}
	for i, p := range v.Products {
		if strings.TrimSpace(p.SKU) == "" {
			return nil, fmt.Errorf("intent: product %d (%q) has no SKU", i+1, p.Name)
		}
		if seen["p"+p.SKU] {
			return nil, fmt.Errorf("intent: product SKU %q listed twice", p.SKU)
		}
		seen["p"+p.SKU] = true
		l.addUnit(p.Unit)
		for _, ps := range p.PackSizes {
			l.addUnit(ps.Name)
		}
	}
	// Names are added after every unit is known, so that "30pc" in a name
	// splits the way it does in a message.
	for _, p := range v.Products {
		names := append([]string{p.Name, p.SKU}, p.Aliases...)
		for _, n := range names {
			l.addName(EntityProduct, p.SKU, n)
		}
	}
	for i, c := range v.Customers {
		if strings.TrimSpace(c.ID) == "" {
			return nil, fmt.Errorf("intent: customer %d (%q) has no ID", i+1, c.Name)
		}
		if seen["c"+c.ID] {
			return nil, fmt.Errorf("intent: customer ID %q listed twice", c.ID)
		}
		seen["c"+c.ID] = true
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			l.addName(EntityCustomer, c.ID, n)
		}
	}
	for w, vs := range l.first {
		slices.SortStableFunc(vs, func(a, b *variant) int { return len(b.words) - len(a.words) })
		if fuzzyWord(w) {
			r, _ := utf8.DecodeRuneInString(w)
			k := fuzzyKey{r, utf8.RuneCountInString(w)}
			l.fuzzy[k] = append(l.fuzzy[k], w)
		}
	}
	for _, ws := range l.fuzzy {
		slices.Sort(ws)
	}
	return l, nil
}

// addUnit makes a catalog's own unit ("drum", "ladi") a unit word.
func (l *lexicon) addUnit(name string) {
	w := strings.ToLower(strings.TrimSpace(name))
	if w == "" || strings.ContainsAny(w, " \t") {
		return
	}
	if _, ok := l.units[w]; ok {
		return
	}
	u := unitWord{unit: w, needsCount: true}
	if b, ok := builtinUnits[w]; ok {
		u = b
	}
	l.units[w] = u
	if _, ok := l.units[w+"s"]; !ok {
		l.units[w+"s"] = u
	}
}

// unitFor returns the unit a word stands for, if it is one.
func (l *lexicon) unitFor(w string) (unitWord, bool) {
	u, ok := l.units[w]
	return u, ok
}

// addName indexes a name and the shorter forms people use for it: without
// the pack size ("Phenyl 1L" → "phenyl"), a customer without the words that
// only say what kind of business it is ("Rajesh Kirana Store" → "rajesh"),
// and multi-word names written as one word ("glasscleaner").
func (l *lexicon) addName(kind EntityKind, id, name string) {
	words := nameWords(name, l)
	if len(words) == 0 {
		return
	}
	l.addVariant(kind, id, words)
	switch kind {
	case EntityProduct:
		l.addVariant(kind, id, l.withoutPackSize(words))
	case EntityCustomer:
		short := words
		if len(short) > 2 && short[0] == "m" && short[1] == "s" { // M/s
			short = short[2:]
		}
		for len(short) > 1 && businessWords[short[len(short)-1]] {
			short = short[:len(short)-1]
		}
		l.addVariant(kind, id, short)
	}
	if len(words) > 1 && len(words) <= 3 {
		joined := strings.Join(words, "")
		if utf8.RuneCountInString(joined) >= 6 && !isNumber(joined) {
			l.addVariant(kind, id, []string{joined})
		}
	}
}

func (l *lexicon) addVariant(kind EntityKind, id string, words []string) {
	if len(words) == 1 && (reservedWord(words[0]) || isNumber(words[0]) || utf8.RuneCountInString(words[0]) < 2) {
		// A name that is also "ok", "stock" or "do" would swallow the very
		// words routing depends on.
		return
	}
	for _, v := range l.first[words[0]] {
		if v.kind == kind && slices.Equal(v.words, words) {
			if !slices.Contains(v.ids, id) {
				v.ids = append(v.ids, id)
			}
			return
		}
	}
	l.first[words[0]] = append(l.first[words[0]], &variant{words: slices.Clone(words), kind: kind, ids: []string{id}})
}

// nameWords canonicalises a catalog name exactly as a message would be.
func nameWords(name string, l *lexicon) []string {
	toks := canonicalise(splitWords(name, nil), l, nil)
	toks = mergePhrases(toks)
	var words []string
	for i := 0; i < len(toks); i++ {
		t := toks[i].Text
		if isNumber(t) && i+1 < len(toks) {
			if m, ok := measureSuffixes[toks[i+1].Text]; ok {
				t += m
				i++
			}
		}
		words = append(words, t)
	}
	return words
}

// withoutPackSize drops the pack size ending a product name: "500ml",
// "1.5l", "30 pc", "100".
func (l *lexicon) withoutPackSize(words []string) []string {
	for len(words) > 1 {
		last := words[len(words)-1]
		switch {
		case isNumber(last) || isSize(last):
			words = words[:len(words)-1]
		case len(words) > 2 && isNumber(words[len(words)-2]) && l.isUnitWord(last):
			words = words[:len(words)-2]
		default:
			return words
		}
	}
	return words
}

func (l *lexicon) isUnitWord(w string) bool {
	_, ok := l.unitFor(w)
	return ok
}

// isSize reports a number glued to a measure: "500ml", "1.5l", "1kg".
func isSize(w string) bool {
	digits, rest, ok := splitCount(w)
	if !ok || digits == "" {
		return false
	}
	m, ok := measureSuffixes[rest]
	return ok && m == rest
}

// fuzzyWord reports whether w is long enough, and made of letters only, to
// be matched with one typo.
func fuzzyWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.In(r, unicode.Mn, unicode.Mc) {
			return false
		}
		n++
	}
	return n >= minFuzzyRunes
}
