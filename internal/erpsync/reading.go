package erpsync

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// Reading a query's rows: what rows may refer to (the books' customers
// and products, and the rows read so far), and each row mapped onto its
// entity's fields, checked, and kept or reported.

// names finds a customer id or SKU among those known, in the known
// spelling: exactly, else the one that differs only in case (as intake
// does).
type names struct {
	exact  map[string]bool
	folded map[string][]string
}

func newNames() *names { return &names{exact: map[string]bool{}, folded: map[string][]string{}} }

func (n *names) add(keys ...string) {
	for _, k := range keys {
		if k == "" || n.exact[k] {
			continue
		}
		n.exact[k] = true
		f := strings.ToLower(k)
		n.folded[f] = append(n.folded[f], k)
	}
}

func (n *names) find(s string) (string, bool) {
	if n.exact[s] {
		return s, true
	}
	if ks := n.folded[strings.ToLower(s)]; len(ks) == 1 {
		return ks[0], true
	}
	return "", false
}

func (n *names) list() []string {
	out := make([]string, 0, len(n.exact))
	for k := range n.exact {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// known is what rows may refer to: the books' customers and products
// (and, in --check, the mapping's own), and each product's GST rate for
// sales lines that do not map one.
type known struct {
	customers, skus *names
	gst             map[string]domain.GSTRate // by SKU, folded
	inBooks         map[string]bool           // customer ids of the books, folded
}

func newKnown() *known {
	return &known{customers: newNames(), skus: newNames(), gst: map[string]domain.GSTRate{}, inBooks: map[string]bool{}}
}

func (k *known) addProducts(ps []domain.Product) {
	for _, p := range ps {
		k.skus.add(p.SKU)
		if _, ok := k.gst[strings.ToLower(p.SKU)]; !ok {
			k.gst[strings.ToLower(p.SKU)] = p.GSTPercent
		}
	}
}

func (k *known) addCustomers(cs []domain.Customer, books bool) {
	for _, c := range cs {
		k.customers.add(c.ID)
		if books {
			k.inBooks[strings.ToLower(c.ID)] = true
		}
	}
}

// reading maps the rows of one entity's query as they come.
type reading struct {
	e      Entity
	spec   *EntitySpec
	loc    *time.Location
	known  *known
	layout *layout
	show   int // rows to keep for --check's table

	rows     int
	problems problems
	keys     []string // each row's key, by row number − 1
	latest   time.Time
	seen     map[string]int // folded key → the row that first had it
	shown    []map[string]string
	// columnsBad: the result lacks a mapped column, so no row is read.
	columnsBad bool

	productRows, customerRows []csvimport.TableRow
	noModes                   map[int]bool // customer rows without payment modes
	orderRows                 []intake.OrderRow
	orderKeys                 map[int]string
	paymentRows               []intake.PaymentRow
	stock                     []StockRow
	dues                      []DuesRow
	bills                     []Bill
	receipts                  []Receipt
}

// errColumns stops a query whose result lacks a mapped column.
var errColumns = errors.New("erpsync: the query's result lacks mapped columns")

func newReading(e Entity, spec *EntitySpec, loc *time.Location, k *known, show int) *reading {
	return &reading{e: e, spec: spec, loc: loc, known: k, show: show, seen: map[string]int{}, noModes: map[int]bool{}, orderKeys: map[int]string{}}
}

// add maps one row of the result.
func (rd *reading) add(cols []string, vals []any) error {
	if rd.layout == nil {
		l, ps := newLayout(rd.e, rd.spec, rd.loc, cols)
		rd.layout = l
		for _, p := range ps {
			rd.problems.add(p)
		}
		if len(ps) > 0 {
			rd.columnsBad = true
			return errColumns
		}
	}
	rd.rows++
	r := &row{l: rd.layout, n: rd.rows, vals: vals}
	if len(rd.shown) < rd.show {
		r.shown = map[string]string{}
	}
	r.key = rd.keyOf(r)
	rd.mapRow(r)
	if t, ok := r.changed(); ok && t.After(rd.latest) {
		rd.latest = t
	}
	rd.keys = append(rd.keys, r.key)
	for _, p := range r.problems {
		rd.problems.add(p)
	}
	if r.shown != nil {
		rd.shown = append(rd.shown, r.shown)
	}
	return nil
}

// keyOf reads what the row is known by, quietly: its fields are read
// again, with their problems, as the row is mapped.
func (rd *reading) keyOf(r *row) string {
	quiet := &row{l: r.l, n: r.n, vals: r.vals}
	var parts []string
	for _, k := range r.l.def.key {
		if _, mapped := r.l.spec.Fields[k]; !mapped {
			continue
		}
		if s := quiet.text(k); s != "" {
			parts = append(parts, s)
		}
	}
	if rd.e == Sales || rd.e == OpenOrders {
		if len(parts) == 2 {
			return parts[0] + " #" + parts[1]
		}
		if sku := quiet.text("sku"); sku != "" && len(parts) == 1 {
			return parts[0] + " " + sku
		}
	}
	return strings.Join(parts, " ")
}

// unique notes a key a row has already had.
func (rd *reading) unique(r *row, field, what, key string) bool {
	if key == "" {
		return true
	}
	f := strings.ToLower(key)
	if first, ok := rd.seen[f]; ok {
		r.bad(field, "duplicate %s %q (first on row %d)", what, key, first)
		return false
	}
	rd.seen[f] = r.n
	return true
}

// ref finds a customer or SKU the row names among those known.
func (rd *reading) ref(r *row, field, s string, in *names, what string) string {
	if s == "" {
		return ""
	}
	k, ok := in.find(s)
	if !ok {
		r.bad(field, "%q is not a %s in the books (sync %s first)", s, what, map[string]string{"customer": "customers", "product": "products"}[what])
		return ""
	}
	return k
}

func (rd *reading) mapRow(r *row) {
	switch rd.e {
	case Products:
		rd.product(r)
	case Customers:
		rd.customer(r)
	case Stock:
		sku := rd.ref(r, "sku", r.text("sku"), rd.known.skus, "product")
		ready, _ := r.qty("stock_ready")
		wip, hasWIP := r.qty("stock_wip")
		nonNegative(r, "stock_ready", ready)
		nonNegative(r, "stock_wip", wip)
		hasWIP = hasWIP || rd.spec.Maps("stock_wip")
		if rd.unique(r, "sku", "sku", sku) && len(r.problems) == 0 {
			rd.stock = append(rd.stock, StockRow{SKU: sku, Ready: ready, WIP: wip, HasWIP: hasWIP})
		}
	case Dues:
		id := rd.ref(r, "customer_id", r.text("customer_id"), rd.known.customers, "customer")
		due, _ := r.money("outstanding")
		limit, hasLimit := r.money("credit_limit")
		if due < 0 {
			r.bad("outstanding", "%s can't be negative: an advance is no dues (have the query give 0 for it)", due)
		}
		if limit < 0 {
			r.bad("credit_limit", "%s can't be negative", limit)
		}
		if rd.unique(r, "customer_id", "customer_id", id) && len(r.problems) == 0 {
			rd.dues = append(rd.dues, DuesRow{CustomerID: id, Outstanding: due, CreditLimit: limit, HasLimit: hasLimit || rd.spec.Maps("credit_limit")})
		}
	case Bills:
		no := r.keyText("bill_no")
		id := rd.ref(r, "customer_id", r.text("customer_id"), rd.known.customers, "customer")
		date := r.date("date")
		amount, _ := r.money("amount")
		balance, hasBalance := amount, true
		if rd.spec.Maps("balance") {
			balance, hasBalance = r.money("balance")
			if !hasBalance && len(r.problems) == 0 {
				r.empty("balance")
			}
		}
		if amount < 0 {
			r.bad("amount", "%s can't be negative (leave credit notes out of the query)", amount)
		}
		if balance < 0 {
			r.bad("balance", "%s can't be negative", balance)
		}
		if rd.unique(r, "bill_no", "bill_no", no) && len(r.problems) == 0 {
			rd.bills = append(rd.bills, Bill{Number: no, CustomerID: id, Date: date, Amount: amount, Balance: balance})
		}
	case Sales, OpenOrders:
		rd.orderLine(r)
	case Payments:
		p := intake.PaymentRow{Line: r.n, Date: r.date("date"), CustomerID: r.text("customer_id"), Reference: r.keyText("reference")}
		p.Amount, _ = r.money("amount")
		p.Mode = r.mode("mode")
		if p.Mode == "" && len(r.problems) == 0 {
			r.empty("mode")
		}
		if len(r.problems) > 0 {
			p.Unread = []string{unreadMark}
		}
		rd.paymentRows = append(rd.paymentRows, p)
	case Receipts:
		ref := r.keyText("reference")
		date := r.date("date")
		sku := rd.ref(r, "sku", r.text("sku"), rd.known.skus, "product")
		qty, ok := r.qty("qty")
		if ok && qty < 1 {
			r.bad("qty", "%d must be at least 1 base unit received", qty)
		}
		if rd.unique(r, "reference", "reference", ref) && len(r.problems) == 0 {
			rd.receipts = append(rd.receipts, Receipt{Reference: ref, SKU: sku, Qty: qty, Date: date})
		}
	}
}

func nonNegative(r *row, field string, q int64) {
	if q < 0 {
		r.bad(field, "%d can't be negative (stock is in base units from 0)", q)
	}
}
