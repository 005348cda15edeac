package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// imported is history as a file gives it: an order per id with its lines
// priced, no payment mode, committed when dated; and payments, two of them
// alike and without a reference.
func imported(at time.Time) ([]domain.Order, []domain.Payment) {
	order := func(id, customer, by string, status domain.OrderStatus, ago time.Duration, lines ...domain.OrderLine) domain.Order {
		o := domain.Order{ID: id, CustomerID: customer, PlacedBy: by, Status: status, CreatedAt: at.Add(-ago)}
		o.CommittedAt = o.CreatedAt
		for _, l := range lines {
			l = domain.PriceLine(l)
			o.Lines = append(o.Lines, l)
			o.Subtotal += l.Amount
			o.GST += l.GSTAmount
		}
		o.Total = o.Subtotal + o.GST
		return o
	}
	day := 24 * time.Hour
	gc := func(n int64) domain.OrderLine {
		return domain.OrderLine{SKU: "GC500", Qty: n, Price: 9200, GSTRate: 1800}
	}
	orders := []domain.Order{
		order("T-5531", "C01", ravi, domain.OrderDelivered, 30*day, gc(120), domain.OrderLine{SKU: "BR01", Qty: 12, Price: 8000, GSTRate: 1200}),
		order("ORD-2000", "C02", "", domain.OrderCommitted, 2*day, gc(1000)),
		order("T-5533", "C01", sunil, domain.OrderCancelled, 9*day, gc(6)),
	}
	pays := []domain.Payment{
		{CustomerID: "C01", Amount: 1410240, Mode: domain.PayCheque, ReceivedAt: at.Add(-20 * day), Reference: "CHQ 004512"},
		{CustomerID: "C02", Amount: 50000, Mode: domain.PayCOD, ReceivedAt: at.Add(-3 * day)},
		{CustomerID: "C02", Amount: 50000, Mode: domain.PayCOD, ReceivedAt: at.Add(-3 * day)},
		{CustomerID: "C02", Amount: 150, Mode: domain.PayUPI, ReceivedAt: at.Add(-day), Reference: "UTR991"},
	}
	return orders, pays
}

// readOrders reads orders back by id, failing on any not found.
func readOrders(t *testing.T, s store.Store, ids ...string) []domain.Order {
	t.Helper()
	var out []domain.Order
	for _, id := range ids {
		o, found, err := s.Order(ctx, id)
		if err != nil || !found {
			t.Fatalf("Order(%s) = %v, %v", id, found, err)
		}
		out = append(out, o)
	}
	return out
}

func testImportHistory(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	orders, pays := imported(c.Now())
	sum, err := s.ImportHistory(ctx, orders, pays)
	if err != nil {
		t.Fatal(err)
	}
	if want := (domain.HistoryImport{Orders: domain.Tally{Added: 3}, Payments: domain.Tally{Added: 4}}); sum != want {
		t.Fatalf("first import = %+v, want %+v", sum, want)
	}
	for i, got := range readOrders(t, s, "T-5531", "ORD-2000", "T-5533") {
		if err := sameOrder(got, orders[i]); err != nil {
			t.Errorf("%s: %v", orders[i].ID, err)
		}
	}
	// The books stand as they were: stock, dues, and nothing held for
	// an order another system had open.
	if held, err := s.Committed(ctx, "GC500", "BR01"); err != nil || len(held) != 0 {
		t.Errorf("Committed = %v, %v; imported orders hold no stock", held, err)
	}
	if snap, err := s.Snapshot(ctx, "C02", []string{"GC500"}); err != nil || snap.Committed["GC500"] != 0 {
		t.Errorf("Snapshot committed %v, %v; want nothing held", snap.Committed, err)
	}
	cs, _ := s.Customers(ctx)
	ps, _ := s.Products(ctx)
	if !reflect.DeepEqual(cs, customers()) || !reflect.DeepEqual(ps, sortedProducts()) {
		t.Errorf("the import moved the books:\n%+v\n%+v", cs, ps)
	}
	// Munshi's next order number is past the imported ORD-2000.
	if id := placeBrooms(t, s, c); id != "ORD-2001" {
		t.Errorf("the next order placed is %s, want ORD-2001", id)
	}

	// The same file again changes nothing.
	before := readOrders(t, s, "T-5531", "ORD-2000", "T-5533")
	sum, err = s.ImportHistory(ctx, orders, pays)
	if err != nil {
		t.Fatal(err)
	}
	if want := (domain.HistoryImport{Orders: domain.Tally{Unchanged: 3}, Payments: domain.Tally{Unchanged: 4}}); sum != want {
		t.Fatalf("second import = %+v, want %+v", sum, want)
	}
	if after := readOrders(t, s, "T-5531", "ORD-2000", "T-5533"); !reflect.DeepEqual(after, before) {
		t.Errorf("a second import changed the orders:\n got %+v\nwant %+v", after, before)
	}
	if id := placeBrooms(t, s, c); id != "ORD-2002" {
		t.Errorf("the next order placed is %s, want ORD-2002", id)
	}
	// A file with a third payment alike adds only that one; a reference
	// in another case is the same payment.
	pays[3].Reference = "utr991"
	sum, err = s.ImportHistory(ctx, nil, append(pays, pays[1]))
	if err != nil {
		t.Fatal(err)
	}
	if want := (domain.HistoryImport{Payments: domain.Tally{Added: 1, Updated: 1, Unchanged: 3}}); sum != want {
		t.Errorf("import with a third payment alike = %+v, want %+v", sum, want)
	}
}

