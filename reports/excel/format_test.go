package excel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// shown renders a number the way Excel and LibreOffice both do under the
// number format code, for the part of the format language this package
// writes: sections with optional [>=N] conditions, quoted and \-escaped
// literals, # and 0 placeholders, a , grouping flag, decimals and %.
//
// It refuses what the two programs disagree on, a negative value under a
// conditional format (Excel writes the minus sign in the last section and
// drops it under a negative-only condition; LibreOffice writes it only in
// the first section), so a test passing through it proves no cell depends
// on that.
func shown(code string, v float64) (string, error) {
	sections := splitSections(code)
	conditional := false
	for _, s := range sections {
		if strings.HasPrefix(s, "[") {
			conditional = true
		}
	}
	var section string
	switch {
	case conditional:
		if v < 0 {
			return "", fmt.Errorf("negative %v under conditional format %q: Excel and LibreOffice show it differently", v, code)
		}
		section = sections[len(sections)-1]
		for _, s := range sections {
			cond, rest, ok := condition(s)
			if !ok {
				section = s
				break
			}
			if v >= cond {
				section = rest
				break
			}
		}
	case v < 0 && len(sections) > 1:
		section, v = sections[1], -v // the negative section writes its own sign
	case v < 0:
		return "-" + renderSection(sections[0], -v), nil
	default:
		section = sections[0]
	}
	return renderSection(section, v), nil
}

func splitSections(code string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && !quoted:
			i++
		case c == ';' && !quoted:
			out = append(out, code[start:i])
			start = i + 1
		}
	}
	return append(out, code[start:])
}

// condition reads a leading [>=N].
func condition(s string) (float64, string, bool) {
	if !strings.HasPrefix(s, "[>=") {
		return 0, s, false
	}
	end := strings.IndexByte(s, ']')
	n, err := strconv.ParseFloat(s[3:end], 64)
	if err != nil {
		panic(err)
	}
	return n, s[end+1:], true
}

// token is a piece of a format section: a placeholder (# or 0), the
// decimal point, or literal text.
type token struct {
	kind byte // '#', '0', '.', or 'L' for literal
	text string
}

