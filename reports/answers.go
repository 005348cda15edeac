package reports

import (
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Report is what a tool returns: one of *StockCheck, *CatalogStock,
// *OutOfStock, *Dues, *PendingOrders, *Sales or *OrderStatus. Each renders itself for
// WhatsApp and snapshots itself for a model.
type Report interface {
	// Rows is how many rows the tool returned.
	Rows() int
	// view gives the head lines, the row lines, where the rows start in the
	// whole answer and how many rows the whole answer has.
	view(c clock) (head, rows []string, offset, total int)
	// table gives the columns, the rows and the totals for a model.
	table(c clock) (columns []string, rows [][]any, totals map[string]any)
	// Table is the typed table the text is made from, at now in loc (ages
	// in days count from now): what a chart or a spreadsheet shows.
	Table(now time.Time, loc *time.Location) Table
}

// clock is when and where an answer is rendered.
type clock struct {
	now        time.Time
	loc        *time.Location
	staleAfter map[string]time.Duration // see Tools.StaleAfter
}

func (c clock) age(t time.Time) int { return ageDays(t, c.now, c.loc) }

// asOf is when a figure was synced: "10:42" today, else "13 Mar 10:42".
func (c clock) asOf(t time.Time) string {
	t, now := t.In(c.loc), c.now.In(c.loc)
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04")
	}
	return t.Format("2 Jan 15:04")
}

// Figures the ERP may own, as Tools.StaleAfter names them.
const (
	figureStock = "stock"
	figureDues  = "dues"
)

// stale says when a figure the ERP owns was synced, if that is long
// enough ago to say: older than its StaleAfter, or always without one.
// False for a figure Munshi keeps itself (at is zero).
func (c clock) stale(figure string, at time.Time) (string, bool) {
	if at.IsZero() {
		return "", false
	}
	if d, ok := c.staleAfter[figure]; ok && d > 0 && c.now.Sub(at) <= d {
		return "", false
	}
	return c.asOf(at), true
}

// StockCheck is the stock of named products and, when a quantity was asked
// about, whether it can be committed.
type StockCheck struct {
	Lines []StockLine
	Asked int64 // base units asked about; 0 when none
}

// CanCommit reports whether the quantity asked about is available: one
// product, and no more than ready minus committed.
func (s *StockCheck) CanCommit() bool {
	return len(s.Lines) == 1 && s.Asked > 0 && s.Asked <= s.Lines[0].Available()
}

func (s *StockCheck) Rows() int { return len(s.Lines) }

func (s *StockCheck) view(c clock) ([]string, []string, int, int) {
	if len(s.Lines) != 1 {
		var rows []string
		for _, row := range s.Table(c.now, c.loc).Rows {
			rows = append(rows, stockText(row, true))
		}
		return []string{"*Stock*"}, rows, 0, len(rows)
	}
	l := s.Lines[0]
	var head []string
	if s.Asked > 0 {
		asked := Quantity(s.Asked, l.Unit, l.Packs)
		if s.CanCommit() {
			head = append(head, fmt.Sprintf("✅ Yes: %s of %s can be committed.", asked, l.Name))
		} else {
			head = append(head, fmt.Sprintf("❌ Not from stock: %s of %s asked, %s available (short by %s).",
				asked, l.Name, Units(max(l.Available(), 0), l.Unit), Units(s.Asked-max(l.Available(), 0), l.Unit)))
			if l.WIP > 0 {
				head = append(head, fmt.Sprintf("%s more are in production.", Units(l.WIP, l.Unit)))
			}
		}
		head = append(head, "")
	}
	head = append(head,
		fmt.Sprintf("*%s* (%s)", l.Name, l.SKU),
		"Ready: "+Quantity(l.Ready, l.Unit, l.Packs),
		"Committed to open orders: "+Quantity(l.Committed, l.Unit, l.Packs),
	)
	if a := l.Available(); a >= 0 {
		head = append(head, "Available: "+Quantity(a, l.Unit, l.Packs))
	} else {
		head = append(head, fmt.Sprintf("Available: none (%s more committed than ready)", Units(-a, l.Unit)))
	}
	head = append(head, "In production: "+Quantity(l.WIP, l.Unit, l.Packs))
	if l.Provisional > 0 {
		head = append(head, fmt.Sprintf("Recorded here, not yet in the books: %s received", Units(l.Provisional, l.Unit)))
	} else if l.Provisional < 0 {
		head = append(head, fmt.Sprintf("Recorded here, not yet in the books: %s delivered", Units(-l.Provisional, l.Unit)))
	}
	if at, ok := c.stale(figureStock, l.AsOf); ok {
		head = append(head, "Stock as of "+at)
	}
	return head, nil, 0, 0
}

