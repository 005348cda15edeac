package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/catalog"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
)

// Whose books: once an ERP owns a figure (stock, dues), what the chat
// records against it moves it at once and stays provisional until the
// ERP's data shows the same event; then it counts once, in the ERP's
// figure and in every sum of payments.

// settleWeek is how far a chat entry and the ERP's may be apart.
const settleWeek = 7

// erpBatch is a write of entity e at the clock's time, with watermark w.
func erpBatch(c *Clock, e erpsync.Entity, w string) erpsync.Batch {
	now := c.Now()
	return erpsync.Batch{Entity: e, State: erpsync.State{Entity: e, Watermark: w, LastRun: now, LastGood: now, Rows: 1}}
}

func erpSettle(c *Clock) erpsync.Settle { return erpsync.Settle{Days: settleWeek, Now: c.Now()} }

// erpDay is the local date of the clock, as an ERP dates what happened
// on it.
func erpDay(c *Clock) time.Time {
	y, m, d := c.Now().In(domain.DefaultLocation()).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, domain.DefaultLocation())
}

func synced(t *testing.T, what string) func(domain.Tally, error) domain.Tally {
	t.Helper()
	return func(n domain.Tally, err error) domain.Tally {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return n
	}
}

func syncDues(t *testing.T, s store.Store, c *Clock, id string, due domain.Paise) {
	t.Helper()
	synced(t, "sync dues")(s.SyncDues(ctx, erpBatch(c, erpsync.Dues, ""), []erpsync.DuesRow{{CustomerID: id, Outstanding: due}}))
}

