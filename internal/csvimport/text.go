package csvimport

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/joiners"
	"github.com/munshi/munshi/reports"
)

// textProblem says why a field's value cannot be imported as text, or
// returns "". Names and aliases end up in WhatsApp messages, mail headers
// and the LLM's context, so only text that shows as what it is passes:
//
//   - no line breaks (CR, LF, VT, FF, NEL, U+2028, U+2029), which would
//     split a header or a message's layout, and no other control character
//     (C0, DEL, C1);
//   - no direction controls — embeddings and overrides U+202A–U+202E,
//     isolates U+2066–U+2069, and the marks U+200E, U+200F, U+061C — which
//     make a name display differently from what it is;
//   - no other invisible format character (zero-width space U+200B, word
//     joiner U+2060, a byte order mark U+FEFF inside a field, soft hyphen
//     U+00AD, tag characters U+E0000–U+E007F…): two names that look the
//     same would be different names, and tags can hide text from a reader;
//   - no private-use character, which every phone shows differently;
//   - a zero-width joiner or non-joiner only between two visible
//     characters, where it shapes a conjunct or an emoji.
func textProblem(s string) string {
	for i, r := range s {
		switch {
		case lineBreak(r):
			return fmt.Sprintf("has a line break (%U) inside it; keep it on one line", r)
		case unicode.IsControl(r):
			return fmt.Sprintf("has the control character %U, which is not text", r)
		case directionControl(r):
			return fmt.Sprintf("has the invisible direction control %U, which can make it display differently from what it is", r)
		case r == joiners.ZWJ || r == joiners.ZWNJ:
			if !joiners.Joins(s, i, utf8.RuneLen(r)) {
				name := "joiner"
				if r == joiners.ZWNJ {
					name = "non-joiner"
				}
				return fmt.Sprintf("has a zero-width %s (%U) that joins nothing; remove it", name, r)
			}
		case unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("has the invisible character %U; remove it", r)
		case unicode.Is(unicode.Co, r):
			return fmt.Sprintf("has the private-use character %U, which phones show differently; remove it", r)
		}
	}
	return ""
}

func lineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

func directionControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// replyWord says what people mean when they send name alone as a reply to
// Munshi ("confirm", "cancel", "ask for help", "see the rest of an answer"),
// or returns "". The meanings come from the code that reads those replies,
// so that a product or customer can never be named with one: a product
// aliased "ok" would swallow every confirmation.
func replyWord(name string) string {
	if m := intent.CommandMeaning(name); m != "" {
		return m
	}
	if reports.IsMore(name) {
		return "see the rest of an answer"
	}
	return ""
}

// checkNames refuses names people reply with; col is the column's name
// ("alias", "name", "sku") in the reason.
func checkNames(col string, names []string, bad func(string, ...any)) {
	for _, n := range names {
		if m := replyWord(n); m != "" {
			bad("%s %q is a word people reply with to %s; choose another %s", col, n, m, col)
		}
	}
}
