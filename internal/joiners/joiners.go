package joiners

import (
	"unicode"
	"unicode/utf8"
)

// Zero-width joiner and non-joiner.
const (
	ZWJ  = '\u200D'
	ZWNJ = '\u200C'
)

// Joins reports whether the joiner at s[i:i+n] stands between two visible
// characters: letters, marks, digits or symbols (emoji).
func Joins(s string, i, n int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	return visible(before) && visible(after)
}

func visible(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.IsSymbol(r))
}
