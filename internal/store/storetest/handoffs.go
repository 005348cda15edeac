package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/handoff"
	"github.com/munshi/munshi/internal/store"
)

// handoffOf is a handoff of person about to be opened, with the
// conversation before it.
func handoffOf(person string, at time.Time) handoff.Handoff {
	return handoff.Handoff{Person: handoff.Person{Phone: person, Name: "Ravi Kumar", Role: domain.RoleSales},
		Trigger: handoff.NotUnderstood, Office: []string{owner, accounts}, OpenedAt: at,
		Messages: []handoff.Message{
			{At: at, Side: handoff.FromPerson, From: person, Text: "kuch samajh nahi aaya"},
			{At: at, Side: handoff.FromMunshi, Text: "Sorry, I didn't understand that"},
		}}
}

// toOffice is the effects an opening enqueues: one message to each
// office phone, naming the handle it was given.
func toOffice(h handoff.Handoff) []domain.Effect {
	var out []domain.Effect
	for _, p := range h.Office {
		out = append(out, domain.WhatsApp(domain.Outbound{To: p, Body: h.Handle() + " opened"}))
	}
	return out
}

// testHandoffOneOpen: a person has one open handoff; a second opening
// returns it and writes nothing; once it is closed the next one gets the
// next handle. The handoff reads back as written, messages in order.
func testHandoffOneOpen(t *testing.T, s store.Store, c *Clock) {
	first, opened, err := s.OpenHandoff(ctx, handoffOf(ravi, c.Now()), toOffice)
	if err != nil || !opened || first.ID <= 0 || first.Status != handoff.Open {
		t.Fatalf("first open = %+v, %v, %v", first, opened, err)
	}
	if got := outboxBodies(t, s); !slices.Equal(got, []string{
		owner + ` {"To":"` + owner + `","Body":"` + first.Handle() + ` opened","MediaURLs":null}`,
		accounts + ` {"To":"` + accounts + `","Body":"` + first.Handle() + ` opened","MediaURLs":null}`,
	}) {
		t.Errorf("outbox after opening = %q; want one message to each office phone naming the handle", got)
	}
	again, opened, err := s.OpenHandoff(ctx, handoffOf(ravi, c.Now()), toOffice)
	if err != nil || opened || again.ID != first.ID {
		t.Fatalf("second open = %+v, %v, %v; want the first one, not opened", again, opened, err)
	}
	if n, _ := s.OutboxDepth(ctx); n != 2 {
		t.Errorf("a second opening enqueued something: outbox depth %d", n)
	}
	got, ok, err := s.Handoff(ctx, first.ID)
	want := handoffOf(ravi, c.Now())
	if err != nil || !ok || got.Person != want.Person || got.Trigger != handoff.NotUnderstood || !slices.Equal(got.Office, want.Office) ||
		!got.OpenedAt.Equal(c.Now()) || len(got.Messages) != 2 || got.Messages[1] != (handoff.Message{At: c.Now().UTC(), Side: handoff.FromMunshi, Text: want.Messages[1].Text}) {
		t.Errorf("handoff read back = %+v, %v, %v", got, ok, err)
	}
	if other, opened, err := s.OpenHandoff(ctx, handoffOf(sunil, c.Now()), toOffice); err != nil || !opened || other.ID == first.ID {
		t.Errorf("another person's open = %+v, %v, %v; want a handoff of its own", other, opened, err)
	}
	c.Advance(time.Minute)
	if ok, err := s.CloseHandoff(ctx, first.ID, owner, c.Now()); err != nil || !ok {
		t.Fatalf("close = %v, %v", ok, err)
	}
	if ok, err := s.CloseHandoff(ctx, first.ID, owner, c.Now()); err != nil || ok {
		t.Errorf("second close = %v, %v; want false", ok, err)
	}
	if _, ok, _ := s.OpenHandoffOf(ctx, ravi); ok {
		t.Error("a closed handoff is still open")
	}
	next, opened, err := s.OpenHandoff(ctx, handoffOf(ravi, c.Now()), toOffice)
	if err != nil || !opened || next.ID <= first.ID {
		t.Errorf("open after the close = %+v, %v, %v; want a new handle", next, opened, err)
	}
	if closed, _, _ := s.Handoff(ctx, first.ID); closed.Status != handoff.Closed || closed.ClosedBy != owner || !closed.ClosedAt.Equal(c.Now()) {
		t.Errorf("closed handoff = %+v", closed)
	}
}