func unsettled(t *testing.T, s store.Store) []erpsync.Provisional {
	t.Helper()
	ps, err := s.Unsettled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func wantOutstanding(t *testing.T, s store.Store, id string, want domain.Paise, why string) {
	t.Helper()
	if got := customer(t, s, id).Outstanding; got != want {
		t.Fatalf("%s: outstanding of %s %v, want %v", why, id, got, want)
	}
}

func wantReady(t *testing.T, s store.Store, sku string, want int64, why string) {
	t.Helper()
	if got := product(t, s, sku).StockReady; got != want {
		t.Fatalf("%s: %s ready %d, want %d", why, sku, got, want)
	}
}

// paymentsFrom is every payment received from two days before the
// suite's start until an hour from now.
func paymentsFrom(t *testing.T, s store.Store, c *Clock) reports.PaymentsTotals {
	t.Helper()
	tot, _, err := s.PaymentsReceived(ctx, reports.PaymentsQuery{From: T0.Add(-48 * time.Hour), To: c.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return tot
}

// testWhoseBooksPaymentOnce: a chat payment against dues the ERP owns
// lowers them at once, provisionally; the ERP's payment of the same
// amount settles it and is the same payment in the dues, in payments
// received and in the digest, on this run and the next. A reference in
// another case is the same payment too.
func testWhoseBooksPaymentOnce(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding
	syncDues(t, s, c, "C01", due)
	asOf := c.Now()
	if own, err := s.Owned(ctx); err != nil || !slices.Equal(own, []erpsync.Figure{erpsync.FigureDues}) {
		t.Fatalf("Owned = %v, %v; want the dues", own, err)
	}

	c.Advance(time.Hour)
	mustSay(t, "payment", svc.RecordPayment(ctx, books, "Rajesh 5000 cash").Text, "ok")
	mustSay(t, "payment ok", svc.Confirm(ctx, books, "").Text, "Recorded")
	wantOutstanding(t, s, "C01", due-500000, "a chat payment")
	un := unsettled(t, s)
	if len(un) != 1 || un[0].Figure != erpsync.FigureDues || un[0].Kind != "payment" || un[0].CustomerID != "C01" ||
		un[0].Amount != -500000 || un[0].Flagged {
		t.Fatalf("unsettled %+v; want the payment, -₹5,000 of C01's dues", un)
	}
	_, dues, err := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C01"}})
	if err != nil || len(dues) != 1 || dues[0].Provisional != 500000 || !dues[0].AsOf.Equal(asOf) {
		t.Fatalf("dues %+v, %v; want ₹5,000 recorded here, as of %v", dues, err, asOf)
	}
	if paid, err := s.UnsettledPayments(ctx, nil); err != nil || paid["C01"] != 500000 || len(paid) != 1 {
		t.Errorf("UnsettledPayments = %v, %v", paid, err)
	}

	// The ERP has not seen it yet: the dues stay as the chat left them.
	c.Advance(time.Hour)
	syncDues(t, s, c, "C01", due)
	wantOutstanding(t, s, "C01", due-500000, "an ERP run without the payment")

	// It has: its dues, then its payment, dated the day.
	c.Advance(time.Hour)
	syncDues(t, s, c, "C01", due-500000)
	erpPay := []domain.Payment{{CustomerID: "C01", Amount: 500000, Mode: domain.PayCOD, ReceivedAt: erpDay(c)}}
	n := synced(t, "sync payments")(s.SyncPayments(ctx, erpBatch(c, erpsync.Payments, "w1"), erpPay, erpSettle(c)))
	if n != (domain.Tally{Unchanged: 1}) {
		t.Errorf("tally %+v; want the payment found as it was", n)
	}
	wantOutstanding(t, s, "C01", due-500000, "the ERP's payment settled the chat's")
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the ERP's payment", un)
	}
	once := func(when string) {
		t.Helper()
		if tot := paymentsFrom(t, s, c); tot.Payments != 1 || tot.Amount != 500000 {
			t.Fatalf("%s: payments received %+v; want the one ₹5,000", when, tot)
		}
		sums, err := s.PaymentsIn(ctx, digest.Span{From: T0.Add(-48 * time.Hour), To: c.Now().Add(time.Hour)})
		if err != nil || len(sums) != 1 || sums[0].Payments != 1 || sums[0].Amount != 500000 {
			t.Fatalf("%s: digest payments %+v, %v", when, sums, err)
		}
	}
	once("settled")
	if _, dues, _ := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C01"}}); dues[0].Provisional != 0 {
		t.Errorf("dues %+v; want nothing provisional", dues[0])
	}

	// The next run reads the same payment again.
	c.Advance(2 * time.Minute)
	syncDues(t, s, c, "C01", due-500000)
	n = synced(t, "sync payments again")(s.SyncPayments(ctx, erpBatch(c, erpsync.Payments, "w2"), erpPay, erpSettle(c)))
	if n != (domain.Tally{Unchanged: 1}) {
		t.Errorf("second run's tally %+v", n)
	}
	wantOutstanding(t, s, "C01", due-500000, "a second run")
	once("a second run")

	// A reference the chat recorded is the ERP's whatever its case.
	mustSay(t, "upi", svc.RecordPayment(ctx, books, "Rajesh 2000 UPI ref utr555").Text, "ok")
	mustSay(t, "upi ok", svc.Confirm(ctx, books, "").Text, "Recorded")
	syncDues(t, s, c, "C01", due-700000)
	ref := []domain.Payment{{CustomerID: "C01", Amount: 200000, Mode: domain.PayUPI, ReceivedAt: erpDay(c).AddDate(0, 0, -1), Reference: "UTR555"}}
	synced(t, "sync by reference")(s.SyncPayments(ctx, erpBatch(c, erpsync.Payments, "w3"), append(erpPay, ref...), erpSettle(c)))
	wantOutstanding(t, s, "C01", due-700000, "settled by reference")
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the ERP's payment of that reference", un)
	}
	if tot := paymentsFrom(t, s, c); tot.Payments != 2 || tot.Amount != 700000 {
		t.Fatalf("payments received %+v; want ₹5,000 and ₹2,000, once each", tot)
	}
	// A payment only the ERP has is added once.
	other := append(append(erpPay, ref...), domain.Payment{CustomerID: "C02", Amount: 12345, Mode: domain.PayCheque, ReceivedAt: erpDay(c), Reference: "CHQ-9"})
	for range 2 {
		synced(t, "an ERP payment")(s.SyncPayments(ctx, erpBatch(c, erpsync.Payments, "w4"), other, erpSettle(c)))
	}
	if tot := paymentsFrom(t, s, c); tot.Payments != 3 || tot.Amount != 712345 {
		t.Fatalf("payments received %+v; want the ERP's cheque added once", tot)
	}
}

