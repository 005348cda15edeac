package webhook_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	_ "github.com/mattn/go-sqlite3" // TestRedactedAtRest reads the SQLite file itself

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/webhook"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// clock is a movable time for the store, the pipeline and the shared
// dedupe.
type clock = clocktest.Clock

// instance is one Munshi's pipeline over its own SQLite inbox, on a
// movable clock.
type instance struct {
	p     *webhook.Pipeline
	inbox store.Store
	resp  *echo
	late  *lateLog
	clock *clock
}

func newInstance(t *testing.T, clk *clock, seen webhook.Seer) *instance {
	t.Helper()
	if clk == nil {
		clk = clocktest.At(time.Now())
	}
	inbox := newInbox(t, store.WithClock(clk.Now))
	return onInbox(inbox, clk, seen)
}

// onInbox is a Munshi process over inbox: a restart is another onInbox.
func onInbox(inbox store.Store, clk *clock, seen webhook.Seer) *instance {
	i := &instance{inbox: inbox, resp: &echo{}, late: &lateLog{}, clock: clk}
	i.p = &webhook.Pipeline{
		Inbox: inbox, Responder: i.resp, Late: i.late, Seen: seen, Now: clk.Now,
		Audit: audit.New(inbox, nil, quiet), Logger: quiet,
		Budget: 300 * time.Millisecond, Poll: time.Millisecond,
	}
	return i
}

// lateLog is a Late that keeps what it was given, and fails on demand.
type lateLog struct {
	mu   sync.Mutex
	to   []string
	sent []domain.Reply
	fail atomic.Bool
}

func (l *lateLog) SendLate(_ context.Context, to string, r domain.Reply) error {
	if l.fail.Load() {
		return errors.New("outbox: database is locked")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.to, l.sent = append(l.to, to), append(l.sent, r)
	return nil
}

func (l *lateLog) replies() []domain.Reply {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]domain.Reply(nil), l.sent...)
}

// crash claims in as a Munshi process would and then dies: no reply is
// ever saved.
func crash(t *testing.T, i *instance, in domain.Inbound) {
	t.Helper()
	claimed, _, _, err := i.inbox.Claim(context.Background(), in, i.p.Lease())
	if err != nil || !claimed {
		t.Fatalf("crash: claim = %v, %v", claimed, err)
	}
}

// dyingInbox is the inbox of a process that dies the moment it would
// record its reply: the responder has done its work, nothing is saved.
type dyingInbox struct{ store.Store }

func (dyingInbox) SaveReply(context.Context, string, domain.Reply) error {
	panic("the process dies before the reply is saved")
}

// crashAfterAnswer runs in through i's pipeline up to the reply's record,
// where the process dies: the responder has answered (and done whatever
// its answer does), the claim stays, with no reply.
func crashAfterAnswer(t *testing.T, i *instance, in domain.Inbound) {
	t.Helper()
	i.p.Inbox = dyingInbox{i.inbox} // this process is done for
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the process did not die")
			}
		}()
		i.p.Handle(context.Background(), in)
	}()
	if i.resp.calls.Load() != 1 {
		t.Fatalf("the dead process answered %d times", i.resp.calls.Load())
	}
}

func handle(t *testing.T, p *webhook.Pipeline, in domain.Inbound) (domain.Reply, webhook.Outcome) {
	t.Helper()
	reply, outcome, err := p.Handle(context.Background(), in)
	if err != nil {
		t.Fatalf("Handle(%s): %v", in.SID, err)
	}
	return reply, outcome
}

func TestLeaseOutlivesBudgetAndGrace(t *testing.T) {
	p := &webhook.Pipeline{Budget: 12 * time.Second, Grace: time.Minute}
	if p.Lease() <= 72*time.Second {
		t.Fatalf("lease %v does not outlive the budget and the late-answer grace", p.Lease())
	}
}

