package orders_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// Deliveries against the demo's books on the shop's fixed clock: a
// delivery message names either what was short ("GC 5 carton kam": the
// rest went in full) or only what went ("sirf 3 carton GC gaya": nothing
// else did), the summary says which of each line, and the order keeps
// what was ordered beside what was delivered.

var placedOrder = regexp.MustCompile(`Order \*(ORD-\d+)\* placed`)

// placed has the salesperson send an order and say ok, and returns it as
// the books hold it.
func (s *shop) placed(text string) domain.Order {
	s.t.Helper()
	if r := s.say(text); !strings.Contains(r.Text, "Reply *ok*") {
		s.t.Fatalf("%q: %s", text, r.Text)
	}
	r := s.say("ok")
	m := placedOrder.FindStringSubmatch(r.Text)
	if m == nil {
		s.t.Fatalf("ok: %s", r.Text)
	}
	o, found, err := s.books.Order(context.Background(), m[1])
	if err != nil || !found || o.Status != domain.OrderCommitted {
		s.t.Fatalf("order %s: %+v %v %v", m[1], o, found, err)
	}
	return o
}

// accounts is the demo's accountant, who records deliveries.
var accounts = domain.User{Phone: demo.AccountsPhone, Name: "Priya", Role: domain.RoleAccounts}