// sortedProducts are the suite's products as Products returns them, in
// SKU order.
func sortedProducts() []domain.Product {
	ps := products()
	return []domain.Product{ps[1], ps[0], ps[2]}
}

func testImportHistoryReplaces(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	orders, pays := imported(c.Now())
	if _, err := s.ImportHistory(ctx, orders, pays); err != nil {
		t.Fatal(err)
	}
	// The ERP corrected T-5531 (one line fewer, delivered a day later on
	// its books) and the cheque's amount.
	fixed := orders[0]
	fixed.Lines = fixed.Lines[:1]
	fixed.Subtotal, fixed.GST = fixed.Lines[0].Amount, fixed.Lines[0].GSTAmount
	fixed.Total = fixed.Subtotal + fixed.GST
	fixed.CreatedAt = fixed.CreatedAt.Add(24 * time.Hour)
	fixed.CommittedAt = fixed.CreatedAt
	cheque := pays[0]
	cheque.Amount = 1302720
	sum, err := s.ImportHistory(ctx, []domain.Order{fixed, orders[1]}, []domain.Payment{cheque})
	if err != nil {
		t.Fatal(err)
	}
	if want := (domain.HistoryImport{Orders: domain.Tally{Updated: 1, Unchanged: 1}, Payments: domain.Tally{Updated: 1}}); sum != want {
		t.Fatalf("corrected import = %+v, want %+v", sum, want)
	}
	if err := sameOrder(readOrders(t, s, "T-5531")[0], fixed); err != nil {
		t.Errorf("T-5531 not replaced: %v", err)
	}
	// T-5533, not in the corrected file, stays: an import never deletes.
	readOrders(t, s, "T-5533")
	// Imported the corrected way again: unchanged.
	sum, err = s.ImportHistory(ctx, []domain.Order{fixed}, []domain.Payment{cheque})
	if want := (domain.HistoryImport{Orders: domain.Tally{Unchanged: 1}, Payments: domain.Tally{Unchanged: 1}}); err != nil || sum != want {
		t.Errorf("again = %+v, %v; want %+v", sum, err, want)
	}
}

func testImportHistoryClashes(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	own, ownPays := history() // Munshi's own: O-0001, O-0002, and a cheque CHQ 004512 of C02
	if err := s.AddHistory(ctx, own, ownPays); err != nil {
		t.Fatal(err)
	}
	draft := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 24})
	batch, pays := imported(c.Now())
	mine := batch[0]
	mine.ID = "O-0002"
	held := batch[2]
	held.ID = draft.ID
	chq := domain.Payment{CustomerID: "C02", Amount: 400000, Mode: domain.PayCheque, ReceivedAt: c.Now(), Reference: "chq 004512"}
	_, err := s.ImportHistory(ctx, []domain.Order{batch[1], mine, held}, append(pays, chq))
	var clash *domain.HistoryClash
	if !errors.As(err, &clash) {
		t.Fatalf("ImportHistory = %v, want a *domain.HistoryClash", err)
	}
	if !reflect.DeepEqual(clash.Orders, []string{"O-0002", draft.ID}) || !reflect.DeepEqual(clash.Payments, []int{4}) {
		t.Errorf("clash = %+v, want orders O-0002 and %s, payment 4", clash, draft.ID)
	}
	// Nothing of the refused import is written, and Munshi's order stands.
	if _, found, _ := s.Order(ctx, "ORD-2000"); found {
		t.Error("ORD-2000 written by a refused import")
	}
	if err := sameOrder(readOrders(t, s, "O-0002")[0], own[1]); err != nil {
		t.Errorf("Munshi's O-0002 overwritten: %v", err)
	}
	if d, _, _ := s.DraftByID(ctx, draft.ID); d.Fingerprint != draft.Fingerprint {
		t.Errorf("draft %s changed", draft.ID)
	}
	// Munshi's cheque given again as it was recorded is the same payment.
	chq.Amount = 500000
	sum, err := s.ImportHistory(ctx, nil, []domain.Payment{chq})
	if want := (domain.HistoryImport{Payments: domain.Tally{Unchanged: 1}}); err != nil || sum != want {
		t.Errorf("Munshi's own cheque imported = %+v, %v; want %+v", sum, err, want)
	}
}

