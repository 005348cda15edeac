package main

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

// openedMain is Munshi opened on the demo with Twilio at tw and mail
// nowhere, on clk, with no job running: the test plays the dispatcher.
func openedMain(t *testing.T, tw *fakeTwilio, clk *testClock) *Main {
	t.Helper()
	env := map[string]string{
		"MUNSHI_DB": filepath.Join(t.TempDir(), "munshi.db"), "MUNSHI_PUBLIC_URL": publicURL,
		"TWILIO_ACCOUNT_SID": testSID, "TWILIO_AUTH_TOKEN": testToken,
		"TWILIO_WHATSAPP_FROM": "whatsapp:+14155238886", "TWILIO_API_URL": tw.URL, "MUNSHI_LOG_LEVEL": "warn",
		"MUNSHI_DIGEST_TEMPLATE_SID": "HX0123456789abcdef0123456789abcdef",
	}
	cfg := config.FromEnv(func(k string) string { return env[k] })
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	m := NewMain(cfg, true, io.Discard)
	m.Now = clk.Now
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Dispatcher.Now, m.Dispatcher.BaseBackoff = clk.Now, time.Millisecond
	t.Cleanup(func() { m.Close() })
	return m
}

// digestOutbox writes the digest of 13 March to the outbox and returns
// its WhatsApp messages: the owner has written in the last day and gets
// the brief as text, the others a template.
func digestOutbox(t *testing.T, m *Main) map[string]string {
	t.Helper()
	ctx := context.Background()
	if _, _, _, err := m.Store.Claim(ctx, domain.Inbound{SID: "SMowner", From: demo.OwnerPhone, Body: "hi"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	m.Store.SaveReply(ctx, "SMowner", domain.Reply{Text: "Namaste"})
	if _, err := m.Digest.Send(ctx, time.Date(2026, 3, 13, 0, 0, 0, 0, domain.DefaultLocation())); err != nil {
		t.Fatal(err)
	}
	rows, err := m.Store.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		if r.Kind == domain.EffectWhatsApp {
			out[r.To] = string(r.Payload)
		}
	}
	if len(out) < 2 {
		t.Fatalf("the digest wrote %d WhatsApp messages; want the owner's brief and a template", len(out))
	}
	return out
}

// sentOnceEach checks that Twilio created exactly one message to each
// recipient, and that the outbox records each sent under that message's
// SID.
func sentOnceEach(t *testing.T, m *Main, tw *fakeTwilio, recipients map[string]string) {
	t.Helper()
	created := map[string][]string{}
	for _, r := range tw.Requests() {
		if r.SID != "" {
			to := r.Form.Get("To")[len("whatsapp:"):]
			created[to] = append(created[to], r.SID)
		}
	}
	rows, _ := m.Store.OutboxMessages(context.Background())
	for _, r := range rows {
		if r.Kind != domain.EffectWhatsApp {
			continue
		}
		if got := created[r.To]; len(got) != 1 || r.Status != "sent" || r.ProviderID != got[0] {
			t.Errorf("%s: Twilio created %v; the outbox has it %s as %q", r.To, got, r.Status, r.ProviderID)
		}
	}
}

// TestDigestNotSentTwiceAfterACrashDuringTheSend: a process claims the
// digest's WhatsApp messages, hands them to Twilio, and is killed before
// it records the outcome. Once its claims run out the dispatcher finds each
// in Twilio's record and marks it sent: nobody gets the digest twice. One
// that never reached Twilio is sent, once.
func TestDigestNotSentTwiceAfterACrashDuringTheSend(t *testing.T) {
	clk := &testClock{fixed: time.Date(2026, 3, 14, 7, 0, 0, 0, domain.DefaultLocation())}
	tw := twilioAt(t, clk)
	m := openedMain(t, tw, clk)
	ctx := context.Background()
	recipients := digestOutbox(t, m)

	// The dying process: claimed, sent, never recorded, except for one
	// recipient, whose send the kill came before.
	claimed, err := m.Store.ClaimDue(ctx, 100, m.Dispatcher.Lease)
	if err != nil {
		t.Fatal(err)
	}
	sender := m.Dispatcher.Senders[domain.EffectWhatsApp].(*twilio.Sender)
	var unsent string
	for _, c := range claimed {
		if c.Kind != domain.EffectWhatsApp {
			continue
		}
		if unsent == "" {
			unsent = c.To
			continue
		}
		if _, err := sender.SendPayload(ctx, c.Payload); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(m.Dispatcher.Lease + time.Second)
	m.Dispatcher.Drain(ctx)
	sentOnceEach(t, m, tw, recipients)
	if len(tw.Lists()) == 0 {
		t.Fatal("Twilio's record was not looked at")
	}
	if len(recipients) < 2 && unsent == "" {
		t.Fatal("the test needs a recipient whose send the crash came before")
	}
}

// TestDigestNotSentTwiceWhenTheAnswerIsLost: Twilio takes every digest
// message and the answers never arrive (the connection drops). The retry
// finds each in Twilio's record instead of sending it again.
func TestDigestNotSentTwiceWhenTheAnswerIsLost(t *testing.T) {
	clk := &testClock{fixed: time.Date(2026, 3, 14, 7, 0, 0, 0, domain.DefaultLocation())}
	tw := twilioAt(t, clk)
	m := openedMain(t, tw, clk)
	ctx := context.Background()
	recipients := digestOutbox(t, m)
	tw.LoseAnswers(len(recipients))
	m.Dispatcher.RunOnce(ctx)
	for _, r := range tw.Requests() {
		if !r.Lost {
			t.Fatalf("a request was answered: %+v", r)
		}
	}
	clk.Advance(time.Minute)
	m.Dispatcher.Drain(ctx)
	sentOnceEach(t, m, tw, recipients)
}

// twilioAt is the fake Twilio dating its messages by clk.
func twilioAt(t *testing.T, clk *testClock) *fakeTwilio {
	return twiliotest.Start(t, twiliotest.Account(testSID, testToken), twiliotest.Clock(clk.Now))
}
