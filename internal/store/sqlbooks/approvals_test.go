package sqlbooks

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// TestProposalsWaitForAnOwnerAfterMigration: the proposals table rebuilt
// by 0014 keeps every row of a database from before it and its index,
// and takes the statuses of a payment waiting for an owner.
func TestProposalsWaitForAnOwnerAfterMigration(t *testing.T) {
	ctx := context.Background()
	const mine = "0014_proposal_approval.sql"
	before := ""
	for _, name := range mustGlob(t) {
		if name < mine {
			before = name
		}
	}
	path := filepath.Join(t.TempDir(), "munshi.db")
	old := openAt(t, path, before)
	if _, err := old.Exec(`INSERT INTO proposals (id, kind, proposed_by, subject, status, fingerprint, payload, created_at, decided_at) VALUES
		('PRP-1', 'payment', '+919900000002', 'C01', 'applied', 'f1', '{"id":"PRP-1","kind":"payment"}', ?, ?),
		('PRP-2', 'delivery', '+919900000002', 'ORD-1042', 'open', 'f2', '{"id":"PRP-2","kind":"delivery"}', ?, NULL)`,
		formatTime(t0), formatTime(t0.Add(time.Minute)), formatTime(t0.Add(2*time.Minute))); err != nil {
		t.Fatal(err)
	}
	const cols = `SELECT id || '|' || kind || '|' || proposed_by || '|' || subject || '|' || status || '|' || fingerprint || '|' ||
		payload || '|' || created_at || '|' || ifnull(decided_at, 'NULL') FROM proposals ORDER BY id`
	rows := texts(t, old, cols)
	if _, err := old.Exec(`UPDATE proposals SET status = 'pending_approval' WHERE id = 'PRP-2'`); err == nil {
		t.Fatal("the old schema took pending_approval: the test database is not the old schema")
	}
	old.Close()

	s, err := OpenSQLite(ctx, path, WithClock(func() time.Time { return t0.Add(time.Hour) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := texts(t, s.db.DB, cols); !reflect.DeepEqual(after, rows) {
		t.Fatalf("rows changed by the migration:\nbefore %q\n after %q", rows, after)
	}
	if idx := texts(t, s.db.DB, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'proposals' AND sql IS NOT NULL`); !reflect.DeepEqual(idx, []string{"proposals_by"}) {
		t.Errorf("proposals indexes %v", idx)
	}

	effect := domain.WhatsApp(domain.Outbound{To: "+919900000001", Body: "🔔 Approval needed: payment PRP-2"})
	for _, m := range []struct {
		from []orders.ProposalStatus
		to   orders.ProposalStatus
		want bool
	}{
		{[]orders.ProposalStatus{orders.ProposalOpen}, orders.ProposalPendingApproval, true},
		{[]orders.ProposalStatus{orders.ProposalOpen}, orders.ProposalPendingApproval, false}, // not open any more
		{[]orders.ProposalStatus{orders.ProposalPendingApproval}, orders.ProposalRejected, true},
	} {
		moved, err := s.MoveProposal(ctx, orders.ProposalMove{ID: "PRP-2", From: m.from, To: m.to, By: "+919900000001", Effects: []domain.Effect{effect}})
		if err != nil || moved != m.want {
			t.Fatalf("move %v → %s = %v, %v; want %v", m.from, m.to, moved, err, m.want)
		}
	}
	p, ok, err := s.ProposalByID(ctx, "PRP-2")
	if err != nil || !ok || p.Status != orders.ProposalRejected || p.Kind != orders.ProposeDelivery {
		t.Fatalf("ProposalByID = %+v, %v, %v", p, ok, err)
	}
	if by := texts(t, s.db.DB, `SELECT decided_by FROM proposals WHERE id = 'PRP-2'`); !reflect.DeepEqual(by, []string{"+919900000001"}) {
		t.Errorf("decided_by %v", by)
	}
	if out, _ := s.OutboxMessages(ctx); len(out) != 2 {
		t.Errorf("%d messages in the outbox, want one a move", len(out))
	}
	if _, ok, err := s.ProposalByID(ctx, "PRP-9"); ok || err != nil {
		t.Errorf("an unknown proposal: %v, %v", ok, err)
	}
}