// testImportedHistoryInReports: imported orders count in sales and in the
// age of the oldest unpaid bill, but hold no stock and are not pending.
func testImportedHistoryInReports(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	day := 24 * time.Hour
	now := reportstest.Now
	order := func(id, customer string, status domain.OrderStatus, ago time.Duration, sku string, qty int64, price domain.Paise) domain.Order {
		l := domain.PriceLine(domain.OrderLine{SKU: sku, Qty: qty, Price: price, GSTRate: 1800})
		return domain.Order{ID: id, CustomerID: customer, Status: status, Lines: []domain.OrderLine{l}, Subtotal: l.Amount,
			GST: l.GSTAmount, Total: l.Amount + l.GSTAmount, CreatedAt: now.Add(-ago), CommittedAt: now.Add(-ago)}
	}
	history := []domain.Order{
		// Sharma's ₹1,60,000 was older than the records: now a bill of
		// ₹1,53,400 from 90 days ago covers it.
		order("T-9001", "C02", domain.OrderDelivered, 90*day, "PH1L", 2000, 6500),
		order("T-9002", "C03", domain.OrderDelivered, 3*day, "GC500", 10, 9200),
		order("T-9003", "C03", domain.OrderCommitted, 2*day, "GC500", 1000, 9200),
	}
	if _, err := s.ImportHistory(ctx, history, nil); err != nil {
		t.Fatal(err)
	}
	lines, err := s.StockOf(ctx, []string{"GC500"})
	if err != nil || len(lines) != 1 || lines[0].Committed != 96 {
		t.Fatalf("GC500 stock %+v, %v; want 96 committed, none for the imported T-9003", lines, err)
	}
	tot, lines, err := s.StockCatalog(ctx, reports.Page{Limit: 10})
	if err != nil || tot.OutOfStock != 2 || lines[1].SKU != "GC500" || lines[1].Committed != 96 {
		t.Fatalf("catalog %+v %+v, %v", tot, lines, err)
	}
	open, _, err := s.OpenOrders(ctx, reports.OpenOrdersQuery{})
	if want := (reports.OpenOrdersTotals{AwaitingApproval: 1, AwaitingApprovalValue: 260544, ToDeliver: 2, ToDeliverValue: 3958176}); err != nil || open != want {
		t.Fatalf("open orders %+v, %v; want %+v (imported history is not pending)", open, err, want)
	}
	p, err := reports.MakePeriod("last_30_days", now, domain.DefaultLocation())
	if err != nil {
		t.Fatal(err)
	}
	sales, _, err := s.SalesSummary(ctx, reports.SalesQuery{From: p.From, To: p.To, By: reports.ByCustomer, Page: reports.Page{Limit: 10}})
	if want := (reports.SalesTotals{Groups: 3, Orders: 6, Amount: 4404000 + 92000 + 9200000, GST: 735120 + 16560 + 1656000}); err != nil || sales != want {
		t.Errorf("sales %+v, %v; want %+v", sales, err, want)
	}
	_, dues, err := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C02"}, Page: reports.Page{Limit: 1}})
	if err != nil || len(dues) != 1 {
		t.Fatal(dues, err)
	}
	if d := dues[0]; d.OldestBill != "T-9001" || d.BeforeRecords || d.UnpaidBills != 3 || !d.OldestAt.Equal(now.Add(-90*day)) {
		t.Errorf("Sharma's oldest bill %+v; want T-9001 of 90 days ago, 3 bills, all on record", d)
	}
}

// testDuesOverALongHistory: a customer with more unpaid bills than one
// read of bills takes is dated past all of them, and a customer read
// after it is dated as when it is asked about alone.
func testDuesOverALongHistory(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	now := reportstest.Now
	var history []domain.Order
	const bills = 600
	for i := range bills {
		// ₹1 each: together far less than Rajesh owes.
		l := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 1, Price: 100, GSTRate: 0})
		at := now.Add(-time.Duration(bills-i) * time.Minute)
		history = append(history, domain.Order{ID: fmt.Sprintf("L-%04d", i), CustomerID: "C01", Status: domain.OrderDelivered,
			Lines: []domain.OrderLine{l}, Subtotal: l.Amount, Total: l.Amount, CreatedAt: at, CommittedAt: at})
	}
	if _, err := s.ImportHistory(ctx, history, nil); err != nil {
		t.Fatal(err)
	}
	dues := func(ids ...string) map[string]reports.Due {
		t.Helper()
		_, list, err := s.Dues(ctx, reports.DuesQuery{CustomerIDs: ids, Page: reports.Page{Limit: 10}})
		if err != nil || len(list) != len(ids) {
			t.Fatal(list, err)
		}
		by := map[string]reports.Due{}
		for _, d := range list {
			by[d.CustomerID] = d
		}
		return by
	}
	both, sharma := dues("C01", "C02"), dues("C02")["C02"]
	if r := both["C01"]; r.Outstanding <= bills*100 || r.UnpaidBills <= bills || strings.HasPrefix(r.OldestBill, "L-") {
		t.Errorf("Rajesh %+v; want every one of the %d small bills unpaid, and older ones", r, bills)
	}
	if got := both["C02"]; got.OldestBill != sharma.OldestBill || got.UnpaidBills != sharma.UnpaidBills ||
		!got.OldestAt.Equal(sharma.OldestAt) || got.BeforeRecords != sharma.BeforeRecords {
		t.Errorf("Sharma after Rajesh's long history: %+v; alone: %+v", got, sharma)
	}
}
