package dialogs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
)

// Books is what a snapshot reads: a subset of the store's methods, so the
// store satisfies it as it stands.
type Books interface {
	// OrderStatuses lists drafts awaiting or refused approval and orders in
	// every state, a page at a time.
	OrderStatuses(ctx context.Context, q reports.OrderStatusQuery) (reports.OrderStatusTotals, []reports.OrderState, error)
	// Order reads an order with its lines.
	Order(ctx context.Context, id string) (domain.Order, bool, error)
	// DraftByID reads a draft with its lines.
	DraftByID(ctx context.Context, id string) (orders.Draft, bool, error)
	// PaymentsIn sums the payments received in a span, by customer.
	PaymentsIn(ctx context.Context, sp digest.Span) ([]digest.PaymentSum, error)
	// AuditEntries returns the entries of a kind, oldest first: a payment
	// Munshi records leaves one of kind "payment" in the same transaction,
	// with its customer, amount, mode and reference.
	AuditEntries(ctx context.Context, kind string) ([]audit.Entry, error)
	// Products returns the catalog, with its stock.
	Products(ctx context.Context) ([]domain.Product, error)
}

// Snapshot is what a conversation may change in the books, at one moment.
type Snapshot struct {
	// Orders are the orders and the drafts awaiting or refused an owner's
	// approval, by id (a draft's reference, D-57, or an order number).
	Orders map[string]Order
	// Payments are the payments Munshi recorded, oldest first, as their
	// audit entries describe them.
	Payments []Payment
	// Paid counts every payment in the books (imported ones too) by
	// customer: the check that no payment goes unseen.
	Paid map[string]Paid
	// Stock is each product's stock, by SKU.
	Stock map[string]Stock
}

// Where an order stands: the states of reports.OrderState.
const (
	StateAwaitingApproval = reports.StateAwaitingApproval
	StateRejected         = reports.StateRejected
	StateCommitted        = reports.StateCommitted
	StateDelivered        = reports.StateDelivered
	StateCancelled        = reports.StateCancelled
)

// Order is an order or a draft as a snapshot sees it.
type Order struct {
	ID       string             `json:"id"`
	State    string             `json:"state"`
	Customer string             `json:"customer"`
	Payment  domain.PaymentMode `json:"payment"`
	Lines    []Item             `json:"lines"`
	Total    domain.Paise       `json:"total_paise"`
	// seen is how the order's listing looked when its details were read:
	// an unchanged listing lends them to the next snapshot.
	seen reports.OrderState
}

// Payment is one payment recorded.
type Payment struct {
	Customer  string             `json:"customer"`
	Amount    domain.Paise       `json:"amount_paise"`
	Mode      domain.PaymentMode `json:"mode"`
	Reference string             `json:"reference,omitempty"`
}

// Paid is how many payments a customer has made and their sum.
type Paid struct {
	Count  int
	Amount domain.Paise
}

// Stock is a product's ready and work-in-progress stock, in base units.
type Stock struct {
	Ready, WIP int64
}

// pageSize is how many orders one OrderStatuses call asks for.
const pageSize = reports.MaxRows

// maxOrders bounds how many orders a snapshot reads: far above any seed a
// dialog file brings.
const maxOrders = 200_000

