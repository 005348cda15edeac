package intent

import "testing"

// TestLettersSpeltOut: initials written as the Devanagari names of their
// letters read as the catalog's name of those letters ("जीसी" in a
// development message, "आज प्रोडक्शन में ६० कार्टन जीसी बना"); a word
// that spells letters no name has stays as it is.
func TestLettersSpeltOut(t *testing.T) {
	r := demoRouter(t)
	for _, text := range []string{"आज प्रोडक्शन में ६० कार्टन जीसी बना", "राजेश को 5 कार्टन जीसी भेज दो", "जीसी का स्टॉक कितना है"} {
		n := r.Normalize(text)
		found := false
		for _, e := range n.Entities {
			found = found || e.Kind == EntityProduct && e.ID == "GC500"
		}
		if !found {
			t.Errorf("Normalize(%q) = %+v, want Glass Cleaner (GC500) among its names", text, n.Entities)
		}
	}
	// The other scripts write the same names, some with a short i.
	for _, text := range []string{"জিসি ৫ কার্টন", "જીસી 5 કાર્ટન", "ਜੀਸੀ 5 ਕਾਰਟਨ", "ஜிசி 5", "జీసీ 5 కార్టన్", "ಜಿಸಿ 5"} {
		if n := r.Normalize(text); len(n.Entities) == 0 || n.Entities[0].Kind != EntityProduct || n.Entities[0].ID != "GC500" {
			t.Errorf("Normalize(%q) = %+v, want Glass Cleaner (GC500) first", text, n.Entities)
		}
	}
	// Initials written apart are one word of them; a "जी" after a name
	// is the honorific.
	for _, text := range []string{"Rajesh ko 5 carton G C bhejo", "5 ctn G.C. aur 2 ctn H.W.", "राजेश को 5 कार्टन जी सी भेजो", "जी सी का स्टॉक कितना है"} {
		if n := r.Normalize(text); !n.Has(EntityProduct) {
			t.Errorf("Normalize(%q) = %+v, want a product", text, n.Tokens)
		}
	}
	if n := r.Normalize("शर्मा जी सी ब्लॉक में रहते हैं"); n.Has(EntityProduct) {
		t.Errorf("Normalize(honorific) = %+v, want no product", n.Entities)
	}
	for _, w := range []string{"बीबी", "एसी", "ए", "जी"} {
		if n := r.Normalize(w); len(n.Tokens) != 1 || n.Tokens[0].Text == "bb" || n.Tokens[0].Text == "ac" || n.Has(EntityProduct) {
			t.Errorf("Normalize(%q) = %+v, want the word as it is", w, n.Tokens)
		}
	}
	if got, ok := lettersListed("सीपीवीसी", map[string]int32{"cpvc": 0}); !ok || got != "cpvc" {
		t.Errorf(`lettersListed("सीपीवीसी") = %q, %v, want "cpvc"`, got, ok)
	}
}