// TestRetryAfterCrashIsAnswered: a message claimed by a process that died
// before answering is answered by the first Twilio retry after its lease
// ran out, once.
func TestRetryAfterCrashIsAnswered(t *testing.T) {
	i := newInstance(t, nil, nil)
	in := domain.Inbound{SID: "SMcrash", From: ravi, Body: "ok"}
	crash(t, i, in)

	// Within the lease, a retry waits for the holder and stays silent.
	if reply, outcome := handle(t, i.p, in); outcome != webhook.OutcomeInFlight || reply.Text != "" {
		t.Fatalf("retry within the lease = %q, %s", reply.Text, outcome)
	}
	i.clock.Advance(i.p.Lease())
	reply, outcome := handle(t, i.p, in)
	if outcome != webhook.OutcomeAnswered || reply.Text != "you said: ok" {
		t.Fatalf("retry after the lease = %q, %s; want a real answer", reply.Text, outcome)
	}
	again, outcome := handle(t, i.p, in)
	if outcome != webhook.OutcomeDuplicate || again.Text != reply.Text {
		t.Fatalf("a later retry = %q, %s", again.Text, outcome)
	}
	if n := i.resp.calls.Load(); n != 1 {
		t.Fatalf("answered %d times, want once", n)
	}
}

// TestCrashAfterTheAnswerIsAnsweredOnceMore: a process dies after its
// responder answered and before the reply was saved. Restarted, a retry
// while the dead claim holds is silent; after it, the message is answered
// exactly once more, by Twilio's retry or by the recovery, whichever
// comes first, and never again after that. (The responder's own work,
// the order commit, must bear being asked twice: cmd/munshi's crash
// tests check that it does.)
func TestCrashAfterTheAnswerIsAnsweredOnceMore(t *testing.T) {
	for _, first := range []string{"retry", "recovery"} {
		t.Run(first+" first", func(t *testing.T) {
			dead := newInstance(t, nil, nil)
			in := domain.Inbound{SID: "SMdied", From: ravi, Body: "ok"}
			crashAfterAnswer(t, dead, in)
			ctx := context.Background()

			i := onInbox(dead.inbox, dead.clock, nil) // the restarted process
			if r, _ := i.p.Recover(ctx); r != (webhook.Recovered{}) {
				t.Fatalf("the recovery at start, within the dead claim's lease, did %+v", r)
			}
			if reply, outcome := handle(t, i.p, in); outcome != webhook.OutcomeInFlight || reply.Text != "" {
				t.Fatalf("a retry within the dead claim's lease = %q, %s", reply.Text, outcome)
			}
			i.clock.Advance(i.p.Lease())
			var answer string
			if first == "retry" {
				reply, outcome := handle(t, i.p, in)
				if outcome != webhook.OutcomeAnswered {
					t.Fatalf("the retry after the lease = %q, %s", reply.Text, outcome)
				}
				answer = reply.Text
				if r, _ := i.p.Recover(ctx); r != (webhook.Recovered{}) {
					t.Fatalf("the recovery after the retry's answer did %+v", r)
				}
				if again, outcome := handle(t, i.p, in); outcome != webhook.OutcomeDuplicate || again.Text != answer {
					t.Fatalf("a later retry = %q, %s", again.Text, outcome)
				}
			} else {
				if r, _ := i.p.Recover(ctx); r != (webhook.Recovered{Answered: 1}) {
					t.Fatalf("the recovery after the lease did %+v", r)
				}
				sent := i.late.replies()
				if len(sent) != 1 {
					t.Fatalf("the recovery sent %d replies", len(sent))
				}
				answer = sent[0].Text
				if r, _ := i.p.Recover(ctx); r != (webhook.Recovered{}) {
					t.Fatalf("a second recovery did %+v", r)
				}
			}
			if answer != "you said: ok" || i.resp.calls.Load() != 1 {
				t.Fatalf("answered %q, %d times after the restart; want once", answer, i.resp.calls.Load())
			}
			if done, saved, _ := i.inbox.SavedReply(ctx, in.SID); !done || saved.Text != answer {
				t.Fatalf("the answer is not recorded: %v %+v", done, saved)
			}
			if first == "retry" && len(i.late.replies()) != 0 {
				t.Fatalf("the answer also went by REST: %+v", i.late.replies())
			}
		})
	}
}

