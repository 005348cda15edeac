package outbox_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/mail"
	"github.com/munshi/munshi/internal/mail/mailtest"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

const (
	accountsPhone = "+919900000002"
	placerPhone   = "+919900000003"
	badPhone      = "+9198"
)

// logBuffer collects a dispatcher's log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// lines counts the log lines at level that contain msg.
func (l *logBuffer) lines(level, msg string) int {
	n := 0
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "level="+level) && strings.Contains(line, msg) {
			n++
		}
	}
	return n
}

func logTo(d *outbox.Dispatcher) *logBuffer {
	l := &logBuffer{}
	d.Logger = slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return l
}

// orderForAccounts is the accounts' copy of an order, naming whom to warn.
func orderForAccounts(to string) domain.Effect {
	return domain.WhatsApp(domain.Outbound{To: to, Body: "🧾 New order ORD-1042 — Rajesh Kirana Store",
		Notice: domain.Notice{About: "ORD-1042", TellOnFailure: placerPhone}})
}

func orderMail() domain.Effect {
	return domain.Mail(domain.Email{To: []string{"accounts@distributor.example"}, Subject: "Order ORD-1042",
		Text: "Rajesh Kirana Store, ₹30,656.40", Notice: domain.Notice{About: "ORD-1042", TellOnFailure: placerPhone}})
}

// toPhone counts the requests the fake Twilio got for phone, with their
// bodies.
func toPhone(fake *twiliotest.Server, phone string) (requests int, bodies []string) {
	for _, r := range fake.To(phone) {
		bodies = append(bodies, r.Form.Get("Body"))
	}
	return len(bodies), bodies
}

// tryEvery runs n passes of d, step apart by the clock; each must try
// exactly want messages.
func tryEvery(t *testing.T, d *outbox.Dispatcher, clk *clock, n int, step time.Duration, want int) {
	t.Helper()
	for i := range n {
		if got := d.RunOnce(context.Background()); got != want {
			t.Fatalf("pass %d at %v tried %d messages, want %d", i+1, clk.Now(), got, want)
		}
		clk.Advance(step)
	}
}

func TestUnauthorisedHoldsWithoutUsingAttempts(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	rec := &recorder{}
	d := newDispatcher(t, st, fake, clk, rec)
	d.Senders[domain.EffectWhatsApp] = twilioSender(t, fake, "0000feedf00dfeedf00dfeedf00dfeed") // a wrong token
	d.BaseBackoff, d.MaxBackoff = time.Second, 10*time.Minute
	logs := logTo(d)
	enqueue(t, st, orderForAccounts(accountsPhone), domain.WhatsApp(approved),
		domain.WhatsApp(domain.Outbound{To: placerPhone, Body: "✅ Order ORD-1042 confirmed"}))

	// Two days of tries, about every five minutes: nothing fails, nothing
	// uses up an attempt, and the hold is logged once.
	const passes = 48 * 10
	tryEvery(t, d, clk, passes, 6*time.Minute, 3)
	if requests, delivered := len(fake.Requests()), accepted(fake); requests != 3*passes || len(delivered) != 0 {
		t.Fatalf("Twilio got %d requests and accepted %d, want %d and 0", requests, len(delivered), 3*passes)
	}
	for _, r := range rows(t, st) {
		if r.Status != "pending" || r.Attempts != 0 || r.HeldReason != "authentication failed (Twilio 401)" ||
			!r.HeldSince.Equal(newClock().Now()) || !strings.Contains(r.LastError, "20003") {
			t.Errorf("row %d = %+v; want pending, 0 attempts, held since the first try for the 401", r.ID, r)
		}
	}
	if n := logs.lines("ERROR", "outbox: sending is held"); n != 1 {
		t.Errorf("logged the hold %d times, want once:\n%s", n, logs)
	}
	if n := logs.lines("ERROR", "given up"); n != 0 {
		t.Errorf("gave %d messages up", n)
	}
	err := d.Check(domain.EffectWhatsApp)
	if err == nil || err.Error() != "authentication failed (Twilio 401) since 2025-08-25T07:00:00Z" {
		t.Errorf("Check(whatsapp) = %v, want the reason and since when", err)
	}
	if d.Check(domain.EffectEmail) != nil {
		t.Errorf("Check(email) = %v, want nil: email is not held", d.Check(domain.EffectEmail))
	}
	for _, a := range rec.seen() {
		if a.outcome != outbox.Held {
			t.Fatalf("Record saw %+v, want only held attempts", a)
		}
	}

	// The token is put right: the next try sends everything, the hold is
	// cleared and its end logged once.
	d.Senders[domain.EffectWhatsApp] = twilioSender(t, fake, twiliotest.AuthToken)
	clk.Advance(6 * time.Minute)
	if n := d.RunOnce(context.Background()); n != 3 {
		t.Fatalf("pass after the fix tried %d, want 3", n)
	}
	for _, r := range rows(t, st) {
		if r.Status != "sent" || r.Attempts != 1 || r.HeldReason != "" {
			t.Errorf("row %d = %+v; want sent after 1 attempt, no longer held", r.ID, r)
		}
	}
	if err := d.Check(domain.EffectWhatsApp); err != nil || len(d.Holds()) != 0 {
		t.Errorf("Check(whatsapp) = %v, holds %v after a success; want none", err, d.Holds())
	}
	if n := logs.lines("INFO", "outbox: sending works again"); n != 1 {
		t.Errorf("logged the recovery %d times, want once:\n%s", n, logs)
	}
	_, bodies := toPhone(fake, placerPhone)
	if strings.Contains(strings.Join(bodies, "\n"), "⚠️") {
		t.Errorf("the placer was warned: nothing was given up")
	}
}

