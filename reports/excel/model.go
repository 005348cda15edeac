package excel

import (
	"iter"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Kind is what a column holds; it decides the cell type, the number format
// and how a value is read.
type Kind int

const (
	Text     Kind = iota // text, written as a text cell whatever it says
	Integer              // a count, with Indian digit grouping
	Quantity             // base units, grouped, with the value's unit after it when it has one
	Money                // domain.Paise, shown as ₹ with Indian grouping and two decimals
	Percent              // hundredths of a percent (1800 = 18.00%), like domain.GSTRate
	Date                 // a local calendar date
	DateTime             // a local date and time, to the minute
	Days                 // a whole number of days ("45 days")
)

func (k Kind) String() string {
	switch k {
	case Text:
		return "text"
	case Integer:
		return "integer"
	case Quantity:
		return "quantity"
	case Money:
		return "money"
	case Percent:
		return "percent"
	case Date:
		return "date"
	case DateTime:
		return "date-time"
	case Days:
		return "days"
	}
	return "unknown"
}

// article is the kind with "a" or "an" before it, for error messages.
func (k Kind) article() string {
	if k == Integer {
		return "an " + k.String()
	}
	return "a " + k.String()
}

// numeric reports whether the kind's values are numbers (Int, Amount, Qty,
// Pct).
func (k Kind) numeric() bool {
	switch k {
	case Integer, Quantity, Money, Percent, Days:
		return true
	}
	return false
}

// summable reports whether a totals row may add the kind up.
func (k Kind) summable() bool { return k == Integer || k == Quantity || k == Money }

// Column is one column of a sheet.
type Column struct {
	Header string
	Kind   Kind
	// Sum adds the column up in a totals row under the data (integer,
	// quantity and money columns only). Quantities are only worth summing
	// when every row has the same unit.
	Sum bool
	// Width in Excel's character units; 0 works it out from the header and
	// the first SampleRows rows.
	Width float64
}

// Row is one row of values, in column order. A shorter row leaves the
// remaining cells empty. Write does not keep a Row after the iterator's
// yield returns, so a producer may reuse one slice for every row.
type Row []Value

// Rows is a stream of rows, or an error that stops the file: reports pages
// through the books and yields as it goes.
type Rows = iter.Seq2[Row, error]

// Sheet is one sheet of data.
type Sheet struct {
	// Name is the tab's name; characters Excel forbids are replaced, it is
	// cut to 31 characters and made unique.
	Name    string
	Columns []Column
	// Rows are read once, when Write reaches this sheet; sheets are written
	// in order, so a sheet's rows may be worked out from an earlier sheet's.
	// Nil means no rows.
	Rows Rows
}

// Workbook is a file to write: the data sheets, in order, and an About sheet
// after them.
type Workbook struct {
	Sheets []Sheet
	About  About
	// Location is the time zone of dates and of the About sheet's "made
	// at"; nil means Asia/Kolkata.
	Location *time.Location
}

// About is what the About sheet says: what the file holds, for which
// period, when it was made, by and for whom, how many rows each sheet has,
// and free notes.
type About struct {
	Title       string // "Outstanding dues"; also the file's document title
	Description string // what the file holds, in a sentence or two
	// Period is what the data covers; the zero Period means "as of" the
	// time the file was made.
	Period Period
	// SyncedAt is when figures the ERP owns were last synced from it: the
	// file's "As of" then, not the time it was made. Zero when Munshi
	// keeps the figures itself.
	SyncedAt time.Time
	MadeAt   time.Time // zero means now
	MadeBy   string    // "" means Munshi
	MadeFor  string    // who asked: "Vikram Singh (owner)"
	Notes    []string
}

// Period is a span of time [From, To), as reports' periods are. The About
// sheet shows the last day as the day before To when To is a local
// midnight.
type Period struct {
	From, To time.Time
}

// IsZero reports whether the period is unset.
func (p Period) IsZero() bool { return p.From.IsZero() && p.To.IsZero() }

// valueKind is what a Value holds.
type valueKind uint8

const (
	blank valueKind = iota
	textValue
	numberValue
	timeValue
)

// Value is one cell's value. Build it with Str, Int, Amount, Qty, Pct or
// Time; the zero Value is an empty cell. How a number is read (paise,
// base units, hundredths of a percent) is the column's Kind.
type Value struct {
	kind valueKind
	n    int64
	s    string // text, or a quantity's unit
	t    time.Time
}

// Str is a text value.
func Str(s string) Value { return Value{kind: textValue, s: s} }

// Int is a whole number: a count, base units, days.
func Int(n int64) Value { return Value{kind: numberValue, n: n} }

// Amount is an amount of money in paise.
func Amount(p domain.Paise) Value { return Value{kind: numberValue, n: int64(p)} }

// Qty is a quantity in base units; a Quantity column shows the unit after
// the number ("120 bottles") when unit is not empty.
func Qty(n int64, unit string) Value { return Value{kind: numberValue, n: n, s: unit} }

// Pct is a percentage in hundredths of a percent: Pct(1800) is 18%.
func Pct(hundredths int64) Value { return Value{kind: numberValue, n: hundredths} }

// Time is a date or date-time value; the zero time is an empty cell.
func Time(t time.Time) Value {
	if t.IsZero() {
		return Value{}
	}
	return Value{kind: timeValue, t: t}
}

// Slice streams rows held in a slice, for callers that already have them.
func Slice[T any](rows []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
	}
}