// countingInbox counts Claim calls on the real inbox.
type countingInbox struct {
	store.Store
	claims atomic.Int32
}

func (c *countingInbox) Claim(ctx context.Context, in domain.Inbound, lease time.Duration) (bool, bool, domain.Reply, error) {
	c.claims.Add(1)
	return c.Store.Claim(ctx, in, lease)
}

// TestWaitingRetryTakesOver: a retry already waiting for the holder's
// answer takes the message over when the holder's lease runs out.
func TestWaitingRetryTakesOver(t *testing.T) {
	i := newInstance(t, nil, nil)
	counted := &countingInbox{Store: i.inbox}
	i.p.Inbox, i.p.Budget = counted, 10*time.Second
	in := domain.Inbound{SID: "SMwait", From: ravi, Body: "GC ka stock"}
	crash(t, i, in)
	type result struct {
		reply   domain.Reply
		outcome webhook.Outcome
	}
	got := make(chan result, 1)
	go func() {
		reply, outcome, _ := i.p.Handle(context.Background(), in)
		got <- result{reply, outcome}
	}()
	waitUntil(t, func() bool { return counted.claims.Load() >= 2 }) // waiting and polling
	i.clock.Advance(i.p.Lease())
	r := <-got
	if r.outcome != webhook.OutcomeAnswered || r.reply.Text != "you said: GC ka stock" {
		t.Fatalf("the waiting retry got %q, %s", r.reply.Text, r.outcome)
	}
}

// TestOtherSenderRefused: a MessageSid re-posted with another From gets a
// 403 with a plain reason, learns nothing of the first reply, is not
// processed, and is audited.
func TestOtherSenderRefused(t *testing.T) {
	i := newInstance(t, nil, nil)
	mux := http.NewServeMux()
	(&webhook.Handler{Pipeline: i.p, AllowUnsigned: true, Logger: quiet}).Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	first := readTwiML(t, post(t, srv, "/webhook/twilio", form("SMmine", ravi, "Rajesh ka order: total ₹26,054.40"), nil))
	if len(first) != 1 {
		t.Fatalf("first reply %q", first)
	}
	for _, from := range []string{"+919900000004", "+15550001111"} {
		r := post(t, srv, "/webhook/twilio", form("SMmine", from, "hi"), nil)
		body, _ := io.ReadAll(r.Body)
		if r.StatusCode != http.StatusForbidden || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") ||
			strings.TrimSpace(string(body)) != webhook.OtherSender {
			t.Fatalf("from %s: %d %q %q", from, r.StatusCode, r.Header.Get("Content-Type"), body)
		}
		if strings.Contains(string(body), "26,054") {
			t.Fatal("the first sender's reply leaked")
		}
	}
	if n := i.resp.calls.Load(); n != 1 {
		t.Fatalf("processed %d times, want once", n)
	}
	refusals, _ := i.inbox.AuditEntries(context.Background(), "refusal")
	if len(refusals) != 2 || refusals[0].Subject != "SMmine" || refusals[0].Actor != "+919900000004" {
		t.Fatalf("refusals audited: %+v", refusals)
	}
	// The real sender's retry still gets the reply.
	if again := readTwiML(t, post(t, srv, "/webhook/twilio", form("SMmine", ravi, "Rajesh ka order: total ₹26,054.40"), nil)); strings.Join(again, "") != strings.Join(first, "") {
		t.Fatalf("the sender's own retry got %q", again)
	}
}

