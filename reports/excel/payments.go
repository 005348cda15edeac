package excel

import (
	"iter"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// PaymentRow is one payment received.
type PaymentRow struct {
	ReceivedAt time.Time
	CustomerID string
	Customer   string
	Mode       string // as people read it: "UPI", "cash", "bank transfer"
	Reference  string
	Amount     domain.Paise
	Imported   bool // from history files
}

// PaymentGroupRow is the payments of one customer, one mode or one day,
// as reports' payments tool sums them.
type PaymentGroupRow struct {
	Key       string    // customer id, or the mode as people read it
	Name      string    // the customer's name
	Day       time.Time // grouped by day
	Payments  int
	Customers int    // grouped by mode or by day
	Modes     string // grouped by customer or by day: "cash, UPI"
	Amount    domain.Paise
	Last      time.Time // grouped by customer: the latest payment
}

// How the groups of a payments export are made.
const (
	PaymentsByCustomer = "customer"
	PaymentsByMode     = "mode"
	PaymentsByDay      = "day"
)

// PaymentsReceived is the payments export for a period: a sheet of the
// groups the answer showed (by customer, mode or day, as by says; none
// when by is empty) with their totals, then every payment. reports makes
// both from the same query of the books, so they agree to the paisa.
func PaymentsReceived(about About, by string, groups iter.Seq2[PaymentGroupRow, error], payments iter.Seq2[PaymentRow, error]) Workbook {
	about = withDefaults(about, "Payments received",
		"The payments received in the period, recorded through Munshi or imported from history files: summed as the answer showed them, then each payment.")
	var sheets []Sheet
	received := Column{Header: "Received", Kind: Money, Sum: true}
	count := Column{Header: "Payments", Kind: Integer, Sum: true}
	switch by {
	case PaymentsByCustomer:
		cols := []Column{{Header: "Customer", Kind: Text}, {Header: "Customer ID", Kind: Text}, count,
			{Header: "Modes", Kind: Text}, received, {Header: "Last payment", Kind: Date}}
		sheets = append(sheets, Sheet{Name: "By customer", Columns: cols, Rows: rows(groups, len(cols), func(r Row, g PaymentGroupRow) {
			r[0], r[1], r[2], r[3], r[4], r[5] = Str(g.Name), Str(g.Key), Int(int64(g.Payments)), Str(g.Modes), Amount(g.Amount), Time(g.Last)
		})})
	case PaymentsByMode:
		cols := []Column{{Header: "Mode", Kind: Text}, count, {Header: "Customers", Kind: Integer}, received}
		sheets = append(sheets, Sheet{Name: "By mode", Columns: cols, Rows: rows(groups, len(cols), func(r Row, g PaymentGroupRow) {
			r[0], r[1], r[2], r[3] = Str(g.Key), Int(int64(g.Payments)), Int(int64(g.Customers)), Amount(g.Amount)
		})})
	case PaymentsByDay:
		cols := []Column{{Header: "Day", Kind: Date}, count, {Header: "Customers", Kind: Integer}, {Header: "Modes", Kind: Text}, received}
		sheets = append(sheets, Sheet{Name: "By day", Columns: cols, Rows: rows(groups, len(cols), func(r Row, g PaymentGroupRow) {
			r[0], r[1], r[2], r[3], r[4] = Time(g.Day), Int(int64(g.Payments)), Int(int64(g.Customers)), Str(g.Modes), Amount(g.Amount)
		})})
	}
	cols := []Column{
		{Header: "Received on", Kind: DateTime},
		{Header: "Customer", Kind: Text},
		{Header: "Customer ID", Kind: Text},
		{Header: "Mode", Kind: Text},
		{Header: "Reference", Kind: Text},
		{Header: "Amount", Kind: Money, Sum: true},
		{Header: "Note", Kind: Text},
	}
	sheets = append(sheets, Sheet{Name: "Payments", Columns: cols, Rows: rows(payments, len(cols), func(r Row, p PaymentRow) {
		r[0], r[1], r[2], r[3], r[4], r[5] = Time(p.ReceivedAt), Str(p.Customer), Str(p.CustomerID), Str(p.Mode), Str(p.Reference), Amount(p.Amount)
		if p.Imported {
			r[6] = Str("Imported history")
		}
	})})
	return Workbook{About: about, Sheets: sheets}
}
