package briefing_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/mail"
	"github.com/munshi/munshi/internal/mail/mailtest"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

const (
	templateSID = "HX0123456789abcdef0123456789abcdef"

	ownerPhone    = "+919900000001"
	partnerPhone  = "+919900000005"
	accountsPhone = "+919900000002"
	salesPhone    = "+919900000003"
	ownerMail     = "owner@distributor.example"
	accountsMail  = "accounts@distributor.example"
)

var ist = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		return time.FixedZone("Asia/Kolkata", 5*3600+1800)
	}
	return loc
}()

// at is a time on 14 March 2026 in Kolkata: the morning the digest of the
// 13th goes out.
func at(hh, mm int) time.Time { return time.Date(2026, 3, 14, hh, mm, 0, 0, ist) }

// editions makes a digest that names its date, and counts the calls.
type editions struct{ calls atomic.Int32 }

func (e *editions) Edition(_ context.Context, date time.Time) (briefing.Edition, error) {
	e.calls.Add(1)
	d := date.Format("2 Jan")
	return briefing.Edition{
		Date:         date,
		Headline:     "Sales of " + d + ": ₹1,24,500,\n12% above a usual Friday",
		Owner:        "☀️ " + d + ": ₹1,24,500 — 12% above a usual Friday. Call Mehta Traders: no order for 19 days.",
		Accounts:     "💰 Dues on " + d + ": ₹3,40,000 from 12 customers; Sharma General Store is 64 days late.",
		OwnerMail:    domain.Email{Subject: "Munshi digest, " + d, Text: "The owners' tables for " + d},
		AccountsMail: domain.Email{Subject: "Munshi dues, " + d, Text: "The dues of " + d},
	}, nil
}

// formsTo returns the forms Twilio got for phone, refused or not, in order.
func formsTo(tw *twiliotest.Server, phone string) []url.Values {
	var out []url.Values
	for _, r := range tw.To(phone) {
		out = append(out, r.Form)
	}
	return out
}

// logLines keeps what is logged, as text.
type logLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// instance is one Munshi process's digest wiring: its store (on a shared
// database file), service and outbox dispatcher.
type instance struct {
	store      store.Store
	service    *briefing.Service
	dispatcher *outbox.Dispatcher
	log        *logLines
}

// clock is a test clock: clocktest's, or the scheduler's own.
type clock interface {
	Now() time.Time
	Set(time.Time)
}

// world is a database, the fakes, a clock and the editions instances share.
type world struct {
	t        *testing.T
	path     string
	clock    clock
	now      func() time.Time
	twilio   *twiliotest.Server
	smtp     *mailtest.Server
	editions *editions
}

func newWorld(t *testing.T, clk clock) *world {
	w := &world{t: t, path: filepath.Join(t.TempDir(), "munshi.db"), clock: clk, now: clk.Now, twilio: twiliotest.Start(t),
		smtp: mailtest.Start(t), editions: &editions{}}
	st := w.instance("").store
	if err := st.UpsertUsers(context.Background(), []domain.User{
		{Phone: ownerPhone, Name: "Vikram Singh", Role: domain.RoleOwner},
		{Phone: partnerPhone, Name: "Anita Singh", Role: domain.RoleOwner},
		{Phone: accountsPhone, Name: "Priya Nair", Role: domain.RoleAccounts},
		{Phone: salesPhone, Name: "Ravi Kumar", Role: domain.RoleSales},
	}); err != nil {
		t.Fatal(err)
	}
	return w
}

// instance opens another process on the world's database, with template
// as its MUNSHI_DIGEST_TEMPLATE_SID.
func (w *world) instance(template string) *instance {
	t := w.t
	st, err := store.Open(context.Background(), w.path, store.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &logLines{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	wa, err := twilio.NewSender(twilio.SenderConfig{AccountSID: twiliotest.AccountSID, AuthToken: twiliotest.AuthToken, From: "+14155238886",
		APIURL: w.twilio.URL})
	if err != nil {
		t.Fatal(err)
	}
	mailer, err := mail.NewSender(w.smtp.URL(), "munshi@distributor.example")
	if err != nil {
		t.Fatal(err)
	}
	in := &instance{store: st, log: logs}
	in.service = &briefing.Service{
		Editions: w.editions, Sends: st, Logger: logger, Now: w.now, Location: ist, TemplateSID: template,
		OwnerEmails: []string{ownerMail}, AccountsEmails: []string{accountsMail},
	}
	in.dispatcher = &outbox.Dispatcher{
		Store: st, Senders: map[string]outbox.Sender{domain.EffectWhatsApp: wa, domain.EffectEmail: mailer},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: w.now,
		BaseBackoff: time.Millisecond, MaxBackoff: time.Millisecond,
		Record: func(a outbox.Attempt) { in.service.Undelivered(context.Background(), a) },
	}
	return in
}

// wrote records a message from phone at when, as the webhook does, and
// puts the clock back.
func (w *world) wrote(t *testing.T, phone string, when time.Time) {
	t.Helper()
	now := w.clock.Now()
	w.clock.Set(when)
	defer w.clock.Set(now)
	sid := fmt.Sprintf("SM%d%s", when.UnixNano(), phone)
	st := w.instance("").store
	if ok, _, _, err := st.Claim(context.Background(), domain.Inbound{SID: sid, From: phone, Body: "ok", Received: when},
		time.Minute); err != nil || !ok {
		t.Fatalf("Claim = %v, %v", ok, err)
	}
}

// drain sends everything due, until nothing is left to try.
func (in *instance) drain() {
	for in.dispatcher.RunOnce(context.Background()) > 0 {
	}
}

// bodies are the Body fields Twilio got for phone.
func bodies(forms []url.Values) []string {
	var out []string
	for _, f := range forms {
		out = append(out, f.Get("Body"))
	}
	return out
}

// mailsTo counts the mails the SMTP server accepted for addr.
func mailsTo(s *mailtest.Server, addr string) int {
	n := 0
	for _, m := range s.Messages() {
		if slices.Contains(m.To, addr) {
			n++
		}
	}
	return n
}
