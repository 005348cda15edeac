package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// secondSales is the demo's other salesperson.
const secondSales = "+919900000004"

// outstanding reads what a customer owes now.
func outstanding(t testing.TB, m *Main, id string) domain.Paise {
	t.Helper()
	snap, err := m.Store.Snapshot(context.Background(), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap.Customer.Outstanding
}

// okTogether sends "ok" from each phone at the same moment and returns the
// replies by phone.
func okTogether(t *testing.T, m *Main, tag string, phones ...string) map[string]string {
	t.Helper()
	replies := make(map[string]string, len(phones))
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, p := range phones {
		wg.Go(func() {
			<-start
			r := say(t, m, "SMok"+tag+p, p, "ok")
			mu.Lock()
			replies[p] = r
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return replies
}

// Two salespeople each place a credit order for Sharma that fits the
// credit room on its own; both say ok at once. One is placed, the other
// goes to the owner with the reason, and Sharma never owes more than the
// limit without an owner's approval.
func TestConcurrentCreditDraftsCannotExceedTheLimit(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	before := outstanding(t, m, "C02") // ₹1,20,000 of a ₹1,50,000 limit
	ids := map[string]string{}
	for i, p := range []string{demo.SalesPhone, secondSales} {
		s := say(t, m, fmt.Sprintf("SMcr%d", i), p, "10 carton glass cleaner for Sharma, udhaar")
		if !strings.Contains(s, "within the ₹1,50,000 limit") || !strings.Contains(s, "₹26,054.40") {
			t.Fatalf("summary for %s:\n%s", p, s)
		}
		ids[p] = draftRef.FindString(s)
	}
	replies := okTogether(t, m, "credit", demo.SalesPhone, secondSales)
	var placed, escalated string
	for p, r := range replies {
		switch {
		case strings.Contains(r, "placed for"):
			placed = p
		case strings.Contains(r, "needs the owner's approval") && strings.Contains(r, "credit limit"):
			escalated = p
		}
	}
	if placed == "" || escalated == "" {
		t.Fatalf("want one placed and one sent to the owner; got %q", replies)
	}
	if !strings.Contains(replies[escalated], "books changed since the summary") {
		t.Errorf("the salesperson is not told why: %s", replies[escalated])
	}
	if got := outstanding(t, m, "C02"); got != before+2605440 {
		t.Fatalf("outstanding %s, want %s", got, before+2605440)
	}
	if placedAs(t, m, ids[escalated]) != "" {
		t.Fatal("the second order was committed over the limit without the owner")
	}
	ask := waitFor(t, tw, demo.OwnerPhone, "approve "+ids[escalated])
	if !strings.Contains(ask, "over the ₹1,50,000 credit limit") {
		t.Fatalf("owner's request: %s", ask)
	}
	// The owner approves what they read: now it is placed, with authority.
	if r := say(t, m, "SMcr-approve", demo.OwnerPhone, "approve "+ids[escalated]); !strings.Contains(r, "placed") {
		t.Fatalf("approval: %s", r)
	}
	if got := outstanding(t, m, "C02"); got != before+2*2605440 {
		t.Fatalf("outstanding after approval %s", got)
	}
	refused, _ := m.Store.AuditEntries(ctx, "approval_refused")
	if len(refused) != 1 || refused[0].Subject != ids[escalated] || refused[0].Detail["reason"] != "needs_owner" {
		t.Fatalf("audit %+v", refused)
	}
}

// Two orders that each fit the stock left but not together: one is placed,
// the other is refused with the stock as it is now.
func TestConcurrentDraftsCannotOversellStock(t *testing.T) {
	m, _, _ := startShop(t)
	ctx := context.Background()
	products, err := m.Store.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	held, _ := m.Store.Committed(ctx, "GC500")
	var ready int64
	for _, p := range products {
		if p.SKU == "GC500" {
			ready = p.StockReady
		}
	}
	each := (ready-held["GC500"])/2 + 1
	if each < 240 { // keep both orders above the minimum
		t.Fatalf("only %d bottles of GC to sell", ready-held["GC500"])
	}
	for i, p := range []string{demo.SalesPhone, secondSales} {
		s := say(t, m, fmt.Sprintf("SMst%d", i), p, fmt.Sprintf("%d bottle glass cleaner for Rajesh, cash", each))
		if !strings.Contains(s, "all items in stock") {
			t.Fatalf("summary:\n%s", s)
		}
	}
	replies := okTogether(t, m, "stock", demo.SalesPhone, secondSales)
	placed, refused := 0, 0
	for _, r := range replies {
		switch {
		case strings.Contains(r, "placed for"):
			placed++
		case strings.Contains(r, "cannot be placed now") && strings.Contains(r, "not enough stock"):
			refused++
		}
	}
	if placed != 1 || refused != 1 {
		t.Fatalf("placed %d, refused %d: %q", placed, refused, replies)
	}
	after, _ := m.Store.Committed(ctx, "GC500")
	if after["GC500"] > ready {
		t.Fatalf("committed %d of %d ready", after["GC500"], ready)
	}
}

// An owner approves a draft after the books moved: Sharma's outstanding is
// no longer what the owner read. The approval is refused, the draft is
// closed as superseded, and the salesperson and the owner are told.
func TestStaleCreditApprovalIsSuperseded(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	// 13 cartons = ₹33,870.72: over the credit room of ₹30,000.
	s := say(t, m, "SMsc1", demo.SalesPhone, "13 carton glass cleaner for Sharma, udhaar")
	id := draftRef.FindString(s)
	if !strings.Contains(s, "over the ₹1,50,000 credit limit") {
		t.Fatalf("summary:\n%s", s)
	}
	if r := say(t, m, "SMsc2", demo.SalesPhone, "ok"); !strings.Contains(r, "needs the owner's approval") {
		t.Fatalf("escalation: %s", r)
	}
	waitFor(t, tw, demo.OwnerPhone, "approve "+id)
	// Meanwhile another credit order for Sharma is placed.
	say(t, m, "SMsc3", secondSales, "10 carton glass cleaner for Sharma, udhaar")
	if r := say(t, m, "SMsc4", secondSales, "ok"); !strings.Contains(r, "placed for") {
		t.Fatalf("the other order: %s", r)
	}
	due := outstanding(t, m, "C02")
	r := say(t, m, "SMsc5", demo.OwnerPhone, "approve "+id)
	if !strings.Contains(r, "not placed") || !strings.Contains(r, "closed") || !strings.Contains(r, "Ravi Kumar") {
		t.Fatalf("stale approval reply: %s", r)
	}
	if placedAs(t, m, id) != "" {
		t.Fatal("a stale approval committed the order")
	}
	if outstanding(t, m, "C02") != due {
		t.Fatal("a stale approval moved the outstanding")
	}
	d, _, _ := m.Store.DraftByID(ctx, id)
	if d.Status != orders.DraftSuperseded {
		t.Fatalf("draft status %s", d.Status)
	}
	told := waitFor(t, tw, demo.SalesPhone, id+" for Sharma General Store was not placed")
	if !strings.Contains(told, "send the order again") {
		t.Fatalf("salesperson told: %s", told)
	}
	// It stays closed: a second approval and the salesperson's ok say so.
	if r := say(t, m, "SMsc6", demo.OwnerPhone, "approve "+id); !strings.Contains(r, "not waiting") {
		t.Fatalf("second approval: %s", r)
	}
}

// A draft shown under the minimum needs the owner; if the minimum is met
// when the owner approves nothing changed for the worse, and the order is
// placed.
func TestApprovalAfterABetterChangeIsPlaced(t *testing.T) {
	m, _, _ := startShop(t)
	ctx := context.Background()
	id := draftRef.FindString(say(t, m, "SMbc1", demo.SalesPhone, "2 carton GC for Sharma ji cash"))
	say(t, m, "SMbc2", demo.SalesPhone, "ok")
	m.Orders.MinimumOrder = 100000 // ₹1,000 now: the exception no longer applies
	r := say(t, m, "SMbc3", demo.OwnerPhone, "approve "+id)
	placed := placedAs(t, m, id)
	if placed == "" || !strings.Contains(r, "Order *"+placed+"* placed") {
		t.Fatalf("approval: %s", r)
	}
	if o, ok, _ := m.Store.Order(ctx, placed); !ok || o.Status != domain.OrderCommitted {
		t.Fatalf("order %+v", o)
	}
}

// An owner's own order is placed on their ok only with the exceptions they
// read: when the books moved since their summary, they are shown the new
// reason and their next ok places it.
func TestOwnersOwnOkAfterTheBooksMoved(t *testing.T) {
	m, _, _ := startShop(t)
	ctx := context.Background()
	id := draftRef.FindString(say(t, m, "SMow1", demo.OwnerPhone, "10 carton glass cleaner for Sharma, udhaar"))
	say(t, m, "SMow2", demo.SalesPhone, "10 carton glass cleaner for Sharma, udhaar")
	if r := say(t, m, "SMow3", demo.SalesPhone, "ok"); !strings.Contains(r, "placed for") {
		t.Fatalf("salesperson's order: %s", r)
	}
	r := say(t, m, "SMow4", demo.OwnerPhone, "ok")
	if !strings.Contains(r, "not placed") || !strings.Contains(r, "credit limit") || !strings.Contains(r, "ok* again") {
		t.Fatalf("owner's ok after the change: %s", r)
	}
	if placedAs(t, m, id) != "" {
		t.Fatal("placed without the owner reading the new reason")
	}
	if r := say(t, m, "SMow5", demo.OwnerPhone, "ok"); !strings.Contains(r, "placed for") {
		t.Fatalf("owner's second ok: %s", r)
	}
	if o, ok, _ := m.Store.Order(ctx, placedAs(t, m, id)); !ok || o.PlacedBy != demo.OwnerPhone {
		t.Fatalf("the owner's order %+v", o)
	}
}