// testWhoseBooksFlaggedOnce: a chat payment the ERP never shows is
// returned by FlagUnsettled once it is older than the cutoff, with its
// message in the outbox, and never again.
func testWhoseBooksFlaggedOnce(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	syncDues(t, s, c, "C01", customer(t, s, "C01").Outstanding)
	mustSay(t, "payment", svc.RecordPayment(ctx, books, "Rajesh 5000 cash").Text, "ok")
	mustSay(t, "payment ok", svc.Confirm(ctx, books, "").Text, "Recorded")
	before, _ := s.OutboxDepth(ctx)
	told := 0
	tell := func(ps []erpsync.Provisional) []domain.Effect {
		told++
		return []domain.Effect{domain.WhatsApp(domain.Outbound{To: accounts, Body: fmt.Sprintf("%d entries not in the ERP's books", len(ps))})}
	}
	flag := func() []erpsync.Provisional {
		t.Helper()
		ps, err := s.FlagUnsettled(ctx, c.Now().AddDate(0, 0, -settleWeek), tell)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	if ps := flag(); len(ps) != 0 {
		t.Fatalf("flagged %+v on its first day", ps)
	}
	c.Advance(6 * 24 * time.Hour)
	if ps := flag(); len(ps) != 0 {
		t.Fatalf("flagged %+v within the week", ps)
	}
	c.Advance(2 * 24 * time.Hour)
	ps := flag()
	if len(ps) != 1 || ps[0].Kind != "payment" || ps[0].Amount != -500000 || !ps[0].Flagged {
		t.Fatalf("flagged %+v; want the payment, once", ps)
	}
	if depth, _ := s.OutboxDepth(ctx); depth != before+1 || told != 1 {
		t.Fatalf("outbox %d (was %d), told %d times; want one message", depth, before, told)
	}
	c.Advance(24 * time.Hour)
	if ps := flag(); len(ps) != 0 || told != 1 {
		t.Fatalf("flagged again: %+v", ps)
	}
	if un := unsettled(t, s); len(un) != 1 || !un[0].Flagged {
		t.Fatalf("unsettled %+v; want the payment, flagged and still unsettled", un)
	}
	// A payment of the same amount far past the week is another payment.
	late := []domain.Payment{{CustomerID: "C01", Amount: 500000, Mode: domain.PayCOD, ReceivedAt: erpDay(c)}}
	synced(t, "a late payment")(s.SyncPayments(ctx, erpBatch(c, erpsync.Payments, ""), late, erpSettle(c)))
	if un := unsettled(t, s); len(un) != 1 {
		t.Fatalf("a payment %d days later settled the chat's: %+v", 9, un)
	}
}

// testWhoseBooksStock: stock the ERP owns is its figure plus what the
// chat received and delivered since; the ERP's receipt and its sale of
// the same goods settle them.
func testWhoseBooksStock(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	stock := func(ready int64) {
		t.Helper()
		synced(t, "sync stock")(s.SyncStock(ctx, erpBatch(c, erpsync.Stock, ""), []erpsync.StockRow{{SKU: "GC500", Ready: ready}}))
	}
	stock(1000)
	asOf := c.Now()
	wantReady(t, s, "GC500", 1000, "the ERP's stock")
	if p := product(t, s, "GC500"); p.StockWIP != 480 {
		t.Errorf("WIP %d; want it kept when the mapping names none", p.StockWIP)
	}

	c.Advance(time.Hour)
	mustSay(t, "receipt", svc.ReceiveGoods(ctx, books, "GC 5 carton aaya").Text, "+5 cartons")
	mustSay(t, "receipt ok", svc.Confirm(ctx, books, "").Text, "Stock updated")
	wantReady(t, s, "GC500", 1120, "goods received in the chat")
	if un := unsettled(t, s); len(un) != 1 || un[0].Figure != erpsync.FigureStock || un[0].Kind != "receipt" || un[0].SKU != "GC500" || un[0].Qty != 120 {
		t.Fatalf("unsettled %+v; want the receipt of 120", un)
	}
	lines, err := s.StockOf(ctx, []string{"GC500"})
	if err != nil || len(lines) != 1 || lines[0].Ready != 1120 || lines[0].Provisional != 120 || !lines[0].AsOf.Equal(asOf) {
		t.Fatalf("stock %+v, %v; want 1,120 ready, 120 of it recorded here, as of %v", lines, err, asOf)
	}
	stock(1000)
	wantReady(t, s, "GC500", 1120, "an ERP run without the receipt")

	// The ERP's run with it: its stock, then its receipt.
	c.Advance(time.Hour)
	stock(1120)
	receipt := []erpsync.Receipt{{Reference: "GRN-7/1", SKU: "GC500", Qty: 120, Date: erpDay(c)}}
	if n := synced(t, "sync receipts")(s.SyncReceipts(ctx, erpBatch(c, erpsync.Receipts, ""), receipt, erpSettle(c))); n.Added != 1 {
		t.Errorf("receipts tally %+v", n)
	}
	wantReady(t, s, "GC500", 1120, "the ERP's receipt settled the chat's")
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the ERP's receipt", un)
	}
	if n := synced(t, "sync receipts again")(s.SyncReceipts(ctx, erpBatch(c, erpsync.Receipts, ""), receipt, erpSettle(c))); n.Unchanged != 1 {
		t.Errorf("second receipts tally %+v", n)
	}
	stock(1120)
	wantReady(t, s, "GC500", 1120, "a second run")

	// A delivery in the chat, and the ERP's sale of it.
	o := placeOrder(t, s, c, svc, domain.PayCOD, orders.Item{SKU: "GC500", Qty: 48})
	mustSay(t, "delivery", svc.Deliver(ctx, books, o.ID+" delivered").Text, "ok")
	mustSay(t, "delivery ok", svc.Confirm(ctx, books, "").Text, "delivered")
	wantReady(t, s, "GC500", 1072, "a delivery in the chat")
	if un := unsettled(t, s); len(un) != 1 || un[0].Kind != "delivery" || un[0].Qty != -48 || un[0].CustomerID != "C01" || un[0].Reference != o.ID {
		t.Fatalf("unsettled %+v; want the delivery of 48 to C01", un)
	}
	stock(1072)
	line := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 48, Price: 9200, GSTRate: 1800})
	sale := domain.Order{ID: "INV-301", CustomerID: "C01", Payment: domain.PayCOD, Status: domain.OrderDelivered, Lines: []domain.OrderLine{line},
		Subtotal: line.Amount, GST: line.GSTAmount, Total: line.Amount + line.GSTAmount, CreatedAt: erpDay(c), DeliveredAt: erpDay(c)}
	synced(t, "sync sales")(s.SyncSales(ctx, erpBatch(c, erpsync.Sales, ""), []domain.Order{sale}, erpSettle(c)))
	wantReady(t, s, "GC500", 1072, "the ERP's sale settled the delivery")
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the ERP's sale", un)
	}
	if got, found, _ := s.Order(ctx, "INV-301"); !found || got.Status != domain.OrderDelivered {
		t.Errorf("the ERP's sale in the books: %+v, %v", got, found)
	}
}

