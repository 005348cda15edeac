package intent

import (
	"strings"
	"unicode"
)

// The model reads a "🙏" as thanks, whatever stands beside it. Between a
// summary and its ok, thanks leaves the draft waiting, so the next ok
// places it: a message that only looks like thanks must not pass for it.

// noThanks reports a greeting the model may not read: a word no two
// training messages have that looks like a slip of the thumb (three
// letters or more and no vowel: "jjjjkk", which the normaliser reads as
// "jkk"), or a 🙏 beside three words or more no two training messages
// have ("sir lunch ku apram pesalam 🙏" puts off a talk).
func (r *Router) noThanks(shape []string, n Normalized) bool {
	rare := map[string]bool{}
	for _, w := range shape {
		if !r.unmet(w) {
			continue
		}
		if garbled(w) {
			return true
		}
		rare[w] = true
	}
	return len(rare) >= 3 && foldedHands(n)
}

// unmet reports a word of letters in a shape that no two training
// messages have: no name's placeholder, no word the model knows.
func (r *Router) unmet(w string) bool {
	return w != unseenName && !isPlaceholder(w) && !r.model.common[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// foldedHands reports a "🙏" in the message (read as the word thanks).
func foldedHands(n Normalized) bool {
	for _, t := range n.Tokens {
		if t.Text == "thanks" && t.End-t.Start == len("🙏") {
			return true
		}
	}
	return false
}

// garbled reports a word of three Latin letters or more and no vowel.
func garbled(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' || strings.IndexByte("aeiouy", c) >= 0 {
			return false
		}
	}
	return len(w) >= 3
}

// Garbled reports a word of text, outside the names n found, that looks
// like a slip of the thumb: three Latin letters or more, no vowel, and
// no word, unit or spelling Munshi knows ("jjjj kk ;;; 77"). Such a
// message changes no draft and answers no question, whatever number it
// has.
func Garbled(text string, n Normalized) bool {
	for i, t := range n.Tokens {
		if n.inEntity(i) || t.Start < 0 || t.End > len(text) || t.Start >= t.End {
			continue
		}
		raw := strings.ToLower(text[t.Start:t.End])
		if !garbled(raw) || known[t.Text] || known[raw] {
			continue
		}
		if _, unit := builtinUnits[raw]; unit {
			continue
		}
		if _, spelt := canonicalWords[raw]; spelt {
			continue
		}
		return true
	}
	return false
}
