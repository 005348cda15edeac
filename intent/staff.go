package intent

import (
	"strings"
	"unicode/utf8"
)

// The business's own people, named: "Vikram sir se baat karni hai",
// "Priya madam ka number bhejo", "विक्रम जी को बोलो मुझे फोन करें" ask
// for a person of the office as surely as "owner se baat karao". Their
// names are read only for handing over: an order or a question that
// names one reads as before.

// staffWord stands for a name of one of the business's people in a
// message's shape.
const staffWord = "STAFF"

var staffWords = words(staffWord)

// staffNames are the words of the people's names that say nothing else:
// no word of a product's or a customer's name, of a rule or the spelling
// table, no form of address, and at least three letters.
type staffNames struct {
	words  map[string]bool
	sounds soundIndex // the same words by sound, for Devanagari
}

func newStaffNames(names []string, lex *lexicon) staffNames {
	s := staffNames{words: map[string]bool{}}
	var list []string
	for _, name := range names {
		for _, t := range splitWords(strings.ToLower(name), nil) {
			w := t.text
			if utf8.RuneCountInString(w) < 3 || s.words[w] || known[w] || honorifics[w] || isNumber(w) {
				continue
			}
			if _, ok := canonicalWords[w]; ok {
				continue
			}
			if _, ok := lex.words[w]; ok {
				continue // "Rajesh" of Rajesh Kirana names the customer
			}
			s.words[w] = true
			list = append(list, w)
		}
	}
	s.sounds = newSoundIndex(list)
	return s
}

// mark returns shape with each of the people's names as staffWord, in
// buf, and whether there was one.
func (s staffNames) mark(shape, buf []string) ([]string, bool) {
	if len(s.words) == 0 {
		return shape, false
	}
	named := false
	for _, w := range shape {
		if s.words[w] {
			w, named = staffWord, true
		} else if w != "" && w[0] >= 0x80 {
			if m, ok := s.sounds.sounds(w); ok && s.words[m] {
				w, named = staffWord, true
			}
		}
		buf = append(buf, w)
	}
	return buf, named
}