func (s *shop) ready(sku string) int64 {
	s.t.Helper()
	ps, err := s.books.Products(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	for _, p := range ps {
		if p.SKU == sku {
			return p.StockReady
		}
	}
	s.t.Fatalf("no %s", sku)
	return 0
}

func (s *shop) due(id string) domain.Paise {
	s.t.Helper()
	cs, err := s.books.Customers(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	for _, c := range cs {
		if c.ID == id {
			return c.Outstanding
		}
	}
	s.t.Fatalf("no customer %s", id)
	return 0
}

func says(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

func saysNot(t *testing.T, what, got string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(got, w) {
			t.Errorf("%s says %q:\n%s", what, w, got)
		}
	}
}

// orderLine is the order's line of sku: ordered, short, and what it bills.
func orderLine(t *testing.T, o domain.Order, sku string) domain.OrderLine {
	t.Helper()
	for _, l := range o.Lines {
		if l.SKU == sku {
			return l
		}
	}
	t.Fatalf("%s has no %s line: the record lost it (%+v)", o.ID, sku, o.Lines)
	return domain.OrderLine{}
}

// priced is a line of the order as it is billed when delivered short.
func priced(l domain.OrderLine, short int64) domain.OrderLine {
	l.Short = short
	return domain.PriceLine(l)
}

func TestDeliverOnlyWhatIsNamed(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	heldBefore, _ := s.books.Committed(ctx, "GC500", "DW500")
	dueBefore := s.due("C03")
	o := s.placed("10 carton glass cleaner aur 5 carton dishwash for Mehta ji, udhaar")
	if len(o.Lines) != 2 {
		t.Fatalf("order lines %+v, want GC and dishwash", o.Lines)
	}
	gcReady, dwReady := s.ready("GC500"), s.ready("DW500")

	shown := s.svc.Deliver(ctx, accounts, o.ID+" delivered, sirf 3 carton GC gaya")
	says(t, "summary", shown.Text, "Reply *ok*", "Only what you named was delivered",
		"Glass Cleaner 500ml: 3 of 10 cartons delivered, 7 cartons short",
		"Dishwash Liquid 500ml: not delivered, 0 of 5 cartons", "re-priced")
	saysNot(t, "summary", shown.Text, "boxes", "delivered in full")
	done := s.svc.Confirm(ctx, accounts, "")
	says(t, "ok", done.Text, o.ID, "short: Glass Cleaner 500ml 7 cartons", "not delivered: Dishwash Liquid 500ml")

	got, _, err := s.books.Order(ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	gc, dw := orderLine(t, got, "GC500"), orderLine(t, got, "DW500")
	if gc.Qty != 240 || gc.SaidQty != 10 || gc.SaidUnit != "carton" || gc.Short != 168 || gc.Delivered() != 72 {
		t.Errorf("GC line %+v, want 10 cartons (240) ordered and 72 delivered", gc)
	}
	if dw.Qty != 120 || dw.Short != 120 || dw.Delivered() != 0 || dw.Amount != 0 || dw.GSTAmount != 0 {
		t.Errorf("dishwash line %+v, want 120 ordered, none delivered nor billed", dw)
	}
	wantGC := priced(orderLine(t, o, "GC500"), 168)
	total := wantGC.Amount + wantGC.GSTAmount
	if got.Status != domain.OrderDelivered || gc.Amount != wantGC.Amount || got.Subtotal != wantGC.Amount || got.Total != total {
		t.Errorf("order %s %v subtotal %v, GC billed %v; want delivered at %v for 72 GC", got.Status, got.Total, got.Subtotal, gc.Amount, total)
	}
	if r := s.ready("GC500"); r != gcReady-72 {
		t.Errorf("GC ready %d, want %d: only the 3 cartons left the godown", r, gcReady-72)
	}
	if r := s.ready("DW500"); r != dwReady {
		t.Errorf("dishwash ready %d, want %d: none of it left", r, dwReady)
	}
	if held, _ := s.books.Committed(ctx, "GC500", "DW500"); held["GC500"] != heldBefore["GC500"] || held["DW500"] != heldBefore["DW500"] {
		t.Errorf("committed %v, want %v again: the shortfall is released", held, heldBefore)
	}
	if d := s.due("C03"); d != dueBefore+total {
		t.Errorf("Mehta owes %v, want %v: a credit order's dues follow what was delivered", d, dueBefore+total)
	}
	// Sales are what was delivered: GC's three cartons, no dishwash.
	var sold []reports.SaleLine
	for l, err := range s.books.SaleLines(ctx, reports.SalesQuery{From: o.CreatedAt, To: o.CreatedAt.Add(time.Second), CustomerIDs: []string{"C03"}}) {
		if err != nil {
			t.Fatal(err)
		}
		if l.OrderID == o.ID {
			sold = append(sold, l)
		}
	}
	if len(sold) != 1 || sold[0].SKU != "GC500" || sold[0].Qty != 72 || sold[0].Amount != wantGC.Amount {
		t.Errorf("sale lines %+v, want 72 GC alone", sold)
	}
}

func TestDeliverShortfallDeliversTheRest(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	o := s.placed("10 carton glass cleaner aur 5 carton dishwash for Mehta ji, udhaar")
	gcReady, dwReady := s.ready("GC500"), s.ready("DW500")
	due := s.due("C03")

	shown := s.svc.Deliver(ctx, accounts, o.ID+" delivered, GC 5 carton kam")
	says(t, "summary", shown.Text, "Everything not said to be short was delivered in full",
		"Glass Cleaner 500ml: 5 of 10 cartons delivered, 5 cartons short", "Dishwash Liquid 500ml: all 5 cartons delivered")
	saysNot(t, "summary", shown.Text, "not delivered", "Only what")
	says(t, "ok", s.svc.Confirm(ctx, accounts, "").Text, "delivered, short: Glass Cleaner 500ml 5 cartons")

	got, _, _ := s.books.Order(ctx, o.ID)
	gc, dw := orderLine(t, got, "GC500"), orderLine(t, got, "DW500")
	if gc.Qty != 240 || gc.Short != 120 || dw.Qty != 120 || dw.Short != 0 || dw.Amount != orderLine(t, o, "DW500").Amount {
		t.Errorf("lines %+v, want GC 240 ordered 120 short, dishwash in full", got.Lines)
	}
	wantGC := priced(orderLine(t, o, "GC500"), 120)
	off := orderLine(t, o, "GC500").Amount + orderLine(t, o, "GC500").GSTAmount - wantGC.Amount - wantGC.GSTAmount
	if got.Total != o.Total-off || s.due("C03") != due-off {
		t.Errorf("total %v and dues %v; want %v and %v", got.Total, s.due("C03"), o.Total-off, due-off)
	}
	if s.ready("GC500") != gcReady-120 || s.ready("DW500") != dwReady-120 {
		t.Errorf("ready GC %d dishwash %d; want %d and %d", s.ready("GC500"), s.ready("DW500"), gcReady-120, dwReady-120)
	}
}

func TestDeliverShortInTheUnitSaid(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	// 12 cartons of 24 bottles: 288 bottles, 48 boxes of 6.
	o := s.placed("12 carton glass cleaner for Mehta ji, udhaar")
	for _, c := range []struct {
		text   string
		want   []string
		refuse bool
	}{
		{"GC 30 bottle kam", []string{"258 of 288 bottles (12 cartons) delivered, 30 bottles short"}, false},
		{"GC 2 box kam", []string{"46 of 48 boxes (12 cartons) delivered, 2 boxes short"}, false},
		{"GC 282 bottle kam", []string{"6 of 288 bottles (12 cartons) delivered, 282 bottles short"}, false},
		{"sirf 30 bottle GC gaya", []string{"30 of 288 bottles (12 cartons) delivered, 258 bottles short"}, false},
		{"GC 300 bottle kam", []string{"300 bottles of Glass Cleaner 500ml short is more than the 288 bottles (12 cartons) ordered"}, true},
		{"sirf 13 carton GC gaya", []string{"13 cartons of Glass Cleaner 500ml delivered is more than the 12 cartons ordered"}, true},
		{"GC 49 box kam", []string{"49 boxes of Glass Cleaner 500ml short is more than the 48 boxes (12 cartons) ordered"}, true},
	} {
		r := s.svc.Deliver(ctx, accounts, o.ID+" delivered, "+c.text)
		says(t, c.text, r.Text, c.want...)
		if refused := !strings.Contains(r.Text, "Reply *ok*"); refused != c.refuse {
			t.Errorf("%q refused %v, want %v:\n%s", c.text, refused, c.refuse, r.Text)
		}
		if strings.Contains(c.text, "bottle") {
			saysNot(t, c.text, r.Text, "box")
		}
	}
	// What is shown is what "ok" records, the unit said kept with it.
	says(t, "shown", s.svc.Deliver(ctx, accounts, o.ID+" delivered, GC 30 bottle kam").Text, "30 bottles short")
	says(t, "ok", s.svc.Confirm(ctx, accounts, "").Text, "short: Glass Cleaner 500ml 30 bottles")
	got, _, _ := s.books.Order(ctx, o.ID)
	if l := orderLine(t, got, "GC500"); got.Status != domain.OrderDelivered || l.Qty != 288 || l.Short != 30 || l.Amount != priced(l, 30).Amount {
		t.Errorf("order %s, line %+v; want 288 ordered, 30 short", got.Status, l)
	}
}

// TestReadDeliveryKeepsTheUnitSaid: the unit of each product's quantity
// comes with the note, for the summary to answer in.
func TestReadDeliveryKeepsTheUnitSaid(t *testing.T) {
	p := newShop(t, nil).svc.Parser
	for _, c := range []struct{ text, sku, unit string }{
		{"ORD-1042 delivered, GC 30 bottle kam", "GC500", "bottle"},
		{"ORD-1042 delivered, GC 5 carton kam", "GC500", "carton"},
		{"ORD-1042 gaya, sirf 3 peti GC", "GC500", "carton"},
		{"ORD-1042 सिर्फ 2 box dishwash गया", "DW500", "box"},
	} {
		n := p.ReadDelivery(c.text)
		if u, ok := n.Units[c.sku]; !ok || u != c.unit || len(n.Unresolved) > 0 {
			t.Errorf("ReadDelivery(%q) units %v (asks %q), want %s in %s", c.text, n.Units, n.Unresolved, c.sku, c.unit)
		}
	}
}
