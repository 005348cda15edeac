package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
)

// placeBrooms has Ravi place a dozen brooms for Rajesh, cash, and returns
// the order's number.
func placeBrooms(t *testing.T, s store.Store, c *Clock) string {
	t.Helper()
	return placeOrder(t, s, c, service(t, s, c), domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12}).ID
}

// testOrderNumbers: a draft has a reference of its own, and an order
// number is taken only when an order is placed, so the numbers placed run
// on without gaps, past the numbered orders of history, however many
// drafts were replaced, cancelled, rejected, left unanswered or refused
// at the commit, and whoever says ok at the same moment.
func testOrderNumbers(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	past, _ := history()
	past[0].ID, past[1].ID = "ORD-4711", "ORD-1200"
	if err := s.AddHistory(ctx, past, nil); err != nil {
		t.Fatal(err)
	}
	svc := service(t, s, c)
	var numbers []string
	ok := func(by domain.User, d orders.Draft) {
		t.Helper()
		reply := svc.Confirm(ctx, by, "")
		id := orderOf(t, s, d.ID)
		if id == "" || !strings.Contains(reply.Text, "Order *"+id+"* placed") {
			t.Fatalf("ok of %s = %q; placed as %q", d.ID, reply.Text, id)
		}
		numbers = append(numbers, id)
	}
	say := func(what string, r domain.Reply, want string) {
		t.Helper()
		if !strings.Contains(r.Text, want) {
			t.Fatalf("%s = %q, want %q in it", what, r.Text, want)
		}
	}
	brooms := orders.Item{SKU: "BR01", Qty: 12}
	overLimit := orders.Item{SKU: "GC500", Qty: 720} // beyond Rajesh's credit room: an owner decides

	replaced := show(t, s, c, ravi, "C01", domain.PayCOD, brooms)
	ok(salesRavi, show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 24}))

	cancelled := show(t, s, c, sunil, "C03", domain.PayCOD, brooms)
	say("cancel", svc.Cancel(ctx, salesSunil, "", "cancel"), "Cancelled order "+cancelled.ID)

	rejected := show(t, s, c, ravi, "C01", domain.PayCredit, overLimit)
	say("ok over the limit", svc.Confirm(ctx, salesRavi, ""), "needs the owner's approval")
	say("reject", svc.Cancel(ctx, boss, rejected.ID, "reject "+rejected.ID), "Rejected order "+rejected.ID)

	unanswered := show(t, s, c, sunil, "C03", domain.PayCOD, brooms)

	// The price changed between the summary and the ok: refused at the
	// commit, inside its transaction.
	refused := show(t, s, c, ravi, "C01", domain.PayCOD, brooms)
	dearer := products()
	dearer[1].Price++
	if err := s.UpsertProducts(ctx, dearer); err != nil {
		t.Fatal(err)
	}
	say("ok after a price change", svc.Confirm(ctx, salesRavi, ""), "changed since the summary")
	if err := s.UpsertProducts(ctx, products()); err != nil {
		t.Fatal(err)
	}
	ok(salesRavi, show(t, s, c, ravi, "C01", domain.PayCOD, brooms))

	// An owner's approval places the draft they were asked about.
	approved := show(t, s, c, ravi, "C01", domain.PayCredit, overLimit)
	say("ok over the limit", svc.Confirm(ctx, salesRavi, ""), "needs the owner's approval")
	reply := svc.Confirm(ctx, boss, approved.ID)
	approvedAs := orderOf(t, s, approved.ID)
	numbers = append(numbers, approvedAs)
	say("approve", reply, "Order *"+approvedAs+"* placed")

	// Asked about by its draft's reference, a placed draft is the order it
	// became; one refused stays the draft.
	for ref, want := range map[string]string{approved.ID: approvedAs + " committed", rejected.ID: rejected.ID + " rejected"} {
		if _, got, err := s.OrderStatuses(ctx, reports.OrderStatusQuery{OrderIDs: []string{ref}}); err != nil || !slices.Equal(stateIDs(got), []string{want}) {
			t.Errorf("status of %s = %v, %v; want %s", ref, stateIDs(got), err, want)
		}
	}

	for _, d := range []orders.Draft{replaced, cancelled, rejected, unanswered, refused} {
		if id := orderOf(t, s, d.ID); id != "" {
			t.Errorf("draft %s, never placed, took order number %s", d.ID, id)
		}
	}

	// Six salespeople say ok at the same moment: six numbers, each once,
	// the next six.
	var team []domain.User
	var shown []orders.Draft
	for i := range 6 {
		u := domain.User{Phone: fmt.Sprintf("+9199000010%02d", i), Name: fmt.Sprintf("Sales %d", i), Role: domain.RoleSales}
		team = append(team, u)
	}
	if err := s.UpsertUsers(ctx, team); err != nil {
		t.Fatal(err)
	}
	var oks []func()
	for _, u := range team {
		shown = append(shown, show(t, s, c, u.Phone, "C03", domain.PayCOD, brooms))
		oks = append(oks, func() { svc.Confirm(ctx, u, "") })
	}
	atOnce(oks...)
	var together []string
	for _, d := range shown {
		together = append(together, orderOf(t, s, d.ID))
	}
	slices.Sort(together)
	numbers = append(numbers, together...)

	var want []string
	for n := range len(numbers) {
		want = append(want, fmt.Sprintf("ORD-%d", 4712+n))
	}
	if !slices.Equal(numbers, want) {
		t.Errorf("orders placed as %v, want %v: one number per order placed, none for the drafts that were not", numbers, want)
	}
	refs := map[string]bool{}
	for _, d := range append(shown, replaced, cancelled, rejected, unanswered, refused, approved) {
		if !domain.IsDraftRef(d.ID) || refs[d.ID] {
			t.Errorf("draft reference %s: want a D-… reference of its own", d.ID)
		}
		refs[d.ID] = true
	}
}

