package audit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
)

var heldAt = time.Date(2026, 11, 16, 5, 30, 0, 0, time.UTC)

func subjects(es []audit.Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Kind+":"+e.Subject)
	}
	return strings.Join(out, " ")
}

// TestHoldKeepsAMessagesEntriesForItsReply: in a held context the entries
// that describe the message reach the store only when taken (stamped when
// recorded) or when the holding ends; after it, entries go at once.
func TestHoldKeepsAMessagesEntriesForItsReply(t *testing.T) {
	c := &capture{}
	log, _ := newLog(c, twilioToken)
	ctx := audit.Hold(context.Background(), func() time.Time { return heldAt })
	log.Record(ctx, "+919900000001", audit.KindInbound, "SM1", map[string]any{"body": "token " + twilioToken})
	log.Record(ctx, "+919900000001", audit.KindDecision, "SM1", map[string]any{"intent": "stock"})
	log.Record(ctx, "+919900000001", audit.KindTool, "check_stock", map[string]any{"rows": 1})
	if len(c.entries) != 0 {
		t.Fatalf("written while held: %+v", c.entries)
	}
	held := audit.TakeHeld(ctx)
	if got := subjects(held); got != "inbound:SM1 decision:SM1 tool:check_stock" {
		t.Fatalf("held %q", got)
	}
	if !held[0].At.Equal(heldAt) || held[0].Detail["body"] != "token "+audit.Redacted {
		t.Errorf("held entry %+v: want it stamped when recorded, and redacted", held[0])
	}
	if audit.TakeHeld(ctx) != nil {
		t.Error("taken twice")
	}
	log.Record(ctx, "+919900000001", audit.KindOutbound, "SM1", map[string]any{"body": "Ready: 2,400"})
	audit.EndHold(ctx)
	if got := subjects(c.entries); got != "outbound:SM1" {
		t.Fatalf("written as the holding ended: %q", got)
	}
	log.Record(ctx, "+919900000001", audit.KindOutbound, "SM1", map[string]any{"body": "late"})
	if len(c.entries) != 2 {
		t.Fatalf("an entry after the holding ended is not written at once: %+v", c.entries)
	}
}

// TestHoldWritesOtherKindsAfterWhatWasHeld: an entry of a kind that is
// not held (a change of the books, a refusal) is written at once, after
// the entries held before it, so that the log keeps their order.
func TestHoldWritesOtherKindsAfterWhatWasHeld(t *testing.T) {
	s := openStore(t)
	log, _ := newLog(s)
	ctx := audit.Hold(context.Background(), time.Now)
	log.Record(ctx, "+919900000003", audit.KindInbound, "SM2", map[string]any{"body": "ok"})
	log.Record(ctx, "+919900000003", "rules", "D-7", map[string]any{"passed": true})
	log.Record(ctx, "+919900000003", audit.KindOutbound, "SM2", map[string]any{"body": "placed"})
	all, err := s.AuditEntries(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := subjects(all); got != "inbound:SM2 rules:D-7" {
		t.Fatalf("in the store: %q, want the inbound entry, then the rules", got)
	}
	if got := subjects(audit.TakeHeld(ctx)); got != "outbound:SM2" {
		t.Fatalf("still held: %q", got)
	}
}

// TestHoldWritesWhatMightNotEncodeAtOnce: an entry whose detail holds a
// value the store may not encode is not held: it is written at once,
// where a failure is logged.
func TestHoldWritesWhatMightNotEncodeAtOnce(t *testing.T) {
	log, logs := newLog(openStore(t))
	ctx := audit.Hold(context.Background(), time.Now)
	log.Record(ctx, "system", audit.KindOutbound, "SM3", map[string]any{"f": func() {}})
	if audit.TakeHeld(ctx) != nil {
		t.Error("held an entry that does not encode")
	}
	if !strings.Contains(logs.String(), "audit: write failed") {
		t.Errorf("log = %q, want the refused write reported", logs)
	}
}
