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
	// Staff are the names of the business's own people (its users): a
	// message that asks for one of them by name asks for the office.
	Staff []string
	// trained marks the corpus's own names, read into the short forms
	// the model learned its features with: a later form of a name (a
	// customer's without its title) changes what every message naming it
	// teaches the model, so the corpus keeps the forms it was tuned with.
	trained bool
}

// lexicon is a Vocabulary compiled for matching token sequences.
//
// Names form a trie over their canonical words, so that matching a message
// costs the length of the names it holds, not the number of names sharing
// a first word (a brand may start thousands of SKUs): node 0 is the root,
// edges leads from a node along a word to the next node, and ends holds
// the names ending at each node.
type lexicon struct {
	edges map[edge]int32
	ends  []*variant // by node: the names ending there, one per kind
	// words numbers every word of a name; wordText is each one's text.
	words    map[string]int32
	wordText []string
	typos    typoIndex  // the words of names that may be matched with a typo
	sounds   soundIndex // the words of names by their sound, for Devanagari
	variants int32      // variants made so far: their order, for ties
	units    map[string]unitWord
	// unitSounds are the catalog's own units (a "than" of cloth) by
	// their loose spelling (looseUnit): "thaan" and "थान" are a than.
	unitSounds map[string]unitWord
	// unitSkeletons are the same units by their consonants (said.go).
	unitSkeletons map[string]string
	// known are ordinary words, never read as a misspelt name. Nil means
	// only the reserved words.
	known map[string]struct{}
	// productWords are the words of each product's name and aliases, by
	// SKU, as ids of words: a word of them said after a shorter name
	// belongs to it ("2.75-18 tyres", "ezee foil roll").
	productWords map[string][]int32
}

// edge is a node and a word id: the key of the trie's edges.
type edge uint64

func edgeOf(node, word int32) edge { return edge(uint64(uint32(node))<<32 | uint64(uint32(word))) }

// variant is one way of writing a product or customer name.
type variant struct {
	kind EntityKind
	ids  []string
	// weak: a customer's name made only of greeting words ("Ram",
	// "Shree Krishna"), which routing reads as words.
	weak bool
	// given: a product's name or alias as the catalog writes it, not a
	// shorter form made from one (eachName).
	given bool
	// guarded: a one-word name routing also reads as a word (guardedName),
	// a product only right after a quantity or a unit.
	guarded bool
	// kin are the products whose names only shorten to a given name
	// ("Pepsi 250" to "pepsi", the 600 ml bottle's alias).
	kin []string
	// seq is the order the variant was made in: of two equally good
	// matches, the name listed first in the catalog wins.
	seq  int32
	next *variant // another kind's name ending at the same node
}

// minFuzzyRunes is the shortest word matched with a typo: shorter words are
// too close to each other ("soap"/"soup", "mop"/"map").
const minFuzzyRunes = 5

// honorifics may follow a customer's name and belong to it: "Sharma ji".
var honorifics = map[string]bool{
	"ji": true, "bhai": true, "sir": true, "seth": true, "sahab": true, "saab": true,
	"babu": true, "uncle": true, "madam": true, "sethji": true,
}

func mustLexicon(v Vocabulary) *lexicon {
	l, err := newLexicon(v)
	if err != nil {
		panic(err)
	}
	return l
}

func newLexicon(v Vocabulary) (*lexicon, error) {
	b, err := buildLexicon(v)
	if err != nil {
		return nil, err
	}
	return b.lexicon, nil
}

// lexiconBuilder is a lexicon being built, with what only building needs.
type lexiconBuilder struct {
	*lexicon
	// pathWords are the words of the last path walked and pathNodes the
	// node after each: a name's shorter forms are mostly its prefixes.
	pathWords []string
	pathNodes []int32
	// variantBlock and idBlock hold the variants being made.
	variantBlock []variant
	idBlock      []string
	// steps counts the words walked and the names compared while building,
	// for the test that keeps building linear in the catalog's size.
	steps int
}

