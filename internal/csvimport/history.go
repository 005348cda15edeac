package csvimport

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Columns of the history files, as the contract fixes them.
var (
	OrderColumns   = []string{"order_id", "date", "customer_id", "sku", "qty", "price", "gst_percent", "status", "placed_by"}
	PaymentColumns = []string{"date", "customer_id", "amount", "mode", "reference"}
	// An ERP's bill number: "T-5531", "INV/2026-27/0042".
	orderIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_./#-]{0,39}$`)
	// History older than this, or dated past it, is a typing mistake.
	firstHistoryYear, lastHistoryYear = 2000, 2099
)

// maxReference is the longest payment reference (a UTR is 22 characters).
const maxReference = 64

// Books are what history rows may name: the customer ids and SKUs already
// in the books. A row naming anything else is a bad row.
type Books struct {
	Customers []string
	SKUs      []string
}

// names finds a key in the books: exactly, else the one key that differs
// only in case.
type names struct {
	exact  map[string]bool
	folded map[string][]string
}

func newNames(keys []string) names {
	n := names{exact: map[string]bool{}, folded: map[string][]string{}}
	for _, k := range keys {
		n.exact[k] = true
		n.folded[strings.ToLower(k)] = append(n.folded[strings.ToLower(k)], k)
	}
	return n
}

func (n names) find(s string) (string, bool) {
	if n.exact[s] {
		return s, true
	}
	if ks := n.folded[strings.ToLower(s)]; len(ks) == 1 {
		return ks[0], true
	}
	return "", false
}

// OrderHistory is an orders file: one order per order_id with its lines in
// file order, and the line each order starts on, by id, for reporting a
// row the books refuse.
type OrderHistory struct {
	Orders []domain.Order
	Line   map[string]int
}

// PaymentHistory is a payments file and the line of each payment.
type PaymentHistory struct {
	Payments []domain.Payment
	Line     []int
}

// ReadOrders reads an orders history file against the books, dates in loc.
// Rows with one order_id form one order and must agree on its date,
// customer, status and who placed it. Any bad row makes it return an *Error
// listing every problem, and no orders.
func ReadOrders(in io.Reader, books Books, loc *time.Location) (OrderHistory, error) {
	rd := &reader{file: "orders", columns: OrderColumns}
	customers, skus := newNames(books.Customers), newNames(books.SKUs)
	out := OrderHistory{Line: map[string]int{}}
	index := map[string]int{}       // order id, folded → position in out.Orders
	spelling := map[string]string{} // order id, folded → its first spelling
	refused := map[string]bool{}    // orders with a bad row
	err := rd.rows(in, func(r row) {
		o, l, problems := parseOrderRow(r, customers, skus, loc)
		key := strings.ToLower(o.ID)
		if o.ID != "" {
			if first, ok := spelling[key]; ok && first != o.ID {
				problems = append(problems, fmt.Sprintf("order_id %q is written %q on line %d; write it the same way on every row", o.ID, first, out.Line[first]))
			}
		}
		i, seen := index[key]
		if len(problems) == 0 && seen && !refused[key] {
			problems = disagreement(out.Orders[i], o, out.Line[out.Orders[i].ID])
		}
		for _, pr := range problems {
			rd.fail(r.line, "%s", pr)
		}
		if o.ID == "" {
			return
		}
		if len(problems) > 0 {
			refused[key] = true
		}
		if !seen {
			index[key], spelling[key] = len(out.Orders), o.ID
			out.Line[o.ID] = r.line
			out.Orders = append(out.Orders, o)
			i = index[key]
		}
		if len(problems) == 0 && !refused[key] {
			out.Orders[i].Lines = append(out.Orders[i].Lines, l)
		}
	})
	for i := range out.Orders {
		o := &out.Orders[i]
		for _, l := range o.Lines {
			o.Subtotal += l.Amount
			o.GST += l.GSTAmount
		}
		o.Total = o.Subtotal + o.GST
		if !refused[strings.ToLower(o.ID)] && o.Total > maxBalance {
			rd.fail(out.Line[o.ID], "order %s comes to %s, more than %s", o.ID, o.Total, maxBalance)
		}
	}
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return OrderHistory{}, err
	}
	return out, nil
}

// parseOrderRow reads one line of an order: the order as this row gives
// it (without lines) and the line.
func parseOrderRow(r row, customers, skus names, loc *time.Location) (domain.Order, domain.OrderLine, []string) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	o := domain.Order{ID: r.get("order_id")}
	if !orderIDPattern.MatchString(o.ID) {
		bad("order_id %q must be 1–40 letters, digits or _ . / # -", o.ID)
		o.ID = ""
	}
	o.CreatedAt = historyDate(r.get("date"), loc, bad)
	o.CommittedAt = o.CreatedAt
	o.CustomerID = known(customers, r.get("customer_id"), "customer_id", "customer", bad)
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
	l := domain.OrderLine{SKU: known(skus, r.get("sku"), "sku", "product", bad)}
	if q, err := wholeNumber(r.get("qty"), 1); err != nil || q > maxStock {
		bad("qty %q must be a whole number of base units from 1", r.get("qty"))
	} else {
		l.Qty = q
	}
	l.Price = money(r, "price", false, maxPrice, bad)
	l.GSTRate = gstRate(r.get("gst_percent"), bad)
	if len(problems) == 0 {
		l = domain.PriceLine(l)
		if l.Amount > maxBalance {
			bad("qty × price comes to %s, more than %s", l.Amount, maxBalance)
		}
	}
	return o, l, problems
}

