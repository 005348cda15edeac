package erpsync

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// source names the ERP in the refusals intake and csvimport make of its
// rows.
const source = "erp"

// maxKeyChars bounds a bill number or a reference.
const maxKeyChars = 64

// maxPrice (₹1 crore a base unit) is the catalog's bound on a price.
const maxPrice domain.Paise = 1_00_00_000_00

// layout is where a query's result puts the mapping's fields.
type layout struct {
	entity Entity
	spec   *EntitySpec
	def    entityDef
	loc    *time.Location
	cols   []string
	index  map[string]int // field → its column's position; absent: no column
	since  int            // the since column's position; -1 when not incremental
}

// newLayout finds each mapped column in the result, an exact match first,
// else the one that differs only in case.
func newLayout(e Entity, spec *EntitySpec, loc *time.Location, cols []string) (*layout, []Problem) {
	l := &layout{entity: e, spec: spec, def: entityDefs[e], loc: loc, cols: cols, index: map[string]int{}, since: -1}
	var out []Problem
	find := func(field, col string) int {
		if i := slices.Index(cols, col); i >= 0 {
			return i
		}
		found := -1
		for i, c := range cols {
			if strings.EqualFold(c, col) {
				if found >= 0 {
					out = append(out, Problem{Entity: e, Field: field, Column: col, Reason: fmt.Sprintf("the query returns both %s and %s; name one exactly", cols[found], c)})
					return -1
				}
				found = i
			}
		}
		if found < 0 {
			out = append(out, Problem{Entity: e, Field: field, Column: col,
				Reason: fmt.Sprintf("the query returns no such column (it returns %s)", shortList(cols, 12))})
		}
		return found
	}
	for _, f := range l.def.fields {
		fs := spec.Fields[f.name]
		if fs == nil || fs.Column == "" {
			continue
		}
		if i := find(f.name, fs.Column); i >= 0 {
			l.index[f.name] = i
		}
	}
	if spec.Incremental() {
		l.since = find("since", spec.Since.Column)
	}
	return l, out
}

func shortList(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(", … (%d in all)", len(xs))
}

// column names a field's column, for problems.
func (l *layout) column(field string) string {
	if field == "since" && l.spec.Since != nil {
		return l.spec.Since.Column
	}
	if fs := l.spec.Fields[field]; fs != nil {
		return fs.Column
	}
	return ""
}

// row reads one row's fields, noting what is wrong with them.
type row struct {
	l        *layout
	n        int
	vals     []any
	key      string
	problems []Problem
	shown    map[string]string // the fields as read, for --check's table; nil: not kept
}

func (r *row) bad(field, format string, args ...any) {
	r.problems = append(r.problems, Problem{Entity: r.l.entity, Row: r.n, Key: r.key, Field: field, Column: r.l.column(field),
		Reason: fmt.Sprintf(format, args...)})
}

func (r *row) show(field, s string) {
	if r.shown != nil {
		r.shown[field] = s
	}
}

// value is a field's value: its column's, with text transformed and
// mapped through values; the default when that is null or empty; nil
// when there is neither. ok is false when a problem was noted.
func (r *row) value(field string) (v any, ok bool) {
	fs := r.l.spec.Fields[field]
	if fs == nil {
		return nil, true
	}
	f, _ := r.l.def.field(field)
	if i, has := r.l.index[field]; has && i < len(r.vals) {
		v = r.vals[i]
	}
	_, isText := v.(string)
	_, isBytes := v.([]byte)
	if v != nil && (isText || isBytes || !f.kind.numeric() && f.kind != kindDate) {
		s, err := textOf(v)
		if err != nil {
			r.bad(field, "%v", err)
			return nil, false
		}
		s = transform(s, fs.Transform)
		if f.kind != kindModes {
			s = lookup(fs.Values, s)
		}
		v = s
	}
	if v == nil || v == "" {
		if fs.Default == "" {
			return nil, true
		}
		return fs.Default, true
	}
	return v, true
}

// lookup maps s through values: exactly, else whatever its case.
func lookup(values map[string]string, s string) string {
	if len(values) == 0 || s == "" {
		return s
	}
	if to, ok := values[s]; ok {
		return to
	}
	for from, to := range values {
		if strings.EqualFold(from, s) {
			return to
		}
	}
	return s
}

// empty notes a required field with nothing in it.
func (r *row) empty(field string) {
	if col := r.l.column(field); col != "" {
		r.bad(field, "is empty (the column is null or blank, and the field has no default)")
	} else {
		r.bad(field, "is empty")
	}
}

func (r *row) required(field string) bool {
	f, _ := r.l.def.field(field)
	return f.required
}

