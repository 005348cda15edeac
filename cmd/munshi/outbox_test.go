package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/mail/mailtest"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

// syncLog collects log lines from concurrent writers.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// count is how many lines at level contain msg.
func (l *syncLog) count(level, msg string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "level="+level) && strings.Contains(line, msg) {
			n++
		}
	}
	return n
}

// driveOutbox runs the dispatcher on clk and logs to logs: it wakes only
// when nudged, so the test decides when time passes.
func driveOutbox(clk *testClock, logs *syncLog) func(*Main) {
	return func(m *Main) {
		m.Now, m.Dispatcher.Now = clk.Now, clk.Now
		m.Dispatcher.Poll = time.Hour
		m.Dispatcher.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
}

// placeOrder places the demo salesperson's order for Rajesh and returns
// its id.
func placeOrder(t *testing.T, m *Main) string {
	t.Helper()
	return placeAndOk(t, m, "out", "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD").ID
}

// eventually polls cond until it holds, with a generous deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// outboxTo is the outbox row to recipient, of kind.
func outboxTo(t *testing.T, m *Main, kind, recipient string) (outbox.Status, bool) {
	t.Helper()
	rows, err := m.Store.OutboxMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Kind == kind && r.To == recipient {
			return r, true
		}
	}
	return outbox.Status{}, false
}

