package orders

import (
	"strings"
	"testing"
)

func TestParseNegativeQuantityAsks(t *testing.T) {
	p := demoParser(t)
	const gcCartons = "How many cartons of Glass Cleaner 500ml? A quantity can't be negative."
	cases := []parseCase{
		{text: "-5 carton GC for Rajesh", customer: "C01", ask: []string{gcCartons}},
		{text: "−5 carton GC for Rajesh", customer: "C01", ask: []string{gcCartons}},  // U+2212
		{text: "− 5 carton GC for Rajesh", customer: "C01", ask: []string{gcCartons}}, // a minus sign apart
		{text: "➖5 carton GC for Rajesh", customer: "C01", ask: []string{gcCartons}},
		{text: "–5 carton GC for Rajesh", customer: "C01", ask: []string{gcCartons}}, // en dash
		{text: "minus 5 carton GC for Rajesh", customer: "C01", ask: []string{gcCartons}},
		{text: "Rajesh ko minus paanch peti GC", customer: "C01", ask: []string{gcCartons}},
		{text: "राजेश के लिए -५ कार्टन ग्लास क्लीनर", customer: "C01", ask: []string{gcCartons}},
		{text: "Rajesh: GC -5 ctn", customer: "C01", ask: []string{gcCartons}},
		{text: "Rajesh (-5 ctn GC)", customer: "C01", ask: []string{gcCartons}},
		{text: "GC -2 for Rajesh", customer: "C01", ask: []string{"How many bottles of Glass Cleaner 500ml? A quantity can't be negative."}},
		{text: "Sharma ji -10 bag surf, cash", customer: "C02", payment: "cod",
			ask: []string{"How many bags of Detergent Powder 1kg? A quantity can't be negative."}},
		// The other lines of the order still stand; only the negative one is asked about.
		{text: "Rajesh 2 ctn TC, -5 ctn GC", customer: "C01", items: map[string]int64{"TC500": 48}, ask: []string{gcCartons}},
		{text: "Rajesh 5 ctn GC\n-2 ctn phenyl", customer: "C01", items: map[string]int64{"GC500": 120},
			ask: []string{"How many cartons of Phenyl 1L? A quantity can't be negative."}},
	}
	for _, c := range cases {
		checkParse(t, p, c)
	}
}

// TestParseDashesThatAreNotSigns keeps every other use of a dash beside a
// number as it was: ranges, "each", SKUs, order references, dates, phone
// numbers, separators and bullets.
func TestParseDashesThatAreNotSigns(t *testing.T) {
	p := demoParser(t)
	cases := []parseCase{
		{text: "GC 5-6 carton Rajesh", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "5-6 carton GC for Rajesh", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "5 -6 carton GC for Rajesh", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "5 - 6 carton GC for Rajesh", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "5–6 carton GC for Rajesh", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "Rajesh GC TC 2-2 ctn", customer: "C01", items: map[string]int64{"GC500": 48, "TC500": 48}},
		{text: "Rajesh ko paanch-paanch peti GC aur TC", customer: "C01", items: map[string]int64{"GC500": 120, "TC500": 120}},
		{text: "Rajesh - 5 ctn GC", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh\n- 5 ctn GC", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh: colin - 2 ctn, lizol - 2 ctn", customer: "C01", items: map[string]int64{"GC500": 48, "FC1L": 24}},
		{text: "GC500 5 ctn for Rajesh", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "5 ctn GC for Rajesh, delivery 12-11-2026", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "5 ctn GC for Rajesh date 12-11-2026", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "5 ctn GC Rajesh ko, 2-3 din mein", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "approve ORD-1042", ask: []string{"Which products and how many?"}},
		{text: "ORD-1042 ok", ask: []string{"Which products and how many?"}},
	}
	for _, c := range cases {
		checkParse(t, p, c)
	}
	// A phone number and an SKU written with a dash are read as before:
	// whatever they mean, never as a negative quantity.
	for _, text := range []string{
		"5 ctn GC for Rajesh, call +91-98100-00001",
		"5 ctn GC for Rajesh 98100-00001",
		"GC-500 5 ctn for Rajesh",
		"Rajesh GC-500 ka 5 ctn",
	} {
		for _, q := range p.Parse(text).Unresolved {
			if strings.Contains(q, "negative") {
				t.Errorf("%q: asked %q", text, q)
			}
		}
	}
}

func TestQuantityOfNegative(t *testing.T) {
	p := demoParser(t)
	if _, problem := p.QuantityOf("aur -5 carton add karo", "GC500"); problem != "How many cartons of Glass Cleaner 500ml? A quantity can't be negative." {
		t.Errorf("problem = %q", problem)
	}
	if it, problem := p.QuantityOf("aur 5 carton add karo", "GC500"); problem != "" || it.Qty != 120 {
		t.Errorf("got %+v, %q; want 120 bottles", it, problem)
	}
}