// testDraftNamesItsOrder: the reference a salesperson was shown names the
// order the draft became: a delivery and an owner's cancellation by it act
// on that order, and a draft not placed is no order to deliver.
func testDraftNamesItsOrder(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	delivered := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 24})
	svc.Confirm(ctx, salesRavi, "")
	id := orderOf(t, s, delivered.ID)
	mustSay(t, "delivery by the draft", svc.Deliver(ctx, books, delivered.ID+" delivered").Text, "Delivered: "+id)
	mustSay(t, "delivery ok", svc.Confirm(ctx, books, "").Text, id, "delivered")
	if o, _, _ := s.Order(ctx, id); o.Status != domain.OrderDelivered {
		t.Errorf("%s is %s, want delivered", id, o.Status)
	}

	cancelled := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12})
	svc.Confirm(ctx, salesRavi, "")
	id = orderOf(t, s, cancelled.ID)
	shown := svc.Cancel(ctx, boss, cancelled.ID, "cancel "+cancelled.ID+" — customer refused")
	mustSay(t, "cancel by the draft", shown.Text, id, "customer refused")
	mustSay(t, "cancel ok", svc.Confirm(ctx, boss, "").Text, id, "cancelled")
	if o, _, _ := s.Order(ctx, id); o.Status != domain.OrderCancelled {
		t.Errorf("%s is %s, want cancelled", id, o.Status)
	}

	open := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12})
	mustSay(t, "delivery of a draft not placed", svc.Deliver(ctx, books, open.ID+" delivered").Text, "can't find a placed order "+open.ID)
}

// testHistoryKeepsDraftsApart: an order of history called like a draft
// (D-40) moves the draft counter past it, as an ORD-n moves the order
// counter, so no draft is ever shown under an order's name.
func testHistoryKeepsDraftsApart(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	past, _ := history()
	past[0].ID, past[1].ID = "D-40", "D-45"
	if _, err := s.ImportHistory(ctx, past[:1], nil); err != nil {
		t.Fatal(err)
	}
	if d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12}); d.ID != "D-41" {
		t.Errorf("the draft after an imported D-40 is %s, want D-41", d.ID)
	}
	if err := s.AddHistory(ctx, past[1:], nil); err != nil {
		t.Fatal(err)
	}
	if d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12}); d.ID != "D-46" {
		t.Errorf("the draft after a D-45 of history is %s, want D-46", d.ID)
	}
}
