package webhook_test

import (
	"context"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/webhook"
)

// auditing answers as the conversation does: what came in and what it
// answered are audited through the log, in the message's context.
type auditing struct {
	log   *audit.Log
	delay time.Duration
}

func (a auditing) Respond(ctx context.Context, in domain.Inbound) domain.Reply {
	a.log.Record(ctx, in.From, audit.KindInbound, in.SID, map[string]any{"body": in.Body})
	time.Sleep(a.delay)
	reply := domain.Reply{Text: "you said: " + in.Body}
	a.log.Record(ctx, in.From, audit.KindOutbound, in.SID, map[string]any{"body": reply.Text})
	return reply
}

// peekingInbox reads the audit log as the reply is about to be saved.
type peekingInbox struct {
	store.Store
	before []audit.Entry
}

func (p *peekingInbox) SaveReply(ctx context.Context, sid string, reply domain.Reply) error {
	p.before, _ = p.Store.AuditEntries(ctx, "")
	return p.Store.SaveReply(ctx, sid, reply)
}

// kinds lists the kinds of the audit entries about sid, in order.
func kinds(t *testing.T, s store.Store, sid string) []string {
	t.Helper()
	entries, err := s.AuditEntries(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Subject == sid {
			out = append(out, e.Kind)
		}
	}
	return out
}

// TestMessageEntriesCommitWithTheReply: the entries that describe a
// message cost no transaction of their own: none is in the books before
// its reply is saved, and all are, in order, once Handle returns.
func TestMessageEntriesCommitWithTheReply(t *testing.T) {
	i := newInstance(t, nil, nil)
	peek := &peekingInbox{Store: i.inbox}
	i.p.Inbox, i.p.Responder = peek, auditing{log: audit.New(i.inbox, nil, quiet)}
	reply, outcome, err := i.p.Handle(context.Background(), domain.Inbound{SID: "SMheld1", From: ravi, Body: "GC stock", Received: i.clock.Now()})
	if err != nil || outcome != webhook.OutcomeAnswered || reply.Text != "you said: GC stock" {
		t.Fatalf("Handle = %+v, %q, %v", reply, outcome, err)
	}
	if len(peek.before) != 0 {
		t.Errorf("written before the reply: %+v", peek.before)
	}
	if got := kinds(t, i.inbox, "SMheld1"); len(got) != 2 || got[0] != audit.KindInbound || got[1] != audit.KindOutbound {
		t.Errorf("entries after the reply: %v, want inbound then outbound", got)
	}
}

// TestLateAnswerEntriesAreWritten: when the budget runs out, what was
// held is written as the webhook answers, and what follows at once.
func TestLateAnswerEntriesAreWritten(t *testing.T) {
	i := newInstance(t, nil, nil)
	i.p.Responder = auditing{log: audit.New(i.inbox, nil, quiet), delay: 2 * i.p.Budget}
	_, outcome, err := i.p.Handle(context.Background(), domain.Inbound{SID: "SMheld2", From: ravi, Body: "GC stock", Received: i.clock.Now()})
	if err != nil || outcome != webhook.OutcomeLate {
		t.Fatalf("Handle = %q, %v; want a late answer", outcome, err)
	}
	if got := kinds(t, i.inbox, "SMheld2"); len(got) != 1 || got[0] != audit.KindInbound {
		t.Errorf("entries as the webhook answered: %v, want the inbound one", got)
	}
	for deadline := time.Now().Add(5 * time.Second); len(i.late.replies()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the late answer was not sent")
		}
	}
	if err := i.p.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := kinds(t, i.inbox, "SMheld2"); len(got) != 2 || got[1] != audit.KindOutbound {
		t.Errorf("entries after the late answer: %v, want inbound then outbound", got)
	}
}
