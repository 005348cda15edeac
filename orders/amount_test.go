package orders

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestParseAmount(t *testing.T) {
	rupees := func(r int64) domain.Paise { return domain.Paise(r * 100) }
	cases := []struct {
		text string
		want domain.Paise
	}{
		{"50000", rupees(50000)},
		{"50,000", rupees(50000)},
		{"₹50,000", rupees(50000)},
		{"₹ 50,000/-", rupees(50000)},
		{"Rs. 50,000", rupees(50000)},
		{"rs 1250.50", domain.Paise(125050)},
		{"50k", rupees(50000)},
		{"50 K", rupees(50000)},
		{"2.5k", rupees(2500)},
		{"1.2 lakh", rupees(120000)},
		{"1.2 lac", rupees(120000)},
		{"1.2L", rupees(120000)},
		{"1.15 lakh", rupees(115000)},
		{"4.1lakh", rupees(410000)},
		{"1,20,000", rupees(120000)},
		{"120,000", rupees(120000)},
		{"pachas hazaar", rupees(50000)},
		{"pachaas hazar rupaye", rupees(50000)},
		{"ek lakh", rupees(100000)},
		{"dedh lakh", rupees(150000)},
		{"sava lakh", rupees(125000)},
		{"paune do lakh", rupees(175000)},
		{"sava do lakh", rupees(225000)},
		{"saadhe teen lakh", rupees(350000)},
		{"paune lakh", rupees(75000)},
		{"sava 2 crore", rupees(2_25_00_000)},
		{"paune 2 crore", rupees(1_75_00_000)},
		{"1 lakh 20 hazaar", rupees(120000)},
		{"2 crore", rupees(2_00_00_000)},
		{"1.5cr", rupees(1_50_00_000)},
		{"पचास हज़ार", rupees(50000)},
		{"पचास हज़ार रुपये", rupees(50000)},
		{"डेढ़ लाख", rupees(150000)},
		{"25k", rupees(25000)},
	}
	for _, c := range cases {
		got, ok := ParseAmount(c.text)
		if !ok || got != c.want {
			t.Errorf("ParseAmount(%q) = %v, %v; want %v", c.text, got, ok, c.want)
		}
	}
	for _, bad := range []string{"", "abc", "12.345", "0", "-500", "50 carton", "1e9", "₹", "ORD-1042", "9999 crore crore",
		"50000 and 20000", "1000000000000 crore"} {
		if got, ok := ParseAmount(bad); ok {
			t.Errorf("ParseAmount(%q) = %v, want no amount", bad, got)
		}
	}
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"50,000", "1.2 lakh", "pachas hazaar", "₹1,20,000/-", "50k", "sava lakh", "डेढ़ लाख", "1 lakh 20 hazaar"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseAmount(s)
		if ok && (got <= 0 || got > MaxAmount) {
			t.Fatalf("ParseAmount(%q) = %v, outside (0, MaxAmount]", s, got)
		}
	})
}
