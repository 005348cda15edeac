package excel

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/domain"
)

// Column widths, in Excel's character units.
const (
	minWidth = 6
	maxWidth = 60
)

// maxUnits is how many distinct units one quantity column shows after its
// numbers; past it, further units' numbers are shown bare (Excel allows
// only a few hundred number formats in a file).
const maxUnits = 64

// sumLimit keeps a running total where one more value cannot overflow it.
const sumLimit = math.MaxInt64 - MaxNumber

// column is a column being written: its styles, its running total and
// the widest value seen in the sample.
type column struct {
	Column
	ref    string  // column letters: "C"
	body   *family // Indian-grouped kinds: Integer, Quantity (bare), Money
	total  *family
	style  int // Percent, Date, DateTime
	units  map[string]*family
	sum    int64
	widest int
}

// sheetWriter streams one data sheet.
type sheetWriter struct {
	ctx    context.Context
	sw     *excelize.StreamWriter
	st     *styles
	name   string
	loc    *time.Location
	cols   []column
	rows   int   // data rows written or sampled
	sample []Row // the first SampleRows rows, until the layout is set
	begun  bool  // header written, widths fixed
	cells  []excelize.Cell
	vals   []any
}

// writeSheet writes one data sheet and returns how many data rows it has.
func writeSheet(ctx context.Context, f *excelize.File, st *styles, name string, sh Sheet, loc *time.Location) (int, error) {
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return 0, fmt.Errorf("excel: sheet %q: %w", name, err)
	}
	w := &sheetWriter{ctx: ctx, sw: sw, st: st, name: name, loc: loc,
		cols:  make([]column, len(sh.Columns)),
		cells: make([]excelize.Cell, len(sh.Columns)),
		vals:  make([]any, len(sh.Columns)),
	}
	for i, c := range sh.Columns {
		w.cols[i] = w.prepare(i, c)
	}
	if sh.Rows != nil {
		for row, err := range sh.Rows {
			if err != nil {
				return 0, fmt.Errorf("excel: sheet %q: reading rows: %w", name, err)
			}
			if err := w.add(row); err != nil {
				return 0, err
			}
		}
	}
	if err := w.finish(f); err != nil {
		return 0, err
	}
	return w.rows, nil
}

func (w *sheetWriter) prepare(i int, c Column) column {
	col := column{Column: c, widest: displayWidth(cleanText(c.Header, false)) + 3} // room for the filter button
	col.ref, _ = excelize.ColumnNumberToName(i + 1)
	switch c.Kind {
	case Integer, Quantity:
		col.body, col.total = w.st.family(integerGrouping, false), w.st.family(integerGrouping, true)
	case Money:
		col.body, col.total = w.st.family(moneyGrouping, false), w.st.family(moneyGrouping, true)
	}
	return col
}

// add takes one row: the first SampleRows are held to size the columns,
// the rest are written at once.
func (w *sheetWriter) add(row Row) error {
	if len(row) > len(w.cols) {
		return fmt.Errorf("excel: sheet %q row %d has %d values for %d columns", w.name, w.rows+2, len(row), len(w.cols))
	}
	if w.rows >= MaxDataRows {
		return fmt.Errorf("excel: sheet %q: %w", w.name, ErrTooManyRows)
	}
	if w.rows%checkEvery == 0 {
		if err := w.ctx.Err(); err != nil {
			return err
		}
	}
	w.rows++
	if !w.begun {
		w.measure(row)
		w.sample = append(w.sample, slices.Clone(row))
		if len(w.sample) < SampleRows {
			return nil
		}
		return w.begin()
	}
	return w.write(w.rows+1, row)
}

// begin fixes the column widths and the frozen header, writes the header
// and the sampled rows.
func (w *sheetWriter) begin() error {
	w.begun = true
	lines := 1 // rows of text in the header: a header wider than its column wraps
	// excelize puts each width it is given before the ones it has, and
	// Excel wants the columns in order: set them last to first.
	for i := len(w.cols) - 1; i >= 0; i-- {
		c := w.cols[i]
		width := c.Width
		if width == 0 {
			width = float64(min(max(c.widest+2, minWidth), maxWidth))
		}
		if err := w.sw.SetColWidth(i+1, i+1, width); err != nil {
			return fmt.Errorf("excel: sheet %q column %q width: %w", w.name, c.Header, err)
		}
		perLine := max(int(width)-1, 1)
		lines = max(lines, (displayWidth(cleanText(c.Header, false))+perLine-1)/perLine)
	}
	err := w.sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}})
	if err != nil {
		return fmt.Errorf("excel: sheet %q panes: %w", w.name, err)
	}
	header := make([]any, len(w.cols))
	for i, c := range w.cols {
		header[i] = excelize.Cell{StyleID: w.st.header, Value: cleanText(c.Header, false)}
	}
	height := 20 + 15*float64(min(lines, 8)-1) // points: one line, then 15 a line more
	if err := w.sw.SetRow("A1", header, excelize.RowOpts{Height: height}); err != nil {
		return fmt.Errorf("excel: sheet %q header: %w", w.name, err)
	}
	for i, row := range w.sample {
		if err := w.write(i+2, row); err != nil {
			return err
		}
	}
	w.sample = nil
	return nil
}

