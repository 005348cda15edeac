package excel

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// madeAt is a fixed "now" for files under test: 30 Nov 2026, 18:45 in
// Kolkata.
var madeAt = time.Date(2026, 11, 30, 13, 15, 0, 0, time.UTC)

// file is a written workbook, reopened.
type file struct {
	*excelize.File
	data []byte
}

// write writes wb and reopens it with excelize, as a reader of the file
// would.
func write(t testing.TB, wb Workbook) *file {
	t.Helper()
	if wb.About.MadeAt.IsZero() {
		wb.About.MadeAt = madeAt
	}
	data, err := Bytes(context.Background(), wb)
	if err != nil {
		t.Fatalf("Bytes: %v", err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reopening the file: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return &file{File: f, data: data}
}

// oneSheet is a workbook of one sheet with those columns and rows.
func oneSheet(cols []Column, rows ...Row) Workbook {
	return Workbook{Sheets: []Sheet{{Name: "Data", Columns: cols, Rows: Slice(rows)}}}
}

func (f *file) value(t testing.TB, sheet, cell string, opts ...excelize.Options) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, cell, opts...)
	if err != nil {
		t.Fatalf("%s!%s: %v", sheet, cell, err)
	}
	return v
}

// raw is a cell's stored value, without its number format.
func (f *file) raw(t testing.TB, sheet, cell string) string {
	t.Helper()
	return f.value(t, sheet, cell, excelize.Options{RawCellValue: true})
}

func (f *file) number(t testing.TB, sheet, cell string) float64 {
	t.Helper()
	s := f.raw(t, sheet, cell)
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s!%s = %q, not a number", sheet, cell, s)
	}
	if typ, _ := f.GetCellType(sheet, cell); typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
		t.Fatalf("%s!%s has cell type %v, want a number", sheet, cell, typ)
	}
	return n
}

func (f *file) formula(t testing.TB, sheet, cell string) string {
	t.Helper()
	v, err := f.GetCellFormula(sheet, cell)
	if err != nil {
		t.Fatalf("%s!%s formula: %v", sheet, cell, err)
	}
	return v
}

func (f *file) styleID(t testing.TB, sheet, cell string) int {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatalf("%s!%s style: %v", sheet, cell, err)
	}
	return id
}

func (f *file) style(t testing.TB, sheet, cell string) *excelize.Style {
	t.Helper()
	st, err := f.GetStyle(f.styleID(t, sheet, cell))
	if err != nil {
		t.Fatalf("%s!%s style: %v", sheet, cell, err)
	}
	return st
}

// numFmt is the format code of a cell: its custom code, or "@" for the
// built-in text format.
func (f *file) numFmt(t testing.TB, sheet, cell string) string {
	t.Helper()
	st := f.style(t, sheet, cell)
	if st.CustomNumFmt != nil {
		return *st.CustomNumFmt
	}
	if st.NumFmt == textFormat {
		return "@"
	}
	return "builtin:" + strconv.Itoa(st.NumFmt)
}

// quotePrefixed reads the quotePrefix flag of a cell's format record,
// which excelize's Style does not expose.
func (f *file) quotePrefixed(t testing.TB, sheet, cell string) bool {
	t.Helper()
	id := f.styleID(t, sheet, cell)
	f.style(t, sheet, cell) // loads the style sheet
	xf := f.Styles.CellXfs.Xf[id]
	return xf.QuotePrefix != nil && *xf.QuotePrefix
}

// part is one file inside the .xlsx zip.
func (f *file) part(t testing.TB, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(f.data), int64(len(f.data)))
	if err != nil {
		t.Fatalf("zip: %v", err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatalf("zip part %s: %v", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("zip part %s: %v", name, err)
	}
	return b
}

// sheetXML is the part holding a sheet's XML.
func (f *file) sheetXML(t testing.TB, sheet string) []byte {
	t.Helper()
	idx, err := f.GetSheetIndex(sheet)
	if err != nil || idx < 0 {
		t.Fatalf("no sheet %q", sheet)
	}
	return f.part(t, "xl/worksheets/sheet"+strconv.Itoa(idx+1)+".xml")
}

// autoFilter is the auto filter range written in a sheet's XML.
func (f *file) autoFilter(t testing.TB, sheet string) string {
	t.Helper()
	var ws struct {
		AutoFilter *struct {
			Ref string `xml:"ref,attr"`
		} `xml:"autoFilter"`
	}
	if err := xml.Unmarshal(f.sheetXML(t, sheet), &ws); err != nil {
		t.Fatalf("sheet %s XML: %v", sheet, err)
	}
	if ws.AutoFilter == nil {
		return ""
	}
	return ws.AutoFilter.Ref
}

// aboutValue is the value next to a label on the About sheet.
func (f *file) aboutValue(t testing.TB, label string) (cell string, ok bool) {
	t.Helper()
	rows, err := f.GetRows("About")
	if err != nil {
		t.Fatalf("About: %v", err)
	}
	for i, r := range rows {
		if len(r) > 0 && r[0] == label {
			return "B" + strconv.Itoa(i+1), true
		}
	}
	return "", false
}

// aboutColumnB is everything in column B of the About sheet.
func (f *file) aboutColumnB(t testing.TB) []string {
	t.Helper()
	rows, err := f.GetRows("About")
	if err != nil {
		t.Fatalf("About: %v", err)
	}
	var out []string
	for _, r := range rows {
		if len(r) > 1 {
			out = append(out, r[1])
		}
	}
	return out
}

// cell names a cell from a column number (1-based) and row.
func cell(col, row int) string {
	name, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		panic(err)
	}
	return name
}
