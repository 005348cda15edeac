package storetest

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/store"
)

func enqueue(t *testing.T, s store.Store, effects ...domain.Effect) {
	t.Helper()
	if err := s.Enqueue(ctx, effects...); err != nil {
		t.Fatalf("Enqueue: %v", err)
	}
}

func claimDue(t *testing.T, s store.Store, limit int, lease time.Duration) []outbox.Message {
	t.Helper()
	got, err := s.ClaimDue(ctx, limit, lease)
	if err != nil {
		t.Fatalf("ClaimDue: %v", err)
	}
	return got
}

func depth(t *testing.T, s store.Store) int {
	t.Helper()
	n, err := s.OutboxDepth(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func testOutboxLease(t *testing.T, s store.Store, c *Clock) {
	effects := []domain.Effect{
		{Kind: domain.EffectWhatsApp, To: accounts, Payload: []byte(`{"body":"Order O-1 approved"}`), About: "O-1", TellOnFailure: ravi},
		{Kind: domain.EffectEmail, To: "accounts@munshi.example", Payload: []byte(`{"subject":"Order O-1"}`)},
		{Kind: domain.EffectWhatsApp, To: owner, Payload: []byte(`{"body":"डाइजेस्ट 🙏"}`)},
	}
	enqueue(t, s, effects...)
	if d := depth(t, s); d != 3 {
		t.Fatalf("OutboxDepth = %d; want 3", d)
	}
	const lease = 30 * time.Second
	got := claimDue(t, s, 2, lease)
	if len(got) != 2 {
		t.Fatalf("ClaimDue(limit 2) = %d messages", len(got))
	}
	for i, m := range got {
		if m.ID == 0 || !reflect.DeepEqual(m.Effect, effects[i]) || m.Attempts != 0 || !m.CreatedAt.Equal(T0) || !m.HeldSince.IsZero() {
			t.Errorf("claimed %d = %+v, want %+v created at %v", i, m, effects[i], T0)
		}
	}
	if got[0].ID >= got[1].ID {
		t.Errorf("not in id order: %d, %d", got[0].ID, got[1].ID)
	}
	rest := claimDue(t, s, 10, lease)
	if len(rest) != 1 || rest[0].To != owner {
		t.Fatalf("second ClaimDue = %+v; want only the third message", rest)
	}

	// Every message is leased now: nothing is due until the lease runs out.
	for _, d := range []time.Duration{0, time.Second, lease - time.Microsecond} {
		c.Set(T0.Add(d))
		if again := claimDue(t, s, 10, lease); len(again) != 0 {
			t.Fatalf("ClaimDue %v into the lease = %+v; want nothing", d, again)
		}
	}
	if d := depth(t, s); d != 3 {
		t.Errorf("leased messages are still pending: depth %d, want 3", d)
	}
	c.Advance(time.Microsecond) // the lease has ended: the sender died
	again := claimDue(t, s, 10, lease)
	if len(again) != 3 {
		t.Fatalf("ClaimDue after the lease = %d messages; want 3", len(again))
	}
	if again[0].ID != got[0].ID || again[0].Attempts != 0 {
		t.Errorf("re-leased %+v, want %+v", again[0], got[0])
	}
}

func testOutboxOutcomes(t *testing.T, s store.Store, c *Clock) {
	enqueue(t, s,
		domain.Effect{Kind: domain.EffectWhatsApp, To: accounts, Payload: []byte(`{"n":1}`)},
		domain.Effect{Kind: domain.EffectWhatsApp, To: ravi, Payload: []byte(`{"n":2}`)},
		domain.Effect{Kind: domain.EffectEmail, To: "accounts@munshi.example", Payload: []byte(`{"n":3}`)},
	)
	const lease = time.Minute
	ms := claimDue(t, s, 10, lease)
	if len(ms) != 3 {
		t.Fatalf("ClaimDue = %d", len(ms))
	}
	sent, retry, dead := ms[0].ID, ms[1].ID, ms[2].ID

	if err := s.MarkSent(ctx, sent, "SMsent0001"); err != nil {
		t.Fatal(err)
	}
	next := T0.Add(5 * time.Minute)
	if err := s.MarkRetry(ctx, retry, "twilio: 503 Service Unavailable", next); err != nil {
		t.Fatal(err)
	}
	if failed, err := s.MarkFailed(ctx, dead, "smtp: 550 no such mailbox"); err != nil || !failed {
		t.Fatalf("MarkFailed = %v, %v; want true", failed, err)
	}
	if d := depth(t, s); d != 1 {
		t.Errorf("OutboxDepth = %d; want 1 (only the retry)", d)
	}
	all, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		status, lastError, providerID string
		attempts                      int
	}
	wantRows := map[int64]row{
		sent:  {"sent", "", "SMsent0001", 1},
		retry: {"pending", "twilio: 503 Service Unavailable", "", 1},
		dead:  {"failed", "smtp: 550 no such mailbox", "", 1},
	}
	for _, m := range all {
		if g := (row{m.Status, m.LastError, m.ProviderID, m.Attempts}); g != wantRows[m.ID] {
			t.Errorf("message %d = %+v, want %+v", m.ID, g, wantRows[m.ID])
		}
	}

	// The retry is not due before its time, even with the lease cleared.
	c.Advance(5*time.Minute - time.Microsecond)
	if got := claimDue(t, s, 10, lease); len(got) != 0 {
		t.Fatalf("ClaimDue before the retry time = %+v; want nothing", got)
	}
	c.Advance(time.Microsecond)
	got := claimDue(t, s, 10, lease)
	if len(got) != 1 || got[0].ID != retry || got[0].Attempts != 1 {
		t.Fatalf("ClaimDue at the retry time = %+v; want message %d with 1 attempt", got, retry)
	}
	// Sent and failed messages are never due again.
	c.Advance(365 * 24 * time.Hour)
	if err := s.MarkSent(ctx, retry, "SMsent0002"); err != nil {
		t.Fatal(err)
	}
	if got := claimDue(t, s, 10, lease); len(got) != 0 {
		t.Fatalf("ClaimDue a year later = %+v; want nothing", got)
	}
	if d := depth(t, s); d != 0 {
		t.Errorf("OutboxDepth = %d, want 0", d)
	}
}

func testEnqueueAllOrNothing(t *testing.T, s store.Store, _ *Clock) {
	err := s.Enqueue(ctx,
		domain.Effect{Kind: domain.EffectWhatsApp, To: accounts, Payload: []byte(`{}`)},
		domain.Effect{To: accounts, Payload: []byte(`{}`)}, // no kind: no sender could ever carry it out
	)
	if err == nil {
		t.Fatal("an effect without a kind was stored")
	}
	if d := depth(t, s); d != 0 {
		t.Errorf("%d outbox messages after a failed Enqueue, want 0", d)
	}
	if err := s.Enqueue(ctx); err != nil {
		t.Errorf("Enqueue of nothing = %v", err)
	}
}

// testAnyKind: the store keeps a kind it has never heard of as it was
// given, so that a new kind of effect needs only a sender.
func testAnyKind(t *testing.T, s store.Store, _ *Clock) {
	effects := []domain.Effect{
		{Kind: "sheets", To: "Orders!A1:F1", Payload: []byte(`{"range":"Orders!A1:F1","values":[["ORD-1042","₹26,054.40"]]}`), About: "ORD-1042"},
		{Kind: "मुंशी.kind/v2", To: "", Payload: []byte(`{}`), TellOnFailure: ravi},
		{Kind: "whatsapp", To: "'; DELETE FROM outbox; --", Payload: []byte(`{"Body":"\u0000\u202e"}`)},
	}
	enqueue(t, s, effects...)
	got := claimDue(t, s, 10, time.Minute)
	if len(got) != len(effects) {
		t.Fatalf("claimed %d, want %d", len(got), len(effects))
	}
	for i, m := range got {
		if !reflect.DeepEqual(m.Effect, effects[i]) {
			t.Errorf("claimed %+v, want %+v as given", m.Effect, effects[i])
		}
	}
	if n, err := s.ReleaseHeld(ctx, "sheets"); err != nil || n != 0 {
		t.Errorf("ReleaseHeld(sheets) = %d, %v; want nothing held", n, err)
	}
}

func testConcurrentClaimDue(t *testing.T, s store.Store, _ *Clock) {
	const total = 60
	var effects []domain.Effect
	for i := range total {
		effects = append(effects, domain.Effect{Kind: domain.EffectWhatsApp, To: accounts, Payload: []byte{byte('a' + i%26)}})
	}
	enqueue(t, s, effects...)
	var (
		mu   sync.Mutex
		seen = map[int64]int{}
		errs []error
		fns  []func()
	)
	for range 6 {
		fns = append(fns, func() {
			// Bounded, so that a broken lease fails the test instead of
			// hanging it.
			for range total {
				got, err := s.ClaimDue(ctx, 4, time.Hour)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				for _, m := range got {
					seen[m.ID]++
				}
				mu.Unlock()
				if err != nil || len(got) == 0 {
					return
				}
			}
		})
	}
	atOnce(fns...)
	if len(errs) > 0 {
		t.Fatalf("ClaimDue failed: %v", errs)
	}
	if len(seen) != total {
		t.Errorf("%d distinct messages leased, want %d", len(seen), total)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("message %d leased %d times while its lease held", id, n)
		}
	}
}