func TestSIDTooLongSaysWhy(t *testing.T) {
	f := form(strings.Repeat("S", webhook.MaxSIDLength+1), ravi, "hi")
	if _, err := webhook.ParseInbound(f); err == nil || domain.ErrorMessage(err) != "MessageSid is longer than 64 characters" {
		t.Fatalf("a 65-character MessageSid: %v", err)
	}
	f.Set("MessageSid", strings.Repeat("S", webhook.MaxSIDLength))
	if _, err := webhook.ParseInbound(f); err != nil {
		t.Fatalf("a 64-character MessageSid: %v", err)
	}
	f.Del("MessageSid")
	if _, err := webhook.ParseInbound(f); domain.ErrorMessage(err) != "MessageSid is required" {
		t.Fatalf("no MessageSid: %v", err)
	}
	srv, _ := newServer(t, &echo{}, false)
	r := post(t, srv, "/webhook/twilio", form(strings.Repeat("S", 65), ravi, "hi"), nil)
	body, _ := io.ReadAll(r.Body)
	if r.StatusCode != 400 || strings.TrimSpace(string(body)) != "MessageSid is longer than 64 characters" {
		t.Fatalf("%d %q", r.StatusCode, body)
	}
}

// TestParseInboundCopies: nothing ParseInbound returns shares memory with
// the request body it was parsed from (url.ParseQuery returns slices of
// it when nothing is escaped), so that a MessageSid kept for dedupe does
// not keep the whole body alive.
func TestParseInboundCopies(t *testing.T) {
	raw := "MessageSid=SMabc&From=whatsapp:%2B919900000003&Body=plain&ProfileName=Ravi&NumMedia=1&MediaUrl0=https://x/m&" +
		"Pad=" + strings.Repeat("x", 1000)
	vals, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !within(vals.Get("MessageSid"), raw) {
		t.Skip("url.ParseQuery copies values now; nothing to guard")
	}
	in, err := webhook.ParseInbound(vals)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"MessageSid": in.SID, "From": in.From, "Body": in.Body, "ProfileName": in.ProfileName, "MediaUrl0": in.MediaURLs[0]} {
		if within(v, raw) {
			t.Errorf("%s shares the request body's memory", name)
		}
	}
}

// TestRecoverAnswersWhatACrashLeft: the recovery answers a message whose
// claim ran out, from its recorded (redacted) text, through Late; closes
// one too old to answer; audits both; and does nothing twice.
func TestRecoverAnswersWhatACrashLeft(t *testing.T) {
	dead := newInstance(t, nil, nil)
	clk, ctx := dead.clock, context.Background()
	dead.p.Redact = audit.New(nil, []string{"hunter2secret"}, quiet).RedactString
	old := domain.Inbound{SID: "SMold", From: ravi, Body: "ok"}
	clk.Advance(-25 * time.Hour)
	crash(t, dead, old)
	clk.Advance(25 * time.Hour)
	// The webhook path records the body, redacted; the answer never comes
	// (the process dies while the responder works).
	dead.resp.gate = make(chan struct{})
	t.Cleanup(func() { close(dead.resp.gate) })
	dead.p.Budget, dead.p.Late = 50*time.Millisecond, nil
	recent := domain.Inbound{SID: "SMrecent", From: ravi, Body: "GC stock? my password is hunter2secret"}
	go dead.p.Handle(ctx, recent)
	waitUntil(t, func() bool { return dead.resp.calls.Load() == 1 })

	i := onInbox(dead.inbox, clk, nil) // the restarted process
	// At start the stale message is closed; the recent one is still
	// within its lease (its holder might be alive).
	if r, err := i.p.Recover(ctx); err != nil || r != (webhook.Recovered{Closed: 1}) {
		t.Fatalf("recovery at start = %+v, %v; want the stale message closed", r, err)
	}
	clk.Advance(dead.p.Lease())
	r, err := i.p.Recover(ctx)
	if err != nil || r != (webhook.Recovered{Answered: 1}) {
		t.Fatalf("recovery after the lease = %+v, %v", r, err)
	}
	sent := i.late.replies()
	if len(sent) != 1 || i.late.to[0] != ravi || sent[0].Text != "you said: GC stock? my password is "+audit.Redacted {
		t.Fatalf("late replies %+v to %v", sent, i.late.to)
	}
	if done, reply, _ := i.inbox.SavedReply(ctx, "SMrecent"); !done || reply.Text != sent[0].Text {
		t.Fatalf("recovered reply not recorded: %v %+v", done, reply)
	}
	if done, reply, _ := i.inbox.SavedReply(ctx, "SMold"); !done || reply.Text != "" {
		t.Fatalf("the stale message was not closed without an answer: %v %+v", done, reply)
	}
	entries, _ := i.inbox.AuditEntries(ctx, "recovery")
	outcomes := map[string]string{}
	for _, e := range entries {
		outcomes[e.Subject], _ = e.Detail["outcome"].(string)
		if raw, _ := json.Marshal(e); strings.Contains(string(raw), "hunter2secret") {
			t.Fatal("a secret reached the audit log")
		}
	}
	if outcomes["SMrecent"] != "answered" || outcomes["SMold"] != "closed" {
		t.Fatalf("recovery audit: %+v", entries)
	}
	if r, _ := i.p.Recover(ctx); r != (webhook.Recovered{}) {
		t.Fatalf("a second recovery did %+v", r)
	}
	if n := i.resp.calls.Load(); n != 1 {
		t.Fatalf("the restarted process answered %d times", n)
	}
}

