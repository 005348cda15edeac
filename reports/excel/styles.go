package excel

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Number formats that are not Indian-grouped families.
const (
	percentFormat  = `0.00%`
	dateFormat     = `dd-mmm-yyyy`
	dateTimeFormat = `dd-mmm-yyyy hh:mm`
	oneDayFormat   = `0" day"`
	daysFormat     = `#,##0" days";-#,##0" days"`
	textFormat     = 49 // Excel's built-in "@": the cell is text
)

// grouping is a family of number formats with Indian digit grouping: a
// prefix (₹), a number of decimals and a suffix (a unit), each already
// quoted for a format code.
type grouping struct {
	prefix   string
	decimals int
	suffix   string
}

var (
	moneyGrouping   = grouping{prefix: `"₹"`, decimals: 2}
	integerGrouping = grouping{}
)

// unitGrouping is a quantity's family with its unit after the number. The
// unit keeps ASCII letters, digits, spaces, dots and hyphens and printable
// non-ASCII characters, and loses the rest (quotes, brackets, semicolons),
// so that it cannot break out of its quoted place in the format code.
func unitGrouping(unit string) grouping {
	unit = strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '.' || r == '-':
			return r
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			return r
		case r >= 0x80 && !dropped(r) && r != '"' && r != '\\':
			return r
		}
		return -1
	}, cleanText(unit, false))
	unit = strings.TrimSpace(cutUnits(unit, 20))
	if unit == "" {
		return integerGrouping
	}
	return grouping{suffix: `" ` + unit + `"`}
}

// adaptiveLimit is where the adaptive format's crore section runs out of
// digit placeholders: ₹100 crore.
const adaptiveLimit = 1_000_000_000

// adaptive is the conditional format for values in [0, adaptiveLimit):
// lakh grouping from 1,00,000 and crore grouping from 1,00,00,000, as the
// value changes. Conditions on non-negative thresholds only ever see
// non-negative values, where Excel and LibreOffice agree.
func (g grouping) adaptive() string {
	return "[>=10000000]" + g.section(2) + ";[>=100000]" + g.section(1) + ";" + g.section(0)
}

// fixed is an unconditional two-section format for values with the number
// of integer digits of bucket k; the negative section writes its own minus
// sign, which both Excel and LibreOffice show as written.
func (g grouping) fixed(k int) string {
	s := g.section(k)
	return s + ";-" + s
}

// section is one format section for bucket k: k = 0 is up to five integer
// digits (#,##0, where Indian and Western grouping agree), each bucket
// after it two digits more: ##\,##\,##0, ##\,##\,##\,##0, …
func (g grouping) section(k int) string {
	digits := "#,##0"
	if k > 0 {
		digits = strings.Repeat(`##\,`, k+1) + "##0"
	}
	if g.decimals > 0 {
		digits += "." + strings.Repeat("0", g.decimals)
	}
	return g.prefix + digits + g.suffix
}

// buckets covers up to 15 integer digits, Excel's precision.
const buckets = 6

// bucket is the fixed format bucket for a number's integer digits.
func bucket(digits int) int {
	return min(max(0, (digits-4)/2), buckets-1)
}

// family is one grouping's styles, body or totals, made as needed.
type family struct {
	g        grouping
	total    bool
	adaptive int
	fixed    [buckets]int
}

// styles makes and remembers the workbook's cell styles.
type styles struct {
	f *excelize.File

	header, title, label, totalLabel int
	text, quoted                     int // one-line text, plain and quote-prefixed
	notes, notesQuoted               int // wrapped text

	byFormat   map[formatKey]int
	byGrouping map[formatGroup]*family
}

type formatKey struct {
	code  string
	total bool
}

type formatGroup struct {
	g     grouping
	total bool
}

var (
	totalFont   = &excelize.Font{Bold: true}
	totalBorder = []excelize.Border{{Type: "top", Color: "808080", Style: 1}}
)