func testHeld(t *testing.T, s store.Store, c *Clock) {
	enqueue(t, s,
		domain.WhatsApp(domain.Outbound{To: accounts, Body: "order"}),
		domain.Mail(domain.Email{To: []string{"accounts@munshi.example"}, Subject: "order"}),
		domain.WhatsApp(domain.Outbound{To: ravi, Body: "not held"}),
	)
	ms := claimDue(t, s, 10, time.Minute)
	if len(ms) != 3 {
		t.Fatalf("ClaimDue = %d", len(ms))
	}
	wa, mail, other := ms[0].ID, ms[1].ID, ms[2].ID
	later := T0.Add(5 * time.Minute)
	const why = "authentication failed (Twilio 401)"
	for _, id := range []int64{wa, mail} {
		if err := s.MarkHeld(ctx, id, why, "twilio: send: status 401, code 20003: Authenticate", later); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MarkRetry(ctx, other, "twilio: send: status 500", later); err != nil {
		t.Fatal(err)
	}
	// Held again later: held since stays at the first hold.
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
			if r.Status != "pending" || r.Attempts != 0 || r.HeldReason != why || !r.HeldSince.Equal(T0) {
				t.Errorf("held row %d = %+v; want pending, 0 attempts, held since %v for %q", r.ID, r, T0, why)
			}
		case other:
			if r.Attempts != 1 || r.HeldReason != "" || !r.HeldSince.IsZero() {
				t.Errorf("retried row = %+v; want 1 attempt and not held", r)
			}
		}
	}
	if d := depth(t, s); d != 3 {
		t.Errorf("OutboxDepth = %d, want 3: held messages are pending", d)
	}

	// Nothing is due before the retry time; releasing WhatsApp makes only
	// its held message due.
	if got := claimDue(t, s, 10, time.Minute); len(got) != 0 {
		t.Fatalf("ClaimDue before the retry time = %+v", got)
	}
	if n, err := s.ReleaseHeld(ctx, domain.EffectWhatsApp); err != nil || n != 1 {
		t.Fatalf("ReleaseHeld(whatsapp) = %d, %v; want 1", n, err)
	}
	got := claimDue(t, s, 10, time.Minute)
	if len(got) != 1 || got[0].ID != wa || !got[0].HeldSince.Equal(T0) || got[0].Attempts != 0 {
		t.Fatalf("ClaimDue after release = %+v; want the held WhatsApp message", got)
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

func testMarkFailed(t *testing.T, s store.Store, _ *Clock) {
	enqueue(t, s, domain.WhatsApp(domain.Outbound{To: accounts, Body: "🧾 New order ORD-1042",
		Notice: domain.Notice{About: "ORD-1042", TellOnFailure: ravi}}))
	ms := claimDue(t, s, 10, time.Minute)
	if len(ms) != 1 || ms[0].About != "ORD-1042" || ms[0].TellOnFailure != ravi || !ms[0].CreatedAt.Equal(T0) {
		t.Fatalf("ClaimDue = %+v; want what it is about, the phone to tell and the creation time", ms)
	}
	notice := domain.WhatsApp(domain.Outbound{To: ravi, Body: "⚠️ Accounts could not be told about ORD-1042"})
	for i := range 2 { // a second, late attempt to fail it changes nothing
		failed, err := s.MarkFailed(ctx, ms[0].ID, "twilio: 21211", notice)
		if err != nil || failed != (i == 0) {
			t.Fatalf("MarkFailed #%d = %v, %v; want %v", i+1, failed, err, i == 0)
		}
	}
	rows, _ := s.OutboxMessages(ctx)
	if len(rows) != 2 || rows[0].Status != "failed" || rows[0].Attempts != 1 || rows[1].To != ravi ||
		rows[1].Status != "pending" || rows[1].TellOnFailure != "" {
		t.Fatalf("rows = %+v; want the failed message and one pending notice that warns nobody", rows)
	}
}

func testDeliveryStatus(t *testing.T, s store.Store, c *Clock) {
	enqueue(t, s,
		domain.Effect{Kind: domain.EffectWhatsApp, To: accounts, Payload: []byte(`{"n":1}`)},
		domain.Effect{Kind: domain.EffectWhatsApp, To: ravi, Payload: []byte(`{"n":2}`)},
		domain.Effect{Kind: domain.EffectWhatsApp, To: sunil, Payload: []byte(`{"n":3}`)},
	)
	ms := claimDue(t, s, 10, time.Minute)
	if len(ms) != 3 {
		t.Fatalf("ClaimDue = %d", len(ms))
	}
	if err := s.MarkSent(ctx, ms[0].ID, "SMaaa"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, ms[1].ID, "SMbbb"); err != nil {
		t.Fatal(err)
	}
	// ms[2] stays unsent, with no provider id.
	c.Advance(time.Second)
	for _, st := range []struct{ sid, status, code string }{
		{"SMaaa", "sent", ""},
		{"SMaaa", "delivered", ""},
		{"SMaaa", "sent", ""}, // late: does not move it back
		{"SMbbb", "undelivered", "63016"},
		{"SMzzz", "read", ""},   // not one of ours: recorded, touches nothing
		{"", "failed", "30008"}, // an empty SID must not match the unsent message
		{"SMbbb", "🤖 made-up", "'; --"},
	} {
		if err := s.RecordDeliveryStatus(ctx, st.sid, st.status, st.code); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{ms[0].ID: "delivered", ms[1].ID: "undelivered", ms[2].ID: ""}
	for _, m := range all {
		if m.DeliveryStatus != want[m.ID] {
			t.Errorf("message %d (provider %q) delivery status = %q, want %q", m.ID, m.ProviderID, m.DeliveryStatus, want[m.ID])
		}
		if m.ID == ms[2].ID && m.Status != "pending" {
			t.Errorf("unsent message status = %q", m.Status)
		}
	}
}

func testAudit(t *testing.T, s store.Store, c *Clock) {
	ist := time.FixedZone("IST", 5*3600+1800)
	at := time.Date(2026, 3, 14, 15, 0, 0, 123456000, ist)
	entries := []audit.Entry{
		{
			At: at, Actor: ravi, Kind: "decision", Subject: "SM0001",
			Detail: map[string]any{
				"intent": "order", "tier": "rules", "confidence": 0.93,
				"items":   []any{map[string]any{"sku": "GC500", "qty": float64(120)}},
				"payment": nil, "text": "5 carton GC aur 10 pack phenyl — राजेश",
			},
		},
		{Actor: "+919900000009", Kind: "refusal", Subject: "SM0002", Detail: map[string]any{"reason": "unknown user"}},
		{Actor: "system", Kind: "outbound", Detail: map[string]any{}},
	}
	for _, e := range entries {
		c.Advance(time.Second)
		if err := s.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.AuditEntries(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d entries, want 3", len(got))
	}
	for i, g := range got {
		w := entries[i]
		if i > 0 && g.ID <= got[i-1].ID {
			t.Errorf("entries out of order: %d after %d", g.ID, got[i-1].ID)
		}
		if g.Actor != w.Actor || g.Kind != w.Kind || g.Subject != w.Subject || !reflect.DeepEqual(g.Detail, w.Detail) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, g, w)
		}
		wantAt := w.At
		if wantAt.IsZero() {
			wantAt = T0.Add(time.Duration(i+1) * time.Second) // the store's clock
		}
		if !g.At.Equal(wantAt) || g.At.Location() != time.UTC {
			t.Errorf("entry %d at %v, want %v in UTC", i, g.At, wantAt)
		}
	}
	refusals, err := s.AuditEntries(ctx, "refusal")
	if err != nil || len(refusals) != 1 || refusals[0].Subject != "SM0002" || refusals[0].Detail["reason"] != "unknown user" {
		t.Errorf("AuditEntries(refusal) = %+v, %v", refusals, err)
	}
	if none, err := s.AuditEntries(ctx, "import"); err != nil || len(none) != 0 {
		t.Errorf("AuditEntries(import) = %+v, %v; want none", none, err)
	}
	// A detail that cannot be JSON is refused, not stored half-way.
	if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "bad", Detail: map[string]any{"f": func() {}}}); err == nil {
		t.Error("a function in the detail was accepted")
	}
	if all, _ := s.AuditEntries(ctx, ""); len(all) != 3 {
		t.Errorf("%d audit entries, want 3", len(all))
	}
	// Many entries in one call, more than one statement takes, one of
	// them refused: the others are all written, in the order given.
	var many []audit.Entry
	for i := range 150 {
		e := audit.Entry{Actor: ravi, Kind: "many", Subject: fmt.Sprintf("SM%04d", i), Detail: map[string]any{"text": fmt.Sprintf("%d कार्टन ‘GC’ 😀 '; DROP TABLE audit_log; --", i)}}
		if i == 70 {
			e.Detail = map[string]any{"f": func() {}}
		}
		many = append(many, e)
	}
	if err := s.AppendAudit(ctx, many...); err == nil {
		t.Error("a function in one detail of many was accepted")
	}
	got, err = s.AuditEntries(ctx, "many")
	if err != nil || len(got) != 149 {
		t.Fatalf("%d entries of 150, one refused, %v; want 149", len(got), err)
	}
	for i, g := range got {
		n := i
		if i >= 70 {
			n++
		}
		if g.Subject != fmt.Sprintf("SM%04d", n) || g.Detail["text"] != many[n].Detail["text"] || (i > 0 && g.ID <= got[i-1].ID) {
			t.Fatalf("entry %d of many is %+v, want %s in order", i, g, many[n].Subject)
		}
	}
}
