package storetest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
)

// The books after an order: deliveries, cancellations, payments and goods
// received go through orders.Service as Munshi wires it, so the judgement
// inside Settle is the orders package's own, and the suite states what a
// backend must keep: a change applied once whatever the race, a payment
// reference once per customer, and the stock and dues it moves.

var (
	boss  = domain.User{Phone: owner, Name: "Owner", Role: domain.RoleOwner}
	books = domain.User{Phone: accounts, Name: "Accounts", Role: domain.RoleAccounts}
)

// ledgerService is service with a parser that knows the suite's catalog
// and customers by name, as the messages it reads name them.
func ledgerService(t *testing.T, s store.Store, c *Clock) *orders.Service {
	t.Helper()
	svc := service(t, s, c)
	r, err := intent.NewRouter(intent.Vocabulary{Products: products(), Customers: customers()}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc.Parser = orders.NewParser(r, products(), customers())
	return svc
}

// placeOrder commits a draft through the placer's ok.
func placeOrder(t *testing.T, s store.Store, c *Clock, svc *orders.Service, pay domain.PaymentMode, items ...orders.Item) domain.Order {
	t.Helper()
	d := show(t, s, c, ravi, "C01", pay, items...)
	if reply := svc.Confirm(ctx, salesRavi, ""); !strings.Contains(reply.Text, "placed") {
		t.Fatalf("ok = %q", reply.Text)
	}
	id := orderOf(t, s, d.ID)
	o, found, err := s.Order(ctx, id)
	if err != nil || !found {
		t.Fatalf("Order(%s) = %v, %v", id, found, err)
	}
	return o
}

func customer(t *testing.T, s store.Store, id string) domain.Customer {
	t.Helper()
	cs, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no customer %s", id)
	return domain.Customer{}
}

func product(t *testing.T, s store.Store, sku string) domain.Product {
	t.Helper()
	ps, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.SKU == sku {
			return p
		}
	}
	t.Fatalf("no product %s", sku)
	return domain.Product{}
}

func mustSay(t *testing.T, what, reply string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(reply, w) {
			t.Fatalf("%s: reply %q, want it to say %q", what, reply, w)
		}
	}
}

// testDeliverShort: a short delivery delivers the rest, takes it out of
// ready stock, releases the shortfall, re-prices the order and moves a
// credit order's dues with it; the placer is told. The line keeps what
// was ordered beside what was not delivered.
func testDeliverShort(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	o := placeOrder(t, s, c, svc, domain.PayCredit, orders.Item{SKU: "GC500", Qty: 240}, orders.Item{SKU: "BR01", Qty: 24})
	dueBefore := customer(t, s, "C01").Outstanding
	before := outboxTo(t, s)["whatsapp "+ravi]

	shown := svc.Deliver(ctx, books, o.ID+" delivered, GC 2 carton kam")
	mustSay(t, "delivery summary", shown.Text, o.ID, "8 of 10 cartons delivered, 2 cartons short", "Floor Broom: all 2 dozen delivered", "ok")
	if _, found, _ := s.Order(ctx, o.ID); !found {
		t.Fatal("order gone before ok")
	}
	if got, _, _ := s.Order(ctx, o.ID); got.Status != domain.OrderCommitted {
		t.Fatalf("status %s before ok, want committed", got.Status)
	}
	done := svc.Confirm(ctx, books, "")
	mustSay(t, "delivery ok", done.Text, o.ID, "delivered")

	got, _, err := s.Order(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	gc := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 192, Price: 9200, GSTRate: 1800})
	br := domain.PriceLine(domain.OrderLine{SKU: "BR01", Qty: 24, Price: 8000, GSTRate: 1200})
	total := gc.Amount + gc.GSTAmount + br.Amount + br.GSTAmount
	if got.Status != domain.OrderDelivered || got.Total != total || len(got.Lines) != 2 || got.Lines[0].Qty != 240 ||
		got.Lines[0].Short != 48 || got.Lines[0].Amount != gc.Amount || got.Lines[1].Short != 0 {
		t.Errorf("delivered order = %+v, want 240 GC ordered, 48 short, and total %v", got, total)
	}
	if p := product(t, s, "GC500"); p.StockReady != 2400-192 {
		t.Errorf("GC ready %d, want %d: what was delivered leaves the godown", p.StockReady, 2400-192)
	}
	if held, _ := s.Committed(ctx, "GC500", "BR01"); held["GC500"] != 0 || held["BR01"] != 0 {
		t.Errorf("committed %v after delivery, want none", held)
	}
	if due := customer(t, s, "C01").Outstanding; due != dueBefore-(o.Total-total) {
		t.Errorf("outstanding %v, want %v: the re-priced order's dues", due, dueBefore-(o.Total-total))
	}
	if n := outboxTo(t, s)["whatsapp "+ravi]; n != before+1 {
		t.Errorf("%d messages to the placer, want one more", n-before)
	}
	if again := svc.Confirm(ctx, books, ""); !strings.Contains(again.Text, "already") {
		t.Errorf("second ok = %q, want already recorded", again.Text)
	}
	if twice := svc.Deliver(ctx, books, o.ID+" delivered"); !strings.Contains(twice.Text, "already delivered") {
		t.Errorf("delivering twice = %q", twice.Text)
	}
}

