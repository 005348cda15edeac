package sqlbooks

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// kindsOf lists the kinds of the audit log, in order.
func kindsOf(t *testing.T, s *Store) string {
	t.Helper()
	all, err := s.AuditEntries(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range all {
		out = append(out, e.Kind)
	}
	return strings.Join(out, " ")
}

// TestHeldEntriesCommitWithTheFirstChange: the entries a message's
// context holds are committed in the transaction that saves its reply,
// or before them in one that changes the books first.
func TestHeldEntriesCommitWithTheFirstChange(t *testing.T) {
	for name, s := range groupStores(t) {
		t.Run(name, func(t *testing.T) {
			log := audit.New(s, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
			in := domain.Inbound{SID: "SMheld", From: "+919900000003", Body: "GC stock"}
			ctx := audit.Hold(context.Background(), s.Now)
			if _, _, _, err := s.Claim(ctx, in, lease); err != nil {
				t.Fatal(err)
			}
			log.Record(ctx, in.From, audit.KindInbound, in.SID, map[string]any{"body": in.Body})
			log.Record(ctx, in.From, audit.KindDecision, in.SID, map[string]any{"intent": "stock"})
			if got := kindsOf(t, s); got != "" {
				t.Fatalf("written while held: %q", got)
			}
			// A change of the books commits them first.
			if err := s.Enqueue(ctx, domain.Effect{Kind: "test", To: in.From, Payload: []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
			if got := kindsOf(t, s); got != "inbound decision" {
				t.Fatalf("after a change: %q", got)
			}
			log.Record(ctx, in.From, audit.KindOutbound, in.SID, map[string]any{"body": "Ready: 2,400"})
			if err := s.SaveReply(ctx, in.SID, domain.Reply{Text: "Ready: 2,400"}); err != nil {
				t.Fatal(err)
			}
			if got := kindsOf(t, s); got != "inbound decision outbound" {
				t.Fatalf("after the reply: %q", got)
			}
			if ok, reply, err := s.SavedReply(ctx, in.SID); err != nil || !ok || reply.Text != "Ready: 2,400" {
				t.Fatalf("saved reply %v %+v %v", ok, reply, err)
			}
		})
	}
}
