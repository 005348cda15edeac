package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/mail/mailtest"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/webhook"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx", to count PostgreSQL's orders
)

// testClock is a clock a test moves; Main's store and dispatcher read it.
// It stands at fixed (plus what it was advanced) when fixed is set, and
// otherwise runs with real time, shifted.
type testClock struct {
	mu     sync.Mutex
	offset time.Duration
	fixed  time.Time // when set, the clock stands there (plus offset)
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fixed.IsZero() {
		return c.fixed.Add(c.offset)
	}
	return time.Now().Add(c.offset)
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// onClock makes Main's store (and so its inbox, leases and refusal days)
// read clk.
func onClock(clk *testClock) func(*Main) {
	return func(m *Main) { m.Now = clk.Now }
}

// dyingInbox is the inbox of a Munshi process that dies the moment it
// would record its answer to sid: the message has been answered (an "ok"
// has committed its order, with the outbox rows, in SQLite), and the
// reply is never saved. The request is cut there, as a crash cuts it.
type dyingInbox struct {
	webhook.Inbox
	sid  string
	died chan struct{}
}

func (d *dyingInbox) SaveReply(ctx context.Context, sid string, reply domain.Reply) error {
	if sid == d.sid {
		close(d.died)
		panic(http.ErrAbortHandler) // net/http drops the connection, silently
	}
	return d.Inbox.SaveReply(ctx, sid, reply)
}

// crashShop is a shop whose WhatsApp and mail go to fakes, on a database
// file that outlives the process.
type crashShop struct {
	tw   *fakeTwilio
	smtp *mailtest.Server
	env  map[string]string
}

// newCrashShop keeps its books in a SQLite file, or in a PostgreSQL
// database of its own when engine is "postgres": there the instance that
// takes over is another process's, as behind a load balancer.
func newCrashShop(t *testing.T, engine string) *crashShop {
	s := &crashShop{tw: newFakeTwilio(t), smtp: mailtest.Start(t)}
	db := filepath.Join(t.TempDir(), "munshi.db")
	if engine == "postgres" {
		db = pgtest.NewDatabase(t)
	}
	s.env = map[string]string{"MUNSHI_DB": db, "MUNSHI_BUDGET": "1s",
		"SMTP_URL": s.smtp.URL(), "MAIL_FROM": "munshi@distributor.example", "ACCOUNTS_EMAIL": "accounts@distributor.example"}
	return s
}

// crashAfterCommit runs a Munshi that shows the salesperson an order and
// dies on the "ok" after the commit and before the reply is saved, before
// its dispatcher has sent anything. It returns the "ok" as Twilio sent it,
// and how many orders the books held before it.
func (s *crashShop) crashAfterCommit(t *testing.T, sid string) (domain.Inbound, int) {
	t.Helper()
	ok := domain.Inbound{SID: sid, From: demo.SalesPhone, Body: "ok"}
	dying := &dyingInbox{sid: ok.SID, died: make(chan struct{})}
	first := startMain(t, s.tw.URL, s.env, func(m *Main) {
		dying.Inbox, m.Pipeline.Inbox = m.Pipeline.Inbox, dying
		// Nothing sends the outbox before the crash: the restart must.
		m.Orders.Nudge, m.Dispatcher.Poll = nil, time.Hour
	})
	summary := say(t, first, sid+"d", ok.From, "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD")
	if !strings.Contains(summary, "Reply *ok*") {
		t.Fatalf("summary: %s", summary)
	}
	orders := countOrders(t, first)
	if _, err := postSigned(first, messageForm(ok.SID, ok.From, ok.Body)); err == nil {
		t.Fatal("the crashed request was answered")
	}
	<-dying.died
	if done, _, _ := first.Store.SavedReply(context.Background(), ok.SID); done {
		t.Fatal("the reply was saved before the crash")
	}
	if n := countOrders(t, first); n != orders+1 {
		t.Fatalf("%d orders were committed before the crash, want 1", n-orders)
	}
	pending := map[string]int{}
	rows, _ := first.Store.OutboxMessages(context.Background())
	for _, r := range rows {
		if r.Status == "pending" {
			pending[r.Kind+" "+r.To]++
		}
	}
	for _, to := range []string{"whatsapp " + demo.AccountsPhone, "whatsapp " + demo.SalesPhone, "email accounts@distributor.example"} {
		if pending[to] != 1 {
			t.Fatalf("outbox at the crash: %v; want one %s", pending, to)
		}
	}
	first.Close()
	return ok, orders
}

// restart opens a new Munshi on the crashed one's database, on clk, and
// returns once its recovery at start has looked for abandoned messages
// (the test moves clk only after that).
func (s *crashShop) restart(t *testing.T, clk *testClock) *Main {
	t.Helper()
	looked := &lookingInbox{looked: make(chan struct{})}
	m := startMain(t, s.tw.URL, s.env, onClock(clk), func(m *Main) {
		m.Dispatcher.BaseBackoff = time.Millisecond
		looked.Inbox, m.Pipeline.Inbox = m.Pipeline.Inbox, looked
	})
	select {
	case <-looked.looked:
	case <-time.After(10 * time.Second):
		t.Fatal("the restarted Munshi did not look for abandoned messages at start")
	}
	return m
}

// lookingInbox tells when the recovery has first looked for abandoned
// messages.
type lookingInbox struct {
	webhook.Inbox
	once   sync.Once
	looked chan struct{}
}

func (l *lookingInbox) ClaimAbandoned(ctx context.Context, lease time.Duration, limit int) ([]domain.Inbound, error) {
	defer l.once.Do(func() { close(l.looked) })
	return l.Inbox.ClaimAbandoned(ctx, lease, limit)
}

// placedOnce checks that the books hold one more order than before, and
// that accounts heard of it once on WhatsApp and once by mail, the
// salesperson had its confirmation once, and the answer to the "ok" was
// sent by REST sent times. It returns the order's number.
func (s *crashShop) placedOnce(t *testing.T, m *Main, before, sent int, answer string) string {
	t.Helper()
	ctx := context.Background()
	if n := countOrders(t, m); n != before+1 {
		t.Fatalf("%d orders placed, want 1", n-before)
	}
	commits, _ := m.Store.AuditEntries(ctx, "commit")
	if len(commits) != 1 {
		t.Fatalf("%d commits audited, want 1", len(commits))
	}
	id := commits[0].Subject
	if o, found, _ := m.Store.Order(ctx, id); !found || o.Status != domain.OrderCommitted || o.PlacedBy != demo.SalesPhone {
		t.Fatalf("order %s: %+v", id, o)
	}
	// The recovery's answer says first that it is late.
	if late, rest, ok := strings.Cut(answer, "\n\n"); ok && strings.HasPrefix(late, "⏱") {
		answer = rest
	}
	if answer != "Order "+id+" is already placed." && !strings.HasPrefix(answer, "✅ Order *"+id+"* placed for") {
		t.Fatalf("the answer to the ok is %q; want it to say %s is placed", answer, id)
	}
	waitFor(t, s.tw, demo.AccountsPhone, id)
	waitFor(t, s.tw, demo.SalesPhone, "Order "+id+" confirmed")
	if mails := s.smtp.Wait(1, 10*time.Second); len(mails) != 1 || !strings.Contains(mails[0].Header().Get("Subject"), id) {
		t.Fatalf("mails: %+v", mails)
	}
	drained(t, m) // anything still due goes now, and would be counted
	if n := len(s.smtp.Messages()); n != 1 {
		t.Fatalf("accounts were mailed %d times", n)
	}
	if n := countTo(s.tw, demo.AccountsPhone, id); n != 1 {
		t.Fatalf("accounts were told %d times on WhatsApp", n)
	}
	if n := countTo(s.tw, demo.SalesPhone, "Order "+id+" confirmed"); n != 1 {
		t.Fatalf("the salesperson had the confirmation %d times", n)
	}
	if n := countTo(s.tw, demo.SalesPhone, answer); n != sent {
		t.Fatalf("the answer to the ok was sent %d times by REST, want %d", n, sent)
	}
	return id
}

// forEachEngine runs test on SQLite and on PostgreSQL.
func forEachEngine(t *testing.T, test func(t *testing.T, engine string)) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) { test(t, engine) })
	}
}

