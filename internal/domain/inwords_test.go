package domain

import (
	"math"
	"strings"
	"testing"
)

func TestInWords(t *testing.T) {
	for _, c := range []struct {
		p    Paise
		want string
	}{
		{1_20_00_000_00, "one crore twenty lakh rupees"},
		{1_30_000_50, "one lakh thirty thousand rupees and fifty paise"},
		{2_000_00, "two thousand rupees"},
		{0, "zero rupees"},
		{1_00, "one rupee"},
		{1, "one paisa"},
		{50, "fifty paise"},
		{1_01, "one rupee and one paisa"},
		{15_00, "fifteen rupees"},
		{45_00, "forty-five rupees"},
		{1_15_00, "one hundred fifteen rupees"},
		{21_000_00, "twenty-one thousand rupees"},
		{99_99_999_99, "ninety-nine lakh ninety-nine thousand nine hundred ninety-nine rupees and ninety-nine paise"},
		{1_18_70_000_50, "one crore eighteen lakh seventy thousand rupees and fifty paise"},
		{1e12 * 100, "one lakh crore rupees"},
		{(10010*1e7 + 5e5) * 100, "ten thousand ten crore five lakh rupees"},
		{-15_000_00, "minus fifteen thousand rupees"},
		{-50, "minus fifty paise"},
		{math.MaxInt64, "nine hundred twenty-two crore thirty-three lakh seventy-two thousand thirty-six crore eighty-five lakh " +
			"forty-seven thousand seven hundred fifty-eight rupees and seven paise"},
		{math.MinInt64, "minus nine hundred twenty-two crore thirty-three lakh seventy-two thousand thirty-six crore eighty-five lakh " +
			"forty-seven thousand seven hundred fifty-eight rupees and eight paise"},
	} {
		if got := InWords(c.p); got != c.want {
			t.Errorf("InWords(%s) = %q, want %q", c.p, got, c.want)
		}
	}
}

// FuzzInWords: any amount, however large or negative, is written in
// words without a panic, with its unit, and with the minus only when it
// is negative.
func FuzzInWords(f *testing.F) {
	for _, seed := range []int64{0, 1, 99, 100, 101, 1_30_000_50, 1_20_00_000_00, 99_99_99_999_99, 1e15, -1, -2_000_00,
		math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		got := InWords(Paise(n))
		if got == "" || strings.Contains(got, "  ") || strings.TrimSpace(got) != got {
			t.Fatalf("InWords(%d) = %q", n, got)
		}
		if !strings.HasSuffix(got, "rupees") && !strings.HasSuffix(got, "rupee") && !strings.HasSuffix(got, "paise") && !strings.HasSuffix(got, "paisa") {
			t.Fatalf("InWords(%d) = %q: no unit", n, got)
		}
		if strings.HasPrefix(got, "minus ") != (n < 0) {
			t.Fatalf("InWords(%d) = %q: the sign is wrong", n, got)
		}
		if strings.Contains(got, "zero") && n != 0 {
			t.Fatalf("InWords(%d) = %q: a zero inside an amount", n, got)
		}
	})
}
