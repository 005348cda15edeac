package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestOtherScriptsReadAsDevanagari: Bengali, Gurmukhi, Gujarati, Oriya,
// Tamil, Telugu, Kannada and Malayalam words are split as the Devanagari
// spelling of the same letters, with the
// signs Devanagari lacks written out, and their digits as digits.
func TestOtherScriptsReadAsDevanagari(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ગ્લાસ", "ग्लास"},   // Gujarati
		{"કાર્ટન", "कार्टन"}, // Gujarati
		{"ਦਿੱਤਾ", "दित्ता"},  // Gurmukhi addak doubles the ta
		{"ਸੰਤ", "संत"},       // Gurmukhi tippi is a nasal
		{"ਇੱ", "इ"},          // an addak before nothing is dropped
		{"ਖ਼ਬਰ", "ख़बर"},     // Gurmukhi nukta letters
		{"মাল", "माल"},       // Bengali
		{"হঠাৎ", "हठात"},     // Bengali khanda ta
		{"৪৫০০", "4500"},     // Bengali digits
		{"૧૨", "12"},         // Gujarati digits
		{"\u0af9", "\u0af9"}, // Gujarati zha, past the block Devanagari shares: kept
		{"ਕੈਸ਼", "कैश"},      // Gurmukhi sa with a nukta is sha
		{"ஸ்டாக்", "स्टाक"},  // Tamil; a virama ending the word is dropped
		{"పంపండి", "पंपंडि"}, // Telugu
		{"ಓಕೆ", "ओके"},       // Kannada, its short e as Hindi's e
		{"ಏನೇನು", "एनेनु"},   // Kannada's length mark adds nothing
		{"ഇതിൽ", "इतिल्"},    // Malayalam chillu l
		{"ଓଡ଼ିଆ", "ओड़िआ"},   // Oriya
		{"௧௨", "12"},         // Tamil digits
	} {
		got := splitWords(c.in, nil)
		if len(got) != 1 || got[0].text != c.want || got[0].start != 0 || got[0].end != len(c.in) {
			t.Errorf("splitWords(%q) = %+v, want one word %q over the whole text", c.in, got, c.want)
		}
	}
}

// TestOtherScriptsRouted: goods received in Gujarati reach the catalog
// and the rules' words; a message in one of these scripts with a word no
// table reads is never guessed to be an order.
func TestOtherScriptsRouted(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStockReceived, "ગ્લાસ ક્લીનર ના 40 કાર્ટન આવી ગયા છે",
		// Names heard by their sound in every script, a word of a
		// listed Devanagari name among them ("क्लीनर"); Gurmukhi's
		// carton without its halant.
		"ਸਾਬਣ 40 ਕਾਰਟਨ ਆਇਆ", "ફ્લોર ક્લીનર 30 કાર્ટન આવ્યા", "फ्लोर क्लीनर के 40 कार्टन आए")
	notRoutedAs(t, r, domain.IntentOrder, "ফিনাইল ৪০ কার্টন নেমেছে, ২টা লিক করছে", "সাবান ৬০ কার্টন এল আজকে")
	// Order and cancel as Gujarati and Gurmukhi spell them.
	routedAs(t, r, domain.IntentCancel, "ઓર્ડર કેન્સલ કરો", "ਆਰਡਰ ਰੱਦ ਕਰੋ")
	// A Gujarati order: "maate" is for, "moklo" send.
	routedAs(t, r, domain.IntentOrder, "મહેતા ટ્રેડર્સ માટે 20 કાર્ટન ફિનાઇલ મોકલો")
	// The southern scripts: a catalog name heard by its sound, a yes
	// and a send, "cancel" and "order" as loanwords.
	routedAs(t, r, domain.IntentStock, "ஹார்பிக் ஸ்டாக் இருக்கா?")
	routedAs(t, r, domain.IntentConfirm, "ಓಕೆ ಸರ್, ಕನ್ಫರ್ಮ್", "ಹೌದು, ಸರಿ ಇದೆ, ಕಳುಹಿಸಿ", "சரி, அனுப்புங்க", "ശരി, അയച്ചോളൂ")
	notRoutedAs(t, r, domain.IntentConfirm, "sare order bhejo")
}