// text reads a text field: one line of visible text.
func (r *row) text(field string) string {
	v, ok := r.value(field)
	if !ok {
		return ""
	}
	s, _ := v.(string)
	s = strings.TrimSpace(s)
	if s == "" {
		if r.required(field) {
			r.empty(field)
		}
		return ""
	}
	for _, c := range s {
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' || unicode.Is(unicode.Cf, c) && c != '\u200d' && c != '\u200c' {
			r.bad(field, "%q holds the invisible or control character %U", s, c)
			return ""
		}
	}
	if len(s) > csvimport.MaxFieldBytes {
		r.bad(field, "is longer than %d bytes", csvimport.MaxFieldBytes)
		return ""
	}
	r.show(field, s)
	return s
}

// keyText reads a bill number or a reference: at most 64 characters.
func (r *row) keyText(field string) string {
	s := r.text(field)
	if utf8.RuneCountInString(s) > maxKeyChars {
		r.bad(field, "%q is longer than %d characters", s, maxKeyChars)
		return ""
	}
	return s
}

func (r *row) list(field string) []string {
	return splitList(r.text(field))
}

// readField reads field with conv and shows it as show writes it; has is
// false when the field is empty or bad. An empty required field is a
// problem when asks says so.
func readField[T any](r *row, field string, asks bool, conv func(any) (T, error), show func(T) string) (x T, has bool) {
	v, ok := r.value(field)
	if !ok {
		return x, false
	}
	if v == nil {
		if asks && r.required(field) {
			r.empty(field)
		}
		return x, false
	}
	x, err := conv(v)
	if err != nil {
		r.bad(field, "%v", err)
		return x, false
	}
	r.show(field, show(x))
	return x, true
}

// money reads an amount; has is false when the field is empty.
func (r *row) money(field string) (domain.Paise, bool) {
	return readField(r, field, true, func(v any) (domain.Paise, error) { return readMoney(v, r.l.spec.Fields[field].Money) },
		domain.Paise.String)
}

// qty reads a quantity in base units.
func (r *row) qty(field string) (int64, bool) {
	return readField(r, field, true, func(v any) (int64, error) { return readQty(v, r.l.spec.Fields[field].Factor) },
		func(q int64) string { return strconv.FormatInt(q, 10) })
}

// percent reads a GST rate; an empty one is left to the default.
func (r *row) percent(field string) (domain.GSTRate, bool) {
	return readField(r, field, false, readPercent, domain.GSTRate.String)
}

func (r *row) date(field string) time.Time {
	t, _ := readField(r, field, true, func(v any) (time.Time, error) { return readDate(v, r.l.loc) },
		func(t time.Time) string { return t.Format("2006-01-02 15:04") })
	return t
}

func (r *row) phone(field string) string {
	s := r.text(field)
	if s == "" {
		return ""
	}
	p, err := readPhone(s)
	if err != nil {
		r.bad(field, "%v", err)
		return ""
	}
	r.show(field, p)
	return p
}

func (r *row) mode(field string) domain.PaymentMode {
	s := r.text(field)
	if s == "" {
		return ""
	}
	m, err := domain.ParsePaymentMode(s)
	if err != nil {
		r.bad(field, "%q is not a payment mode: cod, credit, upi, cheque or bank_transfer (map the ERP's under values)", s)
		return ""
	}
	return m
}

// modes reads a list of payment modes, each mapped through values.
func (r *row) modes(field string) []domain.PaymentMode {
	fs := r.l.spec.Fields[field]
	if fs == nil {
		return nil
	}
	s := r.text(field)
	var out []domain.PaymentMode
	for _, part := range splitModes(lookup(fs.Values, s)) {
		for _, m := range splitModes(lookup(fs.Values, part)) {
			mode, err := domain.ParsePaymentMode(m)
			if err != nil {
				r.bad(field, "%q is not a payment mode: cod, credit, upi, cheque or bank_transfer (map the ERP's under values)", m)
				return nil
			}
			if !slices.Contains(out, mode) {
				out = append(out, mode)
			}
		}
	}
	if len(out) > 0 {
		names := make([]string, len(out))
		for i, m := range out {
			names[i] = string(m)
		}
		r.show(field, strings.Join(names, "|"))
	}
	return out
}

func (r *row) status(field string) domain.OrderStatus {
	s := r.text(field)
	if s == "" {
		return ""
	}
	st, err := parseStatus(s)
	if err != nil {
		r.bad(field, "%v", err)
		return ""
	}
	r.show(field, string(st))
	return st
}

// changed reads the since column: when the row last changed.
func (r *row) changed() (time.Time, bool) {
	if r.l.since < 0 || r.l.since >= len(r.vals) || r.vals[r.l.since] == nil {
		return time.Time{}, false
	}
	v := r.vals[r.l.since]
	if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
		return time.Time{}, false
	}
	t, err := readDate(v, r.l.loc)
	if err != nil {
		r.bad("since", "%v", err)
		return time.Time{}, false
	}
	return t, true
}

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
