package orders_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// Deliveries named by their customer ("Rajesh ka maal de diya") against
// the demo's books on the shop's fixed clock (16 Nov 2026, 11:00 in
// Kolkata), with the customer's open orders put in the books as history
// at known times.

// booked puts committed orders of a customer in the books, numbered from
// first, one at each time given: the first of 10 cartons of glass
// cleaner, each next one of a carton more, each with 2 cartons of
// dishwash.
func (s *shop) booked(customer string, first int, at ...time.Time) []domain.Order {
	s.t.Helper()
	out := s.committed(customer, first, at...)
	if err := s.books.AddHistory(context.Background(), out, nil); err != nil {
		s.t.Fatal(err)
	}
	return out
}

// committed are the orders booked puts in the books, not yet put there.
func (s *shop) committed(customer string, first int, at ...time.Time) []domain.Order {
	s.t.Helper()
	ctx := context.Background()
	ps, err := s.books.Products(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	price := map[string]domain.Product{}
	for _, p := range ps {
		price[p.SKU] = p
	}
	var out []domain.Order
	for i, t := range at {
		o := domain.Order{ID: fmt.Sprintf("ORD-%d", first+i), CustomerID: customer, PlacedBy: demo.SalesPhone,
			Payment: domain.PayCOD, Status: domain.OrderCommitted, CreatedAt: t, CommittedAt: t}
		gc := int64(10 + i)
		for _, l := range []domain.OrderLine{{SKU: "GC500", Qty: 24 * gc, SaidQty: gc, SaidUnit: "carton"},
			{SKU: "DW500", Qty: 48, SaidQty: 2, SaidUnit: "carton"}} {
			l.Price, l.GSTRate = price[l.SKU].Price, price[l.SKU].GSTPercent
			l = domain.PriceLine(l)
			o.Lines = append(o.Lines, l)
			o.Subtotal += l.Amount
			o.GST += l.GSTAmount
		}
		o.Total = o.Subtotal + o.GST
		out = append(out, o)
	}
	return out
}

// answer reads text as the answer to the question pending, as the
// accounts team sends it.
func (s *shop) answer(pending, text string) (domain.Reply, bool) {
	s.t.Helper()
	ctx := context.Background()
	return s.svc.Answer(ctx, accounts, pending, s.router.Route(ctx, text))
}

func ist(day, hour, minute int) time.Time {
	return time.Date(2026, 11, day, hour, minute, 0, 0, domain.DefaultLocation())
}

func TestDeliverByCustomerWithOneOpenOrder(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	o := s.placed("10 carton glass cleaner for Rajesh, cash")
	ready := s.ready("GC500")
	byNumber := s.svc.Deliver(ctx, accounts, o.ID+" delivered").Text
	for _, text := range []string{"Rajesh ka maal de diya", "राजेश का माल दे दिया", "rajesh bhai ka order pahuncha diya",
		"delivered Rajesh's order", "rajesh kirana no maal aaje pahochadi didho"} {
		r := s.svc.Deliver(ctx, accounts, text)
		says(t, text, r.Text, "Delivered: "+o.ID, "Rajesh Kirana Store", "Reply *ok*")
		if r.Pending != "" || r.Text != byNumber {
			t.Errorf("%q: want the summary of %s exactly as by its number (pending %q):\n%s\n--- by number:\n%s", text, o.ID, r.Pending, r.Text, byNumber)
		}
	}
	says(t, "ok", s.svc.Confirm(ctx, accounts, "").Text, o.ID, "delivered")
	got, _, _ := s.books.Order(ctx, o.ID)
	if got.Status != domain.OrderDelivered || s.ready("GC500") != ready-240 {
		t.Errorf("order %s, GC ready %d; want delivered and %d", got.Status, s.ready("GC500"), ready-240)
	}
	// Nothing left to deliver: said plainly, with what became of the last.
	r := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya")
	want := "Rajesh Kirana Store has no open order to deliver. Their last order " + o.ID + " was delivered on 16 Nov."
	if r.Text != want || r.Pending != "" {
		t.Errorf("no open order: %q (pending %q), want %q", r.Text, r.Pending, want)
	}
	if !s.audited("delivery_refused", "C01") {
		t.Error("the refusal is not in the audit log")
	}
}

func TestDeliverByCustomerWithNoOrderAtAll(t *testing.T) {
	s := newShop(t, nil)
	r := s.svc.Deliver(context.Background(), accounts, "Sharma Hardware ka maal de diya")
	says(t, "reply", r.Text, "Sharma Hardware has no open order to deliver. There is no order of theirs in the books yet.")
	if r.Pending != "" || strings.Contains(r.Text, "Reply *ok*") {
		t.Errorf("nothing to deliver must ask and show nothing: %+v", r)
	}
}

func TestDeliverByCustomerAsksWhichOrder(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	// The middle one is 13 Nov in UTC and 14 Nov in Kolkata.
	os := s.booked("C01", 1501, ist(10, 11, 30), ist(14, 1, 30), ist(15, 14, 30))
	q := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya")
	if !q.Question || q.Pending == "" {
		t.Fatalf("several open orders must be asked about: %+v", q)
	}
	says(t, "question", q.Text, "Rajesh Kirana Store has 3 open orders",
		"1. ORD-1503 · 15 Nov · "+os[2].Total.String(), "2. ORD-1502 · 14 Nov · "+os[1].Total.String(),
		"3. ORD-1501 · 10 Nov · "+os[0].Total.String(), "Reply 1, 2… or the order number")
	saysNot(t, "question", q.Text, "13 Nov", "older", "Reply *ok*")
	if asked, ok := s.svc.Asked(q.Pending); !ok || asked != q.Text {
		t.Errorf("the frame waits on %q, want the question asked", asked)
	}
	for _, c := range []struct{ answer, order string }{
		{"2", "ORD-1502"}, {"dusra", "ORD-1502"}, {"1", "ORD-1503"}, {"last", "ORD-1501"},
		{"ORD-1501", "ORD-1501"}, {"ord 1502", "ORD-1502"}, {"1503 wala", "ORD-1503"}, {"1502 vala", "ORD-1502"},
		{"#1501", "ORD-1501"}, {"order no 1503", "ORD-1503"}, {"१५०१", "ORD-1501"}, {"ऑर्डर १५०२", "ORD-1502"}, {"२", "ORD-1502"},
	} {
		r, ok := s.answer(q.Pending, c.answer)
		if !ok || r.Pending != "" {
			t.Errorf("%q: not read as the answer (%v, pending %q): %s", c.answer, ok, r.Pending, r.Text)
			continue
		}
		byNumber := s.svc.Deliver(ctx, accounts, c.order+" delivered").Text
		if r.Text != byNumber {
			t.Errorf("%q: want the summary of %s as by its number:\n%s\n--- by number:\n%s", c.answer, c.order, r.Text, byNumber)
		}
	}
	// Not answers: the question still waits for them.
	for _, text := range []string{"7", "GC ka stock kitna hai?", "ok", "12"} {
		if r, ok := s.answer(q.Pending, text); ok {
			t.Errorf("%q read as an answer: %s", text, r.Text)
		}
	}
	// The one chosen is delivered at "ok", once; the others stay open.
	r, _ := s.answer(q.Pending, "2")
	says(t, "summary", r.Text, "Delivered: ORD-1502")
	says(t, "ok", s.svc.Confirm(ctx, accounts, "").Text, "ORD-1502", "delivered")
	says(t, "second ok", s.svc.Confirm(ctx, accounts, "").Text, "already recorded")
	for _, o := range os {
		got, _, _ := s.books.Order(ctx, o.ID)
		if want := map[bool]domain.OrderStatus{true: domain.OrderDelivered, false: domain.OrderCommitted}[o.ID == "ORD-1502"]; got.Status != want {
			t.Errorf("%s is %s, want %s", o.ID, got.Status, want)
		}
	}
	// Two left: asked again, without the delivered one.
	again := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya")
	says(t, "again", again.Text, "has 2 open orders", "1. ORD-1503", "2. ORD-1501")
	saysNot(t, "again", again.Text, "ORD-1502")
}

func TestDeliverByCustomerKeepsTheShortfall(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.booked("C01", 1501, ist(12, 10, 0), ist(15, 10, 0))
	q := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya, 2 carton GC kam")
	says(t, "question", q.Text, "has 2 open orders", "1. ORD-1502", "2. ORD-1501")
	r, ok := s.answer(q.Pending, "dusra")
	if !ok {
		t.Fatalf("not an answer: %s", r.Text)
	}
	says(t, "short summary", r.Text, "Delivered: ORD-1501", "Everything not said to be short was delivered in full",
		"Glass Cleaner 500ml: 8 of 10 cartons delivered, 2 cartons short", "Dishwash Liquid 500ml: all 2 cartons delivered")
	says(t, "ok", s.svc.Confirm(ctx, accounts, "").Text, "ORD-1501", "short: Glass Cleaner 500ml 2 cartons")
	got, _, _ := s.books.Order(ctx, "ORD-1501")
	if gc := orderLine(t, got, "GC500"); got.Status != domain.OrderDelivered || gc.Short != 48 {
		t.Errorf("ORD-1501 %s, GC line %+v; want delivered 48 short", got.Status, gc)
	}
	if other, _, _ := s.books.Order(ctx, "ORD-1502"); other.Status != domain.OrderCommitted {
		t.Errorf("ORD-1502 is %s: only the one chosen is delivered", other.Status)
	}
}

func TestDeliverByCustomerListsTheNewestEight(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	var at []time.Time
	for d := 1; d <= 10; d++ {
		at = append(at, ist(d, 12, 0))
	}
	s.booked("C01", 1501, at...)
	q := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya")
	says(t, "question", q.Text, "has 10 open orders", "1. ORD-1510 · 10 Nov", "8. ORD-1503 · 3 Nov", "…and 2 older, not listed.")
	saysNot(t, "question", q.Text, "ORD-1502", "ORD-1501", "\n9. ")
	// One not listed is answered by its number.
	r, ok := s.answer(q.Pending, "1501 wala")
	if !ok {
		t.Fatalf("not an answer: %s", r.Text)
	}
	says(t, "summary", r.Text, "Delivered: ORD-1501", "Rajesh Kirana Store")
}

func TestDeliverByCustomerAsksWhichCustomerFirst(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.booked("C09", 1501, ist(13, 10, 0), ist(15, 10, 0))
	q := s.svc.Deliver(ctx, accounts, "Gupta ka maal de diya, 1 carton GC kam")
	says(t, "customer question", q.Text, "Gupta Supermart", "Gupta Brothers")
	saysNot(t, "customer question", q.Text, "ORD-")
	q, ok := s.answer(q.Pending, "Gupta Brothers")
	if !ok || q.Pending == "" {
		t.Fatalf("the customer answered, the order must be asked (%v): %s", ok, q.Text)
	}
	says(t, "order question", q.Text, "Gupta Brothers has 2 open orders", "1. ORD-1502 · 15 Nov", "2. ORD-1501 · 13 Nov")
	r, ok := s.answer(q.Pending, "ORD-1502")
	if !ok || r.Pending != "" {
		t.Fatalf("not an answer (%v): %s", ok, r.Text)
	}
	says(t, "summary", r.Text, "Delivered: ORD-1502* for Gupta Brothers", "10 of 11 cartons delivered, 1 carton short")
	// By position too.
	q = s.svc.Deliver(ctx, accounts, "Gupta ka maal de diya")
	if q, ok = s.answer(q.Pending, "dusra"); !ok {
		t.Fatalf("dusra: %s", q.Text)
	}
	says(t, "order question", q.Text, "Gupta Brothers has 2 open orders")
	// Two customers named: the one chosen is kept, though the message
	// still names both.
	o := s.placed("10 carton glass cleaner for Rajesh, cash")
	q = s.svc.Deliver(ctx, accounts, "Rajesh aur Mehta ka maal de diya")
	says(t, "customers question", q.Text, "Whose order was delivered: Rajesh Kirana Store or Mehta Traders?")
	r, ok = s.answer(q.Pending, "Rajesh")
	if !ok || r.Pending != "" {
		t.Fatalf("Rajesh: not an answer (%v): %s", ok, r.Text)
	}
	says(t, "summary", r.Text, "Delivered: "+o.ID+"* for Rajesh Kirana Store")
}

// TestSalespersonDeliversByCustomer: a salesperson on the route reports
// a delivery like the office does, whoever placed the order, and is
// asked which order when the customer has several; no other role may
// (only sales, accounts and owners exist).
func TestSalespersonDeliversByCustomer(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.booked("C01", 1501, ist(14, 10, 0), ist(15, 10, 0))
	placer := domain.User{Phone: demo.SalesPhone, Name: "Ravi", Role: domain.RoleSales}
	q := s.svc.Deliver(ctx, placer, "Rajesh ka maal de diya")
	says(t, "question", q.Text, "has 2 open orders", "ORD-1501", "ORD-1502")
	r, ok := s.answer(q.Pending, "ORD-1502")
	if !ok || r.Pending != "" {
		t.Fatalf("ORD-1502: not an answer (%v): %s", ok, r.Text)
	}
	says(t, "summary", r.Text, "Delivered: ORD-1502")
	if got, _, _ := s.books.Order(ctx, "ORD-1502"); got.Status != domain.OrderCommitted {
		t.Errorf("ORD-1502 is %s before the ok", got.Status)
	}
	stranger := domain.User{Phone: "+919999999999", Name: "Someone", Role: domain.Role("driver")}
	says(t, "refusal", s.svc.Deliver(ctx, stranger, "Rajesh ka maal de diya").Text, "can mark orders delivered")
}

// FuzzWhichOrderAnswer: whatever answers "which of Rajesh's orders?",
// reading it never panics, and what it shows is a summary of one of the
// customer's orders, a question, or a refusal.
func FuzzWhichOrderAnswer(f *testing.F) {
	for _, seed := range []string{"2", "dusra", "ORD-1502", "1501 wala", "१५०१", "٣", "𝟐", "0", "-1", "99999999999999999999",
		"ORD-1502 aur ORD-1501", "#", "wala", "14 tareekh wala", "31st", "99th", "0 nov", "\u202e1502\u202c", "2 carton GC kam", "Mehta", "\x00\xff", ""} {
		f.Add(seed)
	}
	s := newShop(f, nil)
	ctx := context.Background()
	s.booked("C01", 1501, ist(14, 10, 0), ist(15, 10, 0))
	q := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya")
	if q.Pending == "" {
		f.Fatalf("no question: %s", q.Text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, ok := s.svc.Answer(ctx, accounts, q.Pending, s.router.Route(ctx, text))
		if !ok {
			return
		}
		if r.Text == "" {
			t.Fatalf("%q: an empty reply", text)
		}
		if strings.Contains(r.Text, "Reply *ok*") && !strings.Contains(r.Text, "Delivered: ORD-") {
			t.Fatalf("%q: a summary of no order:\n%s", text, r.Text)
		}
	})
}

// TestDeliverAnOrderOfTheBooksHistoryByItsNumber: an order imported with
// the books' history and still open there is delivered when named by the
// number the books gave it ("T-6001") or by its customer, and its goods
// leave the godown; it is still cancelled where it was placed; importing
// the file again keeps the delivery.
func TestDeliverAnOrderOfTheBooksHistoryByItsNumber(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	o := s.committed("C10", 1, ist(10, 10, 0))[0]
	o.ID = "T-6001"
	if _, err := s.books.ImportHistory(ctx, []domain.Order{o}, nil); err != nil {
		t.Fatal(err)
	}
	if r := s.svc.CancelOrder(ctx, vikram, "T-6001", "customer refused"); !strings.Contains(r.Text, "history imported from your books") {
		t.Errorf("cancel: %s", r.Text)
	}
	gc := s.ready("GC500")
	for _, text := range []string{"t-6001 pahunch gaya", "order T-6001 ka maal de diya sharma hardware ko", "Sharma Hardware ka maal de diya",
		"6001 wala order pahunch gaya"} {
		if r := s.svc.Deliver(ctx, accounts, text); !strings.Contains(r.Text, "Delivered: T-6001") {
			t.Fatalf("%q: %s", text, r.Text)
		}
	}
	says(t, "ok", s.svc.Confirm(ctx, accounts, "").Text, "T-6001 recorded as delivered")
	got, _, _ := s.books.Order(ctx, "T-6001")
	if got.Status != domain.OrderDelivered || s.ready("GC500") != gc-240 {
		t.Errorf("status %s, ready GC %d; want delivered and %d", got.Status, s.ready("GC500"), gc-240)
	}
	// The same file imported again does not undo what happened since.
	if sum, err := s.books.ImportHistory(ctx, []domain.Order{o}, nil); err != nil || sum.Orders.Updated != 0 {
		t.Fatalf("import again: %+v %v", sum, err)
	}
	if got, _, _ := s.books.Order(ctx, "T-6001"); got.Status != domain.OrderDelivered {
		t.Errorf("after the import again: %s, want delivered", got.Status)
	}
}

// TestDeliverByCustomerNamesTheOrderByItsGoods: of a customer's open
// orders, the one with the goods named is the one delivered, in the
// message ("Rajesh ka dishwash wala order deliver ho gaya") or in the
// answer to which one; goods with a quantity ask how much went.
func TestDeliverByCustomerNamesTheOrderByItsGoods(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.twoOrdersOneWithDishwash(t)
	if r := s.svc.Deliver(ctx, accounts, "Sharma Hardware ka dishwash wala order deliver ho gaya"); !strings.Contains(r.Text, "Delivered: ORD-1") {
		t.Errorf("by its goods: %s", r.Text)
	}
	r := s.svc.Deliver(ctx, accounts, "Sharma Hardware ka order deliver ho gaya")
	if !strings.Contains(r.Text, "2 open orders") || r.Pending == "" {
		t.Fatalf("which one: %+v", r)
	}
	if a, ok := s.answer(r.Pending, "dishwash wala"); !ok || !strings.Contains(a.Text, "Delivered: ORD-1") {
		t.Errorf("answered by its goods: %v %s", ok, a.Text)
	}
	// Goods with a quantity: that order, and how much of it went is asked,
	// not which order it was.
	if r := s.svc.Deliver(ctx, accounts, "Sharma Hardware ka dishwash 1 carton deliver ho gaya"); strings.Contains(r.Text, "Delivered:") ||
		strings.Contains(r.Text, "open orders") || !strings.Contains(r.Text, "short") {
		t.Errorf("a quantity of the goods of one order: %s", r.Text)
	}
	// The whole of a line: that order, delivered as ordered, shown for
	// the ok; with one open order too.
	if r := s.svc.Deliver(ctx, accounts, "Sharma Hardware ko 2 carton dishwash pahuncha diya"); !strings.Contains(r.Text, "Delivered: ORD-1") ||
		strings.Contains(r.Text, "short") {
		t.Errorf("the whole of its line: %s", r.Text)
	}
	one := s.booked("C01", 7, ist(12, 10, 0))[0]
	if r := s.svc.Deliver(ctx, accounts, "Rajesh ko 10 carton glass cleaner de diya"); !strings.Contains(r.Text, "Delivered: "+one.ID) ||
		strings.Contains(r.Text, "short") {
		t.Errorf("the whole of a line of the one open order: %s", r.Text)
	}
	if r := s.svc.Deliver(ctx, accounts, "Rajesh ko 4 carton glass cleaner de diya"); !strings.Contains(r.Text, "short") {
		t.Errorf("less than a line of the one open order is asked about: %s", r.Text)
	}
}

// twoOrdersOneWithDishwash books Sharma Hardware (C10) two open orders,
// ORD-1 with dishwash and the newer without it.
func (s *shop) twoOrdersOneWithDishwash(t *testing.T) {
	t.Helper()
	os := s.committed("C10", 1, ist(10, 10, 0), ist(11, 10, 0))
	os[1].Lines = os[1].Lines[:1] // the newer has no dishwash
	os[1].Total = os[1].Lines[0].Amount + os[1].Lines[0].GSTAmount
	os[1].Subtotal, os[1].GST = os[1].Lines[0].Amount, os[1].Lines[0].GSTAmount
	if err := s.books.AddHistory(context.Background(), os, nil); err != nil {
		t.Fatal(err)
	}
}

// TestWhichOrderByAWordOfItsGoods: "which one?" is answered by a word of
// one order's goods' names that no product is called by alone ("liquid"
// of Dishwash Liquid); a word both orders' goods share chooses nothing.
func TestWhichOrderByAWordOfItsGoods(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.twoOrdersOneWithDishwash(t)
	r := s.svc.Deliver(ctx, accounts, "Sharma Hardware ka order deliver ho gaya")
	if r.Pending == "" {
		t.Fatalf("which one: %+v", r)
	}
	if a, ok := s.answer(r.Pending, "cleaner wala"); ok && strings.Contains(a.Text, "Delivered:") {
		t.Errorf("a word both orders' goods have chose one: %s", a.Text)
	}
	r = s.svc.Deliver(ctx, accounts, "Sharma Hardware ka order deliver ho gaya")
	if a, ok := s.answer(r.Pending, "liquid wala"); !ok || !strings.Contains(a.Text, "Delivered: ORD-1") {
		t.Errorf("answered by a word of its goods: %v %s", ok, a.Text)
	}
}

// TestWhichOrderByItsDate: "which one?" is answered by the day the list
// shows, in the ways people write a date; a day two orders share, or
// none has, chooses nothing.
func TestWhichOrderByItsDate(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.booked("C01", 1501, ist(12, 10, 0), ist(14, 10, 0), ist(14, 16, 0))
	q := s.svc.Deliver(ctx, accounts, "Rajesh ka maal de diya")
	says(t, "question", q.Text, "has 3 open orders", "12 Nov", "14 Nov")
	for answer, want := range map[string]string{"12 tareekh wala": "ORD-1501", "the one from 12th": "ORD-1501",
		"12 nov wala": "ORD-1501", "१२ तारीख वाला": "ORD-1501", "14 tareekh wala": "", "9th": ""} {
		r, ok := s.answer(q.Pending, answer)
		switch {
		case want != "" && (!ok || !strings.Contains(r.Text, "Delivered: "+want)):
			t.Errorf("%q: %v %s; want %s", answer, ok, r.Text, want)
		case want == "" && ok && strings.Contains(r.Text, "Delivered:"):
			t.Errorf("%q chose an order: %s", answer, r.Text)
		}
	}
}
