package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

const (
	testToken = "e2esecretauthtoken0123456789abcd"
	testSID   = "AC00000000000000000000000000000001"
	publicURL = "https://munshi.example.com"
)

// fakeTwilio is Twilio's Messages API, answering for this package's
// account: a request with another auth token gets Twilio's 401.
type fakeTwilio = twiliotest.Server

func newFakeTwilio(t testing.TB) *fakeTwilio {
	return twiliotest.Start(t, twiliotest.Account(testSID, testToken))
}

// startMain runs the whole program on 127.0.0.1:0 with a temp database, the
// demo data, and Twilio pointed at the fake.
func startMain(t testing.TB, twilioURL string, extra map[string]string, configure ...func(*Main)) *Main {
	t.Helper()
	return startMainAt(t, nil, twilioURL, extra, configure...)
}

// startMainAt is startMain on a clock from the start (nil: the system's):
// the demo's history ends the day before it, and questions are answered
// at it.
func startMainAt(t testing.TB, now func() time.Time, twilioURL string, extra map[string]string, configure ...func(*Main)) *Main {
	t.Helper()
	env := map[string]string{
		"MUNSHI_ADDR":          "127.0.0.1:0",
		"MUNSHI_DB":            filepath.Join(t.TempDir(), "munshi.db"),
		"MUNSHI_PUBLIC_URL":    publicURL,
		"TWILIO_ACCOUNT_SID":   testSID,
		"TWILIO_AUTH_TOKEN":    testToken,
		"TWILIO_WHATSAPP_FROM": "whatsapp:+14155238886",
		"TWILIO_API_URL":       twilioURL,
		"MUNSHI_LOG_LEVEL":     "warn",
		// No digest catch-up at start unless a test asks for one: a
		// test run between the digest's hour and MUNSHI_DIGEST_LATEST
		// would otherwise find a digest in the outbox and the mail.
		"MUNSHI_DIGEST_LATEST": "00:00",
	}
	for k, v := range extra {
		env[k] = v
	}
	cfg := config.FromEnv(func(k string) string { return env[k] })
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	m := NewMain(cfg, true, io.Discard)
	m.Now = now
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, c := range configure {
		c(m)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// hook is m's incoming-message webhook, signed as Twilio signs it.
func hook(m *Main) loadtest.Webhook {
	return loadtest.Webhook{Target: "http://" + m.Addr(), PublicURL: m.Config.PublicURL, AuthToken: m.Config.TwilioAuthToken}
}

// messageForm is an incoming WhatsApp message from phone as Twilio posts it.
func messageForm(sid, from, body string) url.Values {
	return loadtest.Form(sid, testSID, from, loadtest.DefaultTo, body)
}

// send posts a signed incoming-message webhook, as Twilio does; tamper
// changes the body after it was signed.
func send(t *testing.T, m *Main, sid, from, body string, tamper bool) (*http.Response, []string) {
	t.Helper()
	form := messageForm(sid, from, body)
	req, err := hook(m).Request(context.Background(), form)
	if err != nil {
		t.Fatal(err)
	}
	if tamper {
		form.Set("Body", body+" and approve everything")
		raw := form.Encode()
		req.Body, req.ContentLength = io.NopCloser(strings.NewReader(raw)), int64(len(raw))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return resp, nil
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/xml") {
		t.Fatalf("content type %q", ct)
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	bodies, _, err := loadtest.ParseTwiML(raw)
	if err != nil {
		t.Fatal(err)
	}
	return resp, bodies
}

func TestEndToEndWebhook(t *testing.T) {
	tw := newFakeTwilio(t)
	m := startMain(t, tw.URL, nil)
	ctx := context.Background()

	// A signed greeting from the demo salesperson gets a TwiML greeting.
	_, got := send(t, m, "SM0001", demo.SalesPhone, "namaste", false)
	if len(got) != 1 || !strings.Contains(got[0], "Namaste Ravi") {
		t.Fatalf("greeting reply %q", got)
	}
	// help fits the role.
	_, got = send(t, m, "SM0002", demo.OwnerPhone, "help", false)
	if len(got) != 1 || !strings.Contains(got[0], "who owes us money") {
		t.Fatalf("owner help %q", got)
	}
	// A bad signature gets 403 and nothing is recorded.
	resp, _ := send(t, m, "SM0003", demo.SalesPhone, "hi", true)
	if resp.StatusCode != 403 {
		t.Fatalf("tampered request: %d", resp.StatusCode)
	}
	if done, _, _ := m.Store.SavedReply(ctx, "SM0003"); done {
		t.Fatal("a refused request was processed")
	}
	// A replayed MessageSid gets the same reply and one audit entry.
	_, first := send(t, m, "SM0004", demo.SalesPhone, "hello", false)
	_, again := send(t, m, "SM0004", demo.SalesPhone, "hello", false)
	if strings.Join(first, "") != strings.Join(again, "") || len(first) == 0 {
		t.Fatalf("replay %q vs %q", again, first)
	}
	entries, _ := m.Store.AuditEntries(ctx, "inbound")
	n := 0
	for _, e := range entries {
		if e.Subject == "SM0004" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d inbound audit entries for a replayed message, want 1", n)
	}
	// An unknown number gets the refusal and nothing else.
	_, got = send(t, m, "SM0005", "+15550001111", "stock batao", false)
	if len(got) != 1 || got[0] != conversation.Refusal {
		t.Fatalf("unknown sender got %q", got)
	}
	refusals, _ := m.Store.AuditEntries(ctx, "refusal")
	if len(refusals) != 1 || refusals[0].Actor != "+15550001111" {
		t.Fatalf("refusals %+v", refusals)
	}
	decisions, _ := m.Store.AuditEntries(ctx, "decision")
	for _, d := range decisions {
		if d.Actor == "+15550001111" {
			t.Fatal("an unknown sender's message was routed")
		}
	}
	// Nothing in the audit log holds the auth token.
	all, _ := m.Store.AuditEntries(ctx, "")
	for _, e := range all {
		if strings.Contains(e.Subject+e.Actor+strings.Join(keysAndValues(e.Detail), " "), testToken) {
			t.Fatal("the auth token reached the audit log")
		}
	}
}

func keysAndValues(m map[string]any) []string {
	var out []string
	for k, v := range m {
		out = append(out, k, strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(toString(v), "\n", " "), "\t", " ")))
	}
	return out
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, e := range x {
			parts = append(parts, toString(e))
		}
		return strings.Join(parts, " ")
	}
	return ""
}

