package intent

import (
	"strings"
	"unicode/utf8"
)

// Bengali, Gurmukhi and Gujarati are laid out letter for letter like
// Devanagari, each in its own block of 128 code points (the order of the
// Indian standard code they all come from): ক, ਕ and ક sit where क does.
// Their words are read as the Devanagari spelling of the same sounds, so
// that "ગ્લાસ ક્લીનર ના 40 કાર્ટન આવી ગયા" reaches the catalog's names,
// the units and the words the rules know, as "ग्लास क्लीनर ना 40 कार्टन
// आवी गया" does. The few signs that have no place of their own in
// Devanagari are written out below.

// appendAsDevanagari appends r, a letter or sign of the Bengali,
// Gurmukhi or Gujarati block, as Devanagari; next is the rune after it.
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
	}
	var dev rune
	switch {
	case r < 0x0A00:
		dev = r - 0x80
	case r < 0x0A80:
		dev = r - 0x100
	default:
		dev = r - 0x180
	}
	if dev < 0x0901 || dev > 0x096F {
		return utf8.AppendRune(buf, r) // no Devanagari letter in its place
	}
	return utf8.AppendRune(buf, dev)
}

// partlyRead reports a message written in Bengali, Gurmukhi or Gujarati
// with a word that no table reads: "ফিনাইল ৪০ কার্টন নেমেছে" names goods
// and a count, but the word that says what happened to them is not one
// Munshi knows, so an order is not to be guessed from the rest.
func partlyRead(text string, shape []string) bool {
	if !strings.ContainsFunc(text, func(r rune) bool { return r >= 0x0980 && r < 0x0B00 }) {
		return false
	}
	for _, w := range shape {
		if w != "" && w[0] >= 0x80 {
			return true
		}
	}
	return false
}