// known finds a customer id or SKU in the books, in the books' spelling.
func known(in names, s, col, what string, bad func(string, ...any)) string {
	if s == "" {
		bad("%s is empty", col)
		return ""
	}
	k, ok := in.find(s)
	if !ok {
		bad("%s %q is not a %s in the books (import the %s file first)", col, s, what, map[string]string{"customer": "customers", "product": "catalog"}[what])
	}
	return k
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

// disagreement says how a later row of an order contradicts its first row.
func disagreement(first, o domain.Order, line int) []string {
	var out []string
	differ := func(col, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("order %s has %s %q here but %q on line %d; rows of one order must agree on it", o.ID, col, b, a, line))
		}
	}
	const shown = "2006-01-02 15:04"
	differ("date", first.CreatedAt.Format(shown), o.CreatedAt.Format(shown))
	differ("customer_id", first.CustomerID, o.CustomerID)
	differ("status", string(first.Status), string(o.Status))
	differ("placed_by", first.PlacedBy, o.PlacedBy)
	return out
}

// ReadPayments reads a payments history file against the books, dates in
// loc. A reference may appear once per customer (whatever its case); rows
// without one may repeat. Any bad row makes it return an *Error listing
// every problem, and no payments.
func ReadPayments(in io.Reader, books Books, loc *time.Location) (PaymentHistory, error) {
	rd := &reader{file: "payments", columns: PaymentColumns}
	customers := newNames(books.Customers)
	refs := map[string]int{} // customer and reference, folded → line
	var out PaymentHistory
	err := rd.rows(in, func(r row) {
		var problems []string
		bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
		p := domain.Payment{ReceivedAt: historyDate(r.get("date"), loc, bad)}
		p.CustomerID = known(customers, r.get("customer_id"), "customer_id", "customer", bad)
		if p.Amount = money(r, "amount", false, maxBalance, bad); p.Amount == 0 && r.get("amount") != "" && len(problems) == 0 {
			bad("amount %q must be more than zero", r.get("amount"))
		}
		mode, err := domain.ParsePaymentMode(r.get("mode"))
		if err != nil {
			bad("mode %q is not one of cod, credit, upi, cheque, bank_transfer", r.get("mode"))
		}
		p.Mode = mode
		p.Reference = r.get("reference")
		if utf8.RuneCountInString(p.Reference) > maxReference {
			bad("reference is longer than %d characters", maxReference)
		}
		for _, pr := range problems {
			rd.fail(r.line, "%s", pr)
		}
		if len(problems) > 0 {
			return
		}
		if p.Reference != "" {
			key := strings.ToLower(p.CustomerID + "\x00" + p.Reference)
			if first, ok := refs[key]; ok {
				rd.fail(r.line, "reference %q of %s is already on line %d (a reference is recorded once per customer)", p.Reference, p.CustomerID, first)
				return
			}
			refs[key] = r.line
		}
		out.Payments = append(out.Payments, p)
		out.Line = append(out.Line, r.line)
	})
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return PaymentHistory{}, err
	}
	return out, nil
}

// Refused names, by their lines, the orders of h that the books refused
// because Munshi made them itself; it returns err as it is when it is not
// a *domain.HistoryClash.
func (h OrderHistory) Refused(err error) error {
	clash, rd := clashOf(err, "orders")
	if clash == nil || len(clash.Orders) == 0 {
		return err
	}
	for _, id := range clash.Orders {
		rd.fail(h.Line[id], "order_id %q is an order Munshi made (or holds as a draft); history never overwrites it, so give it another id", id)
	}
	return rd.err()
}

// Refused names, by their lines, the payments of h that the books refused
// because Munshi recorded their reference with another amount or mode; it
// returns err as it is when it is not a *domain.HistoryClash.
func (h PaymentHistory) Refused(err error) error {
	clash, rd := clashOf(err, "payments")
	if clash == nil || len(clash.Payments) == 0 {
		return err
	}
	for _, i := range clash.Payments {
		if i < 0 || i >= len(h.Payments) {
			continue
		}
		p := h.Payments[i]
		rd.fail(h.Line[i], "reference %q of %s was recorded through Munshi with another amount or mode; history never overwrites it", p.Reference, p.CustomerID)
	}
	if e := rd.err(); e != nil {
		return e
	}
	return err
}

// clashOf is the *domain.HistoryClash in err (nil when there is none) and
// a reader to report its rows of file on.
func clashOf(err error, file string) (*domain.HistoryClash, *reader) {
	var clash *domain.HistoryClash
	if !errors.As(err, &clash) {
		return nil, nil
	}
	return clash, &reader{file: file}
}