func (s *StockCheck) table(clock) ([]string, [][]any, map[string]any) {
	totals := map[string]any{}
	if s.Asked > 0 {
		totals["asked"] = s.Asked
		totals["can_commit"] = s.CanCommit()
		if len(s.Lines) == 1 {
			l := s.Lines[0]
			totals["asked_in_packs"] = Packs(s.Asked, l.Unit, l.Packs)
			if !s.CanCommit() {
				totals["short_by"] = s.Asked - max(l.Available(), 0)
			}
		}
	}
	return stockColumns, stockTable(s.Lines), totals
}

var stockColumns = []string{"sku", "name", "unit", "ready", "committed", "available", "in_production", "available_in_packs"}

func stockTable(lines []StockLine) [][]any {
	rows := make([][]any, len(lines))
	for i, l := range lines {
		rows[i] = []any{l.SKU, l.Name, l.Unit, l.Ready, l.Committed, l.Available(), l.WIP, Packs(max(l.Available(), 0), l.Unit, l.Packs)}
	}
	return rows
}

// CatalogStock is the whole catalog's stock: totals and one page of
// products by name.
type CatalogStock struct {
	Totals StockTotals
	Lines  []StockLine
	Offset int
}

func (s *CatalogStock) Rows() int { return len(s.Lines) }

func (s *CatalogStock) view(c clock) ([]string, []string, int, int) {
	t := s.Totals
	head := []string{fmt.Sprintf("*Stock*: %s products, %s ready at list price", count(t.Products), t.ReadyValue)}
	if at, ok := c.stale(figureStock, t.AsOf); ok {
		head[0] += " (as of " + at + ")"
	}
	if t.OutOfStock > 0 {
		line := fmt.Sprintf("⚠️ %s out of stock", count(t.OutOfStock))
		if t.Oversold > 0 {
			line += fmt.Sprintf(", %s oversold", count(t.Oversold))
		}
		head = append(head, line+" (ask \"out of stock\" for the list)")
	}
	head = append(head, "")
	var rows []string
	for _, row := range s.Table(c.now, c.loc).Rows {
		rows = append(rows, stockText(row, false))
	}
	return head, rows, s.Offset, t.Products
}

func (s *CatalogStock) table(clock) ([]string, [][]any, map[string]any) {
	t := s.Totals
	return stockColumns, stockTable(s.Lines), map[string]any{
		"products": t.Products, "out_of_stock": t.OutOfStock, "oversold": t.Oversold,
		"ready_value_at_list_price": t.ReadyValue.String(),
	}
}

// OutOfStock lists the products with nothing available.
type OutOfStock struct {
	Count  int
	Lines  []StockLine
	Offset int
}

func (s *OutOfStock) Rows() int { return len(s.Lines) }

