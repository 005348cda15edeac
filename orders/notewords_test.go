package orders

import (
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/munshi/munshi/intent"
)

// noteEvidence is every word of the development and training messages,
// as typed (lower case) and as the router reads it.
func noteEvidence(t *testing.T) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	for _, text := range developmentTexts(t, "intent/corpus/train.jsonl", "intent/corpus/dev.jsonl",
		"intent/corpus/dev-lifecycle.jsonl", "intent/corpus/dev-rules.jsonl", "intent/corpus/dev-spellings.jsonl",
		"orders/testdata/orders.jsonl", "internal/dialogs/testdata/dev/dialogs.jsonl") {
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && r != '#' && r != '₹'
		}) {
			seen[w] = true
		}
		for _, tok := range intent.Normalize(text).Tokens {
			seen[tok.Text] = true
		}
	}
	return seen
}

// TestNoteReaderWordsComeFromDevelopment: every word the readers of
// payments, deliveries and goods received know, and every word an
// order's instructions pass over, is written in a development or
// training message.
func TestNoteReaderWordsComeFromDevelopment(t *testing.T) {
	seen := noteEvidence(t)
	lists := map[string]map[string]bool{"referenceWords": referenceWords, "referenceFillers": referenceFillers,
		"modeReferenceWords": modeReferenceWords, "shortWords": shortWords, "onlyWords": onlyWords, "wipWords": wipWords,
		"currencyWords": currencyWords, "chatter": chatter}
	var missing []string
	for name, set := range lists {
		for w := range set {
			if !seen[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
				missing = append(missing, name+": "+w)
			}
		}
	}
	for _, p := range referencePrefixes {
		if !seen[p] {
			missing = append(missing, "referencePrefixes: "+p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d words have no development message:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}