// testDeliverOnly: "only" delivers what it names and
// nothing else; the line not delivered stays on the order, billed nothing,
// with its stock released, and what reads sales counts what was delivered.
func testDeliverOnly(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	o := placeOrder(t, s, c, svc, domain.PayCredit, orders.Item{SKU: "GC500", Qty: 240}, orders.Item{SKU: "BR01", Qty: 24})
	dueBefore := customer(t, s, "C01").Outstanding

	shown := svc.Deliver(ctx, books, o.ID+" delivered, sirf 3 carton GC gaya")
	mustSay(t, "delivery summary", shown.Text, "3 of 10 cartons delivered, 7 cartons short", "Floor Broom: not delivered, 0 of 2 dozen", "ok")
	mustSay(t, "delivery ok", svc.Confirm(ctx, books, "").Text, "not delivered: Floor Broom")

	got, _, err := s.Order(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	gc := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 240, Short: 168, Price: 9200, GSTRate: 1800})
	total := gc.Amount + gc.GSTAmount
	if len(got.Lines) != 2 {
		t.Fatalf("lines %+v, want both kept", got.Lines)
	}
	if l := got.Lines[0]; l.SKU != "GC500" || l.Qty != 240 || l.Short != 168 || l.Delivered() != 72 || l.Amount != gc.Amount {
		t.Errorf("GC line %+v, want 240 ordered, 72 delivered, billed %v", l, gc.Amount)
	}
	if l := got.Lines[1]; l.SKU != "BR01" || l.Qty != 24 || l.Short != 24 || l.Amount != 0 || l.GSTAmount != 0 {
		t.Errorf("broom line %+v, want 24 ordered, none delivered nor billed", l)
	}
	if got.Status != domain.OrderDelivered || got.Subtotal != gc.Amount || got.Total != total {
		t.Errorf("order %s subtotal %v total %v, want delivered at %v", got.Status, got.Subtotal, got.Total, total)
	}
	if p := product(t, s, "GC500"); p.StockReady != 2400-72 {
		t.Errorf("GC ready %d, want %d", p.StockReady, 2400-72)
	}
	if p := product(t, s, "BR01"); p.StockReady != broomStock(t) {
		t.Errorf("broom ready %d, want %d: none of it left", p.StockReady, broomStock(t))
	}
	if held, _ := s.Committed(ctx, "GC500", "BR01"); held["GC500"] != 0 || held["BR01"] != 0 {
		t.Errorf("committed %v after delivery, want none", held)
	}
	if due := customer(t, s, "C01").Outstanding; due != dueBefore-(o.Total-total) {
		t.Errorf("outstanding %v, want %v", due, dueBefore-(o.Total-total))
	}

	span := reports.SalesQuery{From: o.CreatedAt.Add(-time.Minute), To: o.CreatedAt.Add(time.Minute), Page: reports.Page{Limit: 10}}
	totals, byProduct, err := s.SalesSummary(ctx, span)
	if err != nil {
		t.Fatal(err)
	}
	if len(byProduct) != 1 || byProduct[0].Key != "GC500" || byProduct[0].Qty != 72 || totals.Amount != gc.Amount {
		t.Errorf("sales by product %+v (totals %+v), want 72 GC alone", byProduct, totals)
	}
	brooms := span
	brooms.SKUs, brooms.By = []string{"BR01"}, reports.ByCustomer
	if totals, lines, err := s.SalesSummary(ctx, brooms); err != nil || len(lines) != 0 || totals.Orders != 0 {
		t.Errorf("broom sales %+v %+v %v, want none: none was delivered", totals, lines, err)
	}
	var sold []reports.SaleLine
	for l, err := range s.SaleLines(ctx, span) {
		if err != nil {
			t.Fatal(err)
		}
		sold = append(sold, l)
	}
	if len(sold) != 1 || sold[0].SKU != "GC500" || sold[0].Qty != 72 || sold[0].Amount != gc.Amount {
		t.Errorf("sale lines %+v, want 72 GC alone", sold)
	}
	day, err := s.DaySaleLines(ctx, digest.Span{From: span.From, To: span.To})
	if err != nil || len(day) != 1 || day[0].Qty != 72 {
		t.Errorf("digest sale lines %+v %v, want 72 GC alone", day, err)
	}
}

