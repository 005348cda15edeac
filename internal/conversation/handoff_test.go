package conversation

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/handoff"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/reports"
)

// opening is one call of fakeHandoffs.Open.
type opening struct {
	trigger handoff.Trigger
	c       handoff.Context
}

// fakeHandoffs records what the conversation hands over; open says
// whether the person has a handoff open (Relay takes the message then).
type fakeHandoffs struct {
	open     bool
	noOffice bool // no one in the office: Open refuses
	opened   []opening
	relayed  []string
	answered []handoff.OfficeReply
}

func (f *fakeHandoffs) Open(_ context.Context, _ domain.User, trigger handoff.Trigger, c handoff.Context) (string, error) {
	if f.noOffice {
		return "", handoff.ErrNoOffice
	}
	f.opened = append(f.opened, opening{trigger, c})
	f.open = true
	return "handed over: " + string(trigger), nil
}

func (f *fakeHandoffs) Relay(_ context.Context, _ domain.User, text string, _ time.Time) (string, bool, error) {
	if !f.open {
		return "", false, nil
	}
	f.relayed = append(f.relayed, text)
	return "relayed: " + text, true, nil
}

func (f *fakeHandoffs) Answer(_ context.Context, _ domain.User, r handoff.OfficeReply) (string, bool, error) {
	f.answered = append(f.answered, r)
	return "answered", r.ID == 3, nil
}

// decisionRouter routes each text as set, and anything else as unknown.
type decisionRouter map[string]intent.Decision

func (r decisionRouter) Route(_ context.Context, text string) intent.Decision {
	d, ok := r[text]
	if !ok {
		d = intent.Decision{Intent: domain.IntentUnknown, Tier: intent.TierNone}
	}
	d.Text, d.Normalized = text, intent.Normalize(text)
	return d
}

// giveUpAgent gives up on every question, as the agent does past its
// steps and calls.
type giveUpAgent struct{}

func (giveUpAgent) AskKeys(context.Context, domain.User, string) (domain.Reply, bool, reports.Keys) {
	return domain.Reply{Text: reports.HelpText}, false, reports.Keys{}
}

// keptMemory is fakeMemory that reads back what was appended.
type keptMemory struct{ *fakeMemory }

func (k keptMemory) Append(ctx context.Context, phone string, turns ...memory.Turn) error {
	c := k.convs[phone]
	c.Turns = append(c.Turns, turns...)
	k.convs[phone] = c
	return k.fakeMemory.Append(ctx, phone, turns...)
}

func handoffWorld(routes decisionRouter) (*world, *fakeHandoffs) {
	w := newWorld()
	h := &fakeHandoffs{}
	w.svc.Router, w.svc.Handoffs, w.svc.Agent, w.svc.Memory = routes, h, nil, keptMemory{w.memory}
	return w, h
}

func TestHandoffAskedAndDisputed(t *testing.T) {
	w, h := handoffWorld(decisionRouter{
		"owner se baat karao": {Intent: domain.IntentHandoff, Tier: intent.TierRules, Reason: "rule: handoff: asked for a person"},
		"price galat hai":     {Intent: domain.IntentHandoff, Tier: intent.TierRules, Reason: "rule: handoff: disputes what Munshi said"},
	})
	if r := w.say(sales.Phone, "owner se baat karao"); r.Text != "handed over: asked" {
		t.Fatalf("asking for the office: %q", r.Text)
	}
	h.open = false
	if r := w.say(sales.Phone, "price galat hai"); r.Text != "handed over: dispute" {
		t.Fatalf("a dispute: %q", r.Text)
	}
	if len(h.opened) != 2 || h.opened[1].c.Intent != "handoff" || h.opened[1].c.Text != "price galat hai" ||
		len(h.opened[1].c.Recent) != 2 || h.opened[1].c.Recent[0].Text != "owner se baat karao" {
		t.Errorf("opened %+v", h.opened)
	}
}

func TestHandoffOnTheSecondUnread(t *testing.T) {
	w, h := handoffWorld(decisionRouter{})
	if r := w.say(sales.Phone, "blue wala dabba"); !strings.Contains(r.Text, "didn't understand") || len(h.opened) != 0 {
		t.Fatalf("the first unread: %q, opened %+v", r.Text, h.opened)
	}
	if r := w.say(sales.Phone, "woh wala"); r.Text != "handed over: not_understood" {
		t.Fatalf("the second unread: %q", r.Text)
	}
	c := h.opened[0].c
	if c.Text != "woh wala" || len(c.Recent) != 2 || c.Recent[0].Text != "blue wala dabba" || c.Recent[0].Side != handoff.FromPerson ||
		c.Recent[1].Side != handoff.FromMunshi {
		t.Errorf("the office is told %+v", c)
	}
	// Open now: what Munshi cannot read is relayed, what it can is answered.
	if r := w.say(sales.Phone, "qwerty"); r.Text != "relayed: qwerty" {
		t.Errorf("an unread message while open: %q", r.Text)
	}
	w.svc.Router = decisionRouter{"GC stock": {Intent: domain.IntentStock, Tier: intent.TierRules}}
	if r := w.say(sales.Phone, "GC stock"); !strings.HasPrefix(r.Text, "report stock") {
		t.Errorf("a stock question while open: %q", r.Text)
	}
	// "ok" after a relay confirms nothing: it is read as after an unread.
	w.svc.Router = decisionRouter{"ok": {Intent: domain.IntentConfirm, Tier: intent.TierRules}}
	w.say(sales.Phone, "qwerty again")
	w.say(sales.Phone, "ok")
	for _, call := range w.orders.calls {
		if strings.HasPrefix(call, "confirm") {
			t.Errorf("an ok after a relay confirmed: %v", w.orders.calls)
		}
	}
}

