package reports_test

import (
	"context"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

func TestReportQuantities(t *testing.T) {
	carton := []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}}
	for _, c := range []struct {
		n     int64
		unit  string
		packs []domain.PackSize
		want  string
	}{
		{2400, "bottle", carton, "2,400 bottles (100 cartons)"},
		{1000, "bottle", carton, "1,000 bottles (41 cartons + 16 bottles)"},
		{24, "bottle", carton, "24 bottles (1 carton)"},
		{5, "bottle", carton, "5 bottles"},
		{1, "piece", nil, "1 piece"},
		{12345678, "pack", nil, "1,23,45,678 packs"},
		{36, "box", nil, "36 boxes"},
		{144, "bar", []domain.PackSize{{Name: "dozen", Units: 12}}, "144 bars (12 dozen)"},
		{0, "can", nil, "0 cans"},
	} {
		if got := reports.Quantity(c.n, c.unit, c.packs); got != c.want {
			t.Errorf("Quantity(%d %s) = %q, want %q", c.n, c.unit, got, c.want)
		}
	}
}

func TestReportCharsAndSplit(t *testing.T) {
	if n := reports.Chars("₹1,000 👍"); n != 9 {
		t.Fatalf("Chars = %d, want 9 (the emoji counts twice)", n)
	}
	// A bad byte is one replacement character; Devanagari with its
	// joiners one unit a code point; emoji two.
	for s, want := range map[string]int{"": 0, "\xff": 1, "a\xffb": 3, "राजेश": 5, "🙏🏽": 4, "\u2028": 1} {
		if n := reports.Chars(s); n != want {
			t.Errorf("Chars(%q) = %d, want %d", s, n, want)
		}
	}
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("• Glass Cleaner 500ml: 2,304 bottles available\n")
	}
	parts := reports.Split(b.String(), 0)
	total := 0
	for i, p := range parts {
		if reports.Chars(p) > reports.MaxMessageChars {
			t.Fatalf("part %d has %d characters", i, reports.Chars(p))
		}
		if strings.HasPrefix(p, "\n") || !strings.HasPrefix(p, "• ") {
			t.Fatalf("part %d does not start at a line: %q", i, p[:20])
		}
		total += strings.Count(p, "•")
	}
	if total != 200 || len(parts) < 6 {
		t.Fatalf("%d parts with %d lines", len(parts), total)
	}
	// One line longer than a message is cut, never inside a character.
	long := strings.Repeat("झाड़ू ", 700)
	parts = reports.Split(long, 100)
	if strings.Join(parts, "") != long {
		t.Fatal("cutting a long line lost text")
	}
	for _, p := range parts {
		if reports.Chars(p) > 100 {
			t.Fatalf("part of %d characters", reports.Chars(p))
		}
	}
}

// TestReportRupees: amounts in replies use Indian grouping to the paisa.
func TestReportRupees(t *testing.T) {
	b := knownBooks(t)
	ctx := context.Background()
	cs, err := b.store.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cs {
		if cs[i].ID == "C03" {
			cs[i].Outstanding, cs[i].CreditLimit = 1234567801, 1500000000
		}
	}
	if err := b.store.UpsertCustomers(ctx, cs); err != nil {
		t.Fatal(err)
	}
	res := b.call(t, owner, reports.ToolOutstanding, nil)
	wantContains(t, res.Text, "*Who owes us*: 3 customers, ₹1,25,40,678.01 in all",
		"1. Mehta Traders: ₹1,23,45,678.01 (limit ₹1,50,00,000); oldest bill older than Munshi's records")
	res = b.call(t, owner, reports.ToolOutstanding, map[string]any{"customer": "Mehta"})
	wantContains(t, res.Text, "Outstanding: ₹1,23,45,678.01", "Headroom: ₹26,54,321.99",
		"Oldest unpaid bill: older than Munshi's records")
}