func renderSection(section string, v float64) string {
	var toks []token
	grouping, percent := false, false
	for i := 0; i < len(section); i++ {
		switch c := section[i]; c {
		case '"':
			end := strings.IndexByte(section[i+1:], '"')
			toks = append(toks, token{'L', section[i+1 : i+1+end]})
			i += end + 1
		case '\\':
			toks = append(toks, token{'L', string(section[i+1])})
			i++
		case '#', '0', '.':
			toks = append(toks, token{kind: c})
		case ',':
			grouping = true
		case '%':
			percent = true
			toks = append(toks, token{'L', "%"})
		default:
			toks = append(toks, token{'L', string(c)})
		}
	}
	if percent {
		v *= 100
	}
	point := len(toks)
	decimals := 0
	for i, t := range toks {
		if t.kind == '.' {
			point = i
		}
		if i > point && t.kind == '0' {
			decimals++
		}
	}
	whole, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', decimals, 64), ".")
	if whole == "0" {
		whole = ""
	}
	// Integer part: placeholders take digits from the right, literals stay
	// where they are, the leftmost placeholder takes any digits left over.
	first := -1
	for i := 0; i < point; i++ {
		if toks[i].kind == '#' || toks[i].kind == '0' {
			first = i
			break
		}
	}
	var out []string
	digits := whole
	if grouping {
		digits = western(whole)
		if digits == "" && slices.ContainsFunc(toks[:point], func(t token) bool { return t.kind == '0' }) {
			digits = "0"
		}
	}
	for i := point - 1; i >= 0; i-- {
		t := toks[i]
		switch {
		case t.kind == 'L':
			out = append(out, t.text)
		case grouping && i == first:
			out = append(out, digits)
		case grouping:
			// the grouped digits are written all at once at the first placeholder
		case len(digits) > 0 && i == first:
			out = append(out, digits)
		case len(digits) > 0:
			out = append(out, digits[len(digits)-1:])
			digits = digits[:len(digits)-1]
		case t.kind == '0':
			out = append(out, "0")
		}
	}
	var b strings.Builder
	for i := len(out) - 1; i >= 0; i-- {
		b.WriteString(out[i])
	}
	for i := point; i < len(toks); i++ {
		switch t := toks[i]; t.kind {
		case '.':
			b.WriteByte('.')
		case '0':
			b.WriteByte(frac[0])
			frac = frac[1:]
		case 'L':
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// western groups digits in threes, as the , flag does.
func western(s string) string {
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// rupeeText is an amount as the business writes it: -₹12,34,567.05.
func rupeeText(p domain.Paise) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s₹%s.%02d", sign, domain.GroupIndian(int64(p)/100), int64(p)%100)
}

// groupedText is an integer with Indian grouping and a minus sign.
func groupedText(n int64) string { return domain.GroupIndian(n) }

// figures are amounts at and around every grouping boundary, both signs.
func figures() []int64 {
	base := []int64{0, 1, 5, 99, 100, 999, 1000, 99999, 100000, 999999, 1000000,
		9999999, 10000000, 12345678, 99999999, 100000000, 999999999, 1000000000,
		1234567890, 99999999999, 100000000000, 123456789012345, MaxNumber}
	var out []int64
	for _, n := range base {
		out = append(out, n)
		if n != 0 {
			out = append(out, -n)
		}
	}
	r := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		n := r.Int64N(MaxNumber) / int64(1+r.IntN(1_000_000))
		if r.IntN(3) == 0 {
			n = -n
		}
		out = append(out, n)
	}
	return out
}

// TestMoneyShowsIndianGroupingAndMinus writes amounts at every grouping
// boundary, of both signs, reopens the file and renders each cell's stored
// number under the format code excelize wrote: it must read exactly as
// the business writes the amount (₹12,34,567.00, -₹1,00,000.50), and the
// cell must be a number in rupees.
func TestMoneyShowsIndianGroupingAndMinus(t *testing.T) {
	amounts := figures()
	rows := make([]Row, len(amounts))
	for i, p := range amounts {
		rows[i] = Row{Amount(domain.Paise(p)), Int(p), Qty(p, "bottle")}
	}
	f := write(t, oneSheet([]Column{{Header: "Amount", Kind: Money}, {Header: "Count", Kind: Integer},
		{Header: "Qty", Kind: Quantity}}, rows...))
	for i, p := range amounts {
		r := i + 2
		code := f.numFmt(t, "Data", cell(1, r))
		if !strings.Contains(code, `"₹"`) {
			t.Fatalf("A%d format %q has no ₹", r, code)
		}
		n := f.number(t, "Data", cell(1, r))
		if got := domain.Paise(int64(n*100 + copysign(0.5, n))); got != domain.Paise(p) {
			t.Errorf("A%d holds %v rupees, want %d paise", r, n, p)
		}
		got, err := shown(code, n)
		if err != nil {
			t.Fatalf("A%d: %v", r, err)
		}
		if want := rupeeText(domain.Paise(p)); got != want {
			t.Errorf("A%d (%d paise) shows %q under %q, want %q", r, p, got, code, want)
		}

		code = f.numFmt(t, "Data", cell(2, r))
		got, err = shown(code, f.number(t, "Data", cell(2, r)))
		if err != nil {
			t.Fatalf("B%d: %v", r, err)
		}
		if want := groupedText(p); got != want {
			t.Errorf("B%d shows %q under %q, want %q", r, got, code, want)
		}

		code = f.numFmt(t, "Data", cell(3, r))
		got, err = shown(code, f.number(t, "Data", cell(3, r)))
		if err != nil {
			t.Fatalf("C%d: %v", r, err)
		}
		if want := groupedText(p) + " " + domain.Plural("bottle", p); got != want {
			t.Errorf("C%d shows %q under %q, want %q", r, got, code, want)
		}
	}
}

func copysign(x, y float64) float64 {
	if y < 0 {
		return -x
	}
	return x
}

// TestMoneyFormatIsTheAdaptiveIndianFormat checks the format code excelize
// writes for an everyday amount: Excel's conditional Indian-grouping
// format, so the grouping follows the value when someone edits it.
func TestMoneyFormatIsTheAdaptiveIndianFormat(t *testing.T) {
	f := write(t, oneSheet([]Column{{Header: "Amount", Kind: Money}}, Row{Amount(123456789)}, Row{Amount(-5000)}))
	want := `[>=10000000]"₹"##\,##\,##\,##0.00;[>=100000]"₹"##\,##\,##0.00;"₹"#,##0.00`
	if got := f.numFmt(t, "Data", "A2"); got != want {
		t.Errorf("format of ₹12,34,567.89 = %q, want %q", got, want)
	}
	if got := f.numFmt(t, "Data", "A3"); got != `"₹"#,##0.00;-"₹"#,##0.00` {
		t.Errorf("format of -₹50 = %q, want the two-section format with its own minus", got)
	}
}

// TestShownRefusesSignAmbiguity keeps the checker honest: a negative
// number under a conditional format is exactly what it must refuse.
func TestShownRefusesSignAmbiguity(t *testing.T) {
	if _, err := shown(moneyGrouping.adaptive(), -5); err == nil {
		t.Fatal("shown accepted a negative value under a conditional format")
	}
	got, err := shown(moneyGrouping.adaptive(), 1234567)
	if err != nil || got != "₹12,34,567.00" {
		t.Fatalf("shown(adaptive, 1234567) = %q, %v", got, err)
	}
}

// TestPercentAndDaysFormats checks the other number kinds read right.
func TestPercentAndDaysFormats(t *testing.T) {
	f := write(t, oneSheet([]Column{{Header: "GST %", Kind: Percent}, {Header: "Age", Kind: Days}},
		Row{Pct(1800), Int(1)}, Row{Pct(250), Int(45)}, Row{Pct(0), Int(-3)}))
	want := [][2]string{{"18.00%", "1 day"}, {"2.50%", "45 days"}, {"0.00%", "-3 days"}}
	for i, w := range want {
		for j := range 2 {
			ref := cell(j+1, i+2)
			got, err := shown(f.numFmt(t, "Data", ref), f.number(t, "Data", ref))
			if err != nil || got != w[j] {
				t.Errorf("%s shows %q (%v), want %q", ref, got, err, w[j])
			}
		}
	}
}
