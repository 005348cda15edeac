package audit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/joiners"
)

// Invisible format characters are dropped from what is kept: direction
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) make a record read
// differently from what was sent, and zero-width spaces, word joiners and
// byte order marks make two equal texts differ. A zero-width joiner or
// non-joiner stays where it joins two visible characters: Indian scripts
// shape conjuncts with them ("क्‍ष"), and emoji are built with them.
func dropInvisible(s string) string {
	if !strings.ContainsFunc(s, invisible) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		if invisible(r) && !((r == joiners.ZWNJ || r == joiners.ZWJ) && joiners.Joins(s, i, utf8.RuneLen(r))) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// invisible reports whether r is a format character (none is ASCII).
func invisible(r rune) bool { return r >= utf8.RuneSelf && unicode.Is(unicode.Cf, r) }