// TestRecoverRetriesWhenTheOutboxFails: a reply that cannot be handed over
// is not recorded; a later round answers the message again.
func TestRecoverRetriesWhenTheOutboxFails(t *testing.T) {
	i := newInstance(t, nil, nil)
	ctx := context.Background()
	crash(t, i, domain.Inbound{SID: "SMretry", From: ravi, Body: "pending orders"})
	i.clock.Advance(i.p.Lease())
	i.late.fail.Store(true)
	if r, _ := i.p.Recover(ctx); r.Failed != 1 || r.Answered != 0 {
		t.Fatalf("recovery with the outbox failing = %+v", r)
	}
	if done, _, _ := i.inbox.SavedReply(ctx, "SMretry"); done {
		t.Fatal("a reply that was never sent was recorded")
	}
	i.late.fail.Store(false)
	if r, _ := i.p.Recover(ctx); r != (webhook.Recovered{}) {
		t.Fatalf("retried within its new lease: %+v", r)
	}
	i.clock.Advance(i.p.Lease())
	if r, _ := i.p.Recover(ctx); r.Answered != 1 || len(i.late.replies()) != 1 {
		t.Fatalf("the next round = %+v", r)
	}
}

// TestTwoInstancesShareAClaim: two instances with their own databases and
// one shared dedupe. A delivery that reaches the second while the first
// answers gets silence and leaves no final record there; a later retry
// there sees it answered; and a claim whose holder died is taken over
// after its lease.
func TestTwoInstancesShareAClaim(t *testing.T) {
	clk := clocktest.At(time.Now())
	shared := memory.NewInProcess(memory.Options{Now: clk.Now})
	a, b := newInstance(t, clk, shared), newInstance(t, clk, shared)
	ctx := context.Background()
	in := domain.Inbound{SID: "SMshared", From: ravi, Body: "namaste"}

	a.resp.gate = make(chan struct{})
	a.p.Budget = 10 * time.Second
	done := make(chan domain.Reply, 1)
	go func() { r, _ := handle(t, a.p, in); done <- r }()
	waitUntil(t, func() bool { return a.resp.calls.Load() == 1 })
	if reply, outcome := handle(t, b.p, in); outcome != webhook.OutcomeInFlight || reply.Text != "" {
		t.Fatalf("the second instance during the first's answer: %q, %s", reply.Text, outcome)
	}
	if saved, _, _ := b.inbox.SavedReply(ctx, in.SID); saved {
		t.Fatal("the second instance recorded a final reply for a message it did not answer")
	}
	close(a.resp.gate)
	if r := <-done; r.Text != "you said: namaste" {
		t.Fatalf("the first instance answered %q", r.Text)
	}
	if _, outcome := handle(t, b.p, in); outcome != webhook.OutcomeDuplicate {
		t.Fatalf("a retry on the second instance after the answer: %s", outcome)
	}
	if b.resp.calls.Load() != 0 {
		t.Fatal("the second instance answered too")
	}
	// Its recovery has nothing to answer either.
	clk.Advance(a.p.Lease())
	if r, _ := b.p.Recover(ctx); r.Answered != 0 {
		t.Fatalf("the second instance's recovery answered: %+v", r)
	}

	// The first instance claims another message and dies.
	dead := domain.Inbound{SID: "SMdeadholder", From: ravi, Body: "ok"}
	crash(t, a, dead)
	if st, _ := shared.Seen(ctx, dead.SID, dead.From, a.p.Lease()); st != memory.SeenNew {
		t.Fatalf("shared claim: %v", st)
	}
	if _, outcome := handle(t, b.p, dead); outcome != webhook.OutcomeInFlight {
		t.Fatalf("within the dead holder's lease: %s", outcome)
	}
	clk.Advance(a.p.Lease())
	if reply, outcome := handle(t, b.p, dead); outcome != webhook.OutcomeAnswered || reply.Text != "you said: ok" {
		t.Fatalf("after the dead holder's lease: %q, %s", reply.Text, outcome)
	}
	// The first instance, restarted, finds it answered elsewhere.
	clk.Advance(a.p.Lease())
	if r, _ := a.p.Recover(ctx); r.Closed != 1 || r.Answered != 0 {
		t.Fatalf("the restarted first instance's recovery = %+v", r)
	}

	// Another number reusing the MessageSid on the other instance is
	// refused, and leaves nothing behind there.
	if _, _, err := b.p.Handle(ctx, domain.Inbound{SID: in.SID, From: "+15550001111", Body: "hi"}); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Fatalf("another sender across instances: %v", err)
	}
	other := newInstance(t, clk, shared)
	if _, _, err := other.p.Handle(ctx, domain.Inbound{SID: in.SID, From: "+15550001111", Body: "hi"}); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Fatalf("another sender on a fresh instance: %v", err)
	}
	if _, outcome := handle(t, other.p, in); outcome != webhook.OutcomeDuplicate {
		t.Fatalf("the real sender on that instance afterwards: %s", outcome)
	}
}

