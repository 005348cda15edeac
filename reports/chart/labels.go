package chart

import (
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"
	"gonum.org/v1/plot/text"
)

// Fallback is a text the PNG could not draw as given, and what it shows
// instead: the category's fallback (a customer id, a SKU), or the text
// without the characters the font lacks.
type Fallback struct {
	Text  string
	Drawn string
}

const ellipsis = "…"

// clean puts s in the form it is measured and drawn in: composed (NFC, so
// "e" and a combining accent become one glyph the font has), every run of
// white space one space, trimmed.
func clean(s string) string {
	s = norm.NFC.String(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControlOrFormat(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// label is what the PNG draws for the n-th category (from 0) in at most
// maxWidth pixels: its text when the font can draw all of it, else its
// fallback, else "#n+1"; shortened with an ellipsis when too wide.
// fellBack says the text was replaced.
func (t *typefaces) label(c Category, n int, st text.Style, maxWidth float64) (drawn string, fellBack bool) {
	s := clean(c.Text)
	if s == "" || !t.drawable(s) {
		fellBack = true
		s = clean(c.Fallback)
		if s == "" || !t.drawable(s) {
			s = "#" + strconv.Itoa(n+1)
		}
	}
	return t.fit(s, st, maxWidth), fellBack
}

// plain is what the PNG draws for a title or a series name, which have no
// fallback: the text without the characters the font cannot draw,
// shortened to maxWidth. changed says characters were dropped.
func (t *typefaces) plain(s string, st text.Style, maxWidth float64) (drawn string, changed bool) {
	s = clean(s)
	if !t.drawable(s) {
		var buf sfnt.Buffer
		kept := strings.Map(func(r rune) rune {
			if r == ' ' || t.covers(&buf, r) {
				return r
			}
			return -1
		}, s)
		s, changed = clean(kept), true
	}
	return t.fit(s, st, maxWidth), changed
}

// fit shortens s, which the font can draw, with an ellipsis until it is at
// most maxWidth pixels wide in st.
func (t *typefaces) fit(s string, st text.Style, maxWidth float64) string {
	if t.width(st, s) <= maxWidth {
		return s
	}
	runes := []rune(s)
	shortened := func(k int) string { return strings.TrimRight(string(runes[:k]), " ") + ellipsis }
	// The longest prefix that fits with its ellipsis; widths grow with the
	// prefix, so a binary search finds it.
	lo, hi := 0, len(runes)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.width(st, shortened(mid)) <= maxWidth {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return shortened(lo)
}