func (s *OutOfStock) view(c clock) ([]string, []string, int, int) {
	if s.Count == 0 {
		return []string{"Nothing is out of stock. 👍"}, nil, 0, 0
	}
	head := []string{fmt.Sprintf("*Out of stock*: %s %s with nothing available", count(s.Count), domain.Plural("product", int64(s.Count))), ""}
	var rows []string
	for _, row := range s.Table(c.now, c.loc).Rows {
		ready, committed, wip := row[2], row[3], row[5]
		r := fmt.Sprintf("• %s (%s): %s ready", row[1].Text, row[0].Text, Units(ready.N, ready.Unit))
		if committed.N > 0 {
			r += fmt.Sprintf(", %s committed", count(committed.N))
		}
		if wip.N > 0 {
			r += fmt.Sprintf(", %s in production", count(wip.N))
		} else {
			r += ", none in production"
		}
		rows = append(rows, r)
	}
	return head, rows, s.Offset, s.Count
}

func (s *OutOfStock) table(clock) ([]string, [][]any, map[string]any) {
	return stockColumns, stockTable(s.Lines), map[string]any{"out_of_stock": s.Count}
}

// RunningLow is the products that run out first, those with nothing
// available first, then by days of cover at the last CoverDays days'
// sales; products that did not sell come last.
type RunningLow struct {
	Lines []StockLine
}

func (s *RunningLow) Rows() int { return len(s.Lines) }

func (s *RunningLow) view(c clock) ([]string, []string, int, int) {
	if len(s.Lines) == 0 {
		return []string{"There are no products in the catalog."}, nil, 0, 0
	}
	head := []string{fmt.Sprintf("*Running low*: the products that run out first at the last %d days' sales", CoverDays), ""}
	var rows []string
	for _, row := range s.Table(c.now, c.loc).Rows {
		rows = append(rows, stockText(row, false))
	}
	return head, rows, 0, len(s.Lines)
}

func (s *RunningLow) table(clock) ([]string, [][]any, map[string]any) {
	return stockColumns, stockTable(s.Lines), map[string]any{"running_low_over_days": CoverDays}
}

// Dues is what customers owe: everyone who owes, largest first, or the
// customers asked about (Named).
type Dues struct {
	Totals    DuesTotals
	Customers []Due
	Offset    int
	Named     bool
}

func (d *Dues) Rows() int { return len(d.Customers) }

func (d *Dues) view(c clock) ([]string, []string, int, int) {
	if d.Named {
		rows := make([]string, len(d.Customers))
		for i, due := range d.Customers {
			rows[i] = dueBlock(due, c)
		}
		return nil, rows, d.Offset, d.Totals.Customers
	}
	t := d.Totals
	if t.Customers == 0 {
		return []string{"Nobody owes us anything right now. 👍"}, nil, 0, 0
	}
	head := []string{fmt.Sprintf("*Who owes us*: %s %s, %s in all", count(t.Customers), domain.Plural("customer", int64(t.Customers)), t.Outstanding)}
	if at, ok := c.stale(figureDues, t.AsOf); ok {
		head[0] += " (as of " + at + ")"
	}
	if t.OverLimit > 0 {
		head = append(head, fmt.Sprintf("⚠️ %s over their credit limit", count(t.OverLimit)))
	}
	head = append(head, "")
	rows := make([]string, len(d.Customers))
	for i, due := range d.Customers {
		r := fmt.Sprintf("%d. %s: %s", d.Offset+i+1, due.Name, due.Outstanding)
		if h := due.Headroom(); h < 0 {
			r += fmt.Sprintf(" ⚠️ over limit by %s", -h)
		} else {
			r += fmt.Sprintf(" (limit %s)", due.CreditLimit)
		}
		if due.OldestBill != "" || due.BeforeRecords {
			r += "; oldest bill " + oldestText(due, c, false)
		}
		if due.Provisional > 0 {
			r += fmt.Sprintf("; %s recorded here, not yet in the books", due.Provisional)
		}
		rows[i] = r
	}
	return head, rows, d.Offset, t.Customers
}

