package storetest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// known fills s with reportstest.Known's books, whose answers are worked
// out by hand, with the clock at reportstest.Now.
func known(t *testing.T, s store.Store, c *Clock) {
	t.Helper()
	c.Set(reportstest.Now)
	if err := reportstest.Known(ctx, s); err != nil {
		t.Fatal(err)
	}
}

func testStockOf(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	lines, err := s.StockOf(ctx, []string{"PH1L", "GC500", "BR01", "NOPE"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][3]int64{}
	for _, l := range lines {
		got[l.SKU] = [3]int64{l.Ready, l.WIP, l.Committed}
	}
	want := map[string][3]int64{"GC500": {2400, 480, 96}, "PH1L": {1800, 600, 240}, "BR01": {100, 0, 120}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stock = %v, want %v", got, want)
	}
	// By name: Floor Broom, Glass Cleaner, Phenyl.
	if lines[0].SKU != "BR01" || lines[1].SKU != "GC500" || lines[2].SKU != "PH1L" {
		t.Fatalf("order: %v", lines)
	}
	gc := lines[1]
	if gc.Available() != 2304 || gc.Unit != "bottle" || gc.Price != 9200 || gc.Name != "Glass Cleaner 500ml" ||
		!reflect.DeepEqual(gc.Packs, []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}}) {
		t.Fatalf("GC500 = %+v", gc)
	}
	if lines[0].Available() != -20 {
		t.Fatalf("broom available %d, want -20", lines[0].Available())
	}
	if none, err := s.StockOf(ctx, nil); err != nil || len(none) != 0 {
		t.Fatalf("StockOf(nothing) = %+v, %v", none, err)
	}
}