func TestRestartSendsHeldMessagesAtOnce(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	first := newDispatcher(t, st, fake, clk, nil)
	first.Senders[domain.EffectWhatsApp] = twilioSender(t, fake, "0000feedf00dfeedf00dfeedf00dfeed")
	enqueue(t, st, orderForAccounts(accountsPhone), domain.WhatsApp(approved))
	first.RunOnce(context.Background())
	if r := rows(t, st)[0]; r.HeldReason == "" {
		t.Fatalf("row = %+v, want held", r)
	}

	// A new dispatcher with the right token, at the same moment: Run makes
	// the held messages due at once instead of in a few minutes.
	claims := make(chan int, 1)
	second := newDispatcher(t, watchedStore{st, claims}, fake, clk, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); second.Run(ctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, "the held messages to be sent", func() bool { return sentCount(t, st) == 2 })
	if delivered := accepted(fake); len(delivered) != 2 {
		t.Errorf("Twilio accepted %d messages, want 2", len(delivered))
	}
}

func TestInvalidNumberWarnsThePlacerOnce(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	fake.FailTo(badPhone, twiliotest.InvalidNumber)
	rec := &recorder{}
	d := newDispatcher(t, st, fake, clk, rec)
	enqueue(t, st, orderForAccounts(badPhone), orderForAccounts(accountsPhone))

	if n := d.RunOnce(context.Background()); n != 2 {
		t.Fatalf("first pass tried %d, want 2", n)
	}
	// The warning was written with the failure and goes out next.
	if n := d.RunOnce(context.Background()); n != 1 {
		t.Fatalf("second pass tried %d, want the warning", n)
	}
	for range 5 {
		clk.Advance(24 * time.Hour)
		if n := d.RunOnce(context.Background()); n != 0 {
			t.Errorf("a later pass tried %d, want 0", n)
		}
	}
	_, bodies := toPhone(fake, placerPhone)
	want := "⚠️ Accounts could not be told about ORD-1042 on WhatsApp: the number is not valid (Twilio error 21211). Please tell them directly."
	if len(bodies) != 1 || bodies[0] != want {
		t.Errorf("the placer got %q, want once %q", bodies, want)
	}
	rs := rows(t, st)
	if len(rs) != 3 || rs[0].Status != "failed" || rs[0].Attempts != 1 || rs[1].Status != "sent" ||
		rs[2].Status != "sent" || rs[2].TellOnFailure != "" {
		t.Errorf("rows = %+v; want the refused one failed, the good one and the warning sent", rs)
	}
	if requests, _ := toPhone(fake, badPhone); requests != 1 {
		t.Errorf("the invalid number was tried %d times, want 1", requests)
	}
}

func TestFailureNoticeNeverLoops(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t) // refuses the message and its warning
	fake.FailTo(badPhone, twiliotest.InvalidNumber)
	fake.FailTo(placerPhone, twiliotest.InvalidNumber)
	d := newDispatcher(t, st, fake, clk, nil)
	enqueue(t, st, orderForAccounts(badPhone))
	for range 10 {
		d.RunOnce(context.Background())
		clk.Advance(time.Hour)
	}
	rs := rows(t, st)
	if len(rs) != 2 || rs[0].Status != "failed" || rs[1].Status != "failed" || rs[1].To != placerPhone {
		t.Errorf("rows = %+v; want the message and one warning, both failed, and nothing more", rs)
	}
}