// oldestText is the age of the oldest unpaid bill: "40 days", or "over
// 120 days" when part of the due is older than the records.
func oldestText(d Due, c clock, long bool) string {
	if d.OldestBill == "" {
		return "older than Munshi's records"
	}
	age := ageText(c.age(d.OldestAt))
	if d.BeforeRecords {
		age = "over " + age
	}
	if !long {
		return age
	}
	s := fmt.Sprintf("%s of %s, %s", d.OldestBill, dateText(d.OldestAt, c.loc), age)
	if d.BeforeRecords {
		s += " (part of the due is older than Munshi's records)"
	}
	return s
}

func dueBlock(d Due, c clock) string {
	lines := []string{fmt.Sprintf("*%s* (%s)", d.Name, d.CustomerID)}
	if d.Outstanding <= 0 {
		lines = append(lines, "Nothing outstanding. 👍", "Credit limit: "+d.CreditLimit.String())
		if d.Outstanding < 0 {
			lines[1] = "Advance: " + (-d.Outstanding).String() + ", paid ahead of the next bills."
		}
		return strings.Join(lines, "\n") + "\n"
	}
	due := "Outstanding: " + d.Outstanding.String()
	if at, ok := c.stale(figureDues, d.AsOf); ok {
		due += " (as of " + at + ")"
	}
	lines = append(lines, due, "Credit limit: "+d.CreditLimit.String())
	if d.Provisional > 0 {
		lines = append(lines, fmt.Sprintf("%s recorded here, not yet in the books", d.Provisional))
	}
	if h := d.Headroom(); h >= 0 {
		lines = append(lines, "Headroom: "+h.String())
	} else {
		lines = append(lines, "⚠️ Over the limit by "+(-h).String())
	}
	bill := "Oldest unpaid bill: " + oldestText(d, c, true)
	if d.UnpaidBills > 1 {
		bill += fmt.Sprintf("; %d unpaid bills", d.UnpaidBills)
	}
	return strings.Join(append(lines, bill), "\n") + "\n"
}

func (d *Dues) table(c clock) ([]string, [][]any, map[string]any) {
	cols := []string{"customer_id", "name", "outstanding", "credit_limit", "headroom", "oldest_unpaid_bill", "oldest_bill_date", "oldest_bill_age_days", "unpaid_bills"}
	rows := make([][]any, len(d.Customers))
	for i, due := range d.Customers {
		var date any
		var age any
		if due.OldestBill != "" {
			date, age = due.OldestAt.In(c.loc).Format("2006-01-02"), c.age(due.OldestAt)
		}
		rows[i] = []any{due.CustomerID, due.Name, due.Outstanding.String(), due.CreditLimit.String(), due.Headroom().String(),
			due.OldestBill, date, age, due.UnpaidBills}
	}
	t := d.Totals
	return cols, rows, map[string]any{"customers": t.Customers, "outstanding": t.Outstanding.String(), "over_limit": t.OverLimit}
}

// PendingOrders are the orders waiting for approval or delivery.
type PendingOrders struct {
	Totals    OpenOrdersTotals
	Orders    []OpenOrder
	Offset    int
	PlacedBy  string   // set when only the asker's orders are shown
	Customers []string // the customers' names, when asked about some
}

func (p *PendingOrders) Rows() int { return len(p.Orders) }

func (p *PendingOrders) view(c clock) ([]string, []string, int, int) {
	title := "*" + p.pendingTitle() + "*"
	if len(p.Customers) > 0 {
		title += " for " + strings.Join(p.Customers, " / ")
	}
	t := p.Totals
	if t.Count() == 0 {
		return []string{title + ": none. 👍"}, nil, 0, 0
	}
	head := []string{title}
	if t.AwaitingApproval > 0 {
		head = append(head, fmt.Sprintf("⏳ Waiting for approval: %s (%s)", count(t.AwaitingApproval), t.AwaitingApprovalValue))
	}
	if t.ToDeliver > 0 {
		head = append(head, fmt.Sprintf("🚚 To deliver: %s (%s)", count(t.ToDeliver), t.ToDeliverValue))
	}
	head = append(head, "")
	var rows []string
	for _, row := range p.Table(c.now, c.loc).Rows {
		rows = append(rows, pendingText(row))
	}
	return head, rows, p.Offset, t.Count()
}

