package dialogs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
)

// fakeBooks answers Take's questions from memory and counts the detail
// reads.
type fakeBooks struct {
	states   []reports.OrderState
	orders   map[string]domain.Order
	drafts   map[string]orders.Draft
	sums     []digest.PaymentSum
	entries  []audit.Entry
	products []domain.Product
	reads    int
	fail     error
}

func (f *fakeBooks) OrderStatuses(_ context.Context, q reports.OrderStatusQuery) (reports.OrderStatusTotals, []reports.OrderState, error) {
	if f.fail != nil {
		return reports.OrderStatusTotals{}, nil, f.fail
	}
	p := q.Page.Clamp()
	t := reports.OrderStatusTotals{Committed: len(f.states)}
	if p.Offset >= len(f.states) {
		return t, nil, nil
	}
	return t, f.states[p.Offset:min(p.Offset+p.Limit, len(f.states))], nil
}

func (f *fakeBooks) Order(_ context.Context, id string) (domain.Order, bool, error) {
	f.reads++
	o, ok := f.orders[id]
	return o, ok, nil
}

func (f *fakeBooks) DraftByID(_ context.Context, id string) (orders.Draft, bool, error) {
	f.reads++
	d, ok := f.drafts[id]
	return d, ok, nil
}

func (f *fakeBooks) PaymentsIn(context.Context, digest.Span) ([]digest.PaymentSum, error) {
	return f.sums, nil
}

func (f *fakeBooks) AuditEntries(_ context.Context, kind string) ([]audit.Entry, error) {
	var out []audit.Entry
	for _, e := range f.entries {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out, nil
}

func (f *fakeBooks) Products(context.Context) ([]domain.Product, error) { return f.products, nil }

func TestTake(t *testing.T) {
	ctx := context.Background()
	f := &fakeBooks{orders: map[string]domain.Order{}, drafts: map[string]orders.Draft{},
		products: []domain.Product{{SKU: "GC500", StockReady: 2400, StockWIP: 480}}}
	// More orders than one page holds.
	for i := range 450 {
		id := fmt.Sprintf("T-%d", i)
		f.states = append(f.states, reports.OrderState{ID: id, State: StateCommitted, CustomerID: "C01", Lines: 1})
		f.orders[id] = domain.Order{ID: id, CustomerID: "C01", Payment: domain.PayCOD, Lines: []domain.OrderLine{{SKU: "GC500", Qty: int64(i + 1)}}}
	}
	f.states = append(f.states, reports.OrderState{ID: "D-1", State: StateAwaitingApproval, CustomerID: "C02", Lines: 1})
	f.drafts["D-1"] = orders.Draft{ID: "D-1", Customer: domain.Customer{ID: "C02"}, Payment: domain.PayUPI, Lines: []domain.OrderLine{{SKU: "PH1L", Qty: 24}}}
	f.sums = []digest.PaymentSum{{CustomerID: "C03", Payments: 2, Amount: 7000_00}}
	f.entries = []audit.Entry{
		{Kind: "payment", Detail: map[string]any{"customer": "C03", "amount_paise": float64(5000_00), "mode": "cheque", "reference": "CHQ-1", "proposal": "P-1"}},
		{Kind: "payment", Detail: map[string]any{"customer": "C03", "amount_paise": "oops", "proposal": "P-2"}}, // not read
		{Kind: "payment", Detail: map[string]any{"customer": "C03", "amount_paise": float64(1)}},                // no proposal: not a settlement
		{Kind: "decision", Detail: map[string]any{"customer": "C03"}},
	}
	s, err := Take(ctx, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Orders) != 451 || f.reads != 451 {
		t.Fatalf("%d orders, %d reads", len(s.Orders), f.reads)
	}
	if o := s.Orders["T-449"]; o.Customer != "C01" || o.Payment != domain.PayCOD || len(o.Lines) != 1 || o.Lines[0] != (Item{SKU: "GC500", Qty: 450}) {
		t.Fatalf("%+v", o)
	}
	if d := s.Orders["D-1"]; d.State != StateAwaitingApproval || d.Customer != "C02" || d.Payment != domain.PayUPI || d.Lines[0] != (Item{SKU: "PH1L", Qty: 24}) {
		t.Fatalf("%+v", d)
	}
	if len(s.Payments) != 1 || s.Payments[0] != (Payment{Customer: "C03", Amount: 5000_00, Mode: domain.PayCheque, Reference: "CHQ-1"}) {
		t.Fatalf("%+v", s.Payments)
	}
	if s.Paid["C03"] != (Paid{Count: 2, Amount: 7000_00}) || s.Stock["GC500"] != (Stock{Ready: 2400, WIP: 480}) {
		t.Fatalf("%+v %+v", s.Paid, s.Stock)
	}
	// The next snapshot reads only what changed.
	f.reads = 0
	f.states[3].State = StateDelivered
	f.orders["T-3"] = domain.Order{ID: "T-3", CustomerID: "C01", Payment: domain.PayCOD, Lines: []domain.OrderLine{{SKU: "GC500", Qty: 2}}}
	next, err := Take(ctx, f, &s)
	if err != nil {
		t.Fatal(err)
	}
	if f.reads != 1 || next.Orders["T-3"].State != StateDelivered || next.Orders["T-3"].Lines[0].Qty != 2 {
		t.Fatalf("%d reads: %+v", f.reads, next.Orders["T-3"])
	}
	c := Diff(s, next)
	if len(c.Delivered) != 1 || c.Delivered[0] != "T-3" || c.Count() != 1 {
		t.Fatalf("%+v", c)
	}
	f.fail = errors.New("database is locked")
	if _, err := Take(ctx, f, &s); err == nil || !strings.HasPrefix(err.Error(), "dialogs: snapshot: ") || !errors.Is(err, f.fail) {
		t.Fatalf("%v", err)
	}
}
