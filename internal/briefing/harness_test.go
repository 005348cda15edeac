package briefing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
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
)

const (
	accountSID  = "AC0123456789abcdef0123456789abcdef"
	authToken   = "f00dfeedf00dfeedf00dfeedf00dfeed"
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

// fakeTwilio answers POST /2010-04-01/Accounts/{sid}/Messages.json as
// Twilio does; refuse names the phones whose free-form messages it refuses
// with 63016 (outside the 24-hour window).
type fakeTwilio struct {
	*httptest.Server
	mu     sync.Mutex
	forms  []url.Values
	refuse map[string]bool
}

func newFakeTwilio(t *testing.T) *fakeTwilio {
	f := &fakeTwilio{refuse: map[string]bool{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeTwilio) serve(w http.ResponseWriter, r *http.Request) {
	user, pass, _ := r.BasicAuth()
	r.ParseForm()
	f.mu.Lock()
	f.forms = append(f.forms, r.PostForm)
	n := len(f.forms)
	refused := f.refuse[strings.TrimPrefix(r.PostForm.Get("To"), "whatsapp:")] && !r.PostForm.Has("ContentSid")
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path != "/2010-04-01/Accounts/"+accountSID+"/Messages.json" || user != accountSID || pass != authToken:
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"code":20003,"message":"Authenticate","more_info":"https://www.twilio.com/docs/errors/20003","status":401}`)
	case r.PostForm.Has("Body") == r.PostForm.Has("ContentSid"):
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"code":21619,"message":"A text message body or media urls must be specified","more_info":"https://www.twilio.com/docs/errors/21619","status":400}`)
	case refused:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"code":63016,"message":"Failed to send freeform message because you are outside the allowed window. If you want to send messages outside this window, please use a Template.","more_info":"https://www.twilio.com/docs/errors/63016","status":400}`)
	default:
		sid := fmt.Sprintf("SM%032x", n)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{
			"account_sid": accountSID, "api_version": "2010-04-01", "sid": sid, "status": "queued",
			"to": r.PostForm.Get("To"), "from": r.PostForm.Get("From"), "body": r.PostForm.Get("Body"),
			"direction": "outbound-api", "num_media": "0", "num_segments": "1", "error_code": nil,
			"uri": "/2010-04-01/Accounts/" + accountSID + "/Messages/" + sid + ".json",
		})
	}
}

// to returns the forms posted for phone, in order.
func (f *fakeTwilio) to(phone string) []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []url.Values
	for _, form := range f.forms {
		if form.Get("To") == "whatsapp:"+phone {
			out = append(out, form)
		}
	}
	return out
}

func (f *fakeTwilio) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.forms)
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
	twilio   *fakeTwilio
	smtp     *mailtest.Server
	editions *editions
}

func newWorld(t *testing.T, clk clock) *world {
	w := &world{t: t, path: filepath.Join(t.TempDir(), "munshi.db"), clock: clk, now: clk.Now, twilio: newFakeTwilio(t),
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
	wa, err := twilio.NewSender(twilio.SenderConfig{AccountSID: accountSID, AuthToken: authToken, From: "+14155238886",
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
