package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

// testOrdersToDeliver: a customer's open orders are the committed ones,
// placed by Munshi or open in the books' imported history, newest first,
// bounded, counted; delivered and cancelled orders and other customers'
// orders are not among them, and the latest of the customer's others is
// what became of their last order.
func testOrdersToDeliver(t *testing.T, s store.Store, _ *Clock) {
	seed(t, s)
	day := time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)
	line := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 24, SaidQty: 1, SaidUnit: "carton", Price: 9200, GSTRate: 1800})
	order := func(id, customer string, status domain.OrderStatus, at time.Time) domain.Order {
		o := domain.Order{ID: id, CustomerID: customer, PlacedBy: ravi, Payment: domain.PayCOD, Status: status,
			Lines: []domain.OrderLine{line}, Subtotal: line.Amount, GST: line.GSTAmount, Total: line.Amount + line.GSTAmount,
			CreatedAt: at, CommittedAt: at}
		if status == domain.OrderDelivered {
			o.DeliveredAt = at.Add(30 * time.Hour)
		}
		return o
	}
	var made []domain.Order
	for i := range 5 {
		made = append(made, order(fmt.Sprintf("ORD-%d", 2001+i), "C01", domain.OrderCommitted, day.Add(time.Duration(i)*24*time.Hour)))
	}
	made = append(made,
		order("ORD-1990", "C01", domain.OrderDelivered, day.Add(-48*time.Hour)),
		order("ORD-1995", "C01", domain.OrderCancelled, day.Add(-24*time.Hour)),
		order("ORD-2010", "C02", domain.OrderCommitted, day.Add(240*time.Hour)))
	if err := s.AddHistory(ctx, made, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportHistory(ctx, []domain.Order{order("T-5531", "C01", domain.OrderCommitted, day.Add(200*time.Hour))}, nil); err != nil {
		t.Fatal(err)
	}

	got, err := s.OrdersToDeliver(ctx, "C01", 3)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range got.Open {
		ids = append(ids, o.ID)
		if o.CustomerID != "C01" || o.Status != domain.OrderCommitted || o.Total != line.Amount+line.GSTAmount || o.CreatedAt.IsZero() ||
			len(o.Lines) != 1 || o.Lines[0].SKU != "GC500" || o.Lines[0].Qty != 24 {
			t.Errorf("open order read as %+v", o)
		}
	}
	if fmt.Sprint(ids) != "[T-5531 ORD-2005 ORD-2004]" || got.Count != 6 {
		t.Errorf("open orders %v of %d, want the newest three of six (the imported one first), newest first", ids, got.Count)
	}
	if got.Last == nil || got.Last.ID != "ORD-1995" || got.Last.Status != domain.OrderCancelled {
		t.Errorf("last other order %+v, want the cancelled ORD-1995", got.Last)
	}

	// An order's number alone names it, Munshi's or the books' own.
	for number, want := range map[string]string{"5531": "[T-5531]", "2001": "[ORD-2001]", "553": "[]", "31": "[]", "x'1": "[]"} {
		if ids, err := s.OrdersNumbered(ctx, number); err != nil || fmt.Sprint(ids) != want {
			t.Errorf("OrdersNumbered(%q) = %v, %v; want %s", number, ids, err, want)
		}
	}

	// Once none is open, the last is the latest delivered or cancelled.
	if got, err := s.OrdersToDeliver(ctx, "C03", 8); err != nil || len(got.Open) != 0 || got.Count != 0 || got.Last != nil {
		t.Errorf("a customer without orders: %+v, %v", got, err)
	}
	got, err = s.OrdersToDeliver(ctx, "C02", 8)
	if err != nil || got.Count != 1 || len(got.Open) != 1 || got.Open[0].ID != "ORD-2010" || got.Last != nil {
		t.Errorf("C02: %+v, %v; want ORD-2010 alone", got, err)
	}
	other := order("ORD-3001", "C03", domain.OrderDelivered, day)
	if err := s.AddHistory(ctx, []domain.Order{other, order("ORD-3002", "C03", domain.OrderCancelled, day.Add(-time.Hour))}, nil); err != nil {
		t.Fatal(err)
	}
	got, err = s.OrdersToDeliver(ctx, "C03", 8)
	if err != nil || got.Count != 0 || got.Last == nil || got.Last.ID != "ORD-3001" ||
		got.Last.Status != domain.OrderDelivered || !got.Last.DeliveredAt.Equal(other.DeliveredAt) {
		t.Errorf("C03: %+v (last %+v), %v; want ORD-3001 delivered as the last", got, got.Last, err)
	}
}