func buildLexicon(v Vocabulary) (*lexiconBuilder, error) {
	if err := checkKeys(v); err != nil {
		return nil, err
	}
	names := len(v.Products) + len(v.Customers)
	for _, p := range v.Products {
		names += 1 + len(p.Aliases)
	}
	for _, c := range v.Customers {
		names += len(c.Aliases)
	}
	l := &lexiconBuilder{lexicon: &lexicon{
		edges: make(map[edge]int32, names),
		ends:  make([]*variant, 1, names+1), // the root first
		// SKUs are words of their own; the other names share theirs.
		words: make(map[string]int32, len(v.Products)+names/8),
		units: make(map[string]unitWord, len(builtinUnits)),
	}}
	for w, u := range builtinUnits {
		l.units[w] = u
	}
	for _, p := range v.Products {
		l.addUnit(p.Unit)
		for _, ps := range p.PackSizes {
			l.addUnit(ps.Name)
		}
	}
	l.keepPacksApart(v)
	// Names are added after every unit is known, so that "30pc" in a name
	// splits the way it does in a message.
	l.productWords = make(map[string][]int32, len(v.Products))
	l.eachName(v, func(kind EntityKind, id string, words []string, derived bool) {
		l.addVariant(kind, id, words, derived)
		if kind == EntityProduct && !derived { // a derived form's words are its name's
			l.noteProductWords(id, words)
		}
	})
	l.typos = newTypoIndex(l.wordText)
	l.sounds = newSoundIndex(l.wordText)
	l.steps += len(l.typos.keys)
	return l, nil
}

// checkKeys refuses a product without a SKU, a customer without an ID, and
// a SKU or customer ID listed twice.
func checkKeys(v Vocabulary) error {
	err := uniqueKeys("product", "SKU", len(v.Products), func(i int) (string, string) {
		return v.Products[i].SKU, v.Products[i].Name
	})
	if err != nil {
		return err
	}
	return uniqueKeys("customer", "ID", len(v.Customers), func(i int) (string, string) {
		return v.Customers[i].ID, v.Customers[i].Name
	})
}

// uniqueKeys checks the keys of n things of a kind; at returns the i-th's
// key and name.
func uniqueKeys(kind, key string, n int, at func(i int) (key, name string)) error {
	seen := make(map[string]bool, n)
	for i := range n {
		k, name := at(i)
		if strings.TrimSpace(k) == "" {
			return fmt.Errorf("intent: %s %d (%q) has no %s", kind, i+1, name, key)
		}
		if seen[k] {
			return fmt.Errorf("intent: %s %s %q listed twice", kind, key, k)
		}
		seen[k] = true
	}
	return nil
}

// eachName calls add with every name of the vocabulary in canonical words,
// and with the shorter forms people use for it: without the pack size
// ("Phenyl 1L" → "phenyl"), a customer without the words that only say
// what kind of business it is ("Rajesh Kirana Store" → "rajesh"), and
// multi-word names written as one word ("glasscleaner"). Products come
// first, then customers, each in the vocabulary's order, and all of one
// product's or customer's names before the next one's. The units must be
// known already.
//
// derived marks a shorter form made from a name rather than given: of a
// product, a name the catalog gives one product (an alias, "pepsi" for
// the 600 ml bottle) is that product's alone, though another's name
// shortened to it ("Pepsi 250" without its size) would share it.
func (l *lexicon) eachName(v Vocabulary, add func(kind EntityKind, id string, words []string, derived bool)) {
	// Aliases and customers' names repeat ("SFC" for every size, many
	// "Gupta Traders"): each is put in canonical words once.
	seen := map[string][]string{}
	read := nameReader{l: l}
	heads, product := aliasHeads{}, 0 // the product whose names are read
	var brands nameBrands
	forms := func(kind EntityKind, id, name string, unique bool) {
		var words []string
		if unique {
			words = read.words(name)
		} else if ws, ok := seen[name]; ok {
			words = ws
		} else {
			words = slices.Clone(read.words(name))
			seen[name] = words
		}
		if len(words) == 0 {
			return
		}
		add(kind, id, words, false)
		switch kind {
		case EntityProduct:
			short := l.withoutPackSize(words)
			add(kind, id, short, true)
			heads.note(words, product, !unique)
			heads.noteOne(short)
			if unique && name != id {
				brands.noteName(words, product)
			} else if !unique {
				brands.noteAlias(words)
			}
		case EntityCustomer:
			short := words
			if len(short) > 2 && short[0] == "m" && short[1] == "s" { // M/s
				short = short[2:]
			}
			for len(short) > 1 && (businessWords[short[len(short)-1]] || tradeNames[short[len(short)-1]]) {
				trade := tradeNames[short[len(short)-1]]
				short = short[:len(short)-1]
				if trade && len(short) > 1 {
					add(kind, id, short, false) // "ganesh plumbing" of Ganesh Plumbing Works
				}
			}
			if len(short) > 1 && titles[short[0]] && !v.trained {
				add(kind, id, short, false)
				short = short[1:]
			}
			add(kind, id, short, false) // customers who share a name are asked about
		}
		if len(words) > 1 && len(words) <= 3 {
			joined := strings.Join(words, "")
			if utf8.RuneCountInString(joined) >= 6 && !isNumber(joined) {
				add(kind, id, []string{joined}, false)
			}
		}
	}
	for k, p := range v.Products {
		product = k
		forms(EntityProduct, p.SKU, p.Name, true)
		forms(EntityProduct, p.SKU, p.SKU, true)
		for _, a := range p.Aliases {
			forms(EntityProduct, p.SKU, a, false)
		}
	}
	if !v.trained {
		heads.each(func(word string, products []int) {
			unnamed := func(k int) bool { return !slices.Contains(read.words(v.Products[k].Name), word) }
			if !slices.ContainsFunc(products, unnamed) {
				return // every one's name has it: the names read it
			}
			for _, k := range products {
				add(EntityProduct, v.Products[k].SKU, []string{word}, true)
			}
		})
		brands.each(heads.named, func(word string, products []int) {
			for _, k := range products {
				add(EntityProduct, v.Products[k].SKU, []string{word}, true)
			}
		})
	}
	for _, c := range v.Customers {
		forms(EntityCustomer, c.ID, c.Name, false)
		if bare := withoutBrackets(c.Name); bare != c.Name && bare != "" {
			forms(EntityCustomer, c.ID, bare, false) // "Durga Auto Tyres" of "Durga Auto Tyres (Guntur)"
		}
		for _, a := range c.Aliases {
			forms(EntityCustomer, c.ID, a, false)
		}
	}
}

