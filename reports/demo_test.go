package reports_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
)

// demoNow is a fixed clock for the demo books: Saturday 14 March 2026,
// 09:30 in Kolkata.
var demoNow = time.Date(2026, 3, 14, 4, 0, 0, 0, time.UTC)

// TestStockOutstandingSalesOnDemo checks every tool against the seeded
// demo distributor, with the expected figures worked out here in Go from
// the same deterministic history, to the unit and the paisa.
func TestStockOutstandingSalesOnDemo(t *testing.T) {
	b := openBooks(t, demoNow, func(ctx context.Context, s store.Store) error {
		_, err := demo.Seed(ctx, s, demoNow)
		return err
	})
	products, customers, users, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	history, _ := demo.History(products, customers, users, demoNow)
	loc := domain.DefaultLocation()

	// Stock: committed is the sum of committed orders' lines.
	held := map[string]int64{}
	var open []domain.Order
	for _, o := range history {
		if o.Status == domain.OrderCommitted {
			open = append(open, o)
			for _, l := range o.Lines {
				held[l.SKU] += l.Qty
			}
		}
	}
	if len(open) == 0 || held["GC500"]+held["PH1L"]+held["DB200"] == 0 {
		t.Fatalf("the demo history should have open orders holding stock: %v", held)
	}
	for _, p := range products {
		res := b.call(t, demoOwner, reports.ToolCheckStock, map[string]any{"product": p.SKU})
		l := res.Report.(*reports.StockCheck).Lines[0]
		if l.Ready != p.StockReady || l.WIP != p.StockWIP || l.Committed != held[p.SKU] || l.Available() != p.StockReady-held[p.SKU] {
			t.Errorf("%s: %+v, want ready %d wip %d committed %d", p.SKU, l, p.StockReady, p.StockWIP, held[p.SKU])
		}
	}
	cat := b.call(t, demoOwner, reports.ToolCheckStock, nil).Report.(*reports.CatalogStock)
	var value domain.Paise
	outs := 0
	for _, p := range products {
		value += domain.Paise(p.StockReady) * p.Price
		if p.StockReady-held[p.SKU] <= 0 {
			outs++
		}
	}
	if cat.Totals.Products != len(products) || cat.Totals.ReadyValue != value || cat.Totals.OutOfStock != outs {
		t.Errorf("catalog totals %+v, want %d products, value %s, %d out", cat.Totals, len(products), value, outs)
	}

	// Dues: customers.outstanding is the truth; the oldest bill is the last
	// credit order reached walking newest first until the due is covered.
	var owing []domain.Customer
	var total domain.Paise
	for _, c := range customers {
		if c.Outstanding > 0 {
			owing = append(owing, c)
			total += c.Outstanding
		}
	}
	sort.SliceStable(owing, func(i, j int) bool { return owing[i].Outstanding > owing[j].Outstanding })
	dues := b.call(t, demoOwner, reports.ToolOutstanding, nil).Report.(*reports.Dues)
	if dues.Totals.Customers != len(owing) || dues.Totals.Outstanding != total || len(dues.Customers) != len(owing) {
		t.Fatalf("dues totals %+v, want %d customers owing %s", dues.Totals, len(owing), total)
	}
	for i, c := range owing {
		got := dues.Customers[i]
		wantBill, wantAt, bills, before := oldestBill(history, c)
		if got.CustomerID != c.ID || got.Outstanding != c.Outstanding || got.CreditLimit != c.CreditLimit ||
			got.OldestBill != wantBill || !got.OldestAt.Equal(wantAt) || got.UnpaidBills != bills || got.BeforeRecords != before {
			t.Errorf("due %d = %+v, want %s %s bill %s at %v (%d bills, before records %v)", i, got, c.ID, c.Outstanding, wantBill, wantAt, bills, before)
		}
	}

	// Pending: the committed orders, oldest first, with their totals.
	pend := b.call(t, demoAccounts, reports.ToolPendingOrders, nil).Report.(*reports.PendingOrders)
	var openValue domain.Paise
	for _, o := range open {
		openValue += o.Total
	}
	if pend.Totals.ToDeliver != len(open) || pend.Totals.ToDeliverValue != openValue || pend.Totals.AwaitingApproval != 0 {
		t.Errorf("pending %+v, want %d worth %s", pend.Totals, len(open), openValue)
	}

	// Sales last week by product, and top customers this month.
	for _, c := range []struct {
		tool, period string
		by           reports.SalesBy
	}{
		{reports.ToolSalesSummary, "last_week", reports.ByProduct},
		{reports.ToolSalesSummary, "last_month", reports.ByDay},
		{reports.ToolTopCustomers, "this_month", reports.ByCustomer},
	} {
		args := map[string]any{"period": c.period}
		if c.tool == reports.ToolSalesSummary {
			args["by"] = string(c.by)
		}
		b.tools.PageRows = reports.MaxRows
		s := b.call(t, demoOwner, c.tool, args).Report.(*reports.Sales)
		p, _ := reports.MakePeriod(c.period, demoNow, loc)
		want, orders := map[string][2]int64{}, 0
		var amount, gst domain.Paise
		for _, o := range history {
			if o.CreatedAt.Before(p.From) || !o.CreatedAt.Before(p.To) {
				continue
			}
			orders++
			for _, l := range o.Lines {
				key := l.SKU
				switch c.by {
				case reports.ByCustomer:
					key = o.CustomerID
				case reports.ByDay:
					key = o.CreatedAt.In(loc).Format("2006-01-02")
				}
				w := want[key]
				want[key] = [2]int64{w[0] + l.Qty, w[1] + int64(l.Amount)}
				amount += l.Amount
				gst += l.GSTAmount
			}
		}
		if orders == 0 {
			t.Fatalf("%s %s: no demo sales in the period", c.tool, c.period)
		}
		if s.Totals.Orders != orders || s.Totals.Amount != amount || s.Totals.GST != gst || s.Totals.Groups != len(want) || len(s.Lines) != len(want) {
			t.Errorf("%s %s totals %+v, want %d orders %s + %s GST in %d groups", c.tool, c.period, s.Totals, orders, amount, gst, len(want))
		}
		for i, l := range s.Lines {
			w := want[l.Key]
			if int64(l.Amount) != w[1] || (c.by == reports.ByProduct && l.Qty != w[0]) {
				t.Errorf("%s %s %s = %d units %s, want %d units %d paise", c.tool, c.period, l.Key, l.Qty, l.Amount, w[0], w[1])
			}
			if i > 0 && c.by != reports.ByDay && l.Amount > s.Lines[i-1].Amount {
				t.Errorf("%s %s not largest first at %d", c.tool, c.period, i)
			}
			if i > 0 && c.by == reports.ByDay && l.Key <= s.Lines[i-1].Key {
				t.Errorf("days not in order at %d", i)
			}
		}
	}
}

