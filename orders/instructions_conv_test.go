package orders_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// TestInstructionsGoWithTheOrder: the salesperson's instructions survive
// the questions before the summary and a correction after it, are shown
// in the summary, and reach accounts on WhatsApp and by mail (escaped in
// the mail's HTML) with the order once it is placed.
func TestInstructionsGoWithTheOrder(t *testing.T) {
	s := newShop(t, nil)
	s.svc.AccountsEmail = []string{"accounts@example.com"}
	const said = "bill <GST> wala banana; kal subah 10 baje se pehle deliver karna"
	s.say("Sharma ke liye 10 carton GC, bill <GST> wala banana. kal subah 10 baje se pehle deliver karna")
	if s.pending == "" {
		t.Fatal("no question about which Sharma")
	}
	s.say("Sharma General Store")
	r := s.say("cash")
	if !strings.Contains(r.Text, "📝 Instructions: "+said) {
		t.Fatalf("summary without the instructions:\n%s", r.Text)
	}
	r = s.say("GC 12 carton")
	if !strings.Contains(r.Text, "📝 Instructions: "+said) {
		t.Fatalf("the corrected summary lost the instructions:\n%s", r.Text)
	}
	r = s.say("ok")
	if !strings.Contains(r.Text, "placed") {
		t.Fatalf("not placed: %s", r.Text)
	}
	for _, body := range append(s.whatsApps(demo.AccountsPhone), s.whatsApps(demo.SalesPhone)...) {
		if !strings.Contains(body, said) {
			t.Errorf("a WhatsApp without the instructions:\n%s", body)
		}
	}
	if len(s.whatsApps(demo.AccountsPhone)) == 0 {
		t.Fatal("accounts were not told")
	}
	all, err := s.books.OutboxMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mails := 0
	for _, m := range all {
		var e domain.Email
		if m.Kind != domain.EffectEmail || json.Unmarshal(m.Payload, &e) != nil {
			continue
		}
		mails++
		if !strings.Contains(e.Text, said) || !strings.Contains(e.HTML, "bill &lt;GST&gt; wala banana") || strings.Contains(e.HTML, "<GST>") {
			t.Errorf("the mail's instructions: text %q, html %q", e.Text, e.HTML)
		}
	}
	if mails != 1 {
		t.Fatalf("%d mails to accounts", mails)
	}
}

// TestAnOrderWithoutInstructionsSaysNone: no instructions line when the
// message held only the order.
func TestAnOrderWithoutInstructionsSaysNone(t *testing.T) {
	s := newShop(t, nil)
	r := s.say("Rajesh ke liye 10 carton GC, cash")
	if strings.Contains(r.Text, "Instructions") || s.draft().Instructions != "" {
		t.Fatalf("instructions where none were given:\n%s", r.Text)
	}
}

// TestInstructionsReachTheOwnerAndSurviveApproval: an order sent for
// approval shows the owner its instructions, and accounts get them once
// the owner approves.
func TestInstructionsReachTheOwnerAndSurviveApproval(t *testing.T) {
	s := newShop(t, nil)
	ctx := context.Background()
	const said = "jaldi deliver karna"
	s.say("Rajesh ke liye 1 carton GC, cash, jaldi deliver karna")
	id := s.shown
	if r := s.say("ok"); !strings.Contains(r.Text, "approval") {
		t.Fatalf("a small order was not sent for approval: %s", r.Text)
	}
	asked := s.whatsApps(demo.OwnerPhone)
	if len(asked) != 1 || !strings.Contains(asked[0], "📝 Instructions: "+said) {
		t.Fatalf("the owner was asked %q", asked)
	}
	owner := domain.User{Phone: demo.OwnerPhone, Name: "Vikram Singh", Role: domain.RoleOwner}
	if r := s.svc.Confirm(ctx, owner, id); !strings.Contains(r.Text, "placed") {
		t.Fatalf("approve %s: %s", id, r.Text)
	}
	told := s.whatsApps(demo.AccountsPhone)
	if len(told) != 1 || !strings.Contains(told[0], said) {
		t.Fatalf("accounts were told %q", told)
	}
}
