package intent

import (
	"strings"
	"unicode/utf8"
)

// The southern and eastern languages glue a case ending to a name
// where Hindi writes a word after it: Malayalam's "റെസിഡൻസിക്ക്" is
// "residency ko", Assamese "বৰুৱালৈ" "Baruah ko", Bengali "ট্রাকের"
// "truck ka". Read as Devanagari and heard against what Munshi asked or
// showed, the ending is cut off a word that is no name as it stands when
// what is left is one.

// caseEndings are the endings, as Devanagari spells them (a last virama
// is not written), longest first:
// to (Malayalam, Tamil, Kannada, Telugu, Assamese), of (Malayalam,
// Bengali, Assamese, Odia); Marathi's in, of, by and to ("गोडाऊनमध्ये",
// "फिनाइलचे", "ट्रेडर्सने", "शर्माला") and Gujarati's of and in
// ("ગુપ્તાનો", "સુપરમાર્ટમાં").
var caseEndings = []string{"मध्ये", "क्कु", "क्कि", "च्या", "नुं", "मां", "क्क", "न्ऱे", "िनु", "िन", "िगे", "ेर", "एर", "लै", "गे",
	"चा", "ची", "चे", "ने", "ला", "नो", "नी", "कु", "कि", "र"}

// nameStem is w without its case ending, when what is left is a word of
// a name, or sounds like one; endings of one letter are cut only before
// a word of a name as written.
func (l *lexicon) nameStem(w string, sounds *soundIndex) (string, bool) {
	for _, e := range caseEndings {
		stem, ok := strings.CutSuffix(w, e)
		if !ok || utf8.RuneCountInString(stem) < 2 {
			continue
		}
		if _, listed := l.words[stem]; listed {
			return stem, true
		}
		if utf8.RuneCountInString(e) > 1 {
			if _, ok := sounds.sounds(stem); ok {
				return stem, true
			}
		}
	}
	return "", false
}

// unitSingular is a unit word's plural in Hindi or Punjabi written as
// its singular: "बोरियाँ" and Punjabi's "ਬੋਰੀਆਂ" are "बोरी".
func unitSingular(w string) (string, bool) {
	for _, e := range [...]string{"ियाँ", "ियां"} {
		if stem, ok := strings.CutSuffix(w, e); ok && stem != "" {
			return stem + "ी", true
		}
	}
	for _, e := range [...]string{"आँ", "आं", "ां", "ाँ"} {
		if stem, ok := strings.CutSuffix(w, e); ok && stem != "" {
			return stem, true
		}
	}
	return "", false
}
