package intent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// numbers returns the values of the number entities of text, in order.
func numbers(text string) []float64 {
	var out []float64
	for _, e := range Normalize(text).Entities {
		if e.Kind == EntityNumber {
			out = append(out, e.Value)
		}
	}
	return out
}

func TestNormalizeNegativeNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want []float64
	}{
		// A minus tight against the digits, or the word minus.
		{"-5 carton", []float64{-5}},
		{"−5 carton", []float64{-5}},  // U+2212 minus sign
		{"− 5 carton", []float64{-5}}, // a minus sign may stand apart
		{"➖5 carton", []float64{-5}},
		{"–5 carton", []float64{-5}}, // en dash
		{"—5 carton", []float64{-5}}, // em dash
		{"‐5 carton", []float64{-5}}, // U+2010 hyphen
		{"－5 carton", []float64{-5}}, // fullwidth hyphen-minus
		{"-1,200 bottle", []float64{-1200}},
		{"-2.5 carton", []float64{-2.5}},
		{"-५ कार्टन", []float64{-5}},
		{"-paanch peti", []float64{-5}},
		{"minus 5 carton", []float64{-5}},
		{"Minus paanch peti", []float64{-5}},
		{"माइनस 5 कार्टन", []float64{-5}},
		{"GC -5 ctn", []float64{-5}},
		{"GC, -5 ctn", []float64{-5}},
		{"(-5 ctn)", []float64{-5}},
		{"5 ctn GC\n-2 ctn TC", []float64{5, -2}},
		{"-5ctn GC", []float64{-5}},
		// Dashes that are no sign: ranges, each, SKUs, dates, phones,
		// separators and bullets.
		{"5-6 carton", []float64{5, 6}},
		{"5 -6 carton", []float64{5, 6}},
		{"5 - 6 carton", []float64{5, 6}},
		{"5–6 carton", []float64{5, 6}},
		{"5 − 6 carton", []float64{5, 6}},
		{"5-5 carton", []float64{5, 5}},
		{"paanch-paanch peti", []float64{5}},
		{"GC-500 5 ctn", []float64{500, 5}},
		{"12-11-2026", []float64{12, 11, 2026}},
		{"+91-98100-00001", []float64{91, 98100, 1}},
		{"Rajesh - 5 ctn", []float64{5}},
		{"- 5 ctn GC", []float64{5}},
		{"• 5 ctn GC", []float64{5}},
		{"5 ctn", []float64{5}},
		{"-", nil},
		{"minus", nil},
		{"--", nil},
	}
	for _, tc := range tests {
		if got := numbers(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("numbers of %q = %v, want %v", tc.in, got, tc.want)
		}
	}
	n := Normalize("-5 carton")
	if e := n.Entities[0]; e.ID != "-5" || e.Text != "5" {
		t.Errorf("entity %+v, want ID -5 over the text 5", e)
	}
	if o := Normalize("order-1042"); len(o.Entities) != 1 || o.Entities[0].Kind != EntityOrderRef {
		t.Errorf("order-1042: %+v", o.Entities)
	}
}

// TestSignDoesNotChangeRouting checks that a minus changes only the
// number: the canonical text, and so the routing, stay those of the
// message without it.
func TestSignDoesNotChangeRouting(t *testing.T) {
	r, err := NewRouter(Vocabulary{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"-5 carton GC for Rajesh", "−5 carton GC bhejo", "GC -2 ctn chahiye", "stock -5 carton?", "ok -1"} {
		unsigned := strings.NewReplacer("-", " ", "−", " ").Replace(text)
		if a, b := Normalize(text).Text, Normalize(unsigned).Text; a != b {
			t.Errorf("%q normalises to %q, without the sign %q", text, a, b)
		}
		da, db := r.Route(context.Background(), text), r.Route(context.Background(), unsigned)
		if da.Intent != db.Intent || da.Tier != db.Tier || da.Confidence != db.Confidence {
			t.Errorf("%q routes to %s/%s/%v, without the sign %s/%s/%v", text, da.Intent, da.Tier, da.Confidence, db.Intent, db.Tier, db.Confidence)
		}
	}
	if d := r.Route(context.Background(), "-5 carton phenyl bhejo Rajesh ko"); d.Intent != domain.IntentOrder {
		t.Errorf("a negative order is still an order to answer with a question: %s", d.Intent)
	}
}
