package erpsync

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// Each entity's rows as the books take them: a catalog or customer row as
// the import files' columns (so csvimport and intake judge them by the
// same rules), and the figures and history as the books' own types.

// unreadMark stands, in a row given to intake, for problems this package
// reported itself: the row's order is refused, and the mark is not
// reported twice.
const unreadMark = "\x00erpsync"

// product reads a catalog row as the catalog file's columns, for
// csvimport to judge by the catalog's rules.
func (rd *reading) product(r *row) {
	cells := []string{r.text("sku"), r.text("name"), strings.Join(r.list("aliases"), "|"), r.text("unit"), ""}
	price, _ := r.money("price")
	cells = append(cells, rupeesText(price))
	gst, _ := r.percent("gst_percent")
	cells = append(cells, rateText(gst))
	for _, f := range []string{"stock_ready", "stock_wip"} {
		q, ok := r.qty(f)
		if ok {
			cells = append(cells, strconv.FormatInt(q, 10))
		} else {
			cells = append(cells, "")
		}
	}
	if len(r.problems) == 0 {
		rd.productRows = append(rd.productRows, csvimport.TableRow{Line: r.n, Cells: cells})
	}
}

// customer reads a customer row as the customers file's columns.
func (rd *reading) customer(r *row) {
	cells := []string{r.text("id"), r.text("name"), strings.Join(r.list("aliases"), "|"), r.phone("phone"), r.text("segment")}
	limit, _ := r.money("credit_limit")
	due, _ := r.money("outstanding")
	cells = append(cells, rupeesText(limit), rupeesText(due))
	modes := r.modes("payment_modes")
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	if len(names) == 0 {
		// The catalog's rules want a mode; which this customer gets is
		// decided once the rows are taken (withModes).
		rd.noModes[r.n] = true
		names = []string{string(domain.PayCOD)}
	}
	cells = append(cells, strings.Join(names, "|"))
	if len(r.problems) == 0 {
		rd.customerRows = append(rd.customerRows, csvimport.TableRow{Line: r.n, Cells: cells})
	}
}

// orderLine reads a line of a sale or an open order as intake's order
// row. An order may hold an SKU once, unless line tells its lines apart.
func (rd *reading) orderLine(r *row) {
	o := intake.OrderRow{Line: r.n, OrderID: r.text("order_id"), Date: r.date("date"), CustomerID: r.text("customer_id"), SKU: r.text("sku")}
	line := r.text("line")
	o.Qty, _ = r.qty("qty")
	if o.Qty < 1 && len(r.problems) == 0 {
		r.bad("qty", "%d must be at least 1 base unit (leave returns out of the query)", o.Qty)
	}
	o.Price, _ = r.money("price")
	switch {
	case o.Price < 0:
		r.bad("price", "%s can't be negative", o.Price)
	case o.Price > maxPrice:
		r.bad("price", "%s is more than %s (the price is for one base unit)", o.Price, maxPrice)
	}
	if g, ok := r.percent("gst_percent"); ok {
		o.GSTRate = g
	} else if !rd.spec.Maps("gst_percent") {
		o.GSTRate = rd.known.gst[strings.ToLower(o.SKU)]
	}
	o.Status = r.status("status")
	if o.Status == "" && len(r.problems) == 0 {
		r.empty("status")
	}
	o.PlacedBy = r.phone("placed_by")
	key, what := line, "line"
	if key == "" {
		key, what = o.SKU, "sku"
	}
	if o.OrderID != "" && key != "" {
		lk := o.OrderID + "\x00" + key
		if !rd.unique(r, what, fmt.Sprintf("%s of order %s", what, o.OrderID), lk) {
			// unique named the folded key; say it plainly.
			last := &r.problems[len(r.problems)-1]
			last.Reason = fmt.Sprintf("order %s has %s %q twice (first on row %d)%s", o.OrderID, what, key, rd.seen[strings.ToLower(lk)],
				map[string]string{"sku": "; map line to tell its lines apart", "line": ""}[what])
		}
	}
	if len(r.problems) > 0 {
		o.Unread = []string{unreadMark}
	}
	rd.orderRows = append(rd.orderRows, o)
}

func rupeesText(p domain.Paise) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s%d.%02d", sign, p/100, p%100)
}

func rateText(g domain.GSTRate) string { return fmt.Sprintf("%d.%02d", g/100, g%100) }

// taken is what a read of an entity's rows came to: the records to write,
// or the problems that refuse them all.
type taken struct {
	rows      int
	products  []domain.Product
	customers []domain.Customer
	stock     []StockRow
	dues      []DuesRow
	bills     []Bill
	orders    []domain.Order
	payments  []domain.Payment
	receipts  []Receipt
	latest    time.Time
}