// measure widens the columns to fit a sampled row's values as shown.
func (w *sheetWriter) measure(row Row) {
	for i, v := range row {
		c := &w.cols[i]
		if width := shownWidth(c.Kind, v); width > c.widest {
			c.widest = width
		}
	}
}

// shownWidth estimates how wide a value is drawn in a column of a kind.
func shownWidth(k Kind, v Value) int {
	switch {
	case v.kind == textValue:
		return displayWidth(cleanText(v.s, false))
	case v.kind == timeValue && k == DateTime:
		return len("30-Nov-2026 23:59")
	case v.kind == timeValue:
		return len("30-Nov-2026")
	case v.kind != numberValue:
		return 0
	}
	grouped := len(domain.GroupIndian(v.n))
	switch k {
	case Money:
		return displayWidth(domain.Paise(v.n).String()) + len(".00") // whole rupees drop the paise
	case Quantity:
		if v.s != "" {
			return grouped + 1 + displayWidth(domain.Plural(v.s, v.n))
		}
	case Percent:
		return len(strconv.FormatFloat(float64(v.n)/100, 'f', 2, 64)) + 1
	case Days:
		return grouped + len(" days")
	}
	return grouped
}

// write writes one data row as spreadsheet row r.
func (w *sheetWriter) write(r int, row Row) error {
	for i := range w.cols {
		w.vals[i] = nil
		if i >= len(row) || row[i].kind == blank {
			continue
		}
		cell := &w.cells[i]
		*cell = excelize.Cell{}
		if err := w.fill(cell, &w.cols[i], row[i]); err != nil {
			return fmt.Errorf("excel: sheet %q row %d column %q: %w", w.name, r, w.cols[i].Header, err)
		}
		w.vals[i] = cell
	}
	if err := w.sw.SetRow("A"+strconv.Itoa(r), w.vals); err != nil {
		return fmt.Errorf("excel: sheet %q row %d: %w", w.name, r, err)
	}
	return nil
}

// fill sets a cell from a value of column c.
func (w *sheetWriter) fill(cell *excelize.Cell, c *column, v Value) error {
	switch v.kind {
	case textValue:
		if c.Kind != Text {
			return fmt.Errorf("text in %s column", c.Kind.article())
		}
		w.text(cell, cleanText(v.s, false))
		return nil
	case timeValue:
		if c.Kind != Date && c.Kind != DateTime {
			return fmt.Errorf("a date in %s column", c.Kind.article())
		}
		return w.date(cell, c, v)
	}
	if !c.Kind.numeric() {
		return fmt.Errorf("a number in %s column", c.Kind.article())
	}
	if v.n > MaxNumber || v.n < -MaxNumber {
		return fmt.Errorf("%d is more than Excel holds exactly (15 digits)", v.n)
	}
	if c.Sum {
		// Stop before the running total could overflow; totals checks the
		// final one against MaxNumber.
		if c.sum += v.n; c.sum > sumLimit || c.sum < -sumLimit {
			return fmt.Errorf("the column's total is more than Excel holds exactly (15 digits)")
		}
	}
	var err error
	switch c.Kind {
	case Integer:
		cell.Value = v.n
		cell.StyleID, err = w.st.number(c.body, v.n, 1)
	case Quantity:
		cell.Value = v.n
		cell.StyleID, err = w.st.number(w.unitFamily(c, v), v.n, 1)
	case Money:
		cell.Value = rupees(v.n)
		cell.StyleID, err = w.st.number(c.body, v.n, 100)
	case Percent:
		cell.Value = float64(v.n) / 10000
		cell.StyleID, err = w.fixedStyle(c, percentFormat)
	case Days:
		cell.Value = v.n
		code := daysFormat
		if v.n == 1 {
			code = oneDayFormat
		}
		cell.StyleID, err = w.st.format(code, false)
	}
	return err
}