func newStyles(f *excelize.File) (*styles, error) {
	s := &styles{f: f, byFormat: map[formatKey]int{}, byGrouping: map[formatGroup]*family{}}
	var err error
	add := func(st *excelize.Style) int {
		id, e := f.NewStyle(st)
		if err == nil && e != nil {
			err = e
		}
		return id
	}
	s.header = add(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E8EEF4"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
		NumFmt:    textFormat,
	})
	s.title = add(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}, NumFmt: textFormat})
	s.label = add(&excelize.Style{Font: &excelize.Font{Bold: true}, NumFmt: textFormat,
		Alignment: &excelize.Alignment{Vertical: "top"}})
	s.totalLabel = add(&excelize.Style{Font: totalFont, Border: totalBorder, NumFmt: textFormat})
	s.text = add(&excelize.Style{NumFmt: textFormat})
	s.notes = add(&excelize.Style{NumFmt: textFormat, Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}})
	if err != nil {
		return nil, fmt.Errorf("excel: making styles: %w", err)
	}
	s.quoted, s.notesQuoted = s.quotePrefixed(s.text), s.quotePrefixed(s.notes)
	return s, nil
}

// textStyle is the style of a text cell: quote-prefixed when the text
// starts like a formula, wrapped for notes.
func (s *styles) textStyle(text string, wrap bool) int {
	switch q := looksLikeFormula(text); {
	case wrap && q:
		return s.notesQuoted
	case wrap:
		return s.notes
	case q:
		return s.quoted
	}
	return s.text
}

// quotePrefixed adds a copy of a style with quotePrefix set, Excel's "'"
// in front of typed text: the cell stays text when someone edits it.
// excelize's Style has no such field, so the cell format record is copied
// directly. The copy comes after the original, so excelize's own look-up
// of an equal style still finds the original first.
func (s *styles) quotePrefixed(base int) int {
	sheet := s.f.Styles
	xf := sheet.CellXfs.Xf[base]
	on := true
	xf.QuotePrefix = &on
	sheet.CellXfs.Xf = append(sheet.CellXfs.Xf, xf)
	sheet.CellXfs.Count = len(sheet.CellXfs.Xf)
	return sheet.CellXfs.Count - 1
}

// format returns the style of a number format, body or totals.
func (s *styles) format(code string, total bool) (int, error) {
	key := formatKey{code, total}
	if id, ok := s.byFormat[key]; ok {
		return id, nil
	}
	st := &excelize.Style{CustomNumFmt: &code}
	if total {
		st.Font, st.Border = totalFont, totalBorder
	}
	id, err := s.f.NewStyle(st)
	if err != nil {
		return 0, fmt.Errorf("excel: number format %q: %w", code, err)
	}
	s.byFormat[key] = id
	return id, nil
}

// family returns the styles of a grouping, body or totals.
func (s *styles) family(g grouping, total bool) *family {
	key := formatGroup{g, total}
	fam, ok := s.byGrouping[key]
	if !ok {
		fam = &family{g: g, total: total}
		s.byGrouping[key] = fam
	}
	return fam
}

// number returns the style for value n of a grouping whose unit is scale
// (100 for paise): the adaptive format for non-negative values below ₹100
// crore, a fixed format for the value's digits otherwise.
func (s *styles) number(fam *family, n, scale int64) (int, error) {
	whole := n / scale
	if whole < 0 {
		whole = -whole
	}
	var err error
	if n >= 0 && whole < adaptiveLimit {
		if fam.adaptive == 0 {
			fam.adaptive, err = s.format(fam.g.adaptive(), fam.total)
		}
		return fam.adaptive, err
	}
	k := bucket(digitCount(whole))
	if fam.fixed[k] == 0 {
		fam.fixed[k], err = s.format(fam.g.fixed(k), fam.total)
	}
	return fam.fixed[k], err
}

// digitCount is the number of decimal digits of n ≥ 0.
func digitCount(n int64) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}