// testWhoseBooksMadeFromWIP: goods the chat records as made from
// production leave the ERP's work in progress as they join its ready
// stock, until the ERP's receipt shows them: neither figure counts them
// twice in between.
func testWhoseBooksMadeFromWIP(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	stock := func(ready, wip int64) {
		t.Helper()
		synced(t, "sync stock")(s.SyncStock(ctx, erpBatch(c, erpsync.Stock, ""), []erpsync.StockRow{{SKU: "GC500", Ready: ready, WIP: wip, HasWIP: true}}))
	}
	want := func(ready, wip int64, why string) {
		t.Helper()
		if p := product(t, s, "GC500"); p.StockReady != ready || p.StockWIP != wip {
			t.Errorf("%s: ready %d, WIP %d; want %d and %d", why, p.StockReady, p.StockWIP, ready, wip)
		}
	}
	stock(1000, 480)
	want(1000, 480, "the ERP's stock")

	c.Advance(time.Hour)
	mustSay(t, "made", svc.ReceiveGoods(ctx, books, "production se GC 5 carton aaya").Text, "production")
	mustSay(t, "made ok", svc.Confirm(ctx, books, "").Text, "Stock updated")
	want(1120, 360, "made in the chat")
	stock(1000, 480)
	want(1120, 360, "an ERP run that does not show it yet")

	c.Advance(time.Hour)
	stock(1120, 360)
	receipt := []erpsync.Receipt{{Reference: "PRD-9/1", SKU: "GC500", Qty: 120, Date: erpDay(c)}}
	synced(t, "sync receipts")(s.SyncReceipts(ctx, erpBatch(c, erpsync.Receipts, ""), receipt, erpSettle(c)))
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the ERP's receipt", un)
	}
	stock(1120, 360)
	want(1120, 360, "the ERP's receipt settled it")
}