// finish judges the rows as a whole (the catalog's and intake's rules)
// and returns what they came to, or the problems.
func (rd *reading) finish() (taken, problems) {
	t := taken{rows: rd.rows, latest: rd.latest, stock: rd.stock, dues: rd.dues, bills: rd.bills, receipts: rd.receipts}
	if rd.columnsBad {
		return t, rd.problems
	}
	switch rd.e {
	case Products:
		ps, err := csvimport.ReadCatalogTable(rd.table(csvimport.CatalogColumns, rd.productRows))
		rd.refused(err)
		t.products = ps
	case Customers:
		cs, err := csvimport.ReadCustomersTable(rd.table(csvimport.CustomerColumns, rd.customerRows))
		rd.refused(err)
		t.customers = rd.withModes(cs)
	case Sales, OpenOrders:
		ks := intake.Known{Customers: rd.known.customers.list(), SKUs: rd.known.skus.list()}
		h, err := intake.BuildOrders(intake.Rows[intake.OrderRow]{Source: source, Rows: rd.orderRows}, ks)
		rd.refused(err)
		t.orders = h.Orders
	case Payments:
		ks := intake.Known{Customers: rd.known.customers.list()}
		h, err := intake.BuildPayments(intake.Rows[intake.PaymentRow]{Source: source, Rows: rd.paymentRows}, ks)
		rd.refused(err)
		t.payments = h.Payments
	}
	// In row order, whoever found them.
	slices.SortStableFunc(rd.problems.list, func(a, b Problem) int { return a.Row - b.Row })
	return t, rd.problems
}

func (rd *reading) table(cols []string, rows []csvimport.TableRow) csvimport.Table {
	return csvimport.Table{Source: source, Name: string(rd.e), Header: cols, HeaderLine: 0, Rows: rows}
}

// refused adds the problems of a refusal by csvimport or intake, each at
// its row, leaving out what this package reported itself.
func (rd *reading) refused(err error) {
	if err == nil {
		return
	}
	var ref *intake.Refusal
	if !errors.As(err, &ref) {
		rd.problems.add(Problem{Entity: rd.e, Reason: err.Error()})
		return
	}
	mine := map[string]bool{} // row and field of the problems already noted
	for _, p := range rd.problems.list {
		mine[fmt.Sprint(p.Row, p.Field)] = true
	}
	for _, p := range ref.Problems {
		if p.Reason == unreadMark {
			continue
		}
		pr := Problem{Entity: rd.e, Row: p.Line, Reason: erpWords.Replace(p.Reason)}
		if p.Line > 0 && p.Line <= len(rd.keys) {
			pr.Key = rd.keys[p.Line-1]
		}
		// The catalog's and intake's reasons start with the field they
		// are about ("price \"-5.00\" can't be negative").
		if f, _, ok := strings.Cut(pr.Reason, " "); ok {
			if _, known := entityDefs[rd.e].field(f); known {
				pr.Field, pr.Column = f, rd.columnOf(f)
				pr.Reason = strings.TrimPrefix(pr.Reason, f+" ")
			}
		}
		if pr.Field != "" && mine[fmt.Sprint(pr.Row, pr.Field)] {
			continue
		}
		rd.problems.add(pr)
	}
	for range ref.More {
		rd.problems.add(Problem{Entity: rd.e, Reason: "another bad row"})
	}
}

// erpWords puts the files' words of intake's and csvimport's reasons in
// the ERP's.
var erpWords = strings.NewReplacer(" on line ", " on row ",
	"(import the customers file first)", "(sync customers first)",
	"(import the catalog file first)", "(sync products first)")

func (rd *reading) columnOf(field string) string {
	if fs := rd.spec.Fields[field]; fs != nil {
		return fs.Column
	}
	return ""
}

// withModes gives a customer the ERP gave no payment modes what the books
// hold (an empty list keeps them), or, new to the books, every mode.
func (rd *reading) withModes(cs []domain.Customer) []domain.Customer {
	if len(rd.noModes) == 0 {
		return cs
	}
	without := map[string]bool{}
	for _, r := range rd.customerRows {
		if rd.noModes[r.Line] {
			without[strings.ToLower(r.Cells[0])] = true
		}
	}
	for i := range cs {
		id := strings.ToLower(cs[i].ID)
		if !without[id] {
			continue
		}
		if rd.known.inBooks[id] {
			cs[i].PaymentModes = nil
		} else {
			cs[i].PaymentModes = slices.Clone(domain.PaymentModes)
		}
	}
	return cs
}
