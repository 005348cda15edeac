package intent

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// The Brahmic scripts of India are laid out letter for letter like
// Devanagari, each in its own block of 128 code points (the order of the
// Indian standard code they all come from): ক, ਕ, ક, କ, க, క, ಕ and ക sit
// where क does. Their words are read as the Devanagari spelling of the
// same sounds, so that "ગ્લાસ ક્લીનર ના 40 કાર્ટન આવી ગયા" reaches the
// catalog's names, the units and the words the rules know, as "ग्लास
// क्लीनर ना 40 कार्टन आवी गया" does, and Telugu's "సరే" is "सरे". The few
// signs that have no place of their own in Devanagari are written out
// below. Tamil writes k and g, t and d, p and b with one letter each, so
// its words reach only what sounds the same unvoiced.

// brahmic reports a letter or sign of a Brahmic block after Devanagari's:
// Bengali to Malayalam.
func brahmic(r rune) bool { return r >= 0x0980 && r < 0x0D80 }

// appendAsDevanagari appends r, a letter or sign of a Brahmic block after
// Devanagari's, as Devanagari; next is the rune after it.
func appendAsDevanagari(buf []byte, r, next rune) []byte {
	switch r {
	case 0x09CE: // Bengali khanda ta: a ta with no vowel after it
		return utf8.AppendRune(buf, 'त')
	case 0x09F0: // Assamese ra
		return utf8.AppendRune(buf, 'र')
	case 0x09F1: // Assamese wa
		return utf8.AppendRune(buf, 'व')
	case 0x0A70: // Gurmukhi tippi: a nasal, as anusvara
		return utf8.AppendRune(buf, 'ं')
	case 0x0A71: // Gurmukhi addak doubles the consonant after it: ਦਿੱਤਾ, दित्ता
		if dev := next - 0x100; next >= 0x0A15 && next <= 0x0A39 {
			buf = utf8.AppendRune(buf, dev)
			return utf8.AppendRune(buf, '्')
		}
		return buf
	case 0x0A72: // Gurmukhi iri, the bearer of i and e
		return utf8.AppendRune(buf, 'इ')
	case 0x0A73: // Gurmukhi ura, the bearer of u and o
		return utf8.AppendRune(buf, 'उ')
	case 0x0A3C: // Gurmukhi nukta: ਸ਼ is श, where Devanagari has no स़
		if sa, ok := bytes.CutSuffix(buf, []byte("स")); ok {
			return utf8.AppendRune(sa, 'श')
		}
	case 0x0D31: // Malayalam ṟ: doubled, "റ്റ" is said tt ("പാക്കറ്റ്", packet)
		if r2, ok := bytes.CutSuffix(buf, []byte("ऱ्")); ok {
			return append(r2, "ट्ट"...)
		}
	case 0x0BD7, 0x0C55, 0x0C56, 0x0CD5, 0x0CD6, 0x0D57:
		return buf // length marks of Tamil, Telugu, Kannada, Malayalam: "ೇ" is a long e, as "े" is
	}
	if c, ok := chillus[r]; ok {
		return append(buf, c...)
	}
	dev := 0x0900 | r&0x7F
	switch {
	case dev < 0x0901 || dev > 0x096F:
		return utf8.AppendRune(buf, r) // no Devanagari letter in its place
	case dev == virama && !isWordRune(next):
		return buf // "ಸರ್" ends on its consonant, as "सर" does
	}
	if long, ok := longVowels[dev]; ok {
		dev = long // Hindi has no short e or o: "ಓಕೆ" is "ओके"
	}
	return utf8.AppendRune(buf, dev)
}

// longVowels write the short e and o of the southern scripts as Hindi
// writes them.
var longVowels = map[rune]rune{'ऎ': 'ए', 'ऒ': 'ओ', 'ॆ': 'े', 'ॊ': 'ो'}

// chillus are Malayalam's consonants that end a syllable with no vowel,
// written as one letter: "ൻ" is "न्".
var chillus = map[rune]string{0x0D7A: "ण्", 0x0D7B: "न्", 0x0D7C: "र्", 0x0D7D: "ल्", 0x0D7E: "ळ्", 0x0D7F: "क्"}

// partlyRead reports a message written in a Brahmic script other than
// Devanagari with a word that no table reads: "ফিনাইল ৪০ কার্টন নেমেছে" names goods
// and a count, but the word that says what happened to them is not one
// Munshi knows, so an order is not to be guessed from the rest, unless
// it names whom it is for as well (the router's check): goods that came
// name no customer.
func partlyRead(text string, shape []string) bool {
	if !strings.ContainsFunc(text, brahmic) {
		return false
	}
	for _, w := range shape {
		if w != "" && w[0] >= 0x80 {
			return true
		}
	}
	return false
}
