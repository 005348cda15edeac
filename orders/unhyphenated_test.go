package orders

import (
	"testing"

	"github.com/munshi/munshi/intent"
)

// TestUnhyphenatedOrderNumber: an order offered as KB-5102 is chosen by
// "KB5102", as people copy it off a bill; a number of no offered order
// chooses none.
func TestUnhyphenatedOrderNumber(t *testing.T) {
	options := []string{"KB-5103", "KB-5102"}
	for text, want := range map[string]string{"kb5102": "KB-5102", "kb5103": "KB-5103", "kb5104": "", "5102": "", "kb": ""} {
		n := intent.Normalized{Tokens: []intent.Token{{Text: text}}}
		if got := unhyphenated(n, options); got != want {
			t.Errorf("unhyphenated(%q) = %q, want %q", text, got, want)
		}
	}
}