func broomStock(t *testing.T) int64 {
	t.Helper()
	for _, p := range products() {
		if p.SKU == "BR01" {
			return p.StockReady
		}
	}
	t.Fatal("no BR01 in the suite's catalog")
	return 0
}

// testCancelPlaced: an owner's cancellation of a placed credit order
// reverses its dues and releases its stock; a salesperson cannot.
func testCancelPlaced(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding
	o := placeOrder(t, s, c, svc, domain.PayCredit, orders.Item{SKU: "GC500", Qty: 240})
	if got := customer(t, s, "C01").Outstanding; got != due+o.Total {
		t.Fatalf("outstanding after the order %v, want %v", got, due+o.Total)
	}
	if r := svc.Cancel(ctx, salesRavi, o.ID, "cancel "+o.ID); !strings.Contains(r.Text, "Only an owner") {
		t.Errorf("salesperson's cancel = %q", r.Text)
	}
	shown := svc.Cancel(ctx, boss, o.ID, "cancel "+o.ID+" — customer refused")
	mustSay(t, "cancel summary", shown.Text, o.ID, "customer refused", "ok")
	done := svc.Confirm(ctx, boss, "")
	mustSay(t, "cancel ok", done.Text, "cancelled")
	got, _, _ := s.Order(ctx, o.ID)
	if got.Status != domain.OrderCancelled {
		t.Errorf("status %s, want cancelled", got.Status)
	}
	if got := customer(t, s, "C01").Outstanding; got != due {
		t.Errorf("outstanding %v, want %v back", got, due)
	}
	if held, _ := s.Committed(ctx, "GC500"); held["GC500"] != 0 {
		t.Errorf("committed %v, want released", held)
	}
	if p := product(t, s, "GC500"); p.StockReady != 2400 {
		t.Errorf("ready %d, want 2400: a cancelled order never left", p.StockReady)
	}
}

// testPayment: a payment lowers the dues to the paisa; its reference is
// recorded once per customer, whatever its case; an overpayment is shown
// and allowed.
func testPayment(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding
	shown := svc.RecordPayment(ctx, books, "Rajesh ne 12,345.50 diya cheque 778899")
	mustSay(t, "payment summary", shown.Text, "Rajesh Kirana Store", "₹12,345.50", "778899", due.String(), (due - 1234550).String())
	mustSay(t, "payment ok", svc.Confirm(ctx, books, "").Text, "Recorded")
	if got := customer(t, s, "C01").Outstanding; got != due-1234550 {
		t.Errorf("outstanding %v, want %v", got, due-1234550)
	}
	dup := svc.RecordPayment(ctx, books, "rajesh 500 cheque no 778899")
	mustSay(t, "duplicate", dup.Text, "already recorded")
	if r := svc.Confirm(ctx, books, ""); strings.Contains(r.Text, "Recorded") {
		t.Errorf("ok after a refused duplicate recorded something: %q", r.Text)
	}
	over := svc.RecordPayment(ctx, boss, "Sharma 5000 NEFT ref utr77")
	mustSay(t, "overpayment", over.Text, "more than", "advance")
	mustSay(t, "overpayment ok", svc.Confirm(ctx, boss, "").Text, "Recorded")
	if r := svc.RecordPayment(ctx, salesRavi, "Rajesh 5000 cash"); !strings.Contains(r.Text, "Only") {
		t.Errorf("salesperson's payment = %q", r.Text)
	}
	if got := customer(t, s, "C01").Outstanding; got != due-1234550 {
		t.Errorf("outstanding %v after refusals, want %v", got, due-1234550)
	}
}