// testWhoseBooksSaleCountsOnce: an order taken in the chat that the ERP
// then shows as its own sale (same customer and lines, under its own
// number) counts once in sales, as the ERP's; the chat's order stays for
// its status. An ERP sale of other lines pairs with nothing.
func testWhoseBooksSaleCountsOnce(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	from := c.Now().Add(-time.Hour)
	sales := func() reports.SalesTotals {
		t.Helper()
		tot, _, err := s.SalesSummary(ctx, reports.SalesQuery{From: from, To: c.Now().Add(time.Hour), By: reports.ByCustomer, Page: reports.Page{Limit: 10}})
		if err != nil {
			t.Fatal(err)
		}
		return tot
	}
	o := placeOrder(t, s, c, svc, domain.PayCOD, orders.Item{SKU: "GC500", Qty: 48})
	if got := sales(); got.Orders != 1 || got.Amount != o.Subtotal {
		t.Fatalf("sales after the chat's order: %+v; want it, %s", got, o.Subtotal)
	}
	erpSale := func(id string, qty int64) domain.Order {
		line := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: qty, Price: 9200, GSTRate: 1800})
		return domain.Order{ID: id, CustomerID: "C01", Payment: domain.PayCOD, Status: domain.OrderCommitted, Lines: []domain.OrderLine{line},
			Subtotal: line.Amount, GST: line.GSTAmount, Total: line.Amount + line.GSTAmount, CreatedAt: c.Now()}
	}
	c.Advance(10 * time.Minute)
	synced(t, "sync sales")(s.SyncSales(ctx, erpBatch(c, erpsync.Sales, ""), []domain.Order{erpSale("INV-9001", 48)}, erpSettle(c)))
	if got := sales(); got.Orders != 1 || got.Amount != o.Subtotal {
		t.Errorf("sales once the ERP shows the chat's order: %+v; want one order of %s", got, o.Subtotal)
	}
	if got, found, _ := s.Order(ctx, o.ID); !found || got.Status != domain.OrderCommitted {
		t.Errorf("the chat's order after pairing: %+v, %v; want it kept, committed", got, found)
	}
	// Again: the pair holds, nothing moves.
	synced(t, "sync sales again")(s.SyncSales(ctx, erpBatch(c, erpsync.Sales, ""), []domain.Order{erpSale("INV-9001", 48)}, erpSettle(c)))
	if got := sales(); got.Orders != 1 {
		t.Errorf("sales after a second run: %+v", got)
	}
	// Another sale of the customer's, of other lines, is a sale of its own.
	synced(t, "sync another sale")(s.SyncSales(ctx, erpBatch(c, erpsync.Sales, ""), []domain.Order{erpSale("INV-9002", 24)}, erpSettle(c)))
	if got := sales(); got.Orders != 2 {
		t.Errorf("sales after an unrelated ERP sale: %+v; want two orders", got)
	}

	// A second chat order, entered in the ERP as an open order first; its
	// sale arrives while the open order is still open, and the open order
	// closes after: the chat's order ends paired with the sale.
	o2 := placeOrder(t, s, c, svc, domain.PayCOD, orders.Item{SKU: "GC500", Qty: 72})
	c.Advance(10 * time.Minute)
	synced(t, "sync open orders")(s.SyncOpenOrders(ctx, erpBatch(c, erpsync.OpenOrders, ""), []domain.Order{erpSale("SO-77", 72)}, true, erpSettle(c)))
	if got := sales(); got.Orders != 3 {
		t.Errorf("sales with the ERP's open order: %+v; want three orders", got)
	}
	synced(t, "sync its sale")(s.SyncSales(ctx, erpBatch(c, erpsync.Sales, ""), []domain.Order{erpSale("INV-9003", 72)}, erpSettle(c)))
	synced(t, "close the open order")(s.SyncOpenOrders(ctx, erpBatch(c, erpsync.OpenOrders, ""), nil, true, erpSettle(c)))
	// 48 + 24 + 72 bottles at ₹92: each sale once.
	if got := sales(); got.Orders != 3 || got.Amount != domain.Paise((48+24+72)*9200) || o2.Subtotal != domain.Paise(72*9200) {
		t.Errorf("sales once the open order became a sale: %+v; want three orders of 144 bottles", got)
	}
}

// testWhoseBooksCreditOrder: a credit order's dues are provisional until
// the ERP's bill for it (within ₹1), which then dates the dues; a
// cancelled credit order leaves nothing to settle.
func testWhoseBooksCreditOrder(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding
	syncDues(t, s, c, "C01", due)
	o := placeOrder(t, s, c, svc, domain.PayCredit, orders.Item{SKU: "GC500", Qty: 240})
	wantOutstanding(t, s, "C01", due+o.Total, "a credit order")
	if un := unsettled(t, s); len(un) != 1 || un[0].Kind != "order" || un[0].Amount != o.Total || un[0].Reference != o.ID {
		t.Fatalf("unsettled %+v; want the order's %v", un, o.Total)
	}
	syncDues(t, s, c, "C01", due)
	wantOutstanding(t, s, "C01", due+o.Total, "an ERP run before the bill")

	c.Advance(time.Hour)
	syncDues(t, s, c, "C01", due+o.Total+50)
	bill := []erpsync.Bill{{Number: "B-77", CustomerID: "C01", Date: erpDay(c), Amount: o.Total + 50, Balance: o.Total + 50}}
	synced(t, "sync bills")(s.SyncBills(ctx, erpBatch(c, erpsync.Bills, ""), bill, true, erpSettle(c)))
	wantOutstanding(t, s, "C01", due+o.Total+50, "the bill settled the order")
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the bill", un)
	}
	_, dues, err := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C01"}})
	if err != nil || dues[0].OldestBill != "B-77" || !dues[0].OldestAt.Equal(erpDay(c)) || dues[0].UnpaidBills != 1 || !dues[0].BeforeRecords {
		t.Fatalf("dues %+v, %v; want the ERP's bill B-77 as the oldest, the opening balance before it", dues, err)
	}
	if n := synced(t, "sync bills again")(s.SyncBills(ctx, erpBatch(c, erpsync.Bills, ""), bill, true, erpSettle(c))); n.Unchanged != 1 {
		t.Errorf("second bills tally %+v", n)
	}
	wantOutstanding(t, s, "C01", due+o.Total+50, "a second run")

	// Every bill paid: the dues are dated as Munshi's records date them.
	synced(t, "no unpaid bills")(s.SyncBills(ctx, erpBatch(c, erpsync.Bills, ""), nil, true, erpSettle(c)))
	if _, dues, _ := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C01"}}); dues[0].OldestBill != o.ID {
		t.Errorf("dues %+v; want the oldest bill from the orders once the ERP's are paid", dues[0])
	}

	// A credit order cancelled before its bill leaves nothing provisional.
	o2 := placeOrder(t, s, c, svc, domain.PayCredit, orders.Item{SKU: "BR01", Qty: 12})
	mustSay(t, "cancel", svc.Cancel(ctx, boss, o2.ID, "cancel "+o2.ID).Text, "ok")
	mustSay(t, "cancel ok", svc.Confirm(ctx, boss, "").Text, "cancelled")
	wantOutstanding(t, s, "C01", due+o.Total+50, "a cancelled credit order")
	if un := unsettled(t, s); len(un) != 0 {
		t.Fatalf("unsettled %+v after the cancellation", un)
	}
}