func testStockCatalog(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	tot, lines, err := s.StockCatalog(ctx, reports.Page{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := (reports.StockTotals{Products: 4, OutOfStock: 2, Oversold: 1, ReadyValue: 34580000}); tot != want {
		t.Fatalf("totals = %+v, want %+v", tot, want)
	}
	if len(lines) != 2 || lines[0].SKU != "BR01" || lines[0].Committed != 120 || lines[1].SKU != "GC500" || lines[1].Committed != 96 {
		t.Fatalf("page 1 = %+v", lines)
	}
	_, lines, err = s.StockCatalog(ctx, reports.Page{Offset: 2, Limit: 2})
	if err != nil || len(lines) != 2 || lines[0].SKU != "NB100" || lines[1].SKU != "PH1L" || lines[1].Committed != 240 {
		t.Fatalf("page 2 = %+v, %v", lines, err)
	}
	n, outs, err := s.StockOuts(ctx, reports.Page{Limit: 10})
	if err != nil || n != 2 || len(outs) != 2 || outs[0].SKU != "BR01" || outs[0].Committed != 120 || outs[1].SKU != "NB100" || outs[1].WIP != 1000 {
		t.Fatalf("outs = %d %+v, %v", n, outs, err)
	}
	n, outs, err = s.StockOuts(ctx, reports.Page{Offset: 7, Limit: 5})
	if err != nil || n != 2 || len(outs) != 0 {
		t.Fatalf("outs past the end = %d %+v, %v", n, outs, err)
	}
	// A hostile page is clamped, not an error.
	if _, lines, err := s.StockCatalog(ctx, reports.Page{Offset: -5, Limit: 1 << 30}); err != nil || len(lines) != 4 {
		t.Fatalf("clamped page = %d lines, %v", len(lines), err)
	}
}

func testDues(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	tot, dues, err := s.Dues(ctx, reports.DuesQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (reports.DuesTotals{Customers: 2, Outstanding: 19500000, OverLimit: 1}); tot != want {
		t.Fatalf("totals = %+v, want %+v", tot, want)
	}
	if len(dues) != 2 {
		t.Fatalf("dues = %+v", dues)
	}
	sharma, rajesh := dues[0], dues[1]
	day := 24 * time.Hour
	if sharma.CustomerID != "C02" || sharma.Name != "Sharma General Store" || sharma.Outstanding != 16000000 || sharma.Headroom() != -1000000 ||
		sharma.OldestBill != "ORD-1006" || !sharma.OldestAt.Equal(reportstest.Now.Add(-60*day)) || sharma.UnpaidBills != 2 || !sharma.BeforeRecords {
		t.Fatalf("Sharma = %+v", sharma)
	}
	if rajesh.CustomerID != "C01" || rajesh.Outstanding != 3500000 || rajesh.CreditLimit != 10000000 ||
		rajesh.OldestBill != "ORD-1001" || !rajesh.OldestAt.Equal(reportstest.Now.Add(-40*day)) || rajesh.UnpaidBills != 3 || rajesh.BeforeRecords {
		t.Fatalf("Rajesh = %+v", rajesh)
	}
	// Named customers come back owing or not.
	tot, dues, err = s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C03", "C01"}})
	if err != nil || tot.Customers != 2 || tot.Outstanding != 3500000 || len(dues) != 2 || dues[1].CustomerID != "C03" ||
		dues[1].Outstanding != 0 || dues[1].OldestBill != "" || dues[1].BeforeRecords {
		t.Fatalf("named = %+v %+v, %v", tot, dues, err)
	}
	// A page past the end still has the totals.
	tot, dues, err = s.Dues(ctx, reports.DuesQuery{Page: reports.Page{Offset: 5, Limit: 5}})
	if err != nil || tot.Customers != 2 || len(dues) != 0 {
		t.Fatalf("past the end = %+v %+v, %v", tot, dues, err)
	}
}

func testOpenOrders(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	tot, open, err := s.OpenOrders(ctx, reports.OpenOrdersQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (reports.OpenOrdersTotals{AwaitingApproval: 1, AwaitingApprovalValue: 260544, ToDeliver: 2, ToDeliverValue: 3958176}); tot != want {
		t.Fatalf("totals = %+v, want %+v", tot, want)
	}
	var got []string
	for _, o := range open {
		got = append(got, o.ID+" "+o.Status+" "+o.CustomerName)
	}
	want := []string{"ORD-1008 pending_approval Mehta Traders", "ORD-1004 committed Rajesh Kirana Store", "ORD-1005 committed Sharma General Store"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("open = %q, want %q", got, want)
	}
	if open[0].Total != 260544 || open[0].Lines != 1 || open[1].Total != 2117376 || open[1].Lines != 2 || open[1].PlacedBy != reportstest.KnownSales ||
		!open[0].CreatedAt.Equal(reportstest.Now.Add(-time.Hour)) {
		t.Fatalf("open = %+v", open)
	}
	// Each open order says what it holds, a draft as an order: SKUs and
	// base units in line order.
	for _, o := range open {
		if n := strings.Count(o.Items, " × "); n != o.Lines || o.Items == "" {
			t.Errorf("%s holds %q for %d lines", o.ID, o.Items, o.Lines)
		}
	}
	tot, open, err = s.OpenOrders(ctx, reports.OpenOrdersQuery{PlacedBy: reportstest.KnownSales})
	if err != nil || tot.Count() != 2 || len(open) != 2 || open[0].ID != "ORD-1008" || open[1].ID != "ORD-1004" {
		t.Fatalf("placed by = %+v %+v, %v", tot, open, err)
	}
	tot, open, err = s.OpenOrders(ctx, reports.OpenOrdersQuery{CustomerIDs: []string{"C02"}})
	if err != nil || tot.Count() != 1 || tot.ToDeliverValue != 1840800 || len(open) != 1 || open[0].ID != "ORD-1005" {
		t.Fatalf("for C02 = %+v %+v, %v", tot, open, err)
	}
}

func testSalesSummary(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	loc := domain.DefaultLocation()
	p, err := reports.MakePeriod("last_30_days", reportstest.Now, loc)
	if err != nil {
		t.Fatal(err)
	}
	q := reports.SalesQuery{From: p.From, To: p.To, By: reports.ByProduct, UTCOffset: 19800, Page: reports.Page{Limit: 10}}
	tot, lines, err := s.SalesSummary(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if want := (reports.SalesTotals{Groups: 3, Orders: 4, Qty: 600, Amount: 4404000, GST: 735120}); tot != want {
		t.Fatalf("totals = %+v, want %+v", tot, want)
	}
	type row struct {
		key    string
		qty    int64
		amount domain.Paise
		orders int
	}
	var got []row
	for _, l := range lines {
		got = append(got, row{l.Key, l.Qty, l.Amount, l.Orders})
	}
	// By product an order spans groups: orders are counted only in all.
	want := []row{{"PH1L", 360, 2340000, 0}, {"GC500", 120, 1104000, 0}, {"BR01", 120, 960000, 0}}
	if !reflect.DeepEqual(got, want) || lines[0].Label != "Phenyl 1L" || lines[0].Unit != "bottle" {
		t.Fatalf("by product = %+v", lines)
	}

	q.By = reports.ByCustomer
	_, lines, err = s.SalesSummary(ctx, q)
	if err != nil || len(lines) != 2 || lines[0].Key != "C01" || lines[0].Amount != 2844000 || lines[0].Orders != 3 ||
		lines[1].Key != "C02" || lines[1].Amount != 1560000 || lines[0].Label != "Rajesh Kirana Store" || lines[0].Unit != "" {
		t.Fatalf("by customer = %+v, %v", lines, err)
	}

	q.SKUs = []string{"GC500"}
	tot, lines, err = s.SalesSummary(ctx, q)
	if err != nil || tot.Qty != 120 || tot.Amount != 1104000 || len(lines) != 1 || lines[0].Key != "C01" || lines[0].Qty != 120 || lines[0].Unit != "bottle" {
		t.Fatalf("who bought GC500 = %+v %+v, %v", tot, lines, err)
	}

	q.SKUs, q.By = nil, reports.ByDay
	_, lines, err = s.SalesSummary(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var days []string
	for _, l := range lines {
		days = append(days, l.Key)
	}
	if want := []string{"2026-02-22", "2026-03-04", "2026-03-13", "2026-03-14"}; !reflect.DeepEqual(days, want) {
		t.Fatalf("days = %v, want %v", days, want)
	}

	// By product for one customer: the orders are counted once each.
	tot, lines, err = s.SalesSummary(ctx, reports.SalesQuery{From: p.From, To: p.To, By: reports.ByProduct, CustomerIDs: []string{"C01"}})
	if err != nil || tot.Orders != 3 || tot.Groups != 3 || tot.Amount != 2844000 || len(lines) != 3 {
		t.Fatalf("C01 by product = %+v %+v, %v", tot, lines, err)
	}
	// A page past the end still has the totals.
	tot, lines, err = s.SalesSummary(ctx, reports.SalesQuery{From: p.From, To: p.To, By: reports.ByCustomer, Page: reports.Page{Offset: 9, Limit: 5}})
	if err != nil || tot.Orders != 4 || tot.Groups != 2 || tot.Amount != 4404000 || len(lines) != 0 {
		t.Fatalf("past the end = %+v %+v, %v", tot, lines, err)
	}

	lw, _ := reports.MakePeriod("last_week", reportstest.Now, loc)
	tot, _, err = s.SalesSummary(ctx, reports.SalesQuery{From: lw.From, To: lw.To, By: reports.ByProduct})
	if err != nil || tot.Orders != 1 || tot.Amount != 220800 {
		t.Fatalf("last week = %+v, %v", tot, err)
	}
}

func testMatch(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	for text, want := range map[string][]string{
		"GC500": {"GC500"}, "gc500": {"GC500"}, "glass cleaner 500ml": {"GC500"}, "colin": {"GC500"},
		"फिनाइल": {"PH1L"}, "cleaner": {"GC500"}, "l": {"BR01", "GC500", "NB100", "PH1L"}, "soap": nil,
		"": nil, "   ": nil, "%": nil, "_": nil, "'; DROP TABLE products; --": nil, "|": nil,
	} {
		got, err := s.MatchProducts(ctx, text, 6)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, n := range got {
			ids = append(ids, n.ID)
		}
		if !reflect.DeepEqual(ids, want) {
			t.Errorf("MatchProducts(%q) = %v, want %v", text, ids, want)
		}
	}
	got, err := s.MatchCustomers(ctx, "sharma ji", 6)
	if err != nil || len(got) != 1 || got[0].ID != "C02" {
		t.Fatalf("sharma ji = %v, %v", got, err)
	}
	got, err = s.MatchCustomers(ctx, "c03", 6)
	if err != nil || len(got) != 1 || got[0].Name != "Mehta Traders" {
		t.Fatalf("c03 = %v, %v", got, err)
	}
	if got, err := s.MatchProducts(ctx, "l", 2); err != nil || len(got) != 2 {
		t.Fatalf("limit 2 = %v, %v", got, err)
	}
}

// testCommittedFollows: what the stock questions say open orders hold
// follows the books as they change, even with the clock standing still
// (a backend may keep it between questions only while nothing moved).
func testCommittedFollows(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	check := func(step string, out, oversold int, outs ...string) {
		t.Helper()
		tot, _, err := s.StockCatalog(ctx, reports.Page{})
		if err != nil || tot.OutOfStock != out || tot.Oversold != oversold {
			t.Fatalf("%s: totals %+v, %v; want %d out, %d oversold", step, tot, err, out, oversold)
		}
		n, lines, err := s.StockOuts(ctx, reports.Page{})
		var got []string
		for _, l := range lines {
			got = append(got, l.SKU)
		}
		if err != nil || n != out || !reflect.DeepEqual(got, outs) {
			t.Fatalf("%s: outs %d %v, %v; want %v", step, n, got, err, outs)
		}
	}
	check("start", 2, 1, "BR01", "NB100")
	check("again", 2, 1, "BR01", "NB100")

	// A new open order takes all the phenyl left.
	o := domain.Order{ID: "ORD-2001", CustomerID: "C03", Payment: domain.PayCredit, Status: domain.OrderCommitted, CreatedAt: reportstest.Now,
		Lines: []domain.OrderLine{domain.PriceLine(domain.OrderLine{SKU: "PH1L", Qty: 1560, Price: 6500, GSTRate: 1800})}}
	o.Subtotal, o.GST = o.Lines[0].Amount, o.Lines[0].GSTAmount
	o.Total = o.Subtotal + o.GST
	if err := s.AddHistory(ctx, []domain.Order{o}, nil); err != nil {
		t.Fatal(err)
	}
	check("phenyl taken", 3, 1, "BR01", "NB100", "PH1L")
	if lines, _ := s.StockOf(ctx, []string{"PH1L"}); lines[0].Committed != 1800 {
		t.Fatalf("phenyl committed %d", lines[0].Committed)
	}

	// Brooms restocked, with the clock standing still.
	ps, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		if ps[i].SKU == "BR01" {
			ps[i].StockReady = 500
		}
	}
	if err := s.UpsertProducts(ctx, ps); err != nil {
		t.Fatal(err)
	}
	check("brooms restocked", 2, 0, "NB100", "PH1L")
}
