package intent

import (
	"context"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestDevanagariSoundsLikeTheCatalog: a Devanagari word nobody listed is
// read as the catalog's word of the same sound, only when one word has
// that sound, and never for a word with too few consonants to tell.
func TestDevanagariSoundsLikeTheCatalog(t *testing.T) {
	s := newSoundIndex([]string{"harpic", "supermart", "general", "store", "medical", "gupta", "sharma", "phenyl",
		"hotel", "cotton", "city", "gc500", "ab", "ultratech", "chemicals", "pepsi", "plumbing", "men"})
	for _, c := range []struct{ word, want string }{
		{"हार्पिक", "harpic"}, {"सुपरमार्ट", "supermart"}, {"जनरल", "general"}, {"स्टोर", "store"},
		{"मेडिकल", "medical"}, {"गुप्ता", "gupta"}, {"शर्मा", "sharma"}, {"फिनाइल", "phenyl"}, {"होटल", "hotel"},
		{"अल्ट्राटेक", "ultratech"}, {"केमिकल्स", "chemicals"}, // English's ch is a k too
		{"पेप्सी", "pepsi"},      // a consonant said again after a vowel counts again
		{"प्लंबिंग", "plumbing"}, // the nasal dot is an m before a b
		{"सिटी", "city"},         // two consonants, but said exactly as city is
		{"में", ""},              // said as "men" is, but too short to tell
		{"कितना", ""},            // k-t-n, but with an i: not cotton
		{"अब", ""},               // too short
		{"बकाया", ""},            // no catalog word sounds like it
		{"harpic", ""},           // Latin words are the normaliser's
		{"", ""},
	} {
		got, ok := s.sounds(c.word)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("sounds(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
	// Two catalog words of one sound: neither is guessed, unless one is
	// said exactly as the word is.
	twins := newSoundIndex([]string{"sharma", "sarma"})
	if got, ok := twins.sounds("शर्मा"); got != "sharma" || !ok {
		t.Errorf("sounds(शर्मा) over sharma and sarma = %q, %v; want sharma, said alike", got, ok)
	}
	if got, ok := newSoundIndex([]string{"sharma", "sarma"}).sounds("सरमा"); got != "sarma" || !ok {
		t.Errorf("sounds(सरमा) over sharma and sarma = %q, %v; want sarma", got, ok)
	}
	if got, ok := newSoundIndex([]string{"light", "lait"}).sounds("लाइट"); ok {
		t.Errorf("sounds of a shared saying = %q", got)
	}
	if got, ok := newSoundIndex([]string{"shrma", "sharma"}).sounds("श्रमा"); ok {
		t.Errorf("sounds of a shared key, said as neither = %q", got)
	}
	// One word spelt with a letter doubled and not ("glass", "glas": two
	// aliases of one cleaner) is one word: the fuller spelling, whichever
	// the catalog lists first.
	for _, spellings := range [][]string{{"glass", "glas"}, {"glas", "glass"}} {
		if got, ok := newSoundIndex(spellings).sounds("ग्लास"); got != "glass" || !ok {
			t.Errorf("sounds(ग्लास) over %v = %q, %v; want glass", spellings, got, ok)
		}
	}
}

// TestHeardInTheRegionalScripts: a product the catalog spells in Latin
// letters, and in Devanagari too, written in Bengali, Gurmukhi, Gujarati
// or Devanagari, is heard as the catalog's ("গ্লাস ক্লিনার" for Glass
// Cleaner), a unit word of its name too ("गार्बेज बैग", "કચરા બેગ": the
// bag of Garbage Bags' "garbage bag" and "kachra bag").
func TestHeardInTheRegionalScripts(t *testing.T) {
	v, err := corpusVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	r := routerFor(t, v)
	for _, text := range []string{"গ্লাস ক্লিনার ৩০ কার্টন এসেছে আজ গোডাউনে", "ਗਲਾਸ ਕਲੀਨਰ 20 ਕਾਰਟਨ ਤਿਆਰ ਹੋ ਗਏ ਫੈਕਟਰੀ ਵਿੱਚ",
		"गार्बेज बैग 30 कार्टन आए, इनवॉइस नंबर 3312", "કચરા બેગ 25 કાર્ટન આવી ગઈ",
		"গোডাউনে ৫০ কার্টন হারপিক এসেছে, ২টা ভাঙা"} {
		d := r.Route(context.Background(), text)
		if d.Intent != domain.IntentStockReceived || !d.Normalized.Has(EntityProduct) {
			t.Errorf("%q: %s (%s), entities %+v; want goods received of a product", text, d.Intent, d.Reason, d.Normalized.Entities)
		}
	}
}

// TestDevanagariNameFindsItsEntity: through the normaliser, a Devanagari
// spelling of a name the catalog writes in Latin letters is that name.
func TestDevanagariNameFindsItsEntity(t *testing.T) {
	lex := mustLexicon(Vocabulary{
		Products:  []domain.Product{{SKU: "TC500", Name: "Harpic Toilet Cleaner 500ml", Aliases: []string{"harpic"}}},
		Customers: []domain.Customer{{ID: "C04", Name: "Gupta Supermart"}, {ID: "C09", Name: "Gupta Brothers"}},
	})
	n := lex.hear("हार्पिक हटा दो")
	if len(n.Entities) == 0 || n.Entities[0].Kind != EntityProduct || n.Entities[0].ID != "TC500" {
		t.Errorf("हार्पिक हटा दो: entities %+v, want TC500", n.Entities)
	}
	// A fresh message is routed on what the catalog lists: every name is a
	// candidate there, and a guess by sound could make an order of it.
	if n := lex.normalize("हार्पिक हटा दो"); len(n.Entities) != 0 {
		t.Errorf("routing guessed by sound: %+v", n.Entities)
	}
	n = lex.hear("सुपरमार्ट वाले")
	if n.Tokens[0].Text != "supermart" {
		t.Errorf("सुपरमार्ट वाले: tokens %+v", n.Tokens)
	}
}

func FuzzRomanise(f *testing.F) {
	for _, s := range []string{"हार्पिक", "क़", "्", "ि", "ं", "a", "\u200d", "गुप्ता जी"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := romanise(s)
		if _, ok := soundKey(r, false); ok && r == "" {
			t.Fatal("a key of nothing")
		}
		newSoundIndex([]string{s, r}).sounds(s)
	})
}

// TestHearingRoutesRecordsAndOrders: a message the local tiers cannot
// read is read again with its Devanagari names heard by their sound; that
// may make it a record, a question or an order, each shown before
// anything changes, never a confirmation or a cancellation.
func TestHearingRoutesRecordsAndOrders(t *testing.T) {
	r, err := NewRouter(Vocabulary{
		Products:  []domain.Product{{SKU: "TC500", Name: "Harpic Toilet Cleaner 500ml", Aliases: []string{"harpic"}}},
		Customers: []domain.Customer{{ID: "C04", Name: "Gupta Supermart", Aliases: []string{"Gupta"}}},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]domain.Intent{
		"हार्पिक के 10 कार्टन गोदाम में आ गए": domain.IntentStockReceived,
		"हार्पिक का स्टॉक कितना है?":          domain.IntentStock,
	} {
		d := r.Route(t.Context(), text)
		if d.Intent != want {
			t.Errorf("Route(%q) = %s (%s), want %s", text, d.Intent, d.Reason, want)
		}
		if len(d.Normalized.Entities) == 0 || d.Normalized.Entities[0].ID != "TC500" {
			t.Errorf("Route(%q): entities %+v, want TC500", text, d.Normalized.Entities)
		}
	}
	// An order is drafted with the name heard, as a voice note's
	// transcript writes it: the draft shows the product before its ok.
	for _, text := range []string{"हार्पिक 10 कार्टन भेजो", "गुप्ता को 10 कार्टन हार्पिक भेज दो"} {
		d := r.Route(t.Context(), text)
		if d.Intent != domain.IntentOrder || !strings.Contains(d.Reason, "heard") || !hasEntity(d.Normalized, "TC500") {
			t.Errorf("Route(%q) = %s (%s), entities %+v; want an order of TC500 heard by its sound", text, d.Intent, d.Reason, d.Normalized.Entities)
		}
	}
	// A confirmation or a cancellation never comes of a guess.
	for _, text := range []string{"हार्पिक हटा दो", "हार्पिक ठीक है"} {
		if d := r.Route(t.Context(), text); strings.Contains(d.Reason, "heard") && (d.Intent == domain.IntentConfirm || d.Intent == domain.IntentCancel) {
			t.Errorf("Route(%q) = %s from names heard by their sound (%s)", text, d.Intent, d.Reason)
		}
	}
}

func hasEntity(n Normalized, id string) bool {
	for _, e := range n.Entities {
		if e.ID == id {
			return true
		}
	}
	return false
}

// TestHearingKeepsTheNamesFirstRead: a brand heard by its sound beside a
// customer's Devanagari name the catalog lists keeps that name, though a
// word of it ("शक्ति") alone sounds like the Latin name's.
func TestHearingKeepsTheNamesFirstRead(t *testing.T) {
	v := Vocabulary{
		Products:  []domain.Product{{SKU: "PEP600", Name: "Pepsi 600ml PET", Aliases: []string{"pepsi"}, Unit: "bottle"}},
		Customers: []domain.Customer{{ID: "B01", Name: "Shiv Shakti General Store", Aliases: []string{"Shiv Shakti", "शिव शक्ति"}}},
	}
	r := routerFor(t, v)
	d := r.Route(context.Background(), "पेप्सी 10 केस शिव शक्ति को, नकद")
	var got []string
	for _, e := range d.Normalized.Entities {
		if e.Kind == EntityProduct || e.Kind == EntityCustomer {
			got = append(got, e.ID)
		}
	}
	if d.Intent != domain.IntentOrder || strings.Join(got, " ") != "PEP600 B01" {
		t.Errorf("%s %v (%s)", d.Intent, got, d.Reason)
	}
	// Heard as a record shown before its ok is (a payment), too.
	h := r.Hear("शिव शक्ति ने 12000 नकद दिए")
	if len(h.Entities) == 0 || h.Entities[0].Kind != EntityCustomer || h.Entities[0].ID != "B01" {
		t.Errorf("heard: %+v", h.Entities)
	}
}

// TestEnglishWordsAsSaid: a catalog's English word written in Devanagari
// as it is said is heard as that word: its short ones, whose consonants
// say too little, and those English does not say as spelt.
func TestEnglishWordsAsSaid(t *testing.T) {
	s := newSoundIndex([]string{"light", "dark", "type", "cable", "butter", "ladies", "gents", "amul", "memory", "charger",
		"white", "tube", "paint", "baby", "bottle"})
	for _, c := range []struct{ word, want string }{
		{"लाइट", "light"}, {"टाइप", "type"}, {"केबल", "cable"}, {"बटर", "butter"}, {"लेडीज", "ladies"},
		{"जेंट्स", "gents"}, {"अमूल", "amul"}, {"मेमोरी", "memory"}, {"चार्जर", "charger"}, {"व्हाइट", "white"},
		{"ट्यूब", "tube"}, {"पेंट", "paint"}, {"बेबी", "baby"}, {"बोतल", "bottle"},
		{"लात", ""},   // l-t, but not said as light
		{"बाटा", ""},  // b-t, but neither butter nor baby
		{"कितना", ""}, // a word of the sentence
	} {
		got, ok := s.sounds(c.word)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("sounds(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
}