// drained sends what is due in m's outbox and waits until nothing is
// pending. A message the running dispatcher holds is its to finish: it is
// waited for, not taken over.
func drained(t *testing.T, m *Main) {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		m.Dispatcher.Drain(ctx)
		depth, _ := m.Store.OutboxDepth(ctx)
		if depth == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d outbox messages still pending", depth)
		}
	}
}

// countOrders counts the orders in the books.
func countOrders(t *testing.T, m *Main) int {
	t.Helper()
	driver := "sqlite3"
	if store.IsPostgres(m.Config.DB) {
		driver = "pgx"
	}
	db, err := sql.Open(driver, m.Config.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM orders`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRetryAfterCrashPlacesTheOrderOnce: Munshi dies on an "ok" after
// the order is committed and before the reply is saved. Restarted, it
// sends what the commit left in the outbox; Twilio's retry of the "ok",
// once the dead claim has run out, is answered in its TwiML with the
// order placed, once; the recovery then has nothing to do.
func TestRetryAfterCrashPlacesTheOrderOnce(t *testing.T) {
	forEachEngine(t, testRetryAfterCrash)
}

func testRetryAfterCrash(t *testing.T, engine string) {
	s := newCrashShop(t, engine)
	ok, before := s.crashAfterCommit(t, "SMcr1")
	clk := &testClock{}
	m := s.restart(t, clk)
	// What the commit left is sent before the clock jumps past the dead
	// claim's lease: a jump mid-send would outrun the send's own lease.
	drained(t, m)

	clk.Advance(m.Pipeline.Lease())
	reply := say(t, m, ok.SID, ok.From, ok.Body)
	if again := say(t, m, ok.SID, ok.From, ok.Body); again != reply {
		t.Fatalf("a later retry got %q, want %q", again, reply)
	}
	m.recoverUnanswered(context.Background())
	s.placedOnce(t, m, before, 0, reply)
	if n := auditCount(t, m, "recovery", ok.SID); n != 0 {
		t.Fatalf("the recovery answered a message the retry had answered (%d entries)", n)
	}
	// Read by the crashed process and by the first retry after its lease.
	if n := auditCount(t, m, "inbound", ok.SID); n != 2 {
		t.Fatalf("the ok was processed %d times, want 2", n)
	}
}

// TestRestartAnswersWhatACrashLeft: Munshi dies on an "ok" after the
// order is committed and before the reply is saved. Restarted, Twilio's
// retry arrives while the dead claim still holds and hears nothing; once
// the claim runs out the recovery answers the "ok" through the outbox,
// with the order placed, once, and places nothing more.
func TestRestartAnswersWhatACrashLeft(t *testing.T) {
	forEachEngine(t, testRestartAnswers)
}

func testRestartAnswers(t *testing.T, engine string) {
	s := newCrashShop(t, engine)
	ok, before := s.crashAfterCommit(t, "SMrs1")
	ctx := context.Background()
	clk := &testClock{}
	m := s.restart(t, clk)
	drained(t, m) // before the clock jumps past any send's lease

	if code, body := postForm(t, m, messageForm(ok.SID, ok.From, ok.Body)); code != 200 || !strings.Contains(body, "<Response></Response>") {
		t.Fatalf("Twilio's retry within the dead claim's lease: %d %s", code, body)
	}
	clk.Advance(m.Pipeline.Lease())
	m.recoverUnanswered(ctx)
	done, reply, _ := m.Store.SavedReply(ctx, ok.SID)
	if !done {
		t.Fatal("the recovery did not answer the message the crash left")
	}
	waitFor(t, s.tw, demo.SalesPhone, reply.Text)
	m.recoverUnanswered(ctx)
	s.placedOnce(t, m, before, 1, reply.Text)
	if n := auditCount(t, m, "recovery", ok.SID); n != 1 {
		t.Fatalf("%d recovery audit entries, want 1", n)
	}
	// Read by the crashed process and by the recovery, not by the retry.
	if n := auditCount(t, m, "inbound", ok.SID); n != 2 {
		t.Fatalf("the ok was processed %d times, want 2", n)
	}
}

func auditCount(t *testing.T, m *Main, kind, subject string) int {
	t.Helper()
	entries, err := m.Store.AuditEntries(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Subject == subject {
			n++
		}
	}
	return n
}

// postForm posts a signed webhook and returns the status and the body.
func postForm(t *testing.T, m *Main, form url.Values) (int, string) {
	t.Helper()
	resp, err := postSigned(m, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// postSigned posts a signed webhook.
func postSigned(m *Main, form url.Values) (*http.Response, error) {
	req, err := hook(m).Request(context.Background(), form)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// TestOtherSenderGetsNothing: a MessageSid re-posted (signed) with another
// From is refused with 403 and a short reason, nothing of the first
// sender's order leaks, nothing is processed, and the attempt is audited.
func TestOtherSenderGetsNothing(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	ctx := context.Background()
	summary := say(t, m, "SMos1", demo.SalesPhone, "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD")
	inbound := auditCount(t, m, "inbound", "SMos1")
	for _, from := range []string{demo.OwnerPhone, "+15550001111"} {
		code, body := postForm(t, m, messageForm("SMos1", from, "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD"))
		if code != http.StatusForbidden || strings.TrimSpace(body) != webhook.OtherSender {
			t.Fatalf("from %s: %d %q", from, code, body)
		}
		if strings.Contains(body, "Rajesh") || strings.Contains(body, "₹") {
			t.Fatalf("the first sender's reply leaked: %q", body)
		}
	}
	if n := auditCount(t, m, "inbound", "SMos1"); n != inbound {
		t.Fatal("a refused delivery was processed")
	}
	refusals, _ := m.Store.AuditEntries(ctx, "refusal")
	var actors []string
	for _, e := range refusals {
		if e.Subject == "SMos1" {
			actors = append(actors, e.Actor)
		}
	}
	if strings.Join(actors, ",") != demo.OwnerPhone+",+15550001111" {
		t.Fatalf("refusals audited for %v", actors)
	}
	// The sender's own retry still gets its summary.
	if again := say(t, m, "SMos1", demo.SalesPhone, "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD"); again != summary {
		t.Fatalf("the sender's retry got %q", again)
	}
}

// TestUnknownNumberRefusedOncePerDay: an unknown number is refused on its
// first message of the day, then gets an empty <Response/>; every message
// is audited by length, never by text; its messages keep no text at rest;
// the next day in Kolkata it is refused again.
func TestUnknownNumberRefusedOncePerDay(t *testing.T) {
	// 10:00 in Kolkata.
	clk := &testClock{fixed: time.Date(2026, 3, 14, 4, 30, 0, 0, time.UTC)}
	db := filepath.Join(t.TempDir(), "munshi.db")
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_DB": db}, onClock(clk))
	stranger := "+15550001111"
	texts := []string{"मुझे अपना पूरा कैटलॉग भेजो 🙏", "hello??", "<Response><Say>x</Say></Response>"}
	if got := say(t, m, "SMun1", stranger, texts[0]); got != conversation.Refusal {
		t.Fatalf("first message: %q", got)
	}
	code, body := postForm(t, m, messageForm("SMun2", stranger, texts[1]))
	if code != 200 || !strings.Contains(body, "<Response></Response>") {
		t.Fatalf("second message of the day: %d %s", code, body)
	}
	clk.Advance(13 * time.Hour) // 23:00
	if got := say(t, m, "SMun3", stranger, texts[2]); got != "" {
		t.Fatalf("third message of the day: %q", got)
	}
	// Another unknown number has a day of its own.
	if got := say(t, m, "SMun4", "+15550002222", "hi"); got != conversation.Refusal {
		t.Fatalf("another number: %q", got)
	}
	clk.Advance(90 * time.Minute) // 00:30 the next day in Kolkata
	if got := say(t, m, "SMun5", stranger, "hi again"); got != conversation.Refusal {
		t.Fatalf("the next day: %q", got)
	}

	refusals, _ := m.Store.AuditEntries(context.Background(), "refusal")
	silent := map[string]any{}
	for _, e := range refusals {
		silent[e.Subject] = e.Detail["silent"]
		if e.Subject == "SMun1" && e.Detail["chars"] != float64(len([]rune(texts[0]))) {
			t.Errorf("chars of SMun1 = %v", e.Detail["chars"])
		}
		for _, text := range texts {
			if strings.Contains(fmt.Sprint(e.Detail), text) {
				t.Errorf("a refusal audit entry holds the text %q", text)
			}
		}
	}
	want := map[string]any{"SMun1": false, "SMun2": true, "SMun3": true, "SMun4": false, "SMun5": false}
	if fmt.Sprint(silent) != fmt.Sprint(want) {
		t.Fatalf("silent by message = %v, want %v", silent, want)
	}
	// At rest: the unknown number's messages have no text.
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var texted int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM inbound_messages WHERE sender = ? AND body <> ''`, stranger).Scan(&texted); err != nil || texted != 0 {
		t.Fatalf("%d of the unknown number's messages keep text (%v)", texted, err)
	}
}