func (p *PendingOrders) table(c clock) ([]string, [][]any, map[string]any) {
	cols := []string{"order", "status", "customer_id", "customer", "total_with_gst", "items", "date", "age_days"}
	rows := make([][]any, len(p.Orders))
	for i, o := range p.Orders {
		status := "to_deliver"
		if o.Status == AwaitingApproval {
			status = "waiting_for_approval"
		}
		rows[i] = []any{o.ID, status, o.CustomerID, o.CustomerName, o.Total.String(), o.Lines,
			o.CreatedAt.In(c.loc).Format("2006-01-02"), c.age(o.CreatedAt)}
	}
	t := p.Totals
	return cols, rows, map[string]any{
		"waiting_for_approval": t.AwaitingApproval, "waiting_for_approval_value": t.AwaitingApprovalValue.String(),
		"to_deliver": t.ToDeliver, "to_deliver_value": t.ToDeliverValue.String(),
	}
}

// Sales is a sales summary for a period. Amounts are before GST.
type Sales struct {
	Period    Period
	By        SalesBy
	Top       bool   // asked as top customers
	Product   *Named // the one product summed, if any
	Customers []Named
	Totals    SalesTotals
	Lines     []SalesLine
	Offset    int
}

func (s *Sales) Rows() int { return len(s.Lines) }

func (s *Sales) view(c clock) ([]string, []string, int, int) {
	bold, rest := s.salesTitle()
	title := "*" + bold + "*" + rest
	t := s.Totals
	if t.Orders == 0 {
		return []string{title, "No sales in this period."}, nil, 0, 0
	}
	total := fmt.Sprintf("%s before GST (+%s GST), %s %s", t.Amount, t.GST, count(t.Orders), domain.Plural("order", int64(t.Orders)))
	if s.Product != nil && len(s.Lines) > 0 {
		total += ", " + Quantity(t.Qty, s.Lines[0].Unit, s.Lines[0].Packs)
	}
	head := []string{title, total, ""}
	var rows []string
	for i, row := range s.Table(c.now, c.loc).Rows {
		rows = append(rows, s.salesText(i, row))
	}
	return head, rows, s.Offset, t.Groups
}

func (s *Sales) table(c clock) ([]string, [][]any, map[string]any) {
	cols := []string{string(s.By), "name", "qty", "unit", "amount_before_gst", "gst", "orders"}
	rows := make([][]any, len(s.Lines))
	for i, l := range s.Lines {
		var qty any
		if l.Unit != "" {
			qty = l.Qty
		}
		var orders any = l.Orders
		if s.By == ByProduct && s.Product == nil {
			orders = nil // an order spans several products: counted only in the totals
		}
		rows[i] = []any{l.Key, l.Label, qty, l.Unit, l.Amount.String(), l.GST.String(), orders}
	}
	t := s.Totals
	totals := map[string]any{
		"period": s.Period.Name, "from": s.Period.From.Format("2006-01-02"),
		"to":     s.Period.To.Add(-time.Nanosecond).Format("2006-01-02"),
		"groups": t.Groups, "orders": t.Orders, "amount_before_gst": t.Amount.String(), "gst": t.GST.String(),
		"amount_with_gst": (t.Amount + t.GST).String(),
	}
	if s.Product != nil {
		totals["product"], totals["qty"] = s.Product.ID, t.Qty
	}
	return cols, rows, totals
}

// render makes one WhatsApp message of a report, says how many of its rows
// it holds and, when rows remain, the offset of the next one (else 0).
func render(r Report, c clock) (text string, shown, next int) {
	head, rows, offset, total := r.view(c)
	text, shown = fit(head, rows, offset, total)
	if offset+shown < total {
		next = offset + shown
	}
	return text, shown, next
}
