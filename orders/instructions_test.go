package orders

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInstructions: what an order message says beyond who, what, how
// many and how they pay goes with the order as written; greetings, the
// goods' own lines, a word taken back and the order's verbs do not.
func TestInstructions(t *testing.T) {
	p := demoParser(t)
	for _, c := range []struct{ text, want string }{
		{"Rajesh ke liye 10 carton GC, cash, 12+1 scheme lagana aur kal subah 10 baje se pehle deliver karna",
			"12+1 scheme lagana; kal subah 10 baje se pehle deliver karna"},
		{"gupta supermart 1 ctn gc, delivery kal tak", "delivery kal tak"},
		{"City Hospital - 10 ctn phenyl - PO no 4521", "PO no 4521"},
		{"shivam hotel ke liye 3 dozen pocha, jaldi deliver karo", "jaldi deliver karo"},
		{"Rajesh 5 GC bhej do, cash", ""},
		{"Rajesh ke liye 5 GC aur 10 phenyl bhej do, cash payment", ""},
		{"Good morning, Ashok bhai ka order 4 ctn phenyl", ""},
		{"Sharma General Store\n1. Harpic - 2 ctn\n2. Lizol - 1 ctn\n3. Colin - 12 pcs", ""},
		{"maggi nahi, 2 carton vim liquid", ""},
		{"Mehta Traders\nGC - 10 ctn\nDW - 5 ctn\nPayment: cheque", ""},
	} {
		if got := p.Parse(c.text).Instructions; got != c.want {
			t.Errorf("%q: instructions %q, want %q", c.text, got, c.want)
		}
	}
	long := "Rajesh ke liye 10 carton GC, " + strings.Repeat("गोदाम के पीछे वाले गेट से ", 40)
	got := p.Parse(long).Instructions
	if n := utf8.RuneCountInString(got); n != MaxInstructions || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("a long instruction is kept as %d runes: %q", n, got)
	}
}
