package storetest

import (
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// testAdvanceApprovedOnce: a payment whose advance needs an owner waits
// after the accountant's ok, its owners asked in the same transaction; of
// many approvals at once, one records it, and a rejection after that
// changes nothing.
func testAdvanceApprovedOnce(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := ledgerService(t, s, c)
	due := customer(t, s, "C01").Outstanding // credit limit ₹1,00,000
	mustSay(t, "summary", svc.RecordPayment(ctx, books, "Rajesh 5,00,000 cash").Text, "Needs an owner's approval")
	waits := svc.Confirm(ctx, books, "").Text
	mustSay(t, "ok", waits, "needs the owner's approval")
	id := ""
	for _, w := range strings.Fields(waits) {
		if strings.HasPrefix(w, "PRP-") {
			id = w
			break
		}
	}
	p, ok, err := s.ProposalByID(ctx, id)
	if err != nil || !ok || p.Status != orders.ProposalPendingApproval {
		t.Fatalf("ProposalByID(%q) = %+v, %v, %v", id, p, ok, err)
	}
	if got := customer(t, s, "C01").Outstanding; got != due {
		t.Fatalf("outstanding %v before approval, want %v", got, due)
	}
	asked, err := s.OutboxMessages(ctx)
	if err != nil || len(asked) != 1 || asked[0].To != owner {
		t.Fatalf("outbox after the ok: %+v, %v; want the owner asked", asked, err)
	}
	replies := make([]string, 6)
	var wg sync.WaitGroup
	for i := range replies {
		wg.Go(func() { replies[i] = svc.Confirm(ctx, boss, id).Text })
	}
	wg.Wait()
	n := 0
	for _, r := range replies {
		if strings.Contains(r, "Approved") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d approvals recorded it: %q", n, replies)
	}
	if got := customer(t, s, "C01").Outstanding; got != due-50000000 {
		t.Fatalf("outstanding %v, want %v", got, due-50000000)
	}
	if r := svc.Cancel(ctx, boss, id, "reject "+id).Text; strings.Contains(r, "Rejected") {
		t.Fatalf("a rejection after the approval: %q", r)
	}
}
