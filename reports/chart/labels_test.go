package chart

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func fonts(t testing.TB) *typefaces {
	t.Helper()
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFontDrawsRupeeAndLatinButNotDevanagari(t *testing.T) {
	f := fonts(t)
	for s, want := range map[string]bool{
		"₹12,34,567.89":    true,
		"Rajesh Kirana":    true,
		"Café – Ñandú …":   true,
		"राजेश":            false,
		"Verma Mart 🛒":     false,
		"a\u200db":         false, // a joiner asks for shaping
		"\u202eevil":       false, // a direction override
		"tab\there":        false,
		"broken \xff byte": false,
	} {
		if got := f.drawable(s); got != want {
			t.Errorf("drawable(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestLabelFallsBackWhenTheFontCannotDrawTheName(t *testing.T) {
	f := fonts(t)
	st := f.style(labelSize, false, ink)
	for _, tc := range []struct {
		cat      Category
		want     string
		fellBack bool
	}{
		{Category{Text: "Rajesh Kirana Store", Fallback: "C01"}, "Rajesh Kirana Store", false},
		{Category{Text: "राजेश किराना", Fallback: "C01"}, "C01", true},
		{Category{Text: "Rajesh राजेश", Fallback: "C01"}, "C01", true},
		{Category{Text: "Verma 🛒", Fallback: "C05"}, "C05", true},
		{Category{Text: "", Fallback: "GC500"}, "GC500", true},
		{Category{Text: "  Sharma \n\t General  ", Fallback: "C02"}, "Sharma General", false},
		{Category{Text: "Cafe\u0301 Corner"}, "Café Corner", false}, // composed, then drawable
		{Category{Text: "₹10 Store"}, "₹10 Store", false},
		{Category{Text: "राजेश", Fallback: "राज"}, "#4", true},
		{Category{Text: "\u202eevil", Fallback: ""}, "#4", true},
		{Category{}, "#4", true},
	} {
		got, fellBack := f.label(tc.cat, 3, st, 400)
		if got != tc.want || fellBack != tc.fellBack {
			t.Errorf("label(%q, %q) = %q, %v; want %q, %v", tc.cat.Text, tc.cat.Fallback, got, fellBack, tc.want, tc.fellBack)
		}
	}
}

func TestLongNamesAreShortenedWithAnEllipsis(t *testing.T) {
	f := fonts(t)
	st := f.style(labelSize, false, ink)
	long := "Mehta Traders & Wholesale Distributors Private Limited"
	got := f.fit(long, st, 300)
	if !strings.HasSuffix(got, ellipsis) || !strings.HasPrefix(long, strings.TrimSuffix(got, ellipsis)) {
		t.Fatalf("fit = %q", got)
	}
	if w := f.width(st, got); w > 300 {
		t.Fatalf("%q is %.0f px, over 300", got, w)
	}
	// The longest beginning that fits is used: one more letter does not.
	runes := []rune(long)
	k := len([]rune(strings.TrimSuffix(got, ellipsis)))
	for k < len(runes) && runes[k] == ' ' {
		k++
	}
	if longer := string(runes[:k+1]) + ellipsis; f.width(st, longer) <= 300 {
		t.Fatalf("%q would fit too", longer)
	}
	if f.fit("Gupta", st, 300) != "Gupta" {
		t.Fatal("a short name was changed")
	}
	if got := f.fit(long, st, 1); got != ellipsis {
		t.Fatalf("nothing fits in 1 px, got %q", got)
	}
	if got := f.fit("Rajesh    Kirana Store", st, f.width(st, "Rajesh"+ellipsis)+1); got != "Rajesh"+ellipsis {
		t.Fatalf("spaces before the ellipsis kept: %q", got)
	}
}

func TestPlainTextLosesOnlyWhatCannotBeDrawn(t *testing.T) {
	f := fonts(t)
	st := f.style(titleSize, true, ink)
	got, changed := f.plain("Sales to राजेश · Nov 2026", st, 2000)
	if got != "Sales to · Nov 2026" || !changed {
		t.Fatalf("plain = %q, %v", got, changed)
	}
	if got, changed := f.plain("Sales · Nov 2026", st, 2000); got != "Sales · Nov 2026" || changed {
		t.Fatalf("plain = %q, %v", got, changed)
	}
}

// FuzzLabel feeds random unicode to the label fitting: it must never
// panic, and what it returns must be drawable, non-empty and fit.
func FuzzLabel(f *testing.F) {
	for _, s := range []string{"Rajesh Kirana Store", "राजेश किराना", "🛒🛒🛒", "a\u0301\u0301\u0301", "\u202e\u200d\x00", "\xff\xfe", strings.Repeat("W", 300), "", " "} {
		f.Add(s, "C01", 200.0)
	}
	faces := fonts(f)
	st := faces.style(labelSize, false, ink)
	f.Fuzz(func(t *testing.T, text, fallback string, maxWidth float64) {
		if maxWidth != maxWidth || maxWidth < 0 || maxWidth > 2000 {
			maxWidth = 200
		}
		got, fellBack := faces.label(Category{Text: text, Fallback: fallback}, 0, st, maxWidth)
		if got == "" || !utf8.ValidString(got) || !faces.drawable(got) {
			t.Fatalf("label(%q, %q) = %q: not drawable", text, fallback, got)
		}
		if got != ellipsis && faces.width(st, got) > maxWidth {
			t.Fatalf("label(%q) = %q is wider than %.0f", text, got, maxWidth)
		}
		if !fellBack {
			whole := clean(text)
			if got != whole && !strings.HasPrefix(whole, strings.TrimSuffix(got, ellipsis)) {
				t.Fatalf("label(%q) = %q is not the name or its beginning", text, got)
			}
		}
		plain, _ := faces.plain(text, st, maxWidth)
		if plain != "" && !faces.drawable(plain) {
			t.Fatalf("plain(%q) = %q: not drawable", text, plain)
		}
	})
}
