package reports

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/excel"
)

// workbook writes a result as an Excel file: every row of the answer the
// text shows page by page (every order line, for sales), streamed from the
// books into the file, which stops at MaxFileBytes.
func (t *Tools) workbook(ctx context.Context, user domain.User, res Result) (made, error) {
	c := res.at
	tab := res.Table()
	about := excel.About{MadeAt: c.now, MadeFor: fmt.Sprintf("%s (%s)", user.Name, user.Role)}
	rows := 0
	var wb excel.Workbook
	var stem string
	var period *Period
	switch r := res.Report.(type) {
	case *Dues:
		if r.Totals.Customers == 0 {
			return made{nothing: true, caption: "Nobody owes us anything right now, so there is no file to send."}, nil
		}
		stem = "outstanding"
		about.SyncedAt = r.Totals.AsOf
		wb = excel.Outstanding(about, counted(&rows, eachRow(t.allPages(ctx, user, res), func(d *Dues) []excel.DueRow {
			out := make([]excel.DueRow, len(d.Customers))
			for i, due := range d.Customers {
				out[i] = excel.DueRow{CustomerID: due.CustomerID, Customer: due.Name, Outstanding: due.Outstanding,
					CreditLimit: due.CreditLimit, OldestBill: due.OldestBill, BeforeRecords: due.BeforeRecords, Provisional: due.Provisional}
				if due.OldestBill != "" {
					out[i].OldestBillDate, out[i].OldestBillAgeDays = due.OldestAt.In(c.loc), c.age(due.OldestAt)
				}
			}
			return out
		})))
	case *PendingOrders:
		if r.Totals.Count() == 0 {
			return made{nothing: true, caption: "No orders are pending, so there is no file to send."}, nil
		}
		stem = "pending-orders"
		wb = excel.PendingOrders(about, counted(&rows, eachRow(t.allPages(ctx, user, res), func(p *PendingOrders) []excel.PendingOrderRow {
			out := make([]excel.PendingOrderRow, len(p.Orders))
			for i, o := range p.Orders {
				status := "To deliver"
				if o.Status == AwaitingApproval {
					status = "Awaiting approval"
				}
				out[i] = excel.PendingOrderRow{OrderID: o.ID, PlacedAt: o.CreatedAt.In(c.loc), Customer: o.CustomerName,
					PlacedBy: o.PlacedBy, Status: status, Lines: o.Lines, Items: o.Items, Total: o.Total}
			}
			return out
		})))
	case *Sales:
		period, stem = &r.Period, salesStem(r, false)
		if r.Totals.Groups == 0 {
			return made{nothing: true, caption: fmt.Sprintf("No sales %s, so there is no file to send.", r.Period.Label())}, nil
		}
		about.Title, about.Period = tab.Title, excel.Period{From: r.Period.From, To: r.Period.To}
		q := SalesQuery{From: r.Period.From, To: r.Period.To, CustomerIDs: ids(r.Customers)}
		if r.Product != nil {
			q.SKUs = []string{r.Product.ID}
		}
		wb = excel.Sales(about, counted(&rows, saleLines(t.Books.SaleLines(ctx, q), c)))
	case *PaymentsReceived:
		period, stem = &r.Period, paymentsStem(r, false)
		if r.Totals.Payments == 0 {
			return made{nothing: true, caption: fmt.Sprintf("No payments received %s, so there is no file to send.", r.Period.Label())}, nil
		}
		about.Title, about.Period = tab.Title, excel.Period{From: r.Period.From, To: r.Period.To}
		wb = t.paymentsWorkbook(ctx, user, res, r, about, &rows)
	case *StockCheck, *CatalogStock, *OutOfStock:
		if res.Report.Rows() == 0 {
			return made{nothing: true, caption: "There are no products to list."}, nil
		}
		stem = "stock"
		about.SyncedAt = stockSyncedAt(res.Report)
		wb = excel.Stock(about, counted(&rows, eachRow(t.allPages(ctx, user, res), func(rep Report) []excel.StockRow {
			lines := stockLines(rep)
			out := make([]excel.StockRow, len(lines))
			for i, l := range lines {
				out[i] = excel.StockRow{SKU: l.SKU, Product: l.Name, Unit: l.Unit, Ready: l.Ready, Committed: l.Committed, WIP: l.WIP, Price: l.Price}
			}
			return out
		})))
	default:
		return made{nothing: true, caption: res.Text}, nil
	}
	wb.Location = c.loc
	var file capped
	if err := excel.Write(ctx, &file, wb); err != nil {
		return made{}, err
	}
	name := fileName(stem, period, ".xlsx", c)
	return made{
		caption: fmt.Sprintf("📎 *%s*\n%s\nThe Excel file is attached: %s, %s.", tab.Title, totalsText(tab), name, excel.RowCount(rows)),
		files:   []madeFile{{name, file.b}}, rows: rows, period: period,
	}, nil
}