// TestInboundTextRedactedAtRest: a credential in a message is redacted in
// the inbound record, as in the audit log.
func TestInboundTextRedactedAtRest(t *testing.T) {
	db := filepath.Join(t.TempDir(), "munshi.db")
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_DB": db})
	key := "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	say(t, m, "SMkey", demo.OwnerPhone, "the gemini key is "+key+" and the twilio token is "+testToken)
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var body string
	if err := raw.QueryRow(`SELECT body FROM inbound_messages WHERE sid = 'SMkey'`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(body, key) || strings.Contains(body, testToken) || !strings.Contains(body, "the gemini key is") {
		t.Fatalf("body at rest: %q", body)
	}
}

// TestRetentionSweep: inbound records go after MUNSHI_RETENTION, audit
// entries after the longer MUNSHI_AUDIT_RETENTION.
func TestRetentionSweep(t *testing.T) {
	clk := &testClock{}
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_RETENTION": "30d", "MUNSHI_AUDIT_RETENTION": "400d"}, onClock(clk))
	ctx := context.Background()
	say(t, m, "SMold", demo.SalesPhone, "namaste")
	clk.Advance(31 * 24 * time.Hour)
	say(t, m, "SMnew", demo.SalesPhone, "namaste")
	m.sweep(ctx)
	if done, _, _ := m.Store.SavedReply(ctx, "SMold"); done {
		t.Fatal("an inbound record outlived MUNSHI_RETENTION")
	}
	if done, _, _ := m.Store.SavedReply(ctx, "SMnew"); !done {
		t.Fatal("a recent inbound record was swept")
	}
	if auditCount(t, m, "inbound", "SMold") != 1 {
		t.Fatal("the audit log lost an entry within MUNSHI_AUDIT_RETENTION")
	}
	clk.Advance(370 * 24 * time.Hour)
	m.sweep(ctx)
	if auditCount(t, m, "inbound", "SMold") != 0 || auditCount(t, m, "inbound", "SMnew") != 1 {
		t.Fatal("the audit log was not swept by its own retention")
	}
}

// TestUnreachableRedisIsWarnedAtStart: a REDIS_URL nobody answers is in the
// log at start, not only in /readyz, and Munshi still starts.
func TestUnreachableRedisIsWarnedAtStart(t *testing.T) {
	redistest.Need(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		url  string
		warn bool
	}{{"redis://:s3cretpass@" + dead + "/0", true}, {redistest.URL(), false}} {
		env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "m.db"), "REDIS_URL": tc.url, "MUNSHI_LOG_LEVEL": "warn"}
		cfg := config.FromEnv(func(k string) string { return env[k] })
		var log bytes.Buffer
		m := NewMain(cfg, true, &log)
		err := m.Open(context.Background())
		m.Close()
		if err != nil {
			t.Fatalf("%s: Open: %v", tc.url, err)
		}
		if got := strings.Contains(log.String(), "REDIS_URL does not answer"); got != tc.warn {
			t.Errorf("%s: warned %v, want %v; log:\n%s", tc.url, got, tc.warn, log.String())
		}
		if strings.Contains(log.String(), "s3cretpass") {
			t.Error("the Redis password reached the log")
		}
	}
}

