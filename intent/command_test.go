package intent

import (
	"context"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestCommandMeaning(t *testing.T) {
	tests := []struct{ in, want string }{
		// Replies in their usual spellings, scripts and emoji.
		{"ok", "confirm"},
		{"OK", "confirm"},
		{"okay", "confirm"},
		{"Okk", "confirm"},
		{" ok ", "confirm"},
		{"ओके", "confirm"},
		{"👍", "confirm"},
		{"yes", "confirm"},
		{"haan", "confirm"},
		{"हां", "confirm"},
		{"हाँ", "confirm"},
		{"haanji", "confirm"},
		{"haan ji", "confirm"},
		{"theek hai", "confirm"},
		{"ठीक है", "confirm"},
		{"confirm", "confirm"},
		{"कन्फर्म", "confirm"},
		{"approve", "confirm"},
		{"done", "confirm"},
		{"cancel", "cancel"},
		{"Cancel!", "cancel"},
		{"कैंसल", "cancel"},
		{"reject", "cancel"},
		{"no", "cancel"},
		{"nahi", "cancel"},
		{"नहीं", "cancel"},
		{"stop", "cancel"},
		{"❌", "cancel"},
		{"help", "ask for help"},
		{"HELP", "ask for help"},
		{"हेल्प", "ask for help"},
		{"madad", "ask for help"},
		// Names that merely contain such a word, and ordinary names.
		{"Good Day", ""},
		{"Sahi Traders", ""},
		{"OK Traders", ""},
		{"Yes Bank", ""},
		{"Glass Cleaner 500ml", ""},
		{"GC", ""},
		{"राजेश", ""},
		{"Rajesh", ""},
		{"ji", "confirm"},
		{"5", ""},
		{"", ""},
		{"   ", ""},
		{"\u200d", ""},
	}
	for _, tc := range tests {
		if got := CommandMeaning(tc.in); got != tc.want {
			t.Errorf("CommandMeaning(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := CommandWord(tc.in); got != (tc.want != "") {
			t.Errorf("CommandWord(%q) = %v", tc.in, got)
		}
	}
}

// TestCommandWordsRouteAsReplies checks that what CommandMeaning calls a
// confirmation or a cancellation is routed so when sent alone: the importer
// refuses exactly the names that would swallow a reply.
func TestCommandWordsRouteAsReplies(t *testing.T) {
	r, err := NewRouter(Vocabulary{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]domain.Intent{"confirm": domain.IntentConfirm, "cancel": domain.IntentCancel, "ask for help": domain.IntentHelp}
	for _, text := range []string{"ok", "okay", "haan", "हां", "ठीक है", "yes", "confirm", "approve", "👍",
		"cancel", "reject", "no", "nahi", "नहीं", "help", "madad"} {
		meaning := CommandMeaning(text)
		if d := r.Route(context.Background(), text); d.Intent != want[meaning] {
			t.Errorf("%q: CommandMeaning says %q but it routes to %s (%s)", text, meaning, d.Intent, d.Reason)
		}
	}
}