// testWhoseBooksDeactivate: what the ERP no longer lists is inactive — no
// new orders, out of the stock answers and the chat's vocabulary — and
// history keeps its name; listed again, it is active again.
func testWhoseBooksDeactivate(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	placeOrder(t, s, c, svc, domain.PayCOD, orders.Item{SKU: "BR01", Qty: 24})
	n, err := s.Deactivate(ctx, erpsync.Products, []string{"GC500", "X1"}, erpBatch(c, erpsync.Products, ""))
	if err != nil || n != 1 {
		t.Fatalf("Deactivate = %d, %v; want the broom", n, err)
	}
	if p := product(t, s, "BR01"); !p.Inactive || p.Name != "Floor Broom" {
		t.Errorf("BR01 = %+v; want it kept, inactive", p)
	}
	if ps, _ := s.Products(ctx); len(ps) != 3 {
		t.Errorf("%d products; want every one, inactive too", len(ps))
	}
	_, sales, err := s.SalesSummary(ctx, reports.SalesQuery{From: T0.Add(-time.Hour), To: c.Now().Add(time.Hour), By: reports.ByProduct})
	if err != nil || len(sales) != 1 || sales[0].Key != "BR01" || sales[0].Label != "Floor Broom" {
		t.Errorf("sales %+v, %v; want the broom's history under its name", sales, err)
	}
	tot, lines, err := s.StockCatalog(ctx, reports.Page{})
	if err != nil || tot.Products != 2 || slices.ContainsFunc(lines, func(l reports.StockLine) bool { return l.SKU == "BR01" }) {
		t.Errorf("stock %+v %+v, %v; want the broom left out", tot, lines, err)
	}
	if lines, _ := s.StockOf(ctx, []string{"BR01"}); len(lines) != 0 {
		t.Errorf("stock of the broom %+v", lines)
	}
	if needs, _ := s.StockNeeds(ctx, reports.StockNeedsQuery{From: T0.Add(-time.Hour), To: c.Now(), Limit: 10}); slices.ContainsFunc(needs,
		func(l reports.StockLine) bool { return l.SKU == "BR01" }) {
		t.Errorf("stock needs %+v name the broom", needs)
	}
	snap, err := s.Snapshot(ctx, "C01", []string{"BR01", "GC500"})
	if _, broom := snap.Products["BR01"]; err != nil || broom || len(snap.Products) != 1 {
		t.Errorf("snapshot %+v, %v; want the broom out of new orders", snap.Products, err)
	}
	v, err := catalog.Vocabulary(ctx, s)
	if err != nil || slices.ContainsFunc(v.Products, func(p domain.Product) bool { return p.SKU == "BR01" }) || len(v.Products) != 2 {
		t.Errorf("vocabulary %+v, %v; want the broom left out", v.Products, err)
	}
	// Listed again.
	n, err = s.Deactivate(ctx, erpsync.Products, []string{"GC500", "X1", "BR01"}, erpBatch(c, erpsync.Products, ""))
	if err != nil || n != 0 || product(t, s, "BR01").Inactive {
		t.Errorf("Deactivate = %d, %v, broom %+v; want it active again", n, err, product(t, s, "BR01"))
	}
	if _, err := s.Deactivate(ctx, erpsync.Products, []string{"GC500", "X1"}, erpBatch(c, erpsync.Products, "")); err != nil {
		t.Fatal(err)
	}
	br := products()[1]
	br.PackSizes, br.Aliases = nil, nil // the ERP knows neither
	synced(t, "sync products")(s.SyncProducts(ctx, erpBatch(c, erpsync.Products, ""), []domain.Product{br}))
	if p := product(t, s, "BR01"); p.Inactive || len(p.PackSizes) != 1 || len(p.Aliases) != 3 || p.StockReady != 600 {
		t.Errorf("broom synced again = %+v; want it active, its packs, aliases and stock kept", p)
	}
	if _, err := s.Deactivate(ctx, erpsync.Products, nil, erpBatch(c, erpsync.Products, "")); err == nil {
		t.Error("a listing of no products made every one inactive")
	}

	// Customers: no new orders; dues still shown.
	if n, err := s.Deactivate(ctx, erpsync.Customers, []string{"C02", "C03"}, erpBatch(c, erpsync.Customers, "")); err != nil || n != 1 {
		t.Fatalf("Deactivate customers = %d, %v", n, err)
	}
	if cu := customer(t, s, "C01"); !cu.Inactive || cu.Name != "Rajesh Kirana Store" {
		t.Errorf("C01 = %+v", cu)
	}
	if _, err := s.Snapshot(ctx, "C01", []string{"GC500"}); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("snapshot of an inactive customer: %v; want not found", err)
	}
	if r := svc.Take(ctx, salesRavi, intent.Decision{Text: "Rajesh ke liye 5 carton GC COD"}); !strings.Contains(r.Text, "no longer an active customer") {
		t.Errorf("an order for an inactive customer = %q", r.Text)
	}
	_, dues, err := s.Dues(ctx, reports.DuesQuery{})
	if err != nil || !slices.ContainsFunc(dues, func(d reports.Due) bool { return d.CustomerID == "C01" }) {
		t.Errorf("dues %+v, %v; want C01, who still owes", dues, err)
	}
	if v, _ := catalog.Vocabulary(ctx, s); !slices.ContainsFunc(v.Customers, func(c domain.Customer) bool { return c.ID == "C01" }) {
		t.Error("C01, who still owes, is out of the vocabulary: their payments could not be read")
	}
}

