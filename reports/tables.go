package reports

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Each report's Table, and the text rows that read from it.

var stockTableColumns = []Column{
	{"sku", "SKU", ColText}, {"name", "Product", ColText},
	{"ready", "Ready", ColQuantity}, {"committed", "Committed", ColQuantity},
	{"available", "Available", ColQuantity}, {"in_production", "In production", ColQuantity},
}

// stockCells are the rows of a stock table.
func stockCells(lines []StockLine) [][]Cell {
	rows := make([][]Cell, len(lines))
	for i, l := range lines {
		rows[i] = []Cell{textCell(l.SKU), textCell(l.Name), qtyCell(l.Ready, l.Unit, l.Packs),
			qtyCell(l.Committed, l.Unit, l.Packs), qtyCell(l.Available(), l.Unit, l.Packs), qtyCell(l.WIP, l.Unit, l.Packs)}
	}
	return rows
}

// Columns and totals a table gains when the ERP owns its figure: what the
// chat recorded that the ERP's books do not show yet, and when the ERP's
// figure was synced.
var (
	notInBooksColumn = Column{"not_in_books", "Recorded here, not yet in the books", ColQuantity}
	notPaidInColumn  = Column{"not_in_books", "Paid here, not yet in the books", ColMoney}
	syncedColumn     = Column{"synced_at", "ERP figures as of", ColText}
)

// synced adds when the ERP's figure was synced to t's totals, if it was.
func synced(t *Table, at time.Time, loc *time.Location) {
	if !at.IsZero() {
		t.Totals = append(t.Totals, Total{syncedColumn, textCell(at.In(loc).Format("2 Jan 2006 15:04"))})
	}
}

// withProvisionalStock adds the column of stock recorded here and not yet
// in the ERP's books, when any line has some, and the sync time.
func withProvisionalStock(t Table, lines []StockLine, loc *time.Location) Table {
	if slices.ContainsFunc(lines, func(l StockLine) bool { return l.Provisional != 0 }) {
		t.Columns = append(append([]Column{}, t.Columns...), notInBooksColumn)
		for i, l := range lines {
			t.Rows[i] = append(t.Rows[i], qtyCell(l.Provisional, l.Unit, l.Packs))
		}
	}
	synced(&t, latestAsOf(lines), loc)
	return t
}

// latestAsOf is when the ERP's stock of lines was last synced; zero when
// Munshi keeps it.
func latestAsOf(lines []StockLine) time.Time {
	var at time.Time
	for _, l := range lines {
		if l.AsOf.After(at) {
			at = l.AsOf
		}
	}
	return at
}

// stockText is one product of a stock table as a line of text: what can
// be promised, and from what.
func stockText(row []Cell, sku bool) string {
	name, ready, committed, available, wip := row[1].Text, row[2], row[3], row[4], row[5]
	if sku {
		name += " (" + row[0].Text + ")"
	}
	var s string
	switch a := available.N; {
	case committed.N == 0:
		s = fmt.Sprintf("• %s: %s available", name, Units(ready.N, ready.Unit))
	case a >= 0:
		s = fmt.Sprintf("• %s: %s available (%s ready − %s committed)", name, Units(a, ready.Unit), count(ready.N), count(committed.N))
	default:
		s = fmt.Sprintf("• %s: none available (%s ready, %s committed)", name, Units(ready.N, ready.Unit), count(committed.N))
	}
	if wip.N > 0 {
		s += fmt.Sprintf(", %s in production", count(wip.N))
	}
	return s
}

// Table of a stock check: the products asked about and, with a quantity,
// what was asked and how short the stock is of it.
func (s *StockCheck) Table(_ time.Time, loc *time.Location) Table {
	t := Table{Title: "Stock", Columns: stockTableColumns, Rows: stockCells(s.Lines), Count: len(s.Lines)}
	if len(s.Lines) == 1 {
		l := s.Lines[0]
		t.Title = "Stock of " + l.Name
		if s.Asked > 0 {
			t.Totals = append(t.Totals, Total{Column{"asked", "Asked", ColQuantity}, qtyCell(s.Asked, l.Unit, l.Packs)})
			if !s.CanCommit() {
				t.Totals = append(t.Totals, Total{Column{"short_by", "Short by", ColQuantity}, qtyCell(s.Asked-max(l.Available(), 0), l.Unit, l.Packs)})
			}
		}
	}
	return withProvisionalStock(t, s.Lines, loc)
}

// Table of the catalog's stock: one page of products, the catalog's totals.
func (s *CatalogStock) Table(_ time.Time, loc *time.Location) Table {
	t := s.Totals
	return withProvisionalStock(Table{Title: "Stock", Columns: stockTableColumns, Rows: stockCells(s.Lines), Offset: s.Offset, Count: t.Products,
		Totals: []Total{
			{Column{"products", "Products", ColCount}, countCell(t.Products)},
			{Column{"out_of_stock", "Out of stock", ColCount}, countCell(t.OutOfStock)},
			{Column{"oversold", "Oversold", ColCount}, countCell(t.Oversold)},
			{Column{"ready_value", "Ready at list price", ColMoney}, moneyCell(t.ReadyValue)},
		}}, s.Lines, loc)
}

