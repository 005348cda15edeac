package intent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rawWord is a word of the message before canonical spelling: lower-cased,
// digits of any script in ASCII, punctuation gone.
type rawWord struct {
	text       string
	start, end int // byte offsets in the message
}

// emojiWords maps the emoji people answer with to the word they stand for.
// 👍 and friends are how many owners approve a draft.
var emojiWords = map[rune]string{
	'👍': "ok", '👌': "ok", '✅': "ok", '✔': "ok", '☑': "ok", '🆗': "ok",
	'👎': "nahi", '❌': "nahi", '✖': "nahi", '🚫': "nahi", '❎': "nahi",
	'🙏': "thanks", '👋': "hi",
	// The rupee sign says the number after it is money: "₹25,000".
	'₹': "rupees",
}

// splitWords cuts s into words. Letters of any script, combining marks and
// digits make words; apostrophes inside words and thousands separators
// inside numbers are dropped ("what's" → "whats", "1,200" → "1200"), a
// decimal point between digits is kept, and "o/s" (outstanding) stays one
// word.
func splitWords(s string, out []rawWord) []rawWord {
	buf := make([]byte, 0, len(s)+8)
	type span struct {
		b0, b1, start, end int
		emoji              string // the word an emoji stands for
	}
	spans := make([]span, 0, 16)

	wordStart, bufStart := -1, 0
	flush := func(end int) {
		if wordStart >= 0 {
			spans = append(spans, span{b0: bufStart, b1: len(buf), start: wordStart, end: end})
			wordStart = -1
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		frac := ""
		if r == '/' && wordStart >= 0 {
			frac = measureFraction(buf[bufStart:], s[i+size:])
		}
		switch {
		case r == utf8.RuneError && size == 1:
			flush(i)
		case isWordRune(r):
			if wordStart < 0 {
				wordStart, bufStart = i, len(buf)
			}
			switch d, ok := digitValue(r); {
			case ok:
				buf = append(buf, byte('0'+d))
			case brahmic(r):
				buf = appendAsDevanagari(buf, r, next)
			case r >= 0x0600 && r <= 0x06FF:
				buf = appendUrdu(buf, r, len(buf) == bufStart)
			default:
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
		case isJoiner(r):
			// Zero-width joiners, variation selectors and skin tones are
			// invisible parts of a word or an emoji.
		case (r == '\'' || r == '’' || r == '`') && wordStart >= 0 && unicode.IsLetter(next):
			// "what's", "don't": one word.
		case r == ',' && wordStart >= 0 && lastIsDigit(buf) && isDigit(next):
			// 1,20,000; १,२०,०००
		case r == '.' && wordStart >= 0 && lastIsDigit(buf) && isDigit(next):
			buf = append(buf, '.')
		case frac != "":
			// "3/4 inch", "1/2 kg": a fraction of a measure, where a slash
			// elsewhere parts numbers ("1/2" may be a date).
			buf = append(buf[:bufStart], frac...)
			i += size + 1
			continue
		case r == '/' && wordStart >= 0 && len(buf)-bufStart == 1 && buf[bufStart] == 'o' &&
			(next == 's' || next == 'S') && !isWordRune(peekAfter(s, i+size)):
			// "o/s" is how accountants write outstanding.
			buf = append(buf[:bufStart], "outstanding"...)
			i += size + 1
			flush(i)
			continue
		default:
			flush(i)
			if w, ok := emojiWords[r]; ok {
				spans = append(spans, span{start: i, end: i + size, emoji: w})
			}
		}
		i += size
	}
	flush(len(s))

	text := string(buf)
	for _, sp := range spans {
		if sp.emoji != "" {
			out = append(out, rawWord{sp.emoji, sp.start, sp.end})
		} else {
			out = append(out, rawWord{text[sp.b0:sp.b1], sp.start, sp.end})
		}
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc)
}

// isJoiner reports runes that are invisible glue rather than separators.
func isJoiner(r rune) bool {
	switch {
	case r == 0x200C || r == 0x200D || r == 0x00AD || r == 0x2060 || r == 0xFEFF:
		return true
	case r >= 0xFE00 && r <= 0xFE0F: // variation selectors
		return true
	case r >= 0x1F3FB && r <= 0x1F3FF: // skin tones
		return true
	}
	return false
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// isDigit reports a digit of any script digitValue reads.
func isDigit(r rune) bool { _, ok := digitValue(r); return ok }

func lastIsDigit(b []byte) bool { return len(b) > 0 && b[len(b)-1] >= '0' && b[len(b)-1] <= '9' }

// measureFraction is a fraction of an inch, a kilo or a litre written
// with a slash ("1/2 inch", "3/4inch", "3/8 इंच", "1/2 kg") as a decimal
// ("0.75"), given its numerator, the word so far, and the text after the
// slash; "" for anything else.
func measureFraction(num []byte, rest string) string {
	if len(num) != 1 || len(rest) < 2 || !isASCIIDigit(rune(num[0])) || !isASCIIDigit(rune(rest[0])) || isASCIIDigit(rune(rest[1])) {
		return ""
	}
	n, d := int(num[0]-'0'), int(rest[0]-'0')
	if n == 0 || n >= d || d != 2 && d != 4 && d != 8 {
		return ""
	}
	after := strings.TrimLeft(rest[1:], " ")
	for _, m := range fractionMeasures {
		if len(after) >= len(m) && strings.EqualFold(after[:len(m)], m) {
			return strconv.FormatFloat(float64(n)/float64(d), 'f', -1, 64)
		}
	}
	return ""
}

// fractionMeasures are the measures a fraction with a slash is read
// before.
var fractionMeasures = [...]string{"inch", "इंच", "kg", "kilo", "किलो", "litre", "ltr", "लीटर"}

// peekAfter returns the rune after the one at byte i, or a space at the end.
func peekAfter(s string, i int) rune {
	if i >= len(s) {
		return ' '
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	if i+size >= len(s) {
		return ' '
	}
	r, _ := utf8.DecodeRuneInString(s[i+size:])
	return r
}

// digitValue maps a decimal digit of any script (०-९, ০-৯, ٠-٩…) to its
// value. Unicode keeps every script's digits as runs of ten starting at zero.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r >= 0x966 && r <= 0x96F { // Devanagari, the common case
		return int(r - 0x966), true
	}
	if !unicode.IsDigit(r) {
		return 0, false
	}
	start := r
	for k := 0; k < 60 && unicode.IsDigit(start-1); k++ {
		start--
	}
	return int(r-start) % 10, true
}

// appendUrdu appends r, a letter or sign of the Arabic block, as Urdu
// spells it: the Arabic keyboard's yeh, kaf and heh are Urdu's ی, ک and
// ہ, and the short vowels and other signs, rarely typed, are dropped,
// so that "ٹھیک" is one word however it was keyed (a sign that begins
// a word is kept: the word is never empty).
func appendUrdu(buf []byte, r rune, first bool) []byte {
	switch {
	case r == 0x064A || r == 0x0649:
		r = 0x06CC
	case r == 0x0643:
		r = 0x06A9
	case r == 0x0647:
		r = 0x06C1
	case (r >= 0x064B && r <= 0x065F || r == 0x0670) && !first:
		return buf
	}
	return utf8.AppendRune(buf, r)
}