func TestTransientFailuresRetryUntilMaxAge(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	fake.FailTo(accountsPhone, twiliotest.ServerError)
	rec := &recorder{}
	d := newDispatcher(t, st, fake, clk, rec)
	d.BaseBackoff, d.MaxBackoff = time.Minute, 10*time.Minute
	enqueue(t, st, orderForAccounts(accountsPhone))
	start := clk.Now()

	tries := 0
	for rows(t, st)[0].Status == "pending" {
		if clk.Now().Sub(start) > 25*time.Hour {
			t.Fatalf("still pending after 25 hours: %+v", rows(t, st)[0])
		}
		tries += d.RunOnce(context.Background())
		clk.Advance(13 * time.Minute) // past the longest backoff and its jitter
	}
	r := rows(t, st)[0]
	if r.Status != "failed" || r.Attempts != tries || tries < 100 || !strings.Contains(r.LastError, "500") {
		t.Errorf("row = %+v after %d tries; want failed after a day of tries (over 100), with the last error", r, tries)
	}
	seen := rec.seen()
	for i, a := range seen[:len(seen)-1] {
		if a.outcome != outbox.Retry {
			t.Fatalf("attempt %d = %+v, want a retry: only age gives a transient failure up", i+1, a)
		}
	}
	if last := seen[len(seen)-1]; last.outcome != outbox.Failed {
		t.Errorf("last attempt = %+v, want failed", last)
	}
	// Given up after 24 hours, and not before.
	if age := clk.Now().Add(-13 * time.Minute).Sub(start); age < 24*time.Hour {
		t.Errorf("given up after %v, want 24h", age)
	}
	d.RunOnce(context.Background())
	if _, bodies := toPhone(fake, placerPhone); len(bodies) != 1 ||
		!strings.HasPrefix(bodies[0], "⚠️ Accounts could not be told about ORD-1042 on WhatsApp: Twilio is having trouble (Twilio 500)") {
		t.Errorf("the placer got %q, want one warning", bodies)
	}
}

func TestEmailWithoutSenderIsHeld(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	rec := &recorder{}
	d := newDispatcher(t, st, fake, clk, rec)
	enqueue(t, st, orderMail())
	tryEvery(t, d, clk, 3, 24*time.Hour, 1)
	r := onlyRow(t, st)
	if r.Kind != domain.EffectEmail || r.Status != "pending" || r.Attempts != 0 || r.HeldReason != "no email sender is configured" ||
		!strings.Contains(r.LastError, `no sender for "email"`) {
		t.Errorf("row = %+v; want a pending email held for want of a sender", r)
	}
	if err := d.Check(domain.EffectEmail); err == nil || !strings.Contains(err.Error(), "no email sender is configured since ") {
		t.Errorf("Check(email) = %v, want the reason", err)
	}
	if requests := len(fake.Requests()); requests != 0 {
		t.Errorf("Twilio got %d requests for an email, want 0", requests)
	}
}