// Table of the products out of stock.
func (s *OutOfStock) Table(time.Time, *time.Location) Table {
	return Table{Title: "Out of stock", Columns: stockTableColumns, Rows: stockCells(s.Lines), Offset: s.Offset, Count: s.Count,
		Totals: []Total{{Column{"out_of_stock", "Out of stock", ColCount}, countCell(s.Count)}}}
}

// Table of the products that run out first, in that order.
func (s *RunningLow) Table(time.Time, *time.Location) Table {
	return Table{Title: "Running low", Columns: stockTableColumns, Rows: stockCells(s.Lines), Count: len(s.Lines)}
}

// Table of dues: one row per customer, largest first.
func (d *Dues) Table(now time.Time, loc *time.Location) Table {
	c := clock{now: now, loc: loc}
	t := Table{Title: "Who owes us", Offset: d.Offset, Count: d.Totals.Customers, Columns: []Column{
		{"customer_id", "Customer ID", ColText}, {"name", "Customer", ColText},
		{"outstanding", "Outstanding", ColMoney}, {"credit_limit", "Credit limit", ColMoney}, {"headroom", "Headroom", ColMoney},
		{"oldest_bill", "Oldest unpaid bill", ColText}, {"oldest_bill_date", "Bill date", ColDate},
		{"oldest_bill_age", "Age", ColDays}, {"unpaid_bills", "Unpaid bills", ColCount},
	}}
	if d.Named {
		t.Title = "Outstanding"
	}
	for _, due := range d.Customers {
		date, age := Cell{Empty: true}, Cell{Empty: true}
		if due.OldestBill != "" {
			date, age = dateCell(due.OldestAt, loc), daysCell(c.age(due.OldestAt))
		}
		t.Rows = append(t.Rows, []Cell{textCell(due.CustomerID), textCell(due.Name), moneyCell(due.Outstanding),
			moneyCell(due.CreditLimit), moneyCell(due.Headroom()), textCell(due.OldestBill), date, age, countCell(due.UnpaidBills)})
	}
	if slices.ContainsFunc(d.Customers, func(due Due) bool { return due.Provisional != 0 }) {
		t.Columns = append(t.Columns, notPaidInColumn)
		for i, due := range d.Customers {
			t.Rows[i] = append(t.Rows[i], moneyCell(due.Provisional))
		}
	}
	t.Totals = []Total{
		{Column{"customers", "Customers", ColCount}, countCell(d.Totals.Customers)},
		{Column{"outstanding", "Outstanding", ColMoney}, moneyCell(d.Totals.Outstanding)},
		{Column{"over_limit", "Over their limit", ColCount}, countCell(d.Totals.OverLimit)},
	}
	synced(&t, d.Totals.AsOf, loc)
	return t
}

// Statuses of a pending order, as a Table's text.
const (
	statusAwaitingApproval = "waiting for approval"
	statusToDeliver        = "to deliver"
)

// pendingTitle is what a list of pending orders is.
func (p *PendingOrders) pendingTitle() string {
	title := "Pending orders"
	if p.PlacedBy != "" {
		title = "Your pending orders"
	}
	return title
}

// Table of pending orders: the page shown, and the counts and values of
// every pending order.
func (p *PendingOrders) Table(now time.Time, loc *time.Location) Table {
	c := clock{now: now, loc: loc}
	t := Table{Title: p.pendingTitle(), Offset: p.Offset, Count: p.Totals.Count(), Columns: []Column{
		{"order", "Order", ColText}, {"status", "Status", ColText}, {"customer_id", "Customer ID", ColText},
		{"customer", "Customer", ColText}, {"total_with_gst", "Total with GST", ColMoney}, {"items", "Items", ColCount},
		{"date", "Date", ColDate}, {"age", "Age", ColDays},
	}}
	if len(p.Customers) > 0 {
		t.Title += " for " + strings.Join(p.Customers, " / ")
	}
	for _, o := range p.Orders {
		status := statusToDeliver
		if o.Status == AwaitingApproval {
			status = statusAwaitingApproval
		}
		t.Rows = append(t.Rows, []Cell{textCell(o.ID), textCell(status), textCell(o.CustomerID), textCell(o.CustomerName),
			moneyCell(o.Total), countCell(o.Lines), dateCell(o.CreatedAt, loc), daysCell(c.age(o.CreatedAt))})
	}
	tot := p.Totals
	t.Totals = []Total{
		{Column{"waiting_for_approval", "Waiting for approval", ColCount}, countCell(tot.AwaitingApproval)},
		{Column{"waiting_for_approval_value", "Waiting for approval, value", ColMoney}, moneyCell(tot.AwaitingApprovalValue)},
		{Column{"to_deliver", "To deliver", ColCount}, countCell(tot.ToDeliver)},
		{Column{"to_deliver_value", "To deliver, value", ColMoney}, moneyCell(tot.ToDeliverValue)},
	}
	return t
}