var (
	demoOwner    = domain.User{Phone: demo.OwnerPhone, Name: "Vikram Singh", Role: domain.RoleOwner}
	demoAccounts = domain.User{Phone: demo.AccountsPhone, Name: "Priya Nair", Role: domain.RoleAccounts}
)

// oldestBill walks the customer's credit orders newest first until they
// cover the outstanding amount.
func oldestBill(history []domain.Order, c domain.Customer) (string, time.Time, int, bool) {
	var credit []domain.Order
	for _, o := range history {
		if o.CustomerID == c.ID && o.Payment == domain.PayCredit && (o.Status == domain.OrderCommitted || o.Status == domain.OrderDelivered) {
			credit = append(credit, o)
		}
	}
	sort.SliceStable(credit, func(i, j int) bool {
		if !credit[i].CreatedAt.Equal(credit[j].CreatedAt) {
			return credit[i].CreatedAt.After(credit[j].CreatedAt)
		}
		return credit[i].ID > credit[j].ID
	})
	var covered domain.Paise
	var id string
	var at time.Time
	n := 0
	for _, o := range credit {
		if covered >= c.Outstanding {
			break
		}
		covered += o.Total
		id, at, n = o.ID, o.CreatedAt, n+1
	}
	return id, at, n, covered < c.Outstanding
}