// testWhoseBooksBadRow: a batch with a bad row writes nothing, not its
// state, not the figures it would own.
func testWhoseBooksBadRow(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	good := []erpsync.Bill{{Number: "B-1", CustomerID: "C01", Date: erpDay(c), Amount: 100000, Balance: 100000}}
	synced(t, "sync bills")(s.SyncBills(ctx, erpBatch(c, erpsync.Bills, "w1"), good, false, erpSettle(c)))
	c.Advance(time.Minute)
	bad := []erpsync.Bill{{Number: "B-2", CustomerID: "C01", Date: erpDay(c), Amount: 5000, Balance: 5000},
		{Number: "B-3", CustomerID: "C99", Date: erpDay(c), Amount: 5000, Balance: 5000}}
	if _, err := s.SyncBills(ctx, erpBatch(c, erpsync.Bills, "w2"), bad, true, erpSettle(c)); err == nil {
		t.Fatal("a bill of an unknown customer was taken")
	}
	states, err := s.SyncStates(ctx)
	if err != nil || len(states) != 1 || states[0].Watermark != "w1" || !states[0].LastRun.Equal(T0) {
		t.Fatalf("states %+v, %v; want the good run's", states, err)
	}
	if _, dues, _ := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{"C01"}}); dues[0].OldestBill != "B-1" || dues[0].UnpaidBills != 1 {
		t.Errorf("dues %+v; want B-1 alone, unpaid", dues[0])
	}
	gc := products()[0]
	gc.Name = "Renamed"
	if _, err := s.SyncProducts(ctx, erpBatch(c, erpsync.Products, "p"), []domain.Product{gc, gc}); err == nil {
		t.Error("a product twice in one batch was taken")
	}
	if p := product(t, s, "GC500"); p.Name != "Glass Cleaner 500ml" {
		t.Errorf("GC500 renamed %q by a refused batch", p.Name)
	}
	if _, err := s.SyncStock(ctx, erpBatch(c, erpsync.Stock, "s"), []erpsync.StockRow{{SKU: "GC500", Ready: 1}, {SKU: "NOPE", Ready: 2}}); err == nil {
		t.Error("stock of an unknown product was taken")
	}
	wantReady(t, s, "GC500", 2400, "a refused stock batch")
	if own, _ := s.Owned(ctx); len(own) != 0 {
		t.Errorf("a refused batch made the ERP own %v", own)
	}
	pay := []domain.Payment{{CustomerID: "C01", Amount: 100, Mode: domain.PayUPI, ReceivedAt: erpDay(c), Reference: "R1"},
		{CustomerID: "C01", Amount: 200, Mode: domain.PayUPI, ReceivedAt: erpDay(c), Reference: "r1"}}
	if _, err := s.SyncPayments(ctx, erpBatch(c, erpsync.Payments, "x"), pay, erpSettle(c)); err == nil {
		t.Error("a reference twice in one batch was taken")
	}
	line := domain.PriceLine(domain.OrderLine{SKU: "NOPE", Qty: 1, Price: 100, GSTRate: 1800})
	sale := domain.Order{ID: "INV-1", CustomerID: "C01", Status: domain.OrderDelivered, Lines: []domain.OrderLine{line}, CreatedAt: erpDay(c)}
	if _, err := s.SyncSales(ctx, erpBatch(c, erpsync.Sales, "x"), []domain.Order{sale}, erpSettle(c)); err == nil {
		t.Error("a sale of an unknown product was taken")
	}
	if states, _ := s.SyncStates(ctx); len(states) != 1 {
		t.Errorf("states %+v; want only the good bills run", states)
	}
	if tot := paymentsFrom(t, s, c); tot.Payments != 0 {
		t.Errorf("payments %+v written by a refused batch", tot)
	}
}