// TestRetainedHeapAfterManyLargeMessages sends 5,000 long Devanagari
// messages from unknown numbers through the real HTTP handler, pipeline and
// SQLite inbox, and measures the heap they leave behind: what Munshi keeps
// per message (dedupe, locks, maps) must be small, never the request.
func TestRetainedHeapAfterManyLargeMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 5,000 large messages")
	}
	m := startMain(t, newFakeTwilio(t).URL, nil)
	// About 4,000 characters, WhatsApp's limit: some 36 KiB once escaped.
	body := strings.Repeat("नमस्ते, मुझे आपका पूरा कैटलॉग और भाव भेजिए। ", 95)
	message := func(i int) {
		from := fmt.Sprintf("+1555%07d", i)
		// An unescaped MessageSid: url.ParseQuery returns it as a slice
		// of the whole request body.
		if resp, _ := send(t, m, fmt.Sprintf("SM%032x", i), from, body, false); resp.StatusCode != 200 {
			t.Fatalf("message %d: status %d", i, resp.StatusCode)
		}
	}
	const warm, n = 50, 5000
	for i := range warm { // pools, caches and the connection exist before measuring
		message(i)
	}
	before := heapAfterGC()
	for i := warm; i < warm+n; i++ {
		message(i)
	}
	after := heapAfterGC()
	runtime.KeepAlive(m)
	retained := int64(after) - int64(before)
	t.Logf("heap after GC: %.1f MiB before, %.1f MiB after %d messages of %d characters; %.1f MiB retained (%d B a message)",
		mib(before), mib(after), n, len([]rune(body)), float64(retained)/(1<<20), retained/n)
	if retained > 16<<20 {
		t.Fatalf("%d messages left %.1f MiB on the heap, want under 16 MiB", n, float64(retained)/(1<<20))
	}
}

func heapAfterGC() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
