package excel

import (
	"fmt"
	"strconv"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/domain"
)

// Labels of the About sheet, in column A.
const (
	LabelWhat    = "What this file holds"
	LabelFrom    = "Period from"
	LabelTo      = "Period to"
	LabelAsOf    = "As of"
	LabelMadeAt  = "Made at" // followed by the time zone: "Made at (Asia/Kolkata)"
	LabelMadeBy  = "Made by"
	LabelMadeFor = "Made for"
	LabelSheets  = "Sheets"
	LabelNotes   = "Notes"
)

// The About sheet's layout.
const (
	noRows        = "no rows"
	defaultTitle  = "Munshi export"
	aboutColA     = 24
	aboutColB     = 90
	aboutFirstRow = 3 // after the title and a blank row
)

// aboutLine is one row of the About sheet: a label and a value (text,
// or a time shown as a date or date-time).
type aboutLine struct {
	label    string
	text     string
	at       time.Time
	withTime bool
	wrap     bool
}

// RowCount says how many rows a sheet has, as the About sheet does: "no
// rows", "1 row", "12,345 rows".
func RowCount(n int) string {
	if n == 0 {
		return noRows
	}
	return domain.GroupIndian(int64(n)) + " " + domain.Plural("row", int64(n))
}

// aboutLines is what the About sheet says, in order.
func aboutLines(a About, sheets []string, counts []int, loc *time.Location) []aboutLine {
	lines := []aboutLine{{label: LabelWhat, text: a.Description, wrap: true}}
	if a.Period.IsZero() {
		asOf := a.MadeAt
		if !a.SyncedAt.IsZero() {
			asOf = a.SyncedAt // the ERP's figures are as old as their sync
		}
		lines = append(lines, aboutLine{label: LabelAsOf, at: asOf, withTime: true})
	} else {
		if !a.Period.From.IsZero() {
			lines = append(lines, aboutLine{label: LabelFrom, at: a.Period.From})
		}
		if !a.Period.To.IsZero() {
			lines = append(lines, aboutLine{label: LabelTo, at: lastDay(a.Period.To, loc)})
		}
	}
	lines = append(lines,
		aboutLine{label: LabelMadeAt + " (" + loc.String() + ")", at: a.MadeAt, withTime: true},
		aboutLine{label: LabelMadeBy, text: madeBy(a)})
	if a.MadeFor != "" {
		lines = append(lines, aboutLine{label: LabelMadeFor, text: a.MadeFor})
	}
	lines = append(lines, aboutLine{})
	for i, name := range sheets {
		label := ""
		if i == 0 {
			label = LabelSheets
		}
		lines = append(lines, aboutLine{label: label, text: name + ": " + RowCount(counts[i])})
	}
	if len(a.Notes) > 0 {
		lines = append(lines, aboutLine{})
	}
	for i, note := range a.Notes {
		label := ""
		if i == 0 {
			label = LabelNotes
		}
		lines = append(lines, aboutLine{label: label, text: note, wrap: true})
	}
	return lines
}

// lastDay is the last day of a period ending at to (exclusive): the day
// before when to is a local midnight.
func lastDay(to time.Time, loc *time.Location) time.Time {
	t := to.In(loc)
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.AddDate(0, 0, -1)
	}
	return t
}

// writeAbout writes the About sheet: the title, then a label and a value a
// row.
func writeAbout(f *excelize.File, st *styles, name string, a About, sheets []string, counts []int, loc *time.Location) error {
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return fmt.Errorf("excel: about sheet: %w", err)
	}
	// Last to first: see sheetWriter.begin.
	if err := sw.SetColWidth(2, 2, aboutColB); err != nil {
		return fmt.Errorf("excel: about sheet: %w", err)
	}
	if err := sw.SetColWidth(1, 1, aboutColA); err != nil {
		return fmt.Errorf("excel: about sheet: %w", err)
	}
	title := cleanText(a.Title, false)
	if title == "" {
		title = defaultTitle
	}
	if err := sw.SetRow("A1", []any{excelize.Cell{StyleID: st.title, Value: title}}); err != nil {
		return fmt.Errorf("excel: about sheet: %w", err)
	}
	for i, line := range aboutLines(a, sheets, counts, loc) {
		row, err := line.cells(st, loc)
		if err != nil {
			return err
		}
		if err := sw.SetRow("A"+strconv.Itoa(aboutFirstRow+i), row); err != nil {
			return fmt.Errorf("excel: about sheet: %w", err)
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("excel: about sheet: %w", err)
	}
	return nil
}

func (l aboutLine) cells(st *styles, loc *time.Location) ([]any, error) {
	var label any // nil: no cell
	if l.label != "" {
		label = excelize.Cell{StyleID: st.label, Value: l.label}
	}
	if !l.at.IsZero() {
		code := dateFormat
		if l.withTime {
			code = dateTimeFormat
		}
		n, ok := serial(l.at, loc, l.withTime)
		if !ok {
			return []any{label, excelize.Cell{StyleID: st.text, Value: l.at.In(loc).Format(time.RFC3339)}}, nil
		}
		id, err := st.format(code, false)
		if err != nil {
			return nil, err
		}
		return []any{label, excelize.Cell{StyleID: id, Value: n}}, nil
	}
	text := cleanText(l.text, l.wrap)
	if text == "" {
		return []any{label}, nil
	}
	return []any{label, excelize.Cell{StyleID: st.textStyle(text, l.wrap), Value: text}}, nil
}
