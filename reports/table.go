package reports

import (
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// A Table is the rows an answer is made of, typed, so that a chart, a
// spreadsheet or the WhatsApp text all show the same figures: a report's
// Table holds the page of rows its text shows, with the totals of the
// whole answer.
type Table struct {
	Title   string  // what the answer is, in words, without WhatsApp marks
	Period  *Period // the period summed, for sales; nil otherwise
	Columns []Column
	Rows    [][]Cell // one Cell per column
	Totals  []Total  // of the whole answer, not only of these rows
	Offset  int      // where Rows start in the whole answer
	Count   int      // rows in the whole answer
}

// ColumnKind is what a column holds, and so which field of its cells.
type ColumnKind string

const (
	ColText     ColumnKind = "text"     // Cell.Text
	ColMoney    ColumnKind = "money"    // Cell.Money, in paise
	ColQuantity ColumnKind = "quantity" // Cell.N base units of Cell.Unit (packs in Cell.Packs)
	ColCount    ColumnKind = "count"    // Cell.N
	ColDate     ColumnKind = "date"     // Cell.Date, in the business's zone
	ColDays     ColumnKind = "days"     // Cell.N whole days
)

// Column is one column of a Table.
type Column struct {
	Key   string // stable, for code: "outstanding"
	Title string // for people: "Outstanding"
	Kind  ColumnKind
}

// Cell is one typed value; its column's kind says which field holds it.
type Cell struct {
	Text  string
	Money domain.Paise
	N     int64
	Unit  string
	Packs []domain.PackSize // a quantity's packs, to say it in cartons too
	Date  time.Time
	Empty bool // no value: a sale by product has no order count of its own
}

// Total is one figure of the whole answer.
type Total struct {
	Column      // what it is and its kind
	Value  Cell // the figure
}

// Cells of each kind.
func textCell(s string) Cell                        { return Cell{Text: s} }
func moneyCell(p domain.Paise) Cell                 { return Cell{Money: p} }
func countCell[T int | int64](n T) Cell             { return Cell{N: int64(n)} }
func daysCell(n int) Cell                           { return Cell{N: int64(n)} }
func dateCell(t time.Time, loc *time.Location) Cell { return Cell{Date: t.In(loc)} }
func qtyCell(n int64, unit string, packs []domain.PackSize) Cell {
	return Cell{N: n, Unit: unit, Packs: packs}
}

// Column returns the index of the column with key, or -1.
func (t Table) Column(key string) int {
	for i, c := range t.Columns {
		if c.Key == key {
			return i
		}
	}
	return -1
}

// Total returns the total with key.
func (t Table) Total(key string) (Cell, bool) {
	for _, tot := range t.Totals {
		if tot.Key == key {
			return tot.Value, true
		}
	}
	return Cell{}, false
}

// Table is the table of the result's report as it was rendered; empty when
// the call was refused or failed.
func (r Result) Table() Table {
	if r.Report == nil {
		return Table{}
	}
	return r.Report.Table(r.at.now, r.at.loc)
}
