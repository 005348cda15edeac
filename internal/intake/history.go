package intake

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// MaxBalance (₹1,000 crore) bounds any sum of money a row may bring: a
// line, an order, a payment, a credit limit or dues. It keeps every total
// of the books far from overflowing.
const MaxBalance domain.Paise = 1_000_00_00_000_00

var (
	// An ERP's bill number: "T-5531", "INV/2026-27/0042".
	orderIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_./#-]{0,39}$`)
)

// maxReference is the longest payment reference (a UTR is 22 characters).
const maxReference = 64

// OrderRow is one line of a past order as a source read it.
type OrderRow struct {
	Line       int // where the source found it: the refusal report names it
	OrderID    string
	Date       time.Time // in the business's time zone
	CustomerID string    // as written: found in the books whatever its case
	SKU        string    // likewise
	Qty        int64     // base units
	Price      domain.Paise
	GSTRate    domain.GSTRate
	Status     domain.OrderStatus
	PlacedBy   string // E.164, or empty
	// Unread says what the source could not read in the row's fields; such
	// a row refuses its order.
	Unread []string
}

// PaymentRow is one past payment as a source read it.
type PaymentRow struct {
	Line       int
	Date       time.Time
	CustomerID string // as written
	Amount     domain.Paise
	Mode       domain.PaymentMode
	Reference  string // once per customer, whatever its case; may be empty
	Unread     []string
}

func (r OrderRow) line() int   { return r.Line }
func (r PaymentRow) line() int { return r.Line }

// Rows are what a source read of one file, tab or table, in its order.
type Rows[R interface{ line() int }] struct {
	Source string // who read them, as the refusal report names it
	Rows   []R
	// Unreadable are the rows the source could not read at all, in line
	// order: the report lists them among the others, at their place. A
	// source keeps the first MaxProblems of them and counts the rest in
	// MoreUnreadable.
	Unreadable     []Problem
	MoreUnreadable int
}

// each calls do for every row and reports each unreadable row at its place.
func (rs Rows[R]) each(bad *Refusals, do func(R)) {
	u := rs.Unreadable
	for _, r := range rs.Rows {
		for len(u) > 0 && u[0].Line <= r.line() {
			bad.Add(u[0].Line, "%s", u[0].Reason)
			u = u[1:]
		}
		do(r)
	}
	for _, p := range u {
		bad.Add(p.Line, "%s", p.Reason)
	}
	// Past the first MaxProblems unreadable rows the report lists no more.
	bad.more += rs.MoreUnreadable
}