// readyz fetches /readyz.
func readyz(t *testing.T, m *Main) (int, string, map[string]string) {
	t.Helper()
	resp, err := http.Get("http://" + m.Addr() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string
		Checks map[string]string
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body.Status, body.Checks
}

func TestWrongTwilioTokenHoldsAccountsUntilRestart(t *testing.T) {
	tw := newFakeTwilio(t)
	clk := &testClock{fixed: time.Now().UTC()}
	db := filepath.Join(t.TempDir(), "munshi.db")
	logs := &syncLog{}
	m := startMain(t, tw.URL, map[string]string{"MUNSHI_DB": db, "TWILIO_AUTH_TOKEN": "0000wrongtoken000000000000000000"},
		driveOutbox(clk, logs))
	ctx := context.Background()
	id := placeOrder(t, m)

	// The commit's nudge tries the accounts' message: Twilio answers 401.
	var row outbox.Status
	eventually(t, "the accounts' message to be held", func() bool {
		row, _ = outboxTo(t, m, domain.EffectWhatsApp, demo.AccountsPhone)
		return row.HeldReason != ""
	})
	if row.Status != "pending" || row.Attempts != 0 || row.HeldReason != "authentication failed (Twilio 401)" ||
		row.About != id || row.TellOnFailure != demo.SalesPhone {
		t.Fatalf("accounts row = %+v; want pending, no attempt used, held for the 401, about %s, warning %s", row, id, demo.SalesPhone)
	}
	code, status, checks := readyz(t, m)
	if code != 200 || status != "degraded" || !strings.HasPrefix(checks["whatsapp"], "failing: authentication failed (Twilio 401) since ") ||
		checks["database"] != "ok" {
		t.Errorf("/readyz = %d %s %v; want 200, degraded, whatsapp failing with the reason", code, status, checks)
	}
	why, held := m.Channels.Problem()
	if !held || why != "WhatsApp: authentication failed (Twilio 401)" {
		t.Errorf("Channels.Problem() = %q, %v", why, held)
	}
	// An order placed while the hold is known is told the truth.
	say(t, m, "SMheld1", demo.SalesPhone, "10 carton glass cleaner for Rajesh, cash")
	if r := say(t, m, "SMheld2", demo.SalesPhone, "ok"); !strings.Contains(r, "placed") ||
		!strings.Contains(r, "Accounts could not be told just now (WhatsApp: authentication failed (Twilio 401))") {
		t.Errorf("ok reply while held = %q", r)
	}

	// An hour of tries every few minutes: still held, no attempt used,
	// nothing given up, and the hold logged once.
	for range 10 {
		clk.Advance(6 * time.Minute)
		m.Dispatcher.RunOnce(ctx)
	}
	rows, _ := m.Store.OutboxMessages(ctx)
	for _, r := range rows {
		if r.Status != "pending" || r.Attempts != 0 || r.HeldReason == "" {
			t.Errorf("row %+v; want every message pending and held, no attempt used", r)
		}
	}
	if n := logs.count("ERROR", "outbox: sending is held"); n != 1 {
		t.Errorf("logged the hold %d times, want once:\n%s", n, logs)
	}
	refused := len(tw.Refused())
	if len(tw.Sent()) != 0 || refused < 2*11 {
		t.Errorf("Twilio accepted %d and refused %d requests; want 0 and every try refused", len(tw.Sent()), refused)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}

	// Restarted with the right token, at the same moment: the held
	// messages go out at once, not in a few minutes.
	m2 := startMain(t, tw.URL, map[string]string{"MUNSHI_DB": db}, driveOutbox(clk, logs))
	body := waitFor(t, tw, demo.AccountsPhone, id)
	if !strings.Contains(body, "Rajesh Kirana Store") {
		t.Errorf("accounts got %q", body)
	}
	waitFor(t, tw, demo.SalesPhone, id)
	eventually(t, "every message to be marked sent", func() bool {
		n, _ := m2.Store.OutboxDepth(ctx)
		return n == 0
	})
	if r, _ := outboxTo(t, m2, domain.EffectWhatsApp, demo.AccountsPhone); r.Status != "sent" || r.Attempts != 1 || r.HeldReason != "" {
		t.Errorf("accounts row after the restart = %+v; want sent after 1 attempt", r)
	}
	if n := countTo(tw, demo.AccountsPhone, id); n != 1 {
		t.Errorf("accounts told %d times, want once", n)
	}
	if code, status, checks := readyz(t, m2); code != 200 || status != "ok" || checks["whatsapp"] != "ok" {
		t.Errorf("/readyz after the restart = %d %s %v", code, status, checks)
	}
	if _, held := m2.Channels.Problem(); held {
		t.Error("Channels.Problem() still reports a hold")
	}
}

func TestRefusedAccountsNumberWarnsThePlacerOnce(t *testing.T) {
	tw := newFakeTwilio(t)
	tw.FailTo(demo.AccountsPhone, twiliotest.InvalidNumber)
	clk := &testClock{fixed: time.Now().UTC()}
	logs := &syncLog{}
	m := startMain(t, tw.URL, nil, driveOutbox(clk, logs))
	ctx := context.Background()
	id := placeOrder(t, m)

	want := "⚠️ Accounts could not be told about " + id + " on WhatsApp: the number is not valid (Twilio error 21211). Please tell them directly."
	if got := waitFor(t, tw, demo.SalesPhone, "⚠️"); got != want {
		t.Errorf("the salesperson got %q, want %q", got, want)
	}
	eventually(t, "the outbox to drain", func() bool {
		n, _ := m.Store.OutboxDepth(ctx)
		return n == 0
	})
	for range 5 { // nothing left to try, however long
		clk.Advance(24 * time.Hour)
		if n := m.Dispatcher.RunOnce(ctx); n != 0 {
			t.Errorf("a later pass tried %d messages", n)
		}
	}
	if n := countTo(tw, demo.SalesPhone, "⚠️"); n != 1 {
		t.Errorf("the salesperson was warned %d times, want once", n)
	}
	r, _ := outboxTo(t, m, domain.EffectWhatsApp, demo.AccountsPhone)
	if r.Status != "failed" || r.Attempts != 1 || !strings.Contains(r.LastError, "21211") {
		t.Errorf("accounts row = %+v; want failed after one attempt with Twilio's 21211", r)
	}
	if code, status, _ := readyz(t, m); code != 200 || status != "ok" {
		t.Errorf("/readyz = %d %s; a refused number is not a degraded service", code, status)
	}
}

func TestSMTPCredentialsEchoedByTheServerStayRedacted(t *testing.T) {
	tw := newFakeTwilio(t)
	smtp := mailtest.Start(t)
	smtp.User, smtp.Password, smtp.EchoAuth = "munshi", "mailpass123", true
	const wrong = "hunter2-wrong"
	logs := &syncLog{}
	m := startMain(t, tw.URL, map[string]string{
		"SMTP_URL": "smtp://munshi:" + wrong + "@" + smtp.Addr, "MAIL_FROM": "munshi@distributor.example",
		"ACCOUNTS_EMAIL": "accounts@distributor.example",
	}, driveOutbox(&testClock{fixed: time.Now().UTC()}, logs))
	ctx := context.Background()
	id := placeOrder(t, m)

	var row outbox.Status
	eventually(t, "the order mail to be held", func() bool {
		row, _ = outboxTo(t, m, domain.EffectEmail, "accounts@distributor.example")
		return row.HeldReason != ""
	})
	waitFor(t, tw, demo.AccountsPhone, id) // WhatsApp is not held back by mail
	if row.Status != "pending" || row.Attempts != 0 || row.HeldReason != "SMTP authentication failed (535)" {
		t.Fatalf("mail row = %+v; want pending and held for the 535", row)
	}
	if _, status, checks := readyz(t, m); status != "degraded" || !strings.HasPrefix(checks["email"], "failing: SMTP authentication failed (535) since ") ||
		checks["whatsapp"] != "ok" {
		t.Errorf("/readyz = %s %v; want email failing, WhatsApp ok", status, checks)
	}

	blob := base64.StdEncoding.EncodeToString([]byte("\x00munshi\x00" + wrong))
	if !strings.Contains(row.LastError, "AUTH PLAIN [redacted]") {
		t.Fatalf("last_error = %q; want the server's echo with the credentials redacted", row.LastError)
	}
	// The attempt is audited just after the row is marked held.
	var audited strings.Builder
	eventually(t, "the held mail to be audited", func() bool {
		entries, err := m.Store.AuditEntries(ctx, "outbound")
		if err != nil {
			t.Fatal(err)
		}
		audited.Reset()
		for _, e := range entries {
			audited.WriteString(e.Subject + " " + strings.Join(keysAndValues(e.Detail), " ") + "\n")
		}
		return strings.Contains(audited.String(), "SMTP AUTH failed")
	})
	for where, text := range map[string]string{"last_error": row.LastError, "held reason": row.HeldReason,
		"log": logs.String(), "audit log": audited.String()} {
		if strings.Contains(text, blob) || strings.Contains(text, wrong) {
			t.Errorf("the %s shows the SMTP credentials: %s", where, text)
		}
	}
}
