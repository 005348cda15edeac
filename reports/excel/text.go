package excel

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxCellChars is Excel's limit on a cell's text, in UTF-16 code units.
const MaxCellChars = 32767

// cleanText makes s safe to store as a cell's text: invalid UTF-8 becomes
// U+FFFD; tab, CR and LF become a space (or stay a line break when
// multiline); other control characters, the two XML non-characters and
// bidirectional embeddings and overrides (which can make a name read
// backwards) are dropped; the result is cut to MaxCellChars without
// splitting a character.
func cleanText(s string, multiline bool) string {
	if plainText(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if multiline {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	var b strings.Builder
	b.Grow(len(s))
	units := 0
	for _, r := range s {
		switch {
		case r == '\n' && multiline:
		case r == '\t' || r == '\r' || r == '\n':
			r = ' '
		case dropped(r):
			continue
		}
		n := utf16Len(r)
		if units+n > MaxCellChars {
			break
		}
		units += n
		b.WriteRune(r)
	}
	return b.String()
}

// plainText reports whether s is short printable ASCII-or-better text that
// cleanText would return unchanged; it keeps the common case allocation-free.
func plainText(s string) bool {
	if len(s) > MaxCellChars { // bytes ≥ UTF-16 units, so shorter is safe
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			return cleanRunes(s[i:])
		}
	}
	return true
}

// cleanRunes reports whether s is valid UTF-8 with nothing cleanText drops.
func cleanRunes(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || dropped(r) {
			return false
		}
		i += size
	}
	return true
}

// dropped reports whether a rune never reaches a cell: C0 and C1 controls,
// DEL, U+FFFE and U+FFFF (not allowed in XML), and the bidirectional
// embedding, override and isolate controls.
func dropped(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0xFFFE, r == 0xFFFF:
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// looksLikeFormula reports whether a spreadsheet would read text typed into
// a cell as a formula: it starts, after spaces, with =, +, - or @ (or their
// full-width forms). Such text is written quote-prefixed.
func looksLikeFormula(s string) bool {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '=', '+', '-', '@', '＝', '＋', '－', '＠':
		return true
	}
	return false
}

// displayWidth estimates how many character widths s takes in a cell:
// combining marks (Devanagari matras, emoji modifiers) take none, wide
// characters (CJK, emoji) two.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf), r == 0xFE0F:
		case wide(r):
			w += 2
		default:
			w++
		}
	}
	return w
}

// wide reports whether r is drawn two columns wide: East Asian wide
// characters and emoji.
func wide(r rune) bool {
	return r >= 0x1100 && r <= 0x115F ||
		r >= 0x2E80 && r <= 0xA4CF ||
		r >= 0xAC00 && r <= 0xD7A3 ||
		r >= 0xF900 && r <= 0xFAFF ||
		r >= 0xFF00 && r <= 0xFF60 ||
		r >= 0x1F300 && r <= 0x1FAFF ||
		r >= 0x20000 && r <= 0x3FFFD
}

// maxSheetName is Excel's limit on a sheet name, in UTF-16 code units.
const maxSheetName = 31

// sheetName makes name a valid sheet name unique among taken (compared
// case-insensitively, as Excel does): forbidden characters : \ / ? * [ ]
// become '-', an apostrophe becomes ’ (excelize does not quote it in
// references), and the name is cut to 31 UTF-16 code units.
func sheetName(name string, taken map[string]bool, fallback string) string {
	name = strings.TrimSpace(cleanText(name, false))
	name = strings.Map(func(r rune) rune {
		switch r {
		case ':', '\\', '/', '?', '*', '[', ']':
			return '-'
		case '\'':
			return '’'
		}
		return r
	}, name)
	if name == "" || strings.EqualFold(name, "History") { // Excel reserves History
		name = fallback
	}
	base := cutUnits(name, maxSheetName)
	name = base
	for i := 2; taken[strings.ToLower(name)]; i++ {
		suffix := " (" + strconv.Itoa(i) + ")"
		name = cutUnits(base, maxSheetName-len(suffix)) + suffix
	}
	taken[strings.ToLower(name)] = true
	return name
}

// cutUnits cuts s to at most n UTF-16 code units, between characters, and
// trims the spaces the cut leaves at the end.
func cutUnits(s string, n int) string {
	units := 0
	for i, r := range s {
		if units += utf16Len(r); units > n {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}