func TestOutboundReachesTwilio(t *testing.T) {
	tw := newFakeTwilio(t)
	tw.Fail(1, twiliotest.ServerError) // the first attempt fails and is retried
	m := startMain(t, tw.URL, nil, func(m *Main) { m.Dispatcher.BaseBackoff = time.Millisecond })
	ctx := context.Background()
	msg := domain.Outbound{To: demo.AccountsPhone, Body: "Order ORD-2001 approved: ₹1,23,456", MediaURLs: []string{publicURL + "/media/abc"}}
	if err := m.Store.Enqueue(ctx, domain.WhatsApp(msg)); err != nil {
		t.Fatal(err)
	}
	m.Dispatcher.Nudge()
	deadline := time.Now().Add(10 * time.Second)
	for len(tw.Sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		m.Dispatcher.Nudge()
	}
	got := tw.Sent()
	if len(got) != 1 {
		rows, _ := m.Store.OutboxMessages(ctx)
		t.Logf("outbox: %+v", rows)
		t.Fatalf("Twilio received %d messages, want 1", len(got))
	}
	f := got[0]
	want := map[string]string{
		"To": "whatsapp:" + demo.AccountsPhone, "From": "whatsapp:+14155238886", "Body": msg.Body,
		"MediaUrl": publicURL + "/media/abc", "StatusCallback": publicURL + "/webhook/twilio/status",
	}
	for k, v := range want {
		if f.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, f.Get(k), v)
		}
	}
	for _, r := range tw.Requests() {
		if r.User != testSID || r.Password != testToken {
			t.Errorf("basic auth %q:%q", r.User, r.Password)
		}
	}
}

func TestHealthReadyMetrics(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	send(t, m, "SM0100", demo.SalesPhone, "hi", false)
	for path, want := range map[string]string{
		"/healthz": `"ok"`, "/readyz": `"database":"ok"`,
		"/metrics": `munshi_replies_total{outcome="answered"} 1`,
	} {
		resp, err := http.Get("http://" + m.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
}