// testHandoffOpenRace: handoffs opened for one person at once are one
// handoff, opened once, its message enqueued once.
func testHandoffOpenRace(t *testing.T, s store.Store, c *Clock) {
	for round := range rounds {
		person := fmt.Sprintf("+91980000%04d", round)
		var mu sync.Mutex
		ids := map[int64]bool{}
		opened, errs := claimedAtOnce(10, func(int) (bool, error) {
			h, ok, err := s.OpenHandoff(ctx, handoffOf(person, c.Now()), toOffice)
			if err == nil {
				mu.Lock()
				ids[h.ID] = true
				mu.Unlock()
			}
			return ok, err
		})
		if len(errs) > 0 || opened != 1 || len(ids) != 1 {
			t.Fatalf("round %d: %d opened, handles %v, errors %v; want one handoff opened once", round, opened, ids, errs)
		}
	}
	if n, _ := s.OutboxDepth(ctx); n != 2*rounds {
		t.Errorf("outbox depth %d; want %d, two office messages a handoff", n, 2*rounds)
	}
}

// testHandoffMessages: messages are added to an open handoff only; an
// office reply is its last answer, and an answered handoff is neither
// unanswered nor reminded.
func testHandoffMessages(t *testing.T, s store.Store, c *Clock) {
	h, _, err := s.OpenHandoff(ctx, handoffOf(ravi, c.Now()), toOffice)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Minute)
	relay := domain.WhatsApp(domain.Outbound{To: owner, Body: "relayed"})
	if ok, err := s.AddHandoffMessage(ctx, h.ID, handoff.Message{At: c.Now(), Side: handoff.FromPerson, From: ravi, Text: "aur ek baat"}, relay); err != nil || !ok {
		t.Fatalf("add = %v, %v", ok, err)
	}
	if got, _, _ := s.Handoff(ctx, h.ID); !got.LastOfficeReplyAt.IsZero() || len(got.Messages) != 3 || got.Messages[2].Text != "aur ek baat" {
		t.Errorf("after the person's message: %+v", got)
	}
	if un, _ := s.UnansweredHandoffs(ctx); len(un) != 1 || un[0].ID != h.ID {
		t.Errorf("unanswered = %+v; want the handoff", un)
	}
	c.Advance(time.Minute)
	if ok, err := s.AddHandoffMessage(ctx, h.ID, handoff.Message{At: c.Now(), Side: handoff.FromOffice, From: owner, Text: "haan"}); err != nil || !ok {
		t.Fatalf("office reply = %v, %v", ok, err)
	}
	if got, _, _ := s.Handoff(ctx, h.ID); !got.LastOfficeReplyAt.Equal(c.Now()) || got.Messages[3].Side != handoff.FromOffice {
		t.Errorf("after the office's reply: %+v", got)
	}
	if un, _ := s.UnansweredHandoffs(ctx); len(un) != 0 {
		t.Errorf("an answered handoff is unanswered: %+v", un)
	}
	if ok, err := s.MarkHandoffReminded(ctx, h.ID, c.Now(), relay); err != nil || ok {
		t.Errorf("remind an answered handoff = %v, %v; want false", ok, err)
	}
	if _, err := s.CloseHandoff(ctx, h.ID, owner, c.Now()); err != nil {
		t.Fatal(err)
	}
	depth, _ := s.OutboxDepth(ctx)
	if ok, err := s.AddHandoffMessage(ctx, h.ID, handoff.Message{At: c.Now(), Side: handoff.FromPerson, From: ravi, Text: "late"}, relay); err != nil || ok {
		t.Errorf("add to a closed handoff = %v, %v; want false", ok, err)
	}
	if n, _ := s.OutboxDepth(ctx); n != depth {
		t.Errorf("a message to a closed handoff enqueued its effects")
	}
}

// testHandoffRemindedOnce: an unanswered handoff is reminded once, its
// effects enqueued with the reminder, whoever races to remind it.
func testHandoffRemindedOnce(t *testing.T, s store.Store, c *Clock) {
	h, _, err := s.OpenHandoff(ctx, handoffOf(ravi, c.Now()), toOffice)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * time.Hour)
	notes := domain.WhatsApp(domain.Outbound{To: owner, Body: "reminder"})
	won, errs := claimedAtOnce(10, func(int) (bool, error) { return s.MarkHandoffReminded(ctx, h.ID, c.Now(), notes) })
	if len(errs) > 0 || won != 1 {
		t.Fatalf("%d reminders won, errors %v; want one", won, errs)
	}
	if n, _ := s.OutboxDepth(ctx); n != 3 {
		t.Errorf("outbox depth %d; want the two office messages and one reminder", n)
	}
	if got, _, _ := s.Handoff(ctx, h.ID); !got.RemindedAt.Equal(c.Now()) {
		t.Errorf("reminded at %v; want %v", got.RemindedAt, c.Now())
	}
	if un, _ := s.UnansweredHandoffs(ctx); len(un) != 0 {
		t.Errorf("a reminded handoff is listed for a reminder again: %+v", un)
	}
}