// pendingText is one pending order of its Table as a line of text.
func pendingText(row []Cell) string {
	mark := "🚚"
	if row[1].Text == statusAwaitingApproval {
		mark = "⏳"
	}
	return fmt.Sprintf("%s %s %s: %s, %d %s, %s", mark, row[0].Text, row[3].Text, row[4].Money, row[5].N,
		domain.Plural("item", row[5].N), ageText(int(row[7].N)))
}

// salesTitle is what a sales summary is, without WhatsApp marks: the text
// puts the part before its comma in bold.
func (s *Sales) salesTitle() (bold, rest string) {
	bold, rest = "Sales "+s.Period.Label(), ""
	switch {
	case s.Top:
		bold = "Top customers " + s.Period.Label()
	case s.Product != nil && s.By == ByCustomer:
		bold, rest = "Who bought "+s.Product.Name, ", "+s.Period.Label()
	case s.Product != nil:
		bold, rest = "Sales of "+s.Product.Name, ", "+s.Period.Label()
	}
	if len(s.Customers) > 0 {
		names := make([]string, len(s.Customers))
		for i, n := range s.Customers {
			names[i] = n.Name
		}
		rest += " to " + strings.Join(names, " / ")
	}
	return bold, rest
}

// Table of a sales summary: one row per product, customer or day of the
// page shown, amounts before GST, and the period's totals.
func (s *Sales) Table(_ time.Time, loc *time.Location) Table {
	bold, rest := s.salesTitle()
	period := s.Period
	key := Column{"sku", "SKU", ColText}
	switch s.By {
	case ByCustomer:
		key = Column{"customer_id", "Customer ID", ColText}
	case ByDay:
		key = Column{"day", "Day", ColDate}
	}
	t := Table{Title: bold + rest, Period: &period, Offset: s.Offset, Count: s.Totals.Groups, Columns: []Column{
		key, {"name", "Name", ColText}, {"qty", "Quantity", ColQuantity},
		{"amount_before_gst", "Amount before GST", ColMoney}, {"gst", "GST", ColMoney}, {"orders", "Orders", ColCount},
	}}
	for _, l := range s.Lines {
		k := textCell(l.Key)
		if s.By == ByDay {
			k = Cell{Text: l.Key, Empty: true}
			if day, err := time.ParseInLocation(time.DateOnly, l.Key, loc); err == nil {
				k = Cell{Text: l.Key, Date: day}
			}
		}
		qty, orders := qtyCell(l.Qty, l.Unit, l.Packs), countCell(l.Orders)
		if l.Unit == "" {
			qty.Empty = true
		}
		if s.By == ByProduct && s.Product == nil {
			orders.Empty = true // an order spans several products: counted only in the totals
		}
		t.Rows = append(t.Rows, []Cell{k, textCell(l.Label), qty, moneyCell(l.Amount), moneyCell(l.GST), orders})
	}
	tot := s.Totals
	t.Totals = []Total{
		{Column{"orders", "Orders", ColCount}, countCell(tot.Orders)},
		{Column{"amount_before_gst", "Amount before GST", ColMoney}, moneyCell(tot.Amount)},
		{Column{"gst", "GST", ColMoney}, moneyCell(tot.GST)},
		{Column{"amount_with_gst", "Amount with GST", ColMoney}, moneyCell(tot.Amount + tot.GST)},
	}
	if s.Product != nil {
		unit, packs := "", []domain.PackSize(nil)
		if len(s.Lines) > 0 {
			unit, packs = s.Lines[0].Unit, s.Lines[0].Packs
		}
		t.Totals = append(t.Totals, Total{Column{"qty", "Quantity", ColQuantity}, qtyCell(tot.Qty, unit, packs)})
	}
	return t
}

// salesText is row i of a sales Table as a line of text.
func (s *Sales) salesText(i int, row []Cell) string {
	n := s.Offset + i + 1
	label, qty, amount, orders := row[1].Text, row[2], row[3].Money, row[5].N
	switch s.By {
	case ByDay:
		day := row[0].Text
		if !row[0].Empty {
			day = row[0].Date.Format("Mon 2 Jan")
		}
		return fmt.Sprintf("• %s: %s (%d %s)", day, amount, orders, domain.Plural("order", orders))
	case ByCustomer:
		if s.Product != nil {
			return fmt.Sprintf("%d. %s: %s, %s", n, label, amount, Quantity(qty.N, qty.Unit, qty.Packs))
		}
		return fmt.Sprintf("%d. %s: %s (%d %s)", n, label, amount, orders, domain.Plural("order", orders))
	}
	return fmt.Sprintf("%d. %s: %s, %s", n, label, amount, Quantity(qty.N, qty.Unit, qty.Packs))
}
