package csvimport

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// Columns of the history files, as the contract fixes them.
var (
	OrderColumns   = []string{"order_id", "date", "customer_id", "sku", "qty", "price", "gst_percent", "status", "placed_by"}
	PaymentColumns = []string{"date", "customer_id", "amount", "mode", "reference"}
	// History older than this, or dated past it, is a typing mistake.
	firstHistoryYear, lastHistoryYear = 2000, 2099
)

// ReadOrders reads an orders history file into rows for intake, dates in
// loc. A row whose fields cannot be read carries what is wrong with them;
// a row that cannot be read at all is among the Unreadable. A file that
// cannot be read as CSV of the contract's columns makes it return an
// *Error, and no rows.
func ReadOrders(in io.Reader, loc *time.Location) (intake.Rows[intake.OrderRow], error) {
	out := intake.Rows[intake.OrderRow]{Source: source}
	rd := &reader{file: "orders", columns: OrderColumns, unread: &out.Unreadable, more: &out.MoreUnreadable}
	err := rd.rows(in, func(r row) { out.Rows = append(out.Rows, orderRow(r, loc)) })
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return intake.Rows[intake.OrderRow]{}, err
	}
	return out, nil
}

// orderRow reads the fields of one line of an order.
func orderRow(r row, loc *time.Location) intake.OrderRow {
	o := intake.OrderRow{Line: r.line, OrderID: r.get("order_id"), CustomerID: r.get("customer_id"), SKU: r.get("sku")}
	bad := func(format string, args ...any) { o.Unread = append(o.Unread, fmt.Sprintf(format, args...)) }
	o.Date = historyDate(r.get("date"), loc, bad)
	switch st := domain.OrderStatus(strings.ToLower(r.get("status"))); st {
	case domain.OrderCommitted, domain.OrderDelivered, domain.OrderCancelled:
		o.Status = st
	default:
		bad("status %q must be committed, delivered or cancelled", r.get("status"))
	}
	if by := r.get("placed_by"); by != "" {
		phone, err := domain.ParsePhone(by)
		if err != nil {
			bad("placed_by: %v", err)
		}
		o.PlacedBy = phone
	}
	if q, err := wholeNumber(r.get("qty"), 1); err != nil || q > maxStock {
		bad("qty %q must be a whole number of base units from 1", r.get("qty"))
	} else {
		o.Qty = q
	}
	o.Price = money(r, "price", false, maxPrice, bad)
	o.GSTRate = gstRate(r.get("gst_percent"), bad)
	return o
}

// gstRate reads a GST percentage, two decimals at most: "18", "2.5%".
func gstRate(s string, bad func(string, ...any)) domain.GSTRate {
	if s == "" {
		bad("gst_percent is empty (the line's GST rate, such as 18)")
		return 0
	}
	rate, err := domain.ParseRupees(strings.TrimSuffix(s, "%")) // the same two-decimal reading
	if err != nil || rate < 0 || rate > 10000 {
		bad("gst_percent %q must be a percentage from 0 to 100", s)
		return 0
	}
	return domain.GSTRate(rate)
}

// historyDate reads YYYY-MM-DD or YYYY-MM-DDTHH:MM (a space for the T as
// spreadsheets write it) in loc.
func historyDate(s string, loc *time.Location, bad func(string, ...any)) time.Time {
	for _, layout := range []string{time.DateOnly, "2006-01-02T15:04", "2006-01-02 15:04"} {
		t, err := time.ParseInLocation(layout, s, loc)
		if err != nil {
			continue
		}
		if t.Year() < firstHistoryYear || t.Year() > lastHistoryYear {
			bad("date %q must be between %d and %d", s, firstHistoryYear, lastHistoryYear)
			return time.Time{}
		}
		return t
	}
	bad("date %q must be YYYY-MM-DD or YYYY-MM-DDTHH:MM", s)
	return time.Time{}
}

// ReadPayments reads a payments history file into rows for intake, dates
// in loc, as ReadOrders reads orders.
func ReadPayments(in io.Reader, loc *time.Location) (intake.Rows[intake.PaymentRow], error) {
	out := intake.Rows[intake.PaymentRow]{Source: source}
	rd := &reader{file: "payments", columns: PaymentColumns, unread: &out.Unreadable, more: &out.MoreUnreadable}
	err := rd.rows(in, func(r row) {
		p := intake.PaymentRow{Line: r.line, CustomerID: r.get("customer_id"), Reference: r.get("reference")}
		bad := func(format string, args ...any) { p.Unread = append(p.Unread, fmt.Sprintf(format, args...)) }
		p.Date = historyDate(r.get("date"), loc, bad)
		p.Amount = money(r, "amount", false, maxBalance, bad)
		mode, err := domain.ParsePaymentMode(r.get("mode"))
		if err != nil {
			bad("mode %q is not one of cod, credit, upi, cheque, bank_transfer", r.get("mode"))
		}
		p.Mode = mode
		out.Rows = append(out.Rows, p)
	})
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return intake.Rows[intake.PaymentRow]{}, err
	}
	return out, nil
}