// TestRedactedAtRest: the inbound record keeps the body redacted, while the
// responder reads it as sent.
func TestRedactedAtRest(t *testing.T) {
	dir := t.TempDir()
	inbox, err := store.Open(context.Background(), filepath.Join(dir, "munshi.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer inbox.Close()
	inbox.UpsertUsers(context.Background(), []domain.User{{Phone: ravi, Name: "Ravi", Role: domain.RoleSales}})
	resp := &echo{}
	key := "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	p := &webhook.Pipeline{Inbox: inbox, Responder: resp, Redact: audit.New(nil, nil, quiet).RedactString}
	reply, _, err := p.Handle(context.Background(), domain.Inbound{SID: "SMkey", From: ravi, Body: "my key is " + key})
	if err != nil || reply.Text != "you said: my key is "+key {
		t.Fatalf("the responder did not read the message as sent: %q %v", reply.Text, err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(dir, "munshi.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var body string
	if err := db.QueryRow(`SELECT body FROM inbound_messages WHERE sid = 'SMkey'`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(body, key) || body != "my key is "+audit.Redacted {
		t.Fatalf("body at rest %q", body)
	}
}

// within reports whether s lies in the memory of whole.
func within(s, whole string) bool {
	if len(s) == 0 || len(whole) == 0 {
		return false
	}
	p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(whole)))
	return p >= start && p < start+uintptr(len(whole))
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// marking is a responder that says how the recovery marked what it got.
type marking struct {
	mu  sync.Mutex
	got map[string]domain.Inbound
}

func (m *marking) Respond(_ context.Context, in domain.Inbound) domain.Reply {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.got == nil {
		m.got = map[string]domain.Inbound{}
	}
	m.got[in.SID] = in
	if in.Overtaken {
		return domain.Reply{Text: "not processed: " + in.Body, Stale: true}
	}
	return domain.Reply{Text: "late: " + in.Body}
}

// TestRecoverMarksWhatWasOvertaken: the recovery hands the responder a
// crashed message marked Recovered, and Overtaken when its sender has a
// later message recorded (answered here), so that it is not acted on; the
// round counts it apart from the answered ones.
func TestRecoverMarksWhatWasOvertaken(t *testing.T) {
	i := newInstance(t, nil, nil)
	ctx := context.Background()
	resp := &marking{}
	i.p.Responder = resp
	crash(t, i, domain.Inbound{SID: "SMfirst", From: ravi, Body: "10 carton GC for Rajesh"})
	i.clock.Advance(time.Minute)
	handle(t, i.p, domain.Inbound{SID: "SMagain", From: ravi, Body: "10 carton GC for Rajesh"})
	crash(t, i, domain.Inbound{SID: "SMlast", From: ravi, Body: "ok"})
	crash(t, i, domain.Inbound{SID: "SMalone", From: "+919800000002", Body: "GC ka stock"})
	i.clock.Advance(i.p.Lease())
	r, err := i.p.Recover(ctx)
	if err != nil || r != (webhook.Recovered{Answered: 2, Stale: 1}) {
		t.Fatalf("recovery = %+v, %v", r, err)
	}
	for sid, overtaken := range map[string]bool{"SMfirst": true, "SMlast": false, "SMalone": false} {
		if in := resp.got[sid]; !in.Recovered || in.Overtaken != overtaken {
			t.Errorf("%s reached the responder as %+v; want recovered, overtaken %v", sid, in, overtaken)
		}
	}
	if done, reply, _ := i.inbox.SavedReply(ctx, "SMfirst"); !done || !reply.Stale {
		t.Fatalf("the overtaken message was not closed with its notice: %v %+v", done, reply)
	}
	entries, _ := i.inbox.AuditEntries(ctx, "recovery")
	for _, e := range entries {
		if outcome, _ := e.Detail["outcome"].(string); (e.Subject == "SMfirst") != strings.HasPrefix(outcome, "not acted on") {
			t.Errorf("recovery of %s audited as %q", e.Subject, outcome)
		}
	}
}

// TestLongBodyKeptShort: a body longer than MaxBody reaches the responder
// whole, and is recorded as its first characters and its length, redacted
// before it is cut.
func TestLongBodyKeptShort(t *testing.T) {
	i := newInstance(t, nil, nil)
	i.p.MaxBody, i.p.Redact = 4096, audit.New(nil, nil, quiet).RedactString
	i.p.Budget = time.Minute // redacting 60,000 characters under the race detector takes a while
	secret := "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	long := strings.Repeat("क", 150) + " " + secret + strings.Repeat(" lamba", 10000)
	if reply, _ := handle(t, i.p, domain.Inbound{SID: "SMlong", From: ravi, Body: long}); reply.Text != "you said: "+long {
		t.Fatal("the responder did not read the message whole")
	}
	rec := i.p.AtRest(domain.Inbound{SID: "SMlong", From: ravi, Body: long})
	if n := utf8.RuneCountInString(rec.Body); n > 200 || rec.Chars != utf8.RuneCountInString(long) || strings.Contains(rec.Body, secret[:8]) {
		t.Fatalf("kept %d characters (%q) and a length of %d", n, rec.Body, rec.Chars)
	}
	if short := i.p.AtRest(domain.Inbound{Body: "GC ka stock"}); short.Body != "GC ka stock" || short.Chars != 0 {
		t.Fatalf("a short body kept as %+v", short)
	}
}