// TestNoOfficeToHandOverTo: with no one in the office to receive a
// handoff, a second message not understood gets the usual reply, as does
// a step that gave up; a person who asked for the office is told.
func TestNoOfficeToHandOverTo(t *testing.T) {
	w, h := handoffWorld(decisionRouter{
		"owner se baat karao": {Intent: domain.IntentHandoff, Tier: intent.TierRules, Reason: "rule: handoff: asked for a person"},
	})
	h.noOffice = true
	for _, text := range []string{"blue wala dabba", "woh wala", "phir se woh"} {
		if r := w.say(owner.Phone, text); !strings.Contains(r.Text, "didn't understand") {
			t.Errorf("%q: %q, want the usual reply", text, r.Text)
		}
	}
	if r := w.say(owner.Phone, "owner se baat karao"); r.Text != NoOffice {
		t.Errorf("asking for the office: %q", r.Text)
	}
	in := domain.Inbound{SID: "SMv", From: sales.Phone, MediaURLs: []string{"https://api.twilio.com/m/1"}}
	if _, ok := w.svc.GaveUp(context.Background(), sales, in, memory.Conversation{}, "the voice note could not be heard"); ok {
		t.Error("a voice note not heard was handed over to no one")
	}
}

func TestHandoffWhenAStepGaveUp(t *testing.T) {
	t.Run("the agent", func(t *testing.T) {
		w, h := handoffWorld(decisionRouter{"top dukaan kaun": {Intent: domain.IntentReport, Tier: intent.TierModel}})
		w.svc.Agent = giveUpAgent{}
		if r := w.say(owner.Phone, "top dukaan kaun"); r.Text != "handed over: gave_up" || !strings.Contains(h.opened[0].c.Why, "agent") {
			t.Fatalf("%q, %+v", r.Text, h.opened)
		}
	})
	t.Run("the LLM down", func(t *testing.T) {
		w, h := handoffWorld(decisionRouter{"kuch bhi": {Intent: domain.IntentUnknown, Tier: intent.TierNone,
			Reason: "model abstained: unknown below its threshold; llm failed: context deadline exceeded"}})
		if r := w.say(sales.Phone, "kuch bhi"); r.Text != "handed over: gave_up" || !strings.Contains(h.opened[0].c.Why, "language model") {
			t.Fatalf("%q, %+v", r.Text, h.opened)
		}
	})
	t.Run("the hook", func(t *testing.T) {
		w, h := handoffWorld(decisionRouter{})
		in := domain.Inbound{SID: "SMv", From: sales.Phone, MediaURLs: []string{"https://api.twilio.com/m/1"}}
		r, ok := w.svc.GaveUp(context.Background(), sales, in, memory.Conversation{}, "the voice note could not be heard")
		if !ok || r.Text != "handed over: gave_up" || h.opened[0].c.Why != "the voice note could not be heard" || h.opened[0].c.Text == "" {
			t.Fatalf("%q %v, %+v", r.Text, ok, h.opened)
		}
		w.svc.Handoffs = nil
		if _, ok := w.svc.GaveUp(context.Background(), sales, in, memory.Conversation{}, "x"); ok {
			t.Error("GaveUp without handoffs set up handed over")
		}
	})
}

func TestOfficeReplyIsNeverRouted(t *testing.T) {
	w, h := handoffWorld(decisionRouter{"H-3 ok": {Intent: domain.IntentConfirm, Tier: intent.TierRules}})
	if r := w.say(owner.Phone, "H-3 ok"); r.Text != "answered" {
		t.Fatalf("the office's reply: %q", r.Text)
	}
	if len(h.answered) != 1 || h.answered[0] != (handoff.OfficeReply{ID: 3, Text: "ok"}) || len(w.orders.calls) != 0 {
		t.Errorf("answered %+v, orders %v", h.answered, w.orders.calls)
	}
	// No handoff H-9: the message is answered as usual.
	w.svc.Router = decisionRouter{"H-9 ok": {Intent: domain.IntentConfirm, Tier: intent.TierRules}}
	w.say(owner.Phone, "H-9 ok")
	if len(w.orders.calls) != 1 {
		t.Errorf("a message naming no handoff was not answered as usual: %v", w.orders.calls)
	}
}

func TestNoHandoffsSetUp(t *testing.T) {
	w, _ := handoffWorld(decisionRouter{"call me": {Intent: domain.IntentHandoff, Tier: intent.TierRules}})
	w.svc.Handoffs = nil
	if r := w.say(sales.Phone, "call me"); r.Text != NoHandoff {
		t.Errorf("asking for the office without handoffs: %q", r.Text)
	}
	w.say(sales.Phone, "qwerty")
	if r := w.say(sales.Phone, "asdf"); !strings.Contains(r.Text, "didn't understand") {
		t.Errorf("a second unread without handoffs: %q", r.Text)
	}
}
