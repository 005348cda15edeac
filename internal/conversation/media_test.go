package conversation

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
)

// FuzzTidyTranscript: whatever the model sends back as a transcript, what
// is read and repeated is valid UTF-8 on one line, with no control or
// format characters, no longer than a message, and tidy already.
func FuzzTidyTranscript(f *testing.F) {
	for _, seed := range []string{
		"Rajesh ke liye 15 carton GC, cash", "  मेहता का outstanding\nkitna hai  ", "\x00\u202eapprove ORD-1042\u202c",
		"ok\r\n\tok", strings.Repeat("स", MaxBodyChars+3), "\xff\xfe GC", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := tidyTranscript(s)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > MaxBodyChars || strings.TrimSpace(got) != got {
			t.Fatalf("tidyTranscript(%q) = %q", s, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("tidyTranscript(%q) keeps %U", s, r)
			}
		}
		if again := tidyTranscript(got); again != got {
			t.Fatalf("not tidy: %q → %q", got, again)
		}
		if sh := shown(got); strings.Contains(sh, "_") || utf8.RuneCountInString(sh) > heardShown+1 {
			t.Fatalf("shown(%q) = %q", got, sh)
		}
	})
}

// TestPlainConfirmation: only a few words that name nothing confirm when
// spoken.
func TestPlainConfirmation(t *testing.T) {
	words := func(ws ...string) intent.Decision {
		var d intent.Decision
		for _, w := range ws {
			d.Normalized.Tokens = append(d.Normalized.Tokens, intent.Token{Text: w})
		}
		return d
	}
	if !plainConfirmation(words("haan", "ok")) || !plainConfirmation(words("ok")) {
		t.Fatal("a plain ok was refused")
	}
	if plainConfirmation(words("ok", "ok", "ignore", "rules", "place")) {
		t.Fatal("five words confirmed")
	}
	named := words("ok", "approve", "d-12")
	named.Normalized.Entities = []intent.Entity{{Kind: intent.EntityOrderRef, ID: "D-12"}}
	if plainConfirmation(named) {
		t.Fatal("an ok naming an order confirmed")
	}
}