// nameKept says whether a name is recognised at all, and whether it is
// weak (a customer's name made only of greeting words, or one word that
// a rule only allows). A one-word name
// that is also "ok", "stock" or "do" would swallow the very words routing
// depends on, and is not.
func nameKept(kind EntityKind, words []string) (keep, weak bool) {
	weak = kind == EntityCustomer
	for _, w := range words {
		weak = weak && (greetingOnly[w] || len(words) == 1 && (allowedOnly[w] || numberWordOnly(w)))
	}
	if len(words) == 1 && !weak && (reservedWord(words[0]) && !guardedName(kind, words) || isNumber(words[0]) && !numberName(kind, words[0]) ||
		utf8.RuneCountInString(words[0]) < 2) {
		return false, false
	}
	return true, weak
}

// numberWordOnly reports a number said in a word that is no other word
// Munshi reads: "Das", a customer's name, is also ten. Kept as a weak
// name, it is the customer where the message counts nothing with it
// ("das peti" is ten cartons).
func numberWordOnly(w string) bool {
	_, number := numberWords[w]
	_, spelled := canonicalWords[w]
	_, unit := builtinUnits[w]
	return number && !spelled && !unit && !isNumber(w)
}

// guardedName reports a product's one-word name that routing also knows
// as a word of its own ("register", of a long register; a complaint is
// registered too): it is kept, and read as the product only right after
// a quantity or a unit ("200 register", "5 bundle register"). A unit,
// a number or a measure said as a name is never one.
func guardedName(kind EntityKind, words []string) bool {
	if kind != EntityProduct || len(words) != 1 || utf8.RuneCountInString(words[0]) < 4 {
		return false
	}
	w := words[0]
	_, unit := builtinUnits[w]
	_, number := numberWords[w]
	_, measure := measureSuffixes[w]
	return reservedWord(w) && !unit && !number && !measure && !isNumber(w)
}

// numberName reports a product's name that is a number alone, kept
// because a number of three digits or more names it as well as any word
// ("1121", a paddy's variety): it is read as the name only where a
// quantity cannot stand (numberLedProduct).
func numberName(kind EntityKind, w string) bool {
	return kind == EntityProduct && len(w) >= 3 && strings.Trim(w, "0123456789") == ""
}

func (l *lexiconBuilder) addVariant(kind EntityKind, id string, words []string, derived bool) {
	keep, weak := nameKept(kind, words)
	if !keep {
		return
	}
	node := l.path(words)
	last := &l.ends[node]
	for v := *last; v != nil; v = v.next {
		l.steps++
		if v.kind == kind {
			switch {
			case derived && v.given:
				// A name given to products is theirs alone; the others
				// that shorten to it are its kin.
				if !slices.Contains(v.ids, id) && !slices.Contains(v.kin, id) {
					v.kin = append(v.kin, id)
				}
			case !derived && !v.given && kind == EntityProduct:
				// Given, it takes the name from the products that only
				// shortened to it.
				v.kin = slices.DeleteFunc(slices.Clone(v.ids), func(k string) bool { return k == id })
				v.ids, v.given = []string{id}, true
			case v.ids[len(v.ids)-1] != id:
				// A product's or customer's names are all added before
				// the next one's, so an id already here is the last one.
				v.ids = append(v.ids, id)
			}
			return
		}
		last = &v.next
	}
	*last = l.newVariant(kind, id)
	(*last).weak = weak
	(*last).given = !derived && kind == EntityProduct
	(*last).guarded = guardedName(kind, words)
}