// Take reads a snapshot of the books. prev, when not nil, is an earlier
// snapshot of the same books: orders whose listing has not changed since
// keep the details read then, so a snapshot after each turn costs a few
// queries, not one per order.
func Take(ctx context.Context, b Books, prev *Snapshot) (Snapshot, error) {
	s := Snapshot{Orders: map[string]Order{}, Paid: map[string]Paid{}, Stock: map[string]Stock{}}
	for offset := 0; ; offset += pageSize {
		totals, page, err := b.OrderStatuses(ctx, reports.OrderStatusQuery{Page: reports.Page{Offset: offset, Limit: pageSize}})
		if err != nil {
			return Snapshot{}, fmt.Errorf("dialogs: snapshot: %w", err)
		}
		for _, st := range page {
			if o, ok := s.reuse(prev, st); ok {
				s.Orders[st.ID] = o
				continue
			}
			o, err := details(ctx, b, st)
			if err != nil {
				return Snapshot{}, err
			}
			s.Orders[st.ID] = o
		}
		if len(page) < pageSize || offset+len(page) >= totals.Count() {
			break
		}
		if offset+pageSize >= maxOrders {
			return Snapshot{}, fmt.Errorf("dialogs: snapshot: more than %d orders in the books", maxOrders)
		}
	}
	sums, err := b.PaymentsIn(ctx, digest.Span{From: time.Time{}, To: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		return Snapshot{}, fmt.Errorf("dialogs: snapshot: %w", err)
	}
	for _, p := range sums {
		s.Paid[p.CustomerID] = Paid{Count: p.Payments, Amount: p.Amount}
	}
	entries, err := b.AuditEntries(ctx, string(orders.ProposePayment))
	if err != nil {
		return Snapshot{}, fmt.Errorf("dialogs: snapshot: %w", err)
	}
	for _, e := range entries {
		if p, ok := paymentOf(e); ok {
			s.Payments = append(s.Payments, p)
		}
	}
	products, err := b.Products(ctx)
	if err != nil {
		return Snapshot{}, fmt.Errorf("dialogs: snapshot: %w", err)
	}
	for _, p := range products {
		s.Stock[p.SKU] = Stock{Ready: p.StockReady, WIP: p.StockWIP}
	}
	return s, nil
}

// reuse returns the order as prev read it when its listing is unchanged.
func (s Snapshot) reuse(prev *Snapshot, st reports.OrderState) (Order, bool) {
	if prev == nil {
		return Order{}, false
	}
	o, ok := prev.Orders[st.ID]
	if !ok || o.seen != st {
		return Order{}, false
	}
	return o, true
}

// details reads an order's or a draft's customer, payment and lines.
func details(ctx context.Context, b Books, st reports.OrderState) (Order, error) {
	o := Order{ID: st.ID, State: st.State, Customer: st.CustomerID, Total: st.Total, seen: st}
	switch st.State {
	case StateAwaitingApproval, StateRejected:
		d, ok, err := b.DraftByID(ctx, st.ID)
		if err != nil {
			return Order{}, fmt.Errorf("dialogs: snapshot: draft %s: %w", st.ID, err)
		}
		if ok {
			o.Customer, o.Payment, o.Lines = d.Customer.ID, d.Payment, itemsOf(d.Lines)
		}
	default:
		d, ok, err := b.Order(ctx, st.ID)
		if err != nil {
			return Order{}, fmt.Errorf("dialogs: snapshot: order %s: %w", st.ID, err)
		}
		if ok {
			o.Customer, o.Payment, o.Lines = d.CustomerID, d.Payment, itemsOf(d.Lines)
		}
	}
	return o, nil
}

func itemsOf(lines []domain.OrderLine) []Item {
	out := make([]Item, len(lines))
	for i, l := range lines {
		out[i] = Item{SKU: l.SKU, Qty: l.Qty}
	}
	return out
}

// paymentOf reads the audit entry of a payment Munshi recorded (written
// with the payment, carrying the proposal it settled).
func paymentOf(e audit.Entry) (Payment, bool) {
	customer, _ := e.Detail["customer"].(string)
	if _, settled := e.Detail["proposal"]; !settled || customer == "" {
		return Payment{}, false
	}
	var amount domain.Paise
	switch v := e.Detail["amount_paise"].(type) {
	case float64:
		amount = domain.Paise(v)
	case int64:
		amount = domain.Paise(v)
	case int:
		amount = domain.Paise(v)
	default:
		return Payment{}, false
	}
	m, _ := e.Detail["mode"].(string)
	ref, _ := e.Detail["reference"].(string)
	return Payment{Customer: customer, Amount: amount, Mode: domain.PaymentMode(m), Reference: ref}, true
}

// orderIDs returns a snapshot's order ids in order.
func (s Snapshot) orderIDs() []string {
	return slices.Sorted(maps.Keys(s.Orders))
}
