package storetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
)

// The business rules a single writer keeps for free, stated as races: a
// backend with more than one writer must keep them by its transactions.

// rounds is how many times each race is run, each on its own products or
// customers, so that a backend that only sometimes gets it wrong fails.
const rounds = 10

// atOnce runs each fn on its own goroutine, all released together, and
// waits for them.
func atOnce(fns ...func()) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, fn := range fns {
		wg.Go(func() {
			<-start
			fn()
		})
	}
	close(start)
	wg.Wait()
}

// claimedAtOnce runs n tries at once and counts those that claimed
// something (true), with the errors they met.
func claimedAtOnce(n int, try func(i int) (bool, error)) (claimed int, errs []error) {
	var mu sync.Mutex
	fns := make([]func(), n)
	for i := range fns {
		fns[i] = func() {
			ok, err := try(i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			}
			if ok {
				claimed++
			}
		}
	}
	atOnce(fns...)
	return claimed, errs
}

var (
	salesRavi  = domain.User{Phone: ravi, Name: "Ravi Kumar", Role: domain.RoleSales}
	salesSunil = domain.User{Phone: sunil, Name: "Sunil Yadav", Role: domain.RoleSales}
)

// oneOfTwo has Ravi and Sunil say "ok" to their drafts a and b at the same
// moment, fails unless exactly one order is placed, and returns the
// number of the draft that was not.
func oneOfTwo(t *testing.T, s store.Store, svc *orders.Service, a, b orders.Draft, what string) (loser string) {
	t.Helper()
	var replies [2]string
	atOnce(
		func() { replies[0] = svc.Confirm(ctx, salesRavi, "").Text },
		func() { replies[1] = svc.Confirm(ctx, salesSunil, "").Text },
	)
	placedA, placedB := placed(t, s, a.ID), placed(t, s, b.ID)
	if n := countTrue(placedA, placedB); n != 1 {
		t.Fatalf("%s and %s: %d orders placed %s (replies %q)", a.ID, b.ID, n, what, replies)
	}
	if placedA {
		return b.ID
	}
	return a.ID
}

// testStockRace: two drafts whose stock fits only once, confirmed at the
// same moment by two salespeople, make exactly one order, and stock is
// never promised beyond what is ready.
func testStockRace(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	var scarce []domain.Product
	for i := range rounds {
		scarce = append(scarce, domain.Product{SKU: fmt.Sprintf("SC%02d", i), Name: fmt.Sprintf("Scarce Soap %d", i),
			Unit: "bar", PackSizes: []domain.PackSize{{Name: "carton", Units: 12}}, Price: 4000, GSTPercent: 1800, StockReady: 100})
	}
	if err := s.UpsertProducts(ctx, scarce); err != nil {
		t.Fatal(err)
	}
	svc := service(t, s, c)
	for _, p := range scarce {
		a := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: p.SKU, Qty: 60})
		b := show(t, s, c, sunil, "C03", domain.PayCOD, orders.Item{SKU: p.SKU, Qty: 60})
		if a.Verdict() != orders.Pass || b.Verdict() != orders.Pass {
			t.Fatalf("each draft alone must pass: %v %v", a.Results, b.Results)
		}
		oneOfTwo(t, s, svc, a, b, "from stock for one")
		lines, err := s.StockOf(ctx, []string{p.SKU})
		if err != nil || len(lines) != 1 {
			t.Fatalf("StockOf(%s) = %+v, %v", p.SKU, lines, err)
		}
		if l := lines[0]; l.Committed != 60 || l.Available() < 0 {
			t.Fatalf("%s: %d committed, %d available; want one order's 60 and nothing negative", p.SKU, l.Committed, l.Available())
		}
	}
}