// testWhoseBooksState: a batch's state reads back as written, in run
// order; a failure keeps the last good run, its watermark and rows, and
// counts the failures in a row.
func testWhoseBooksState(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	now := c.Now()
	st := erpsync.State{Entity: erpsync.Stock, Watermark: "2026-03-14 14:59:00", LastRun: now, LastGood: now.Add(-time.Second), Rows: 3}
	synced(t, "sync stock")(s.SyncStock(ctx, erpsync.Batch{Entity: erpsync.Stock, State: st}, []erpsync.StockRow{{SKU: "GC500", Ready: 5, WIP: 6, HasWIP: true}}))
	synced(t, "sync products")(s.SyncProducts(ctx, erpBatch(c, erpsync.Products, ""), nil))
	states, err := s.SyncStates(ctx)
	if err != nil || len(states) != 2 || states[0].Entity != erpsync.Products || !sameState(states[1], st) {
		t.Fatalf("states %+v, %v; want products, then %+v", states, err, st)
	}
	if p := product(t, s, "GC500"); p.StockReady != 5 || p.StockWIP != 6 {
		t.Errorf("GC500 %d/%d; want the ERP's 5 ready, 6 in production", p.StockReady, p.StockWIP)
	}
	if own, err := s.Owned(ctx); err != nil || !slices.Equal(own, []erpsync.Figure{erpsync.FigureStock}) {
		t.Errorf("Owned = %v, %v", own, err)
	}
	if at, err := s.SyncedAt(ctx); err != nil || len(at) != 1 || !at["stock"].Equal(st.LastGood) {
		t.Errorf("SyncedAt = %v, %v; want the stock as of its last good run", at, err)
	}

	c.Advance(time.Minute)
	if err := s.RecordSyncFailure(ctx, erpsync.Stock, c.Now(), "erp: query timed out"); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Minute)
	if err := s.RecordSyncFailure(ctx, erpsync.Stock, c.Now(), "erp: connection refused"); err != nil {
		t.Fatal(err)
	}
	failed := st
	failed.LastRun, failed.LastError, failed.Failures = c.Now(), "erp: connection refused", 2
	states, _ = s.SyncStates(ctx)
	if !sameState(states[1], failed) {
		t.Errorf("after two failures %+v; want %+v", states[1], failed)
	}
	if err := s.RecordSyncFailure(ctx, erpsync.Bills, c.Now(), "erp: no such table"); err != nil {
		t.Fatal(err)
	}
	states, _ = s.SyncStates(ctx)
	want := erpsync.State{Entity: erpsync.Bills, LastRun: c.Now(), LastError: "erp: no such table", Failures: 1}
	if len(states) != 3 || !sameState(states[2], want) {
		t.Errorf("a first run that failed: %+v; want %+v", states, want)
	}
	if p := product(t, s, "GC500"); p.StockReady != 5 {
		t.Errorf("a failure moved the stock to %d", p.StockReady)
	}
}

func sameState(a, b erpsync.State) bool {
	return a.Entity == b.Entity && a.Watermark == b.Watermark && a.LastRun.Equal(b.LastRun) && a.LastGood.Equal(b.LastGood) &&
		a.Rows == b.Rows && a.LastError == b.LastError && a.Failures == b.Failures
}
