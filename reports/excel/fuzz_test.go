package excel

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// FuzzTextCell feeds any text into a customer name, a header, a sheet
// name, a unit and the About sheet, writes the file and reopens it: it
// must never panic or fail, no cell may become a formula, and clean text
// must come back exactly as given.
func FuzzTextCell(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.in)
	}
	for _, s := range []string{"", "Sharma Traders", "राजेश ट्रेडर्स 🙏", "\x00\x01\x1f\x7f", "\xff\xfe", "\ufeff=1",
		"_x000D_", "]]></t><f>1+1</f><t>", "'=1+1", "=1+1\n=2+2", strings.Repeat("🙏", 16384), "\u202e=1+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		wb := Workbook{Sheets: []Sheet{{
			Name:    s,
			Columns: []Column{{Header: s, Kind: Text}, {Header: "Qty", Kind: Quantity}},
			Rows:    Slice([]Row{{Str(s), Qty(2, s)}}),
		}}, About: About{Title: s, Description: s, MadeFor: s, Notes: []string{s}}}
		file := write(t, wb)
		sheet := file.GetSheetName(0)
		if sheet == "" || len(utf16.Encode([]rune(sheet))) > maxSheetName {
			t.Fatalf("sheet name %q", sheet)
		}
		for _, ref := range []string{"A1", "A2"} {
			if got := file.formula(t, sheet, ref); got != "" {
				t.Fatalf("%q became the formula %q in %s", s, got, ref)
			}
		}
		got := file.value(t, sheet, "A2")
		if s != "" {
			if typ, _ := file.GetCellType(sheet, "A2"); typ != excelize.CellTypeInlineString {
				t.Fatalf("%q stored as cell type %v", s, typ)
			}
		}
		if !utf8.ValidString(got) || len(utf16.Encode([]rune(got))) > MaxCellChars {
			t.Fatalf("%q stored as invalid or oversized text", s)
		}
		for _, r := range got {
			if dropped(r) || r == '\t' || r == '\r' || r == '\n' {
				t.Fatalf("%q stored with control character %U", s, r)
			}
		}
		if clean := cleanText(s, false); clean == s && got != s {
			t.Fatalf("clean text %q came back as %q", s, got)
		}
		if looksLikeFormula(got) && !file.quotePrefixed(t, sheet, "A2") {
			t.Fatalf("%q looks like a formula but is not quote-prefixed", got)
		}
		if _, err := shown(file.numFmt(t, sheet, "B2"), file.number(t, sheet, "B2")); err != nil {
			t.Fatalf("unit %q: %v", s, err)
		}
	})
}