// testCreditRace: two credit drafts that each fit the customer's credit
// room, but not together, confirmed at the same moment, make one order;
// the dues rise by exactly that order's total, and the other goes to the
// owner.
func testCreditRace(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	var buyers []domain.Customer
	for i := range rounds {
		buyers = append(buyers, domain.Customer{ID: fmt.Sprintf("CR%02d", i), Name: fmt.Sprintf("Udhaar Traders %d", i),
			CreditLimit: 5000000, Outstanding: 1000000, PaymentModes: []domain.PaymentMode{domain.PayCredit}})
	}
	if err := s.UpsertCustomers(ctx, buyers); err != nil {
		t.Fatal(err)
	}
	// Stock for every round: only credit is short.
	plenty := domain.Product{SKU: "TC500", Name: "Toilet Cleaner 500ml", Unit: "bottle", Price: 9200, GSTPercent: 1800, StockReady: 1_000_000}
	if err := s.UpsertProducts(ctx, []domain.Product{plenty}); err != nil {
		t.Fatal(err)
	}
	svc := service(t, s, c)
	for _, cust := range buyers {
		// 240 bottles at ₹92 + 18% GST = ₹26,054.40: ₹40,000 of room fits
		// one, not two.
		item := orders.Item{SKU: plenty.SKU, Qty: 240}
		a := show(t, s, c, ravi, cust.ID, domain.PayCredit, item)
		b := show(t, s, c, sunil, cust.ID, domain.PayCredit, item)
		if a.Verdict() != orders.Pass || b.Verdict() != orders.Pass || a.Total*2 <= cust.CreditLimit-cust.Outstanding {
			t.Fatalf("each draft alone must fit, and not both: %v %v", a.Results, a.Total)
		}
		loser := oneOfTwo(t, s, svc, a, b, "in credit room for one")
		dues, _, err := s.Dues(ctx, reports.DuesQuery{CustomerIDs: []string{cust.ID}})
		if err != nil {
			t.Fatal(err)
		}
		if want := cust.Outstanding + a.Total; dues.Outstanding != want {
			t.Fatalf("%s: outstanding %v, want %v: one order's total added", cust.ID, dues.Outstanding, want)
		}
		if st := draftStatus(t, s, loser); st != orders.DraftPendingApproval {
			t.Errorf("%s: the second draft is %s, want it with the owner", cust.ID, st)
		}
	}
}

// testOkRace: the same "ok" delivered twice at once (two devices, a retry
// beside the first) commits the draft once, with one set of notifications.
func testOkRace(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := service(t, s, c)
	for round := range rounds {
		d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12})
		before := outboxTo(t, s)
		var replies [3]string
		atOnce(
			func() { replies[0] = svc.Confirm(ctx, salesRavi, "").Text },
			func() { replies[1] = svc.Confirm(ctx, salesRavi, "").Text },
			func() { replies[2] = svc.Confirm(ctx, salesRavi, "").Text },
		)
		if !placed(t, s, d.ID) {
			t.Fatalf("round %d: no order placed (replies %q)", round, replies)
		}
		held, _ := s.Committed(ctx, "BR01")
		if held["BR01"] != int64(12*(round+1)) {
			t.Fatalf("round %d: %d brooms committed, want %d", round, held["BR01"], 12*(round+1))
		}
		after := outboxTo(t, s)
		for k := range after {
			if after[k]-before[k] != 1 {
				t.Fatalf("round %d: %d effects to %s, want one (replies %q)", round, after[k]-before[k], k, replies)
			}
		}
	}
}

// testMoveRace: of the moves of one draft made at once, exactly one wins,
// and only its effects are written; an "ok" racing a "cancel" either
// places the order or cancels it, never both.
func testMoveRace(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	for round := range rounds {
		d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 24})
		targets := []orders.DraftStatus{orders.DraftCancelled, orders.DraftPendingApproval, orders.DraftReplaced,
			orders.DraftCancelled, orders.DraftPendingApproval}
		won := make([]bool, len(targets))
		var fns []func()
		for i, to := range targets {
			fns = append(fns, func() {
				ok, err := s.MoveDraft(ctx, orders.DraftMove{ID: d.ID, From: []orders.DraftStatus{orders.DraftOpen}, To: to,
					By: fmt.Sprintf("mover-%d", i), Effects: []domain.Effect{domain.WhatsApp(domain.Outbound{
						To: fmt.Sprintf("+9190000%02d%02d", round, i), Body: "moved to " + string(to)})}})
				if err != nil {
					t.Errorf("MoveDraft: %v", err)
				}
				won[i] = ok
			})
		}
		atOnce(fns...)
		winner := -1
		for i, ok := range won {
			if ok {
				if winner >= 0 {
					t.Fatalf("round %d: moves %d and %d both won", round, winner, i)
				}
				winner = i
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no move won", round)
		}
		if st := draftStatus(t, s, d.ID); st != targets[winner] {
			t.Fatalf("round %d: draft %s, want the winner's %s", round, st, targets[winner])
		}
		for i := range targets {
			to := fmt.Sprintf("whatsapp +9190000%02d%02d", round, i)
			if n := outboxTo(t, s)[to]; n != countTrue(i == winner) {
				t.Fatalf("round %d: %d effects of move %d written, want them only for the winner", round, n, i)
			}
		}
	}

	svc := service(t, s, c)
	for round := range rounds {
		d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 24})
		var ok, cancel string
		atOnce(
			func() { ok = svc.Confirm(ctx, salesRavi, "").Text },
			func() { cancel = svc.Cancel(ctx, salesRavi, "", "cancel").Text },
		)
		cancelled := draftStatus(t, s, d.ID) == orders.DraftCancelled
		if countTrue(placed(t, s, d.ID), cancelled) != 1 {
			t.Fatalf("round %d: placed %v and cancelled %v (replies %q, %q); want exactly one", round, placed(t, s, d.ID), cancelled, ok, cancel)
		}
	}
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