func TestSMTPAuthFailureIsHeldAndRecovers(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	srv := mailtest.Start(t)
	srv.User, srv.Password = "munshi", "mailpass123"
	mailer := func(pass string) outbox.Sender {
		s, err := mail.NewSender("smtp://munshi:"+pass+"@"+srv.Addr, "munshi@distributor.example")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	d := newDispatcher(t, st, fake, clk, nil)
	d.Senders[domain.EffectEmail] = mailer("wrongpass")
	logs := logTo(d)
	enqueue(t, st, orderMail())
	tryEvery(t, d, clk, 20, 6*time.Minute, 1)
	r := onlyRow(t, st)
	if r.Status != "pending" || r.Attempts != 0 || r.HeldReason != "SMTP authentication failed (535)" {
		t.Fatalf("row = %+v; want pending, 0 attempts, held for the 535", r)
	}
	if err := d.Check(domain.EffectEmail); err == nil || !strings.HasPrefix(err.Error(), "SMTP authentication failed (535) since ") {
		t.Errorf("Check(email) = %v", err)
	}
	if n := logs.lines("ERROR", "outbox: sending is held"); n != 1 {
		t.Errorf("logged the hold %d times, want once:\n%s", n, logs)
	}
	if requests := len(fake.Requests()); requests != 0 {
		t.Errorf("Twilio got %d requests: nobody is warned about a held mail", requests)
	}

	// Restarted with the right password, at the same moment: sent at once.
	fixed := newDispatcher(t, st, fake, clk, nil)
	fixed.Senders[domain.EffectEmail] = mailer("mailpass123")
	fixed.Resume(context.Background())
	if n := fixed.RunOnce(context.Background()); n != 1 {
		t.Fatalf("pass after the restart tried %d, want 1", n)
	}
	if msgs := srv.Messages(); len(msgs) != 1 || msgs[0].To[0] != "accounts@distributor.example" {
		t.Fatalf("the mail server got %+v, want the order mail", msgs)
	}
	if r := onlyRow(t, st); r.Status != "sent" || r.Attempts != 1 || r.HeldReason != "" {
		t.Errorf("row = %+v; want sent after 1 attempt", r)
	}
}

func TestProviderErrorsAreRedacted(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	srv := mailtest.Start(t)
	srv.User, srv.Password, srv.EchoAuth = "munshi", "mailpass123", true
	const wrong = "hunter2-wrong"
	sender, err := mail.NewSender("smtp://munshi:"+wrong+"@"+srv.Addr, "munshi@distributor.example")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	d := newDispatcher(t, st, twiliotest.Start(t), clk, rec)
	d.Senders[domain.EffectEmail] = sender
	d.Redact = audit.New(nil, nil, quiet).RedactString // shapes only: the echoed blob is not a configured secret
	logs := logTo(d)
	enqueue(t, st, orderMail())
	d.RunOnce(context.Background())

	blob := base64.StdEncoding.EncodeToString([]byte("\x00munshi\x00" + wrong))
	r := onlyRow(t, st)
	if !strings.Contains(r.LastError, "AUTH PLAIN "+audit.Redacted) {
		t.Fatalf("last_error = %q; want the server's echo, redacted (is the echo there at all?)", r.LastError)
	}
	rec.mu.Lock()
	recorded := strings.Join(rec.errors, "\n")
	rec.mu.Unlock()
	for where, text := range map[string]string{"last_error": r.LastError, "held reason": r.HeldReason,
		"log": logs.String(), "recorded error": recorded} {
		if strings.Contains(text, blob) || strings.Contains(text, wrong) {
			t.Errorf("%s shows the credentials: %s", where, text)
		}
	}
}

// refusing fails every send with the given error.
type refusing struct{ err error }

func (r refusing) SendPayload(context.Context, []byte) (string, error) { return "", r.err }

// classified is a sender error that says what it is.
type classified struct {
	held, permanent bool
	reason          string
}

func (c classified) Error() string   { return "provider: " + c.reason }
func (c classified) Held() bool      { return c.held }
func (c classified) Permanent() bool { return c.permanent }
func (c classified) Reason() string  { return c.reason }

func TestClassificationByErrorMethods(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status string
		held   string
	}{
		{"held, wrapped", fmtWrap(classified{held: true, reason: "the sender is not set up"}), "pending", "the sender is not set up"},
		{"permanent", classified{permanent: true, reason: "refused"}, "failed", ""},
		{"held wins over permanent", classified{held: true, permanent: true, reason: "both"}, "pending", "both"},
		{"plain error is transient", errors.New("connection reset"), "pending", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			st := newStore(t, clk)
			d := newDispatcher(t, st, twiliotest.Start(t), clk, nil)
			d.Senders[domain.EffectWhatsApp] = refusing{tt.err}
			enqueue(t, st, domain.WhatsApp(approved))
			d.RunOnce(context.Background())
			r := onlyRow(t, st)
			if r.Status != tt.status || r.HeldReason != tt.held {
				t.Errorf("row = status %q, held %q; want %q, %q", r.Status, r.HeldReason, tt.status, tt.held)
			}
		})
	}
}

type wrapped struct{ err error }

func (w wrapped) Error() string { return "send: " + w.err.Error() }
func (w wrapped) Unwrap() error { return w.err }

func fmtWrap(err error) error { return wrapped{err} }

// The warning's text is data the placer reads: check it survives the
// payload round trip untouched.
func TestFailureNoticePayload(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	d := newDispatcher(t, st, twiliotest.Start(t), clk, nil)
	d.Senders[domain.EffectEmail] = refusing{classified{permanent: true, reason: "the mail server refused the recipient (550)."}}
	enqueue(t, st, orderMail())
	d.RunOnce(context.Background())
	rs := rows(t, st)
	if len(rs) != 2 {
		t.Fatalf("rows = %+v, want the mail and a warning", rs)
	}
	var got domain.Outbound
	if err := json.Unmarshal(rs[1].Payload, &got); err != nil {
		t.Fatal(err)
	}
	want := "⚠️ Accounts could not be told about ORD-1042 by email: the mail server refused the recipient (550). Please tell them directly."
	if got.To != placerPhone || got.Body != want {
		t.Errorf("warning = %+v, want %q to %s", got, want, placerPhone)
	}
}

func TestLongUnicodeReasonIsShortened(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	d := newDispatcher(t, st, twiliotest.Start(t), clk, nil)
	d.Senders[domain.EffectEmail] = refusing{classified{permanent: true, reason: strings.Repeat("मेलबॉक्स अस्वीकृत 📭 ", 300)}}
	enqueue(t, st, orderMail())
	d.RunOnce(context.Background())
	rs := rows(t, st)
	if len(rs) != 2 {
		t.Fatalf("rows = %d, want the mail and a warning", len(rs))
	}
	var warning domain.Outbound
	if err := json.Unmarshal(rs[1].Payload, &warning); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(warning.Body); !utf8.ValidString(warning.Body) || n > 300 ||
		!strings.HasSuffix(warning.Body, "Please tell them directly.") {
		t.Errorf("warning is %d runes: %q; want a short, valid message", n, warning.Body)
	}
}