// eachRow flattens pages of one kind of report into rows.
func eachRow[R Report, T any](pages iter.Seq2[Report, error], rows func(R) []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		for rep, err := range pages {
			if err != nil {
				yield(zero, err)
				return
			}
			r, ok := rep.(R)
			if !ok {
				yield(zero, fmt.Errorf("reports: a page of %T in an export of %T", rep, r))
				return
			}
			for _, row := range rows(r) {
				if !yield(row, nil) {
					return
				}
			}
		}
	}
}

// counted counts the rows a stream yields into n.
func counted[T any](n *int, rows iter.Seq2[T, error]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for row, err := range rows {
			if err == nil {
				*n++
			}
			if !yield(row, err) {
				return
			}
		}
	}
}

// saleLines are the books' sale lines as the export writes them, dated in
// the business's zone.
func saleLines(lines iter.Seq2[SaleLine, error], c clock) iter.Seq2[excel.SaleLine, error] {
	return func(yield func(excel.SaleLine, error) bool) {
		for l, err := range lines {
			if !yield(excel.SaleLine{Date: l.At.In(c.loc), OrderID: l.OrderID, CustomerID: l.CustomerID, Customer: l.Customer,
				SKU: l.SKU, Product: l.Product, Qty: l.Qty, Unit: l.Unit, Rate: l.Rate, Amount: l.Amount, GSTRate: l.GSTRate, GST: l.GST}, err) {
				return
			}
		}
	}
}

// paymentsWorkbook is the payments file: the groups of the answer as its
// text pages through them, then each payment, both read through the same
// tool with the arguments it understood, so that they agree to the paisa.
// rows counts the payments.
func (t *Tools) paymentsWorkbook(ctx context.Context, user domain.User, res Result, r *PaymentsReceived, about excel.About, rows *int) excel.Workbook {
	c := res.at
	each := res
	each.Args = cloneArgs(res.Args)
	each.Args["by"] = string(PaymentsByPayment)
	payments := counted(rows, eachRow(t.allPages(ctx, user, each), func(p *PaymentsReceived) []excel.PaymentRow {
		out := make([]excel.PaymentRow, len(p.Lines))
		for i, l := range p.Lines {
			out[i] = excel.PaymentRow{ReceivedAt: l.Last.In(c.loc), CustomerID: l.CustomerID, Customer: l.Customer,
				Mode: modeName(l.Mode), Reference: l.Reference, Amount: l.Amount, Imported: l.Imported}
		}
		return out
	}))
	by := map[PaymentsBy]string{PaymentsByCustomer: excel.PaymentsByCustomer, PaymentsByMode: excel.PaymentsByMode, PaymentsByDay: excel.PaymentsByDay}[r.By]
	groups := eachRow(t.allPages(ctx, user, res), func(p *PaymentsReceived) []excel.PaymentGroupRow {
		out := make([]excel.PaymentGroupRow, len(p.Lines))
		for i, l := range p.Lines {
			g := excel.PaymentGroupRow{Key: l.Key, Name: l.Label, Payments: l.Payments, Customers: l.Customers,
				Modes: modeNames(l.Modes), Amount: l.Amount}
			switch p.By {
			case PaymentsByCustomer:
				g.Last = l.Last.In(c.loc)
			case PaymentsByMode:
				g.Key = modeName(l.Mode)
			case PaymentsByDay:
				if day, err := time.ParseInLocation(time.DateOnly, l.Key, c.loc); err == nil {
					g.Day = day
				}
			}
			out[i] = g
		}
		return out
	})
	return excel.PaymentsReceived(about, by, groups, payments)
}

// stockLines are the products of a stock answer's page.
func stockLines(rep Report) []StockLine {
	switch s := rep.(type) {
	case *StockCheck:
		return s.Lines
	case *CatalogStock:
		return s.Lines
	case *OutOfStock:
		return s.Lines
	}
	return nil
}

// stockSyncedAt is when the ERP's stock behind a stock answer was synced;
// zero when Munshi keeps the stock.
func stockSyncedAt(rep Report) time.Time {
	if s, ok := rep.(*CatalogStock); ok {
		return s.Totals.AsOf
	}
	return latestAsOf(stockLines(rep))
}
