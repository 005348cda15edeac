package audit

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestRedactStringDropsInvisibleCharacters(t *testing.T) {
	l := New(nil, nil, nil)
	for in, want := range map[string]string{
		"GC\u202e ka stock":     "GC ka stock",     // right-to-left override
		"\u2066Rajesh\u2069 ka": "Rajesh ka",       // isolates
		"50\u200b000 cash":      "50000 cash",      // zero-width space
		"\ufeffok":              "ok",              // byte order mark
		"क्\u200dष":             "क्\u200dष",       // a joiner shaping a conjunct stays
		"👨\u200d👩\u200d👧":       "👨\u200d👩\u200d👧", // an emoji sequence stays
		"ok\u200d":              "ok",              // a joiner that joins nothing goes
		"\u200c":                "",                // alone
		"मेहता ने 50,000 दिए":                               "मेहता ने 50,000 दिए", // plain text is untouched
		"key AIza\u200bSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW": "key " + Redacted,     // no hiding a secret behind one
	} {
		if got := l.RedactString(in); got != want {
			t.Errorf("RedactString(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzDropInvisible(f *testing.F) {
	for _, s := range []string{"GC\u202e ka", "क्\u200dष", "\u200d\u200d", "\xff\u200d", "👨\u200d👩", "a\u00adb", "\U000E0041tag"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := dropInvisible(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("%q became invalid: %q", s, got)
		}
		if again := dropInvisible(got); again != got && utf8.ValidString(s) {
			t.Fatalf("not settled: %q → %q → %q", s, got, again)
		}
		if strings.ContainsFunc(got, func(r rune) bool { return unicode.Is(unicode.Cf, r) && r != '\u200C' && r != '\u200D' }) {
			t.Fatalf("%q kept an invisible character: %q", s, got)
		}
	})
}
