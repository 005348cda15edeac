package excel

import (
	"cmp"
	"iter"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// FileName is the name an export carries: the stem in lower case with
// anything but letters, digits and hyphens made a hyphen, and the local
// date: outstanding-2026-11-30.xlsx.
func FileName(stem string, at time.Time, loc *time.Location) string {
	if loc == nil {
		loc = kolkata
	}
	stem = nonName.ReplaceAllString(strings.ToLower(stem), "-")
	stem = strings.Trim(cutUnits(strings.Trim(stem, "-"), 40), "-")
	if stem == "" {
		stem = "munshi"
	}
	return stem + "-" + at.In(loc).Format("2006-01-02") + ".xlsx"
}

var nonName = regexp.MustCompile(`[^a-z0-9]+`)

// rows turns a stream of typed rows into Rows, filling one reused Row per
// row.
func rows[T any](src iter.Seq2[T, error], width int, fill func(Row, T)) Rows {
	return func(yield func(Row, error) bool) {
		row := make(Row, width)
		for item, err := range src {
			if err != nil {
				yield(nil, err)
				return
			}
			clear(row)
			fill(row, item)
			if !yield(row, nil) {
				return
			}
		}
	}
}

// withDefaults fills an About's title and description when reports left
// them empty.
func withDefaults(a About, title, description string) About {
	if a.Title == "" {
		a.Title = title
	}
	if a.Description == "" {
		a.Description = description
	}
	return a
}

// report is a workbook of one data sheet, with a default title and
// description for its About sheet.
func report(about About, title, description, sheet string, cols []Column, rows Rows) Workbook {
	return Workbook{About: withDefaults(about, title, description), Sheets: []Sheet{{Name: sheet, Columns: cols, Rows: rows}}}
}

// DueRow is one customer's dues, as reports' outstanding tool finds them.
type DueRow struct {
	CustomerID  string
	Customer    string
	Outstanding domain.Paise
	CreditLimit domain.Paise
	// OldestBill is the oldest unpaid bill's order number, OldestBillDate
	// its date and OldestBillAgeDays its age as reports counts it; all
	// empty when nothing is owed or no credit order is on record.
	OldestBill        string
	OldestBillDate    time.Time
	OldestBillAgeDays int
	// BeforeRecords: part of the due is older than the oldest bill Munshi
	// knows (an opening balance).
	BeforeRecords bool
	// Provisional is what the chat recorded as paid that the ERP's books
	// do not show yet (already off Outstanding).
	Provisional domain.Paise
}

// Outstanding is the dues export: one row per customer, with headroom
// (credit limit − outstanding, negative when over the limit) and the age of
// the oldest unpaid bill, and totals of the money columns.
func Outstanding(about About, dues iter.Seq2[DueRow, error]) Workbook {
	cols := []Column{
		{Header: "Customer", Kind: Text},
		{Header: "Customer ID", Kind: Text},
		{Header: "Outstanding", Kind: Money, Sum: true},
		{Header: "Credit limit", Kind: Money, Sum: true},
		{Header: "Headroom", Kind: Money, Sum: true},
		{Header: "Oldest unpaid bill age", Kind: Days},
		{Header: "Oldest bill date", Kind: Date},
		{Header: "Oldest bill", Kind: Text},
		{Header: "Note", Kind: Text},
	}
	return report(about, "Outstanding dues",
		"What each customer owes, their credit limit and headroom (limit minus outstanding), and the oldest unpaid bill. Payments settle the oldest bills first.",
		"Outstanding", cols, rows(dues, len(cols), func(r Row, d DueRow) {
			r[0], r[1] = Str(d.Customer), Str(d.CustomerID)
			r[2], r[3], r[4] = Amount(d.Outstanding), Amount(d.CreditLimit), Amount(d.CreditLimit-d.Outstanding)
			if !d.OldestBillDate.IsZero() {
				r[5], r[6], r[7] = Int(int64(d.OldestBillAgeDays)), Time(d.OldestBillDate), Str(d.OldestBill)
			}
			var notes []string
			switch {
			case d.Outstanding < 0:
				notes = append(notes, "Paid "+(-d.Outstanding).String()+" in advance (shown as a negative outstanding).")
			case d.BeforeRecords:
				notes = append(notes, "Part of this is older than Munshi's records (an opening balance).")
			}
			if d.Provisional > 0 {
				notes = append(notes, d.Provisional.String()+" paid here, not yet in the books.")
			}
			if len(notes) > 0 {
				r[8] = Str(strings.Join(notes, " "))
			}
		}))
}

// PendingOrderRow is an order waiting for approval or for delivery.
type PendingOrderRow struct {
	OrderID  string
	PlacedAt time.Time
	Customer string
	PlacedBy string // a name or a phone number
	Status   string // as people read it: "Awaiting approval", "To deliver"
	Lines    int
	Items    string // "GC500 × 120, PH1L × 24"
	Total    domain.Paise
}

// PendingOrders is the open orders export, with the total value.
func PendingOrders(about About, orders iter.Seq2[PendingOrderRow, error]) Workbook {
	cols := []Column{
		{Header: "Order", Kind: Text},
		{Header: "Placed at", Kind: DateTime},
		{Header: "Customer", Kind: Text},
		{Header: "Placed by", Kind: Text},
		{Header: "Status", Kind: Text},
		{Header: "Lines", Kind: Integer, Sum: true},
		{Header: "Items", Kind: Text},
		{Header: "Total with GST", Kind: Money, Sum: true},
	}
	return report(about, "Pending orders",
		"Orders waiting for an owner's approval, then orders committed and waiting for delivery, oldest first.",
		"Pending orders", cols, rows(orders, len(cols), func(r Row, o PendingOrderRow) {
			r[0], r[1], r[2], r[3] = Str(o.OrderID), Time(o.PlacedAt), Str(o.Customer), Str(o.PlacedBy)
			r[4], r[5], r[6], r[7] = Str(o.Status), Int(int64(o.Lines)), Str(o.Items), Amount(o.Total)
		}))
}

// SaleLine is one order line of a sale.
type SaleLine struct {
	Date       time.Time
	OrderID    string
	CustomerID string
	Customer   string
	SKU        string
	Product    string
	Qty        int64 // base units
	Unit       string
	Rate       domain.Paise // per base unit
	Amount     domain.Paise // before GST
	GSTRate    domain.GSTRate
	GST        domain.Paise
}

// Total is the line's amount with GST.
func (l SaleLine) Total() domain.Paise { return l.Amount + l.GST }

// Sales is the sales export for a period: one row per order line, then a
// summary by product and one by customer, each with totals. The summaries
// add up the lines as they are written, so all three sheets agree to the
// paisa; they hold one row per product and per customer, never the lines.
// The summaries live in the Workbook, so write one Sales workbook at a time.
func Sales(about About, lines iter.Seq2[SaleLine, error]) Workbook {
	products := &summary{}
	customers := &summary{}
	cols := []Column{
		{Header: "Date", Kind: Date},
		{Header: "Order", Kind: Text},
		{Header: "Customer", Kind: Text},
		{Header: "SKU", Kind: Text},
		{Header: "Product", Kind: Text},
		{Header: "Qty", Kind: Quantity},
		{Header: "Unit", Kind: Text},
		{Header: "Rate", Kind: Money},
		{Header: "Amount", Kind: Money, Sum: true},
		{Header: "GST %", Kind: Percent},
		{Header: "GST", Kind: Money, Sum: true},
		{Header: "Total", Kind: Money, Sum: true},
	}
	lineRows := rows(lines, len(cols), func(r Row, l SaleLine) {
		products.add(l.SKU, l.Product, l.Unit, l)
		customers.add(cmp.Or(l.CustomerID, l.Customer), l.Customer, "", l)
		r[0], r[1], r[2], r[3], r[4] = Time(l.Date), Str(l.OrderID), Str(l.Customer), Str(l.SKU), Str(l.Product)
		r[5], r[6], r[7], r[8] = Qty(l.Qty, ""), Str(l.Unit), Amount(l.Rate), Amount(l.Amount)
		r[9], r[10], r[11] = Pct(int64(l.GSTRate)), Amount(l.GST), Amount(l.Total())
	})
	byProduct := []Column{
		{Header: "SKU", Kind: Text},
		{Header: "Product", Kind: Text},
		{Header: "Unit", Kind: Text},
		{Header: "Qty", Kind: Quantity},
		{Header: "Lines", Kind: Integer, Sum: true},
		{Header: "Amount", Kind: Money, Sum: true},
		{Header: "GST", Kind: Money, Sum: true},
		{Header: "Total", Kind: Money, Sum: true},
	}
	byCustomer := []Column{
		{Header: "Customer ID", Kind: Text},
		{Header: "Customer", Kind: Text},
		{Header: "Lines", Kind: Integer, Sum: true},
		{Header: "Amount", Kind: Money, Sum: true},
		{Header: "GST", Kind: Money, Sum: true},
		{Header: "Total", Kind: Money, Sum: true},
	}
	return Workbook{
		About: withDefaults(about, "Sales",
			"Every order line of committed and delivered orders in the period, then the same sales summed by product and by customer. Amounts are before GST; Total is with GST."),
		Sheets: []Sheet{
			{Name: "Sales lines", Columns: cols, Rows: func(yield func(Row, error) bool) {
				products.reset()
				customers.reset()
				lineRows(yield)
			}},
			{Name: "By product", Columns: byProduct, Rows: products.rows(len(byProduct), func(r Row, g *group) {
				r[0], r[1], r[2], r[3] = Str(g.key), Str(g.name), Str(g.unit), Qty(g.qty, "")
				r[4], r[5], r[6], r[7] = Int(g.lines), Amount(g.amount), Amount(g.gst), Amount(g.amount+g.gst)
			})},
			{Name: "By customer", Columns: byCustomer, Rows: customers.rows(len(byCustomer), func(r Row, g *group) {
				r[0], r[1], r[2] = Str(g.key), Str(g.name), Int(g.lines)
				r[3], r[4], r[5] = Amount(g.amount), Amount(g.gst), Amount(g.amount+g.gst)
			})},
		},
	}
}

// summary adds sale lines up by a key (a SKU, a customer).
type summary struct {
	groups map[string]*group
}

type group struct {
	key, name, unit string
	qty, lines      int64
	amount, gst     domain.Paise
}

func (s *summary) reset() { s.groups = map[string]*group{} }

func (s *summary) add(key, name, unit string, l SaleLine) {
	if s.groups == nil {
		s.reset()
	}
	g, ok := s.groups[key]
	if !ok {
		g = &group{key: key, name: name, unit: unit}
		s.groups[key] = g
	}
	g.qty += l.Qty
	g.lines++
	g.amount += l.Amount
	g.gst += l.GST
}

// rows streams the groups, largest amount first (then by key), as reports'
// sales summaries are ordered.
func (s *summary) rows(width int, fill func(Row, *group)) Rows {
	return func(yield func(Row, error) bool) {
		groups := make([]*group, 0, len(s.groups))
		for _, g := range s.groups {
			groups = append(groups, g)
		}
		slices.SortFunc(groups, func(a, b *group) int {
			return cmp.Or(cmp.Compare(b.amount, a.amount), cmp.Compare(a.key, b.key))
		})
		rows(Slice(groups), width, fill)(yield)
	}
}

// StockRow is one product's stock in base units.
type StockRow struct {
	SKU       string
	Product   string
	Unit      string
	Ready     int64 // in the godown
	Committed int64 // to open orders
	WIP       int64 // in production
	Price     domain.Paise
}

// Stock is the stock list: ready, committed, available (ready −
// committed), in production, the price per unit and the value of the ready
// stock at that price, with the total value.
func Stock(about About, items iter.Seq2[StockRow, error]) Workbook {
	cols := []Column{
		{Header: "SKU", Kind: Text},
		{Header: "Product", Kind: Text},
		{Header: "Unit", Kind: Text},
		{Header: "Ready", Kind: Quantity},
		{Header: "Committed", Kind: Quantity},
		{Header: "Available", Kind: Quantity},
		{Header: "In production", Kind: Quantity},
		{Header: "Price per unit", Kind: Money},
		{Header: "Value of ready stock", Kind: Money, Sum: true},
	}
	return report(about, "Stock list",
		"Every product's stock in base units: ready in the godown, committed to open orders, available (ready minus committed) and in production, with the list price before GST and the value of the ready stock at that price.",
		"Stock", cols, rows(items, len(cols), func(r Row, s StockRow) {
			r[0], r[1], r[2] = Str(s.SKU), Str(s.Product), Str(s.Unit)
			r[3], r[4], r[5], r[6] = Qty(s.Ready, ""), Qty(s.Committed, ""), Qty(s.Ready-s.Committed, ""), Qty(s.WIP, "")
			r[7], r[8] = Amount(s.Price), stockValue(s.Ready, s.Price)
		}))
}

// stockValue is ready × price, or a value Write refuses as too large when
// the product would overflow.
func stockValue(ready int64, price domain.Paise) Value {
	v := ready * int64(price)
	if ready != 0 && v/ready != int64(price) {
		return Amount(domain.Paise(MaxNumber + 1)) // overflow: Write reports it
	}
	return Amount(domain.Paise(v))
}