// rupees is paise as a number of rupees. Dividing an exact integer by 100
// gives the double nearest the two-decimal amount, which Excel (15
// significant digits) reads back as exactly that amount.
func rupees(paise int64) float64 { return float64(paise) / 100 }

// text sets a text cell: always a string, quote-prefixed when it starts
// like a formula.
func (w *sheetWriter) text(cell *excelize.Cell, s string) {
	cell.Value, cell.StyleID = s, w.st.textStyle(s, false)
}

// date sets an Excel date; a date Excel cannot show is written as ISO text.
func (w *sheetWriter) date(cell *excelize.Cell, c *column, v Value) error {
	withTime := c.Kind == DateTime
	n, ok := serial(v.t, w.loc, withTime)
	if !ok {
		layout := "2006-01-02"
		if withTime {
			layout = "2006-01-02 15:04"
		}
		w.text(cell, v.t.In(w.loc).Format(layout))
		return nil
	}
	code := dateFormat
	if withTime {
		code = dateTimeFormat
	}
	cell.Value = n
	var err error
	cell.StyleID, err = w.fixedStyle(c, code)
	return err
}

func (w *sheetWriter) fixedStyle(c *column, code string) (int, error) {
	if c.style == 0 {
		var err error
		if c.style, err = w.st.format(code, false); err != nil {
			return 0, err
		}
	}
	return c.style, nil
}

// unitFamily is the styles showing a quantity's unit after it, singular
// for one ("1 bottle", "24 bottles").
func (w *sheetWriter) unitFamily(c *column, v Value) *family {
	if v.s == "" {
		return c.body
	}
	unit := domain.Plural(v.s, v.n)
	fam, ok := c.units[unit]
	if !ok {
		if len(c.units) >= maxUnits {
			return c.body
		}
		if c.units == nil {
			c.units = map[string]*family{}
		}
		fam = w.st.family(unitGrouping(unit), false)
		c.units[unit] = fam
	}
	return fam
}

// finish writes what is still held, the totals row and the auto filter,
// and closes the sheet.
func (w *sheetWriter) finish(f *excelize.File) error {
	if !w.begun {
		if err := w.begin(); err != nil {
			return err
		}
	}
	if w.rows > 0 {
		if err := w.totals(); err != nil {
			return err
		}
	}
	last := w.cols[len(w.cols)-1].ref
	// The stream writer writes the auto filter when it is flushed, so
	// setting it on the sheet now, after the rows, is still in time.
	if err := f.AutoFilter(w.name, "A1:"+last+strconv.Itoa(w.rows+1), nil); err != nil {
		return fmt.Errorf("excel: sheet %q auto filter: %w", w.name, err)
	}
	if err := w.sw.Flush(); err != nil {
		return fmt.Errorf("excel: sheet %q: %w", w.name, err)
	}
	return nil
}

// totals writes the totals row: a SUM formula over the data of each summed
// column, carrying the total worked out while writing, so that viewers that
// do not recalculate show it too. "Total" goes in the first column that is
// not summed.
func (w *sheetWriter) totals() error {
	if !slices.ContainsFunc(w.cols, func(c column) bool { return c.Sum }) {
		return nil
	}
	r := w.rows + 2
	labelled := false
	for i := range w.cols {
		c := &w.cols[i]
		cell := &w.cells[i]
		*cell = excelize.Cell{StyleID: w.st.totalLabel}
		w.vals[i] = cell
		if !c.Sum {
			if !labelled {
				cell.Value, labelled = "Total", true
			}
			continue
		}
		if c.sum > MaxNumber || c.sum < -MaxNumber {
			return fmt.Errorf("excel: sheet %q column %q: the total %d is more than Excel holds exactly (15 digits)", w.name, c.Header, c.sum)
		}
		cell.Formula = fmt.Sprintf("SUM(%s2:%s%d)", c.ref, c.ref, r-1)
		scale := int64(1)
		if c.Kind == Money {
			cell.Value, scale = rupees(c.sum), 100
		} else {
			cell.Value = c.sum
		}
		var err error
		if cell.StyleID, err = w.st.number(c.total, c.sum, scale); err != nil {
			return err
		}
	}
	if err := w.sw.SetRow("A"+strconv.Itoa(r), w.vals); err != nil {
		return fmt.Errorf("excel: sheet %q totals: %w", w.name, err)
	}
	return nil
}