// newVariant makes a name of one id. Variants and their first ids are
// allocated a block at a time: a large catalog has hundreds of thousands.
func (l *lexiconBuilder) newVariant(kind EntityKind, id string) *variant {
	const block = 1024
	if len(l.variantBlock) == cap(l.variantBlock) {
		l.variantBlock, l.idBlock = make([]variant, 0, block), make([]string, 0, block)
	}
	l.idBlock = append(l.idBlock, id)
	k := len(l.idBlock)
	// The ids' capacity is one: a second id moves them out of the block.
	l.variantBlock = append(l.variantBlock, variant{kind: kind, ids: l.idBlock[k-1 : k : k], seq: l.variants})
	l.variants++
	return &l.variantBlock[len(l.variantBlock)-1]
}

// path returns the node the words lead to from the root, making the nodes
// and numbering the words that are missing. It starts after the words it
// shares with the last path walked.
func (l *lexiconBuilder) path(words []string) int32 {
	k := 0
	for k < len(words) && k < len(l.pathWords) && words[k] == l.pathWords[k] {
		k++
	}
	l.steps += k
	l.pathWords, l.pathNodes = l.pathWords[:k], l.pathNodes[:k]
	node := int32(0)
	if k > 0 {
		node = l.pathNodes[k-1]
	}
	for _, w := range words[k:] {
		l.steps++
		id, ok := l.words[w]
		if !ok {
			id = int32(len(l.wordText))
			l.words[w] = id
			l.wordText = append(l.wordText, w)
		}
		next, ok := l.edges[edgeOf(node, id)]
		if !ok {
			next = int32(len(l.ends))
			l.ends = append(l.ends, nil)
			l.edges[edgeOf(node, id)] = next
		}
		node = next
		l.pathWords, l.pathNodes = append(l.pathWords, w), append(l.pathNodes, node)
	}
	return node
}

// step follows the word w from node, if a name goes that way.
func (l *lexicon) step(node int32, w string) (int32, bool) {
	id, ok := l.words[w]
	if !ok {
		return 0, false
	}
	next, ok := l.edges[edgeOf(node, id)]
	return next, ok
}

// nameReader canonicalises catalog names exactly as a message would be,
// reusing its buffers from one name to the next.
type nameReader struct {
	l     *lexicon
	raw   []rawWord
	toks  []Token
	names []string
}

// words returns the name's canonical words, good until the next call.
func (r *nameReader) words(name string) []string {
	r.raw = splitWords(name, r.raw[:0])
	r.toks = mergePhrases(canonicalise(r.raw, r.l, nil, nil, r.toks[:0]))
	toks, words := r.toks, r.names[:0]
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
	r.names = words
	return words
}

// withoutPackSize drops the pack sizes ending a product name: "500ml",
// "1.5l", "30 pc", "100", a pipe's "1/2 inch 3m".
func (l *lexicon) withoutPackSize(words []string) []string {
	for len(words) > 1 {
		last := words[len(words)-1]
		switch {
		case isNumber(last) || isSize(last) || isLength(last):
			words = words[:len(words)-1]
		case len(words) > 2 && isNumber(words[len(words)-2]) && l.isUnitWord(last):
			words = words[:len(words)-2]
		default:
			return words
		}
	}
	return words
}

// knows reports a word Munshi reads as something: part of a name, a
// unit, a spelling of a word it knows, or the start of its own references.
// Without a catalog every word may be a product's ("GC-500").
func (l *lexicon) knows(w string) bool {
	if _, ok := l.words[w]; ok || len(l.words) == 0 {
		return true
	}
	if _, ok := canonicalWords[w]; ok {
		return true
	}
	switch w {
	case "d", "draft", "prp", "order", "ord", "ordr", "odr":
		return true
	case "ref", "reference", "refno", "utr", "txn", "trxn", "chq", "neft", "rtgs", "imps", "upi", "id", "no":
		return true // a payment's reference: "UTR-556677"
	}
	return l.isUnitWord(w)
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

// isLength reports a length in metres glued to its number, as names
// give a pipe's or a cable's: "3m", "90mtr".
func isLength(w string) bool {
	digits, rest, ok := splitCount(w)
	return ok && digits != "" && (rest == "m" || rest == "mtr")
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
