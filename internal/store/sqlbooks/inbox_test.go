package sqlbooks

import (
	"context"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

const lease = 90 * time.Second

// TestClaimAbandonedTakesRowsFromBeforeLeases: a row written before
// inbound messages had leases (no lease_until) counts as abandoned, and
// each claim of a message is counted.
func TestClaimAbandonedTakesRowsFromBeforeLeases(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	if _, err := s.db.Exec(`INSERT INTO inbound_messages (sid, sender, body, received_at) VALUES ('SMlegacy', '+919900000001', 'GC stock', ?)`,
		formatTime(t0)); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := s.Claim(ctx, domain.Inbound{SID: "SMlive", From: "+919900000003", Body: "hi"}, lease); err != nil {
		t.Fatal(err)
	}
	got, err := s.ClaimAbandoned(ctx, lease, 10)
	if err != nil || len(got) != 1 || got[0].SID != "SMlegacy" || got[0].Body != "GC stock" || !got[0].Received.Equal(t0) {
		t.Fatalf("ClaimAbandoned = %+v, %v; want only the row without a lease", got, err)
	}
	c.Advance(lease)
	if got, _ := s.ClaimAbandoned(ctx, lease, 10); len(got) != 2 {
		t.Fatalf("after the leases: %+v", got)
	}
	var attempts int
	if err := s.db.QueryRow(`SELECT attempts FROM inbound_messages WHERE sid = 'SMlegacy'`).Scan(&attempts); err != nil || attempts != 3 {
		t.Errorf("attempts = %d, %v; want 3: recorded once, claimed twice", attempts, err)
	}
}

// TestSweepForgetsOldRefusals: a refusal day is kept only while it can
// still be today somewhere, one row per number.
func TestSweepForgetsOldRefusals(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	for range 2 {
		if _, err := s.FirstRefusalToday(ctx, "+15550001111", time.UTC); err != nil {
			t.Fatal(err)
		}
		c.Advance(24 * time.Hour)
	}
	if n := count(t, s, "refusals"); n != 1 {
		t.Fatalf("%d refusal rows for one number, want 1", n)
	}
	c.Advance(refusalMemory)
	s.FirstRefusalToday(ctx, "+15550002222", time.UTC)
	if _, err := s.SweepInbound(ctx, c.Now()); err != nil {
		t.Fatal(err)
	}
	var phone string
	if err := s.db.QueryRow(`SELECT phone FROM refusals`).Scan(&phone); err != nil || phone != "+15550002222" || count(t, s, "refusals") != 1 {
		t.Errorf("refusals after the sweep: %s, %v (%d rows)", phone, err, count(t, s, "refusals"))
	}
}

// TestSweepInBatches: a backlog larger than one batch is swept whole.
func TestSweepInBatches(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	const n = 2*sweepBatch + 7
	tx, _ := s.db.Begin()
	for i := range n {
		tx.Exec(`INSERT INTO audit_log (at, actor, kind) VALUES (?, 'system', 'inbound')`, formatTime(t0.Add(time.Duration(i)*time.Millisecond)))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "inbound", At: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Hour)
	if got, err := s.SweepAudit(ctx, s.Now()); err != nil || got != n {
		t.Fatalf("SweepAudit = %d, %v; want %d", got, err, n)
	}
	if left := count(t, s, "audit_log"); left != 1 {
		t.Errorf("%d entries left, want the one at the cutoff", left)
	}
}
