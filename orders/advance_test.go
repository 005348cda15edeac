package orders_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

var (
	priya  = domain.User{Phone: demo.AccountsPhone, Name: "Priya Nair", Role: domain.RoleAccounts}
	vikram = domain.User{Phone: demo.OwnerPhone, Name: "Vikram Singh", Role: domain.RoleOwner}
)

// withDues sets a customer's outstanding and credit limit in the shop's
// books.
func (s *shop) withDues(id string, outstanding, limit domain.Paise) {
	s.t.Helper()
	ctx := context.Background()
	cs, err := s.books.Customers(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, c := range cs {
		if c.ID == id {
			c.Outstanding, c.CreditLimit = outstanding, limit
			if err := s.books.UpsertCustomers(ctx, []domain.Customer{c}); err != nil {
				s.t.Fatal(err)
			}
			return
		}
	}
	s.t.Fatalf("no customer %s", id)
}

// whatsApps are the WhatsApp messages in the outbox to a phone, in order.
func (s *shop) whatsApps(to string) []string {
	s.t.Helper()
	all, err := s.books.OutboxMessages(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	var out []string
	for _, m := range all {
		var o domain.Outbound
		if m.Kind != domain.EffectWhatsApp || m.To != to || json.Unmarshal(m.Payload, &o) != nil {
			continue
		}
		out = append(out, o.Body)
	}
	return out
}

func (s *shop) proposal(id string) orders.Proposal {
	s.t.Helper()
	p, ok, err := s.books.ProposalByID(context.Background(), id)
	if err != nil || !ok {
		s.t.Fatalf("proposal %s: %v %v", id, ok, err)
	}
	return p
}

func (s *shop) audited(kind, subject string) bool {
	s.t.Helper()
	es, err := s.books.AuditEntries(context.Background(), kind)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, e := range es {
		if e.Subject == subject {
			return true
		}
	}
	return false
}

func has(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Fatalf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// proposalRef is the PRP-… reference a reply names.
func proposalRef(t *testing.T, text string) string {
	t.Helper()
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '*' || r == '\n' || r == ':' || r == ',' }) {
		if domain.IsProposalRef(w) {
			return w
		}
	}
	t.Fatalf("no proposal reference in:\n%s", text)
	return ""
}

// TestAPaymentFarBeyondTheDuesWaitsForTheOwner: 1.2 crore against ₹1.3
// lakh of dues, from accounts, is shown in words with the owner's
// approval needed; the ok sends it to the owners and records nothing;
// the owner's approve records it once.
func TestAPaymentFarBeyondTheDuesWaitsForTheOwner(t *testing.T) {
	s := newShop(t, nil)
	s.svc.MaxAdvance = 5000000
	ctx := context.Background()
	s.withDues("C01", 13000000, 10000000)

	shown := s.svc.RecordPayment(ctx, priya, "Rajesh ne 1.2 crore cash diya")
	has(t, "summary", shown.Text, "₹1,20,00,000", "one crore twenty lakh rupees", "Needs an owner's approval",
		"advance of ₹1,18,70,000", "₹1,00,000 (Rajesh Kirana Store's credit limit)", "send it to the owner for approval")

	waits := s.svc.Confirm(ctx, priya, "")
	has(t, "ok", waits.Text, "Not recorded yet", "needs the owner's approval", "sent it to them")
	id := proposalRef(t, waits.Text)
	if got := s.due("C01"); got != 13000000 {
		t.Fatalf("the ok moved the dues to %v", got)
	}
	if p := s.proposal(id); p.Status != orders.ProposalPendingApproval {
		t.Fatalf("%s is %s, want pending approval", id, p.Status)
	}
	asked := s.whatsApps(demo.OwnerPhone)
	if len(asked) != 1 {
		t.Fatalf("owner told %d times: %q", len(asked), asked)
	}
	has(t, "the owner's message", asked[0], "Approval needed: payment "+id, "Priya Nair", "one crore twenty lakh rupees",
		"*approve "+id+"*", "*reject "+id+"*")
	if !s.audited("escalation", id) {
		t.Error("the escalation is not audited")
	}
	has(t, "a second ok", s.svc.Confirm(ctx, priya, "").Text, "already with the owner")
	has(t, "the accountant's approve", s.svc.Confirm(ctx, priya, id).Text, "Only an owner")
	if got := s.due("C01"); got != 13000000 {
		t.Fatalf("dues %v before the owner approved", got)
	}

	done := s.svc.Confirm(ctx, vikram, id)
	has(t, "approve", done.Text, "Approved "+id, "Recorded ₹1,20,00,000 from Rajesh Kirana Store", "advance ₹1,18,70,000", "Priya Nair has been told")
	if got := s.due("C01"); got != 13000000-1200000000 {
		t.Fatalf("dues %v after approval, want %v", got, domain.Paise(13000000-1200000000))
	}
	if p := s.proposal(id); p.Status != orders.ProposalApplied {
		t.Errorf("%s is %s after approval", id, p.Status)
	}
	told := s.whatsApps(demo.AccountsPhone)
	if len(told) != 1 || !strings.Contains(told[0], "approved by Vikram Singh") {
		t.Errorf("accountant told %q", told)
	}
	es, _ := s.books.AuditEntries(ctx, "payment")
	if len(es) != 1 || es[0].Actor != demo.OwnerPhone || es[0].Detail["approval"] != true {
		t.Errorf("payment audit %+v", es)
	}

	again := s.svc.Confirm(ctx, vikram, id)
	has(t, "a second approve", again.Text, "already recorded")
	if got := s.due("C01"); got != 13000000-1200000000 {
		t.Fatalf("a second approve moved the dues to %v", got)
	}
	if n := len(s.whatsApps(demo.AccountsPhone)); n != 1 {
		t.Errorf("a second approve told the accountant again (%d messages)", n)
	}
}

// TestTheOwnerRejectsAnAdvance: reject drops it, the accountant is told,
// and an approve after it records nothing.
func TestTheOwnerRejectsAnAdvance(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.withDues("C01", 13000000, 10000000)
	s.svc.RecordPayment(ctx, priya, "Rajesh ne 1.2 crore cash diya")
	id := proposalRef(t, s.svc.Confirm(ctx, priya, "").Text)

	has(t, "reject", s.svc.Cancel(ctx, vikram, id, "reject "+id).Text, "Rejected "+id, "Nothing was recorded", "Priya Nair has been told")
	if p := s.proposal(id); p.Status != orders.ProposalRejected {
		t.Fatalf("%s is %s after reject", id, p.Status)
	}
	told := s.whatsApps(demo.AccountsPhone)
	if len(told) != 1 || !strings.Contains(told[0], "rejected by Vikram Singh") || !strings.Contains(told[0], "₹1,20,00,000 from Rajesh Kirana Store") {
		t.Errorf("accountant told %q", told)
	}
	if !s.audited("rejection", id) {
		t.Error("the rejection is not audited")
	}
	has(t, "approve after reject", s.svc.Confirm(ctx, vikram, id).Text, "not waiting for approval")
	has(t, "the accountant's ok after reject", s.svc.Confirm(ctx, priya, "").Text, "rejected by the owner")
	if got := s.due("C01"); got != 13000000 {
		t.Fatalf("dues %v after reject", got)
	}
}

// TestAnAdvanceWithinTheBoundRecordsOnOk: an advance up to the credit
// limit, or to MaxAdvance for a customer without one, is recorded on the
// accountant's ok, with the warning and the amount in words.
func TestAnAdvanceWithinTheBoundRecordsOnOk(t *testing.T) {
	s := newShop(t, nil)
	s.svc.MaxAdvance = 5000000
	ctx := context.Background()
	s.withDues("C01", 3500000, 10000000)
	shown := s.svc.RecordPayment(ctx, priya, "Rajesh ne 50,000 cash diya")
	has(t, "summary", shown.Text, "In words: fifty thousand rupees", "₹15,000 more than Rajesh Kirana Store owes", "Reply *ok* to record it")
	if strings.Contains(shown.Text, "approval") {
		t.Fatalf("an advance within the credit limit needs approval:\n%s", shown.Text)
	}
	has(t, "ok", s.svc.Confirm(ctx, priya, "").Text, "✅ Recorded ₹50,000")
	if got := s.due("C01"); got != -1500000 {
		t.Fatalf("dues %v", got)
	}

	// A cash customer, no credit limit: MaxAdvance is the bound.
	s.withDues("C07", 0, 0)
	has(t, "within the floor", s.svc.RecordPayment(ctx, priya, "Agarwal ne 40000 cash diya").Text, "Reply *ok* to record it")
	has(t, "ok", s.svc.Confirm(ctx, priya, "").Text, "✅ Recorded ₹40,000")
	shown = s.svc.RecordPayment(ctx, priya, "Agarwal ne 20,000.50 cash diya")
	has(t, "beyond the floor", shown.Text, "twenty thousand rupees and fifty paise", "advance of ₹60,000.50 is more than ₹50,000",
		"Agarwal Medical Stores has no credit limit", "send it to the owner")
	has(t, "ok", s.svc.Confirm(ctx, priya, "").Text, "needs the owner's approval")
	if got := s.due("C07"); got != -4000000 {
		t.Fatalf("dues %v", got)
	}
}

// TestAnOwnersOwnOkIsTheApproval: an owner recording a large advance
// records it on their ok, still warned.
func TestAnOwnersOwnOkIsTheApproval(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.withDues("C01", 13000000, 10000000)
	shown := s.svc.RecordPayment(ctx, vikram, "Rajesh ne 1.2 crore cash diya")
	has(t, "summary", shown.Text, "one crore twenty lakh rupees", "Needs an owner's approval", "your ok is the owner's approval")
	has(t, "ok", s.svc.Confirm(ctx, vikram, "").Text, "✅ Recorded ₹1,20,00,000")
	if got := s.due("C01"); got != 13000000-1200000000 {
		t.Fatalf("dues %v", got)
	}
	if n := len(s.whatsApps(demo.OwnerPhone)); n != 0 {
		t.Errorf("the owner was asked to approve their own payment (%d messages)", n)
	}
}

// TestAnApprovalAfterTheBooksMovedRecordsNothing: a payment recorded for
// the customer meanwhile changes what the owner was shown: the approval
// closes it and the accountant is told to send it again.
func TestAnApprovalAfterTheBooksMovedRecordsNothing(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	s.withDues("C01", 13000000, 10000000)
	s.svc.RecordPayment(ctx, priya, "Rajesh ne 1.2 crore cash diya")
	id := proposalRef(t, s.svc.Confirm(ctx, priya, "").Text)
	s.svc.RecordPayment(ctx, priya, "Rajesh ne 10,000 UPI diya")
	has(t, "another payment", s.svc.Confirm(ctx, priya, "").Text, "✅ Recorded ₹10,000")

	has(t, "approve", s.svc.Confirm(ctx, vikram, id).Text, id+" was not recorded", "the books changed", "As they stand now", "Priya Nair has been told")
	if got := s.due("C01"); got != 12000000 {
		t.Fatalf("dues %v, want only the ₹10,000 off", got)
	}
	if p := s.proposal(id); p.Status != orders.ProposalDropped {
		t.Errorf("%s is %s", id, p.Status)
	}
	if told := s.whatsApps(demo.AccountsPhone); len(told) != 1 || !strings.Contains(told[0], "send it again") {
		t.Errorf("accountant told %q", told)
	}
}