// Known are what history rows may name: the customer ids and SKUs already
// in the books. A row naming anything else is a bad row.
type Known struct {
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

// OrderHistory is past orders: one per order_id with its lines in row
// order, and the line each order starts on, by id, for naming an order
// the books refuse.
type OrderHistory struct {
	Orders []domain.Order
	Line   map[string]int
}

// PaymentHistory is past payments and the line of each.
type PaymentHistory struct {
	Payments []domain.Payment
	Line     []int
}

// BuildOrders checks order rows against the books and builds the orders
// they form. Rows with one order_id form one order and must agree on its
// date, customer, status and who placed it. Any bad row makes it return a
// *Refusal listing every problem, and no orders.
func BuildOrders(rows Rows[OrderRow], k Known) (OrderHistory, error) {
	var bad Refusals
	customers, skus := newNames(k.Customers), newNames(k.SKUs)
	out := OrderHistory{Line: map[string]int{}}
	index := map[string]int{}       // order id, folded → position in out.Orders
	spelling := map[string]string{} // order id, folded → its first spelling
	refused := map[string]bool{}    // orders with a bad row
	rows.each(&bad, func(r OrderRow) {
		o, l, problems := orderOf(r, customers, skus)
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
			bad.Add(r.Line, "%s", pr)
		}
		if o.ID == "" {
			return
		}
		if len(problems) > 0 {
			refused[key] = true
		}
		if !seen {
			index[key], spelling[key] = len(out.Orders), o.ID
			out.Line[o.ID] = r.Line
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
		if !refused[strings.ToLower(o.ID)] && o.Total > MaxBalance {
			bad.Add(out.Line[o.ID], "order %s comes to %s, more than %s", o.ID, o.Total, MaxBalance)
		}
	}
	if err := bad.Err(rows.Source, "orders"); err != nil {
		return OrderHistory{}, err
	}
	return out, nil
}

// orderOf checks one order row: the order as this row gives it (without
// lines), the line, priced, and what is wrong with the row.
func orderOf(r OrderRow, customers, skus names) (domain.Order, domain.OrderLine, []string) {
	problems := slices.Clone(r.Unread)
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	o := domain.Order{ID: r.OrderID, CreatedAt: r.Date, CommittedAt: r.Date, Status: r.Status, PlacedBy: r.PlacedBy}
	if !orderIDPattern.MatchString(o.ID) {
		bad("order_id %q must be 1–40 letters, digits or _ . / # -", o.ID)
		o.ID = ""
	}
	o.CustomerID = known(customers, r.CustomerID, "customer_id", "customer", bad)
	l := domain.OrderLine{SKU: known(skus, r.SKU, "sku", "product", bad), Qty: r.Qty, Price: r.Price, GSTRate: r.GSTRate}
	if len(problems) == 0 {
		l = domain.PriceLine(l)
		if l.Amount > MaxBalance {
			bad("qty × price comes to %s, more than %s", l.Amount, MaxBalance)
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

// BuildPayments checks payment rows against the books. A reference may
// appear once per customer (whatever its case); rows without one may
// repeat. Any bad row makes it return a *Refusal listing every problem,
// and no payments.
func BuildPayments(rows Rows[PaymentRow], k Known) (PaymentHistory, error) {
	var bad Refusals
	customers := newNames(k.Customers)
	refs := map[string]int{} // customer and reference, folded → line
	var out PaymentHistory
	rows.each(&bad, func(r PaymentRow) {
		problems := slices.Clone(r.Unread)
		add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
		p := domain.Payment{ReceivedAt: r.Date, Amount: r.Amount, Mode: r.Mode, Reference: r.Reference}
		p.CustomerID = known(customers, r.CustomerID, "customer_id", "customer", add)
		if p.Amount <= 0 && len(problems) == 0 {
			add("amount %s must be more than zero", p.Amount)
		}
		if utf8.RuneCountInString(p.Reference) > maxReference {
			add("reference is longer than %d characters", maxReference)
		}
		for _, pr := range problems {
			bad.Add(r.Line, "%s", pr)
		}
		if len(problems) > 0 {
			return
		}
		if p.Reference != "" {
			key := strings.ToLower(p.CustomerID + "\x00" + p.Reference)
			if first, ok := refs[key]; ok {
				bad.Add(r.Line, "reference %q of %s is already on line %d (a reference is recorded once per customer)", p.Reference, p.CustomerID, first)
				return
			}
			refs[key] = r.Line
		}
		out.Payments = append(out.Payments, p)
		out.Line = append(out.Line, r.Line)
	})
	if err := bad.Err(rows.Source, "payments"); err != nil {
		return PaymentHistory{}, err
	}
	return out, nil
}

// refused names, by their lines, the orders of h that the books refused
// because Munshi made them itself; it returns err as it is when it is not
// a *domain.HistoryClash.
func (h OrderHistory) refused(source string, err error) error {
	var clash *domain.HistoryClash
	if !errors.As(err, &clash) || len(clash.Orders) == 0 {
		return err
	}
	var bad Refusals
	for _, id := range clash.Orders {
		bad.Add(h.Line[id], "order_id %q is an order Munshi made (or holds as a draft); history never overwrites it, so give it another id", id)
	}
	return bad.Err(source, "orders")
}

// refused names, by their lines, the payments of h that the books refused
// because Munshi recorded their reference with another amount or mode; it
// returns err as it is when it is not a *domain.HistoryClash.
func (h PaymentHistory) refused(source string, err error) error {
	var clash *domain.HistoryClash
	if !errors.As(err, &clash) || len(clash.Payments) == 0 {
		return err
	}
	var bad Refusals
	for _, i := range clash.Payments {
		if i < 0 || i >= len(h.Payments) {
			continue
		}
		p := h.Payments[i]
		bad.Add(h.Line[i], "reference %q of %s was recorded through Munshi with another amount or mode; history never overwrites it", p.Reference, p.CustomerID)
	}
	if e := bad.Err(source, "payments"); e != nil {
		return e
	}
	return err
}
