package storetest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

// history is two past orders, one delivered and one still open, and two
// payments.
func history() ([]domain.Order, []domain.Payment) {
	day := time.Date(2026, 1, 5, 11, 0, 0, 0, time.UTC)
	l1 := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 120, SaidQty: 5, SaidUnit: "carton", Price: 9200, GSTRate: 1800})
	l2 := domain.PriceLine(domain.OrderLine{SKU: "BR01", Qty: 12, SaidQty: 1, SaidUnit: "dozen", Price: 8000, GSTRate: 1200})
	o1 := domain.Order{
		ID: "O-0001", CustomerID: "C01", PlacedBy: ravi, Payment: domain.PayCOD,
		Status: domain.OrderDelivered, Lines: []domain.OrderLine{l1, l2},
		Subtotal: l1.Amount + l2.Amount, GST: l1.GSTAmount + l2.GSTAmount,
		Fingerprint: "fp-0001", CreatedAt: day, CommittedAt: day.Add(time.Hour), DeliveredAt: day.Add(26 * time.Hour),
	}
	o1.Total = o1.Subtotal + o1.GST
	l3 := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 6, SaidQty: 1, SaidUnit: "box", Price: 9200, GSTRate: 1800})
	o2 := domain.Order{
		ID: "O-0002", CustomerID: "C02", PlacedBy: sunil, Payment: domain.PayCredit,
		Status: domain.OrderCommitted, Lines: []domain.OrderLine{l3},
		Subtotal: l3.Amount, GST: l3.GSTAmount, Total: l3.Amount + l3.GSTAmount,
		CreatedAt: day.Add(48 * time.Hour).In(time.FixedZone("IST", 5*3600+1800)), CommittedAt: day.Add(49 * time.Hour),
	}
	pays := []domain.Payment{
		{CustomerID: "C01", Amount: o1.Total, Mode: domain.PayCOD, ReceivedAt: day.Add(26 * time.Hour), Reference: "cash"},
		{CustomerID: "C02", Amount: 500000, Mode: domain.PayCheque, ReceivedAt: day.Add(72 * time.Hour), Reference: "CHQ 004512"},
	}
	return []domain.Order{o1, o2}, pays
}

// sameOrder reports how got differs from want, comparing times as
// instants.
func sameOrder(got, want domain.Order) error {
	for _, tm := range [][2]time.Time{{got.CreatedAt, want.CreatedAt}, {got.CommittedAt, want.CommittedAt}, {got.DeliveredAt, want.DeliveredAt}} {
		if !tm[0].Equal(tm[1]) {
			return fmt.Errorf("time %v, want %v", tm[0], tm[1])
		}
	}
	got.CreatedAt, got.CommittedAt, got.DeliveredAt = want.CreatedAt, want.CommittedAt, want.DeliveredAt
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("\n got %+v\nwant %+v", got, want)
	}
	return nil
}

func testAddHistory(t *testing.T, s store.Store, _ *Clock) {
	seed(t, s)
	orders, pays := history()
	if err := s.AddHistory(ctx, orders, pays); err != nil {
		t.Fatal(err)
	}
	// 120 × ₹92 = ₹11,040 + 18% and 12 × ₹80 = ₹960 + 12%.
	if orders[0].Subtotal != 1200000 || orders[0].GST != 198720+11520 {
		t.Fatalf("test order priced %v + %v", orders[0].Subtotal, orders[0].GST)
	}
	for _, want := range orders {
		got, found, err := s.Order(ctx, want.ID)
		if err != nil || !found {
			t.Fatalf("Order(%s) = %v, %v", want.ID, found, err)
		}
		if err := sameOrder(got, want); err != nil {
			t.Errorf("Order(%s): %v", want.ID, err)
		}
		if !got.CreatedAt.IsZero() && got.CreatedAt.Location() != time.UTC {
			t.Errorf("Order(%s) created at %v, want UTC", want.ID, got.CreatedAt)
		}
	}
	if got, _, _ := s.Order(ctx, "O-0002"); !got.DeliveredAt.IsZero() {
		t.Errorf("an order not yet delivered reads as delivered at %v", got.DeliveredAt)
	}
	if _, found, err := s.Order(ctx, "O-9999"); err != nil || found {
		t.Errorf("Order(O-9999) = %v, %v; want not found", found, err)
	}
	// Only the open order holds stock.
	if held, err := s.Committed(ctx, "GC500", "BR01"); err != nil || !reflect.DeepEqual(held, map[string]int64{"GC500": 6}) {
		t.Errorf("Committed = %v, %v; want 6 GC500 from O-0002 only", held, err)
	}
	// History leaves stock and outstanding as they were.
	cs, _ := s.Customers(ctx)
	ps, _ := s.Products(ctx)
	if !reflect.DeepEqual(cs, customers()) || ps[1].StockReady != products()[0].StockReady {
		t.Errorf("history moved the books: %+v %+v", cs, ps)
	}
}

func testAddHistoryRollsBack(t *testing.T, s store.Store, _ *Clock) {
	seed(t, s)
	good, goodPays := history()
	for _, tc := range []struct {
		name string
		edit func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment)
	}{
		{"order for an unknown customer", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			o[1].CustomerID = "C99"
			return o, p
		}},
		{"line for an unknown sku", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			o[1].Lines[0].SKU = "NOPE"
			return o, p
		}},
		{"payment from an unknown customer", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			p[1].CustomerID = "C99"
			return o, p
		}},
		{"payment of nothing", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			p[1].Amount = 0
			return o, p
		}},
		{"a line of no quantity", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			o[1].Lines[0].Qty = 0
			return o, p
		}},
		{"same order twice", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			return append(o, o[0]), p
		}},
	} {
		// Deep enough copies that one case does not leak into the next.
		orders := make([]domain.Order, len(good))
		for i, o := range good {
			o.Lines = append([]domain.OrderLine(nil), o.Lines...)
			orders[i] = o
		}
		pays := append([]domain.Payment(nil), goodPays...)
		orders, pays = tc.edit(orders, pays)
		if err := s.AddHistory(ctx, orders, pays); err == nil {
			t.Fatalf("%s: AddHistory succeeded", tc.name)
		}
		for _, o := range good {
			if _, found, err := s.Order(ctx, o.ID); err != nil || found {
				t.Fatalf("%s: order %s written by a failed AddHistory (%v)", tc.name, o.ID, err)
			}
		}
	}
	// The books still take the good history afterwards.
	if err := s.AddHistory(ctx, good, goodPays); err != nil {
		t.Fatalf("good history after the failures: %v", err)
	}
	for _, o := range good {
		if _, found, _ := s.Order(ctx, o.ID); !found {
			t.Errorf("order %s missing", o.ID)
		}
	}
}
