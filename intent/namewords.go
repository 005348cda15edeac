package intent

import (
	"slices"
	"strings"
)

// noteProductWords keeps the words of one of a product's names, each
// already a word of the lexicon's names.
func (l *lexiconBuilder) noteProductWords(sku string, words []string) {
	ids := l.productWords[sku]
	if ids == nil {
		ids = make([]int32, 0, 2*len(words)) // its name, then aliases mostly of the same words
	}
	for _, w := range words {
		if id, ok := l.words[w]; ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	l.productWords[sku] = ids
}

// nameWordAfter reports a word said right after a product's shorter name
// that the full name of every product the shorter name may mean has as
// the word said in the plural ("tyres" after "2.75-18" of "Ceat Gripp
// 2.75-18 Tyre" and "MRF Nylogrip Zapper 2.75-18 Tyre"), or as a unit
// said without a count ("roll" after "ezee foil" of "Ezee Aluminium Foil
// Roll"). It belongs to the name. A word of the name as written is left
// as it is: the local model has learned names by the words the catalog
// gives them.
func (l *lexicon) nameWordAfter(ids []string, w string) bool {
	if len(ids) == 0 || isNumber(w) {
		return false
	}
	form := ""
	switch {
	case l.isUnitWord(w):
		form = w
	case reservedWord(w):
		return false
	case len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		form = w[:len(w)-1] // "tyres", though a shop's name has it as it stands
	default:
		return false
	}
	id, ok := l.words[form]
	return ok && namedByAll(l.productWords, ids, id)
}

// namedByAll reports whether every product of skus has the word id.
func namedByAll(words map[string][]int32, skus []string, id int32) bool {
	for _, sku := range skus {
		if !slices.Contains(words[sku], id) {
			return false
		}
	}
	return true
}

// withoutBrackets is a name without what it adds in brackets, as books
// write a shop's town or branch beside its name: "Durga Auto Tyres
// (Guntur)" is called Durga Auto Tyres.
func withoutBrackets(name string) string {
	if !strings.ContainsAny(name, "([") {
		return name
	}
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '(' || r == '[':
			depth++
		case (r == ')' || r == ']') && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