// testPaymentOksRace: many "ok"s to one payment at once record it once.
func testPaymentOksRace(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding
	for round := range 5 {
		mustSay(t, "summary", svc.RecordPayment(ctx, books, fmt.Sprintf("Rajesh 1000 UPI ref R%04d", round)).Text, "ok")
		var wg sync.WaitGroup
		replies := make([]string, 6)
		for i := range replies {
			wg.Go(func() { replies[i] = svc.Confirm(ctx, books, "").Text })
		}
		wg.Wait()
		n := 0
		for _, r := range replies {
			if strings.Contains(r, "Recorded") {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("round %d: %d oks recorded the payment: %q", round, n, replies)
		}
		if got := customer(t, s, "C01").Outstanding; got != due-domain.Paise(100000*(round+1)) {
			t.Fatalf("round %d: outstanding %v, want %v", round, got, due-domain.Paise(100000*(round+1)))
		}
	}
}

// testDuplicateReferenceRace: two people recording one cheque at once
// record it once.
func testDuplicateReferenceRace(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding
	for round := range 4 {
		text := fmt.Sprintf("Rajesh ne 2000 diya cheque %06d", 100000+round)
		mustSay(t, "accounts", svc.RecordPayment(ctx, books, text).Text, "ok")
		mustSay(t, "owner", svc.RecordPayment(ctx, boss, text).Text, "ok")
		var a, b string
		atOnce(func() { a = svc.Confirm(ctx, books, "").Text }, func() { b = svc.Confirm(ctx, boss, "").Text })
		if countTrue(strings.Contains(a, "Recorded"), strings.Contains(b, "Recorded")) != 1 {
			t.Fatalf("round %d: replies %q and %q; want exactly one recorded", round, a, b)
		}
		if got := customer(t, s, "C01").Outstanding; got != due-domain.Paise(200000*(round+1)) {
			t.Fatalf("round %d: outstanding %v", round, got)
		}
	}
}

// testReceipt: goods received add to ready stock; from production they
// also leave work in progress, never more than is there.
func testReceipt(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	mustSay(t, "receipt", svc.ReceiveGoods(ctx, books, "GC 5 carton aaya").Text, "+5 cartons", "2,400 bottles → 2,520 bottles")
	mustSay(t, "receipt ok", svc.Confirm(ctx, books, "").Text, "Stock updated")
	mustSay(t, "from wip", svc.ReceiveGoods(ctx, boss, "production se 10 carton GC ready").Text, "in production 480 bottles → 240 bottles")
	mustSay(t, "from wip ok", svc.Confirm(ctx, boss, "").Text, "Stock updated")
	if p := product(t, s, "GC500"); p.StockReady != 2400+120+240 || p.StockWIP != 480-240 {
		t.Errorf("GC ready %d wip %d", p.StockReady, p.StockWIP)
	}
	mustSay(t, "more than wip", svc.ReceiveGoods(ctx, boss, "production se 20 carton GC ready").Text, "Only 240 bottles")
	if r := svc.ReceiveGoods(ctx, salesRavi, "GC 5 carton aaya"); !strings.Contains(r.Text, "Only") {
		t.Errorf("salesperson's receipt = %q", r.Text)
	}
}

// testOkIsAboutWhatWasShownLast: after a payment summary the "ok" records
// the payment, not the order shown before it; after a question, it places
// nothing.
func testOkIsAboutWhatWasShownLast(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	d := show(t, s, c, owner, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 240})
	c.Advance(time.Second)
	mustSay(t, "payment", svc.RecordPayment(ctx, boss, "Rajesh 700 cash").Text, "ok")
	mustSay(t, "ok", svc.Confirm(ctx, boss, "").Text, "Recorded")
	if placed(t, s, d.ID) {
		t.Fatalf("the ok placed %s, shown before the payment", d.ID)
	}
	d2 := show(t, s, c, owner, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 240})
	c.Advance(time.Second)
	if r := svc.Take(ctx, boss, intent.Decision{Text: "Rajesh ke liye 5 carton"}); !r.Question {
		t.Fatalf("incomplete order = %q, want a question", r.Text)
	}
	if r := svc.Confirm(ctx, boss, ""); strings.Contains(r.Text, "placed") {
		t.Fatalf("ok after a question placed the earlier order: %q", r.Text)
	}
	if placed(t, s, d2.ID) {
		t.Fatalf("%s placed after a question", d2.ID)
	}
}

// testReferenceOncePerCustomer: whatever a judgement lets through, the
// books record a reference once per customer, whatever its case; the
// second is a conflict and writes nothing.
func testReferenceOncePerCustomer(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	due := customer(t, s, "C01").Outstanding
	for i, ref := range []string{"chq778899", "CHQ778899"} {
		id, err := s.NewProposalID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveProposal(ctx, orders.Proposal{ID: id, Kind: orders.ProposePayment, ProposedBy: accounts, Subject: "C01",
			Status: orders.ProposalOpen, Fingerprint: "f", CreatedAt: c.Now()}); err != nil {
			t.Fatal(err)
		}
		err = s.Settle(ctx, orders.Settlement{ProposalID: id, By: accounts, Query: orders.LedgerQuery{CustomerID: "C01", Reference: ref},
			Judge: func(orders.Ledger) (orders.Settled, error) {
				return orders.Settled{Changes: []orders.Change{
					{Kind: orders.ChangePayment, CustomerID: "C01", Amount: 1000, Mode: domain.PayCheque, Reference: ref},
					{Kind: orders.ChangeDue, CustomerID: "C01", Amount: -1000},
				}}, nil
			}})
		if want := i == 1; (domain.ErrorCode(err) == domain.ECONFLICT) != want || (err == nil) == want {
			t.Fatalf("settling %s: %v, want a conflict %v", ref, err, want)
		}
	}
	if got := customer(t, s, "C01").Outstanding; got != due-1000 {
		t.Errorf("outstanding %v, want one payment off %v", got, due)
	}
}
