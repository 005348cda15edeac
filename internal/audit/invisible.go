package audit

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Invisible format characters are dropped from what is kept: direction
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) make a record read
// differently from what was sent, and zero-width spaces, word joiners and
// byte order marks make two equal texts differ. A zero-width joiner or
// non-joiner stays where it joins two visible characters: Indian scripts
// shape conjuncts with them ("क्‍ष"), and emoji are built with them.
func dropInvisible(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Cf, r) }) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		if unicode.Is(unicode.Cf, r) && !((r == '\u200C' || r == '\u200D') && joins(s, i, utf8.RuneLen(r))) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// joins reports whether the joiner at s[i:i+n] stands between two visible
// characters.
func joins(s string, i, n int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	return visible(before) && visible(after)
}

func visible(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.IsSymbol(r))
}
