package sqlite

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

func TestOutboxHeldKeepsAttemptsAndReleases(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	if err := s.Enqueue(ctx,
		domain.WhatsApp(domain.Outbound{To: "+919900000002", Body: "order"}),
		domain.Mail(domain.Email{To: []string{"accounts@munshi.example"}, Subject: "order"}),
		domain.WhatsApp(domain.Outbound{To: "+919900000003", Body: "not held"}),
	); err != nil {
		t.Fatal(err)
	}
	ms, err := s.ClaimDue(ctx, 10, time.Minute)
	if err != nil || len(ms) != 3 {
		t.Fatalf("ClaimDue = %d, %v", len(ms), err)
	}
	wa, mail, other := ms[0].ID, ms[1].ID, ms[2].ID
	later := t0.Add(5 * time.Minute)
	const why = "authentication failed (Twilio 401)"
	for _, id := range []int64{wa, mail} {
		if err := s.MarkHeld(ctx, id, why, "twilio: send: status 401, code 20003: Authenticate", later); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MarkRetry(ctx, other, "twilio: send: status 500", later); err != nil {
		t.Fatal(err)
	}
	// Held again later: held_since stays at the first hold.
	c.Advance(time.Minute)
	if err := s.MarkHeld(ctx, wa, why, "twilio: send: status 401", later); err != nil {
		t.Fatal(err)
	}

	rows, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		switch r.ID {
		case wa, mail:
			if r.Status != "pending" || r.Attempts != 0 || r.HeldReason != why || !r.HeldSince.Equal(t0) {
				t.Errorf("held row %d = %+v; want pending, 0 attempts, held since %v for %q", r.ID, r, t0, why)
			}
		case other:
			if r.Attempts != 1 || r.HeldReason != "" || !r.HeldSince.IsZero() {
				t.Errorf("retried row = %+v; want 1 attempt and not held", r)
			}
		}
	}
	if d, _ := s.OutboxDepth(ctx); d != 3 {
		t.Errorf("OutboxDepth = %d, want 3: held messages are pending", d)
	}

	// Nothing is due before the retry time; releasing WhatsApp makes only
	// its held message due.
	if got, _ := s.ClaimDue(ctx, 10, time.Minute); len(got) != 0 {
		t.Fatalf("ClaimDue before the retry time = %+v", got)
	}
	if n, err := s.ReleaseHeld(ctx, domain.EffectWhatsApp); err != nil || n != 1 {
		t.Fatalf("ReleaseHeld(whatsapp) = %d, %v; want 1", n, err)
	}
	got, err := s.ClaimDue(ctx, 10, time.Minute)
	if err != nil || len(got) != 1 || got[0].ID != wa || !got[0].HeldSince.Equal(t0) || got[0].Attempts != 0 {
		t.Fatalf("ClaimDue after release = %+v, %v; want the held WhatsApp message", got, err)
	}
	if n, err := s.ReleaseHeld(ctx); err != nil || n != 2 {
		t.Fatalf("ReleaseHeld() = %d, %v; want both held messages", n, err)
	}
	if err := s.MarkSent(ctx, wa, "SM1"); err != nil {
		t.Fatal(err)
	}
	rows, _ = s.OutboxMessages(ctx)
	if r := rows[0]; r.Status != "sent" || r.Attempts != 1 || r.HeldReason != "" || !r.HeldSince.IsZero() {
		t.Errorf("sent row = %+v; want sent after 1 attempt, no longer held", r)
	}
}

func TestOutboxMarkFailedEnqueuesNoticesOnce(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	accounts := domain.WhatsApp(domain.Outbound{To: "+9198", Body: "🧾 New order ORD-1042",
		Notice: domain.Notice{About: "ORD-1042", TellOnFailure: "+919900000003"}})
	if accounts.About != "ORD-1042" || accounts.TellOnFailure != "+919900000003" {
		t.Fatalf("WhatsAppMessage lost the notice: %+v", accounts)
	}
	var payload map[string]any
	if err := json.Unmarshal(accounts.Payload, &payload); err != nil || payload["About"] != nil || payload["TellOnFailure"] != nil {
		t.Fatalf("payload %s carries the notice (%v): the provider must not see it", accounts.Payload, err)
	}
	if err := s.Enqueue(ctx, accounts); err != nil {
		t.Fatal(err)
	}
	ms, _ := s.ClaimDue(ctx, 10, time.Minute)
	if len(ms) != 1 || ms[0].About != "ORD-1042" || ms[0].TellOnFailure != "+919900000003" || !ms[0].CreatedAt.Equal(t0) {
		t.Fatalf("ClaimDue = %+v; want the subject, the phone to tell and the creation time", ms)
	}
	notice := domain.WhatsApp(domain.Outbound{To: "+919900000003", Body: "⚠️ Accounts could not be told about ORD-1042"})
	for i := range 2 { // a second, late attempt to fail it changes nothing
		failed, err := s.MarkFailed(ctx, ms[0].ID, "twilio: 21211", notice)
		if err != nil || failed != (i == 0) {
			t.Fatalf("MarkFailed #%d = %v, %v; want %v", i+1, failed, err, i == 0)
		}
	}
	rows, _ := s.OutboxMessages(ctx)
	if len(rows) != 2 || rows[0].Status != "failed" || rows[0].Attempts != 1 || rows[1].To != "+919900000003" ||
		rows[1].Status != "pending" || rows[1].TellOnFailure != "" {
		t.Fatalf("rows = %+v; want the failed message and one pending notice that warns nobody", rows)
	}
}
