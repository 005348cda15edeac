package domain

import (
	"strings"
	"testing"
)

func TestGroupIndian(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", 25000: "25,000", 100000: "1,00,000",
		1234567: "12,34,567", 12345678: "1,23,45,678", -1234567: "-12,34,567", 1000000000: "1,00,00,00,000",
	} {
		if got := GroupIndian(n); got != want {
			t.Errorf("GroupIndian(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestPaiseString(t *testing.T) {
	for p, want := range map[Paise]string{
		0: "₹0", 9200: "₹92", 9250: "₹92.50", 1234567801: "₹1,23,45,678.01", -5: "-₹0.05", 2500000: "₹25,000",
	} {
		if got := p.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int64(p), got, want)
		}
	}
}

func TestParseRupees(t *testing.T) {
	good := map[string]Paise{
		"92": 9200, "92.5": 9250, "92.05": 9205, "1,20,000.00": 12000000, "₹ 25000": 2500000, "Rs.10": 1000,
		"-500.50": -50050, ".5": 50, "0": 0,
	}
	for in, want := range good {
		if got, err := ParseRupees(in); err != nil || got != want {
			t.Errorf("ParseRupees(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "12.345", "1e5", "12.", "--5", "99999999999999999999", "१२"} {
		if _, err := ParseRupees(in); err == nil {
			t.Errorf("ParseRupees(%q) accepted", in)
		}
	}
}

func TestLineGSTRoundsHalfUp(t *testing.T) {
	cases := []struct {
		amount Paise
		rate   GSTRate
		want   Paise
	}{
		{2208000, 1800, 397440}, // ₹22,080 at 18% = ₹3,974.40 exactly
		{1, 1800, 0},            // 0.18 paisa rounds down
		{3, 1800, 1},            // 0.54 paisa rounds up
		{25, 1800, 5},           // 4.5 paisa rounds half up
		{1000, 250, 25},         // 2.5%
		{-25, 1800, -5},
	}
	for _, c := range cases {
		if got := LineGST(c.amount, c.rate); got != c.want {
			t.Errorf("LineGST(%d, %d) = %d, want %d", c.amount, c.rate, got, c.want)
		}
	}
	l := PriceLine(OrderLine{Qty: 240, Price: 9200, GSTRate: 1800})
	if l.Amount != 2208000 || l.GSTAmount != 397440 {
		t.Fatalf("PriceLine = %+v", l)
	}
}

func TestGSTRateString(t *testing.T) {
	for r, want := range map[GSTRate]string{1800: "18%", 250: "2.5%", 0: "0%", 1225: "12.25%"} {
		if got := r.String(); got != want {
			t.Errorf("%d → %q, want %q", int64(r), got, want)
		}
	}
}

func TestParsePhone(t *testing.T) {
	good := map[string]string{"+919810000001": "+919810000001", "+91 98100-00001": "+919810000001", "+1 (415) 523-8886": "+14155238886"}
	for in, want := range good {
		if got, err := ParsePhone(in); err != nil || got != want {
			t.Errorf("ParsePhone(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "9810000001", "+0123456789", "+91abc", "+1234", "++919810000001", "+9198100000011234567"} {
		if _, err := ParsePhone(in); err == nil {
			t.Errorf("ParsePhone(%q) accepted", in)
		}
	}
}

func TestErrorCodes(t *testing.T) {
	err := Errorf(ENOTFOUND, "customer %s not found", "C99")
	if ErrorCode(err) != ENOTFOUND || ErrorMessage(err) != "customer C99 not found" {
		t.Fatal(err)
	}
	if ErrorCode(nil) != "" || ErrorCode(errPlain{}) != EINTERNAL || ErrorMessage(errPlain{}) != "Internal error." {
		t.Fatal("plain errors must be internal and hidden")
	}
}

type errPlain struct{}

func (errPlain) Error() string { return "sqlite: disk I/O error" }

func TestOrderRef(t *testing.T) {
	for in, want := range map[string]string{"ORDER-1042": "ORD-1042", "ord-1042": "ORD-1042", "1042": "ORD-1042", "ORD1042": "ORD-1042",
		"order #1042": "ORD-1042", " ord 1042 ": "ORD-1042", "T-5531": "T-5531", "t-5531": "T-5531",
		// A draft's reference in any spelling is a draft, never an order number.
		"D-57": "D-57", "d-57": "D-57", "DRAFT-57": "D-57", "draft #57": "D-57", "d57": "D-57", "57": "ORD-57", "DM-57": "DM-57"} {
		if got := OrderRef(in); got != want {
			t.Errorf("OrderRef(%q) = %q, want %q", in, got, want)
		}
		if IsDraftRef(OrderRef(in)) != strings.HasPrefix(want, "D-") {
			t.Errorf("IsDraftRef(OrderRef(%q)) = %v", in, !strings.HasPrefix(want, "D-"))
		}
	}
	if DraftRef(57) != "D-57" || IsDraftRef("D-") || IsDraftRef("D-5a") || IsDraftRef("ORD-57") {
		t.Errorf("DraftRef(57) = %q; IsDraftRef of D-, D-5a or ORD-57 is true", DraftRef(57))
	}
}
