package intent

import (
	"strings"
	"testing"
)

// TestLatinFor: a Devanagari word no table lists is read as the Latin word
// it is written for, when Munshi knows that word, and left alone when it
// does not or when its sound is too short to tell.
func TestLatinFor(t *testing.T) {
	cases := []struct{ in, want string }{
		{"पहुँचे", "pahuncha"}, // a vowel sign, chandrabindu
		{"भेजे", "bheja"},
		{"आए", "aaya"},           // the glide between two vowels
		{"गाड़ी", "gaadi"},       // ई written short, the nukta
		{"निकली", "nikla"},       // the unwritten "a" dropped
		{"ट्रांसफर", "transfer"}, // an English word, by its consonants
		{"कंपनी", "company"},     // anusvara before p, the "a" an English "u"
		{"फैक्ट्री", "factory"},
		{"उतारकर", "utaar"},        // having unloaded: the verb
		{"अनुप्पुङ्क", "anuppunk"}, // Tamil's send, by way of its script
		{"कळुहिसि", "kaluhisi"},    // Kannada's send
		{"नई", "naya"},             // new, never "nai" for nahi
		{"साठ", ""},                // sixty is a number, not "saath"
		{"फिनाइल", ""},             // three consonants say too little: not "final"
		{"परसों", "parson"},        // the day before yesterday, never "person"
		{"क्रिकेट", ""},            // not "correct"
		{"xyz", ""},
		{"", ""},
	}
	// The unwritten "a" dropped keeps the nasal after it.
	if sp := hinglishSpellings("पिंचंडि", nil); len(sp) == 0 || sp[0] != "pinchndi" {
		t.Errorf("पिंचंडि spelled %q, want pinchndi first", sp)
	}
	for _, c := range cases {
		got := ""
		if w, ok := canonicalWords[foldDevanagari(c.in)]; ok {
			got = strings.Join(w, " ")
		} else if w, ok := latinFor(foldDevanagari(c.in)); ok {
			got = w
		}
		if got != c.want {
			t.Errorf("%q read as %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDevanagariReadsLikeLatin: a message in Devanagari reads, to the
// rules, like the same message in Hinglish.
func TestDevanagariReadsLikeLatin(t *testing.T) {
	for dev, latin := range map[string]string{
		"माल पहुँचे":       "maal pahunche",
		"आज ट्रांसफर किए":  "aaj transfer kiye",
		"गाड़ी निकली क्या": "gaadi nikli kya",
		"कंपनी से भेजे गए": "company se bheje gaye",
	} {
		if got, want := Normalize(dev).Text, Normalize(latin).Text; got != want {
			t.Errorf("%q reads %q, want %q as %q does", dev, got, want, latin)
		}
	}
}

// TestDeliveryWrittenInOtherScripts: "delivery" written in Kannada, and
// in Bengali and Assamese, which have no v and write bh, is read as the
// word the rules know; a word and its stem ("deliver", "delivery") share
// one key there.
func TestDeliveryWrittenInOtherScripts(t *testing.T) {
	for _, text := range []string{"ಡೆಲಿವರಿ", "ডেলিভারি", "ডেলিভাৰি"} {
		if got := Normalize(text).Text; got != "deliver" {
			t.Errorf("Normalize(%q) = %q, want deliver", text, got)
		}
	}
}
