package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

const (
	// wait bounds every "eventually" check; nothing here should need more
	// than a fraction of it.
	wait = 10 * time.Second
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// clock is a test clock shared by a store and its dispatcher.
type clock = clocktest.Clock

func newClock() *clock { return clocktest.At(time.Date(2025, 8, 25, 7, 0, 0, 0, time.UTC)) }

func openStore(t *testing.T, path string, clk *clock) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path, store.WithClock(clk.Now))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return s
}

func newStore(t *testing.T, clk *clock) store.Store {
	t.Helper()
	s := openStore(t, filepath.Join(t.TempDir(), "munshi.db"), clk)
	t.Cleanup(func() { s.Close() })
	return s
}

// accepted is the SIDs of the messages fake accepted.
func accepted(fake *twiliotest.Server) []string {
	var sids []string
	for _, r := range fake.Requests() {
		if r.SID != "" {
			sids = append(sids, r.SID)
		}
	}
	return sids
}

// bodies is the Body of every request fake got.
func bodies(fake *twiliotest.Server) []string {
	var out []string
	for _, r := range fake.Requests() {
		out = append(out, r.Form.Get("Body"))
	}
	return out
}

// attempt is one call of the dispatcher's Record.
type attempt struct {
	id         int64
	attempts   int // of the message before this attempt
	providerID string
	outcome    outbox.Outcome
}

type recorder struct {
	mu       sync.Mutex
	attempts []attempt
	errors   []string
}

func (r *recorder) record(a outbox.Attempt) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts = append(r.attempts, attempt{a.Message.ID, a.Message.Attempts, a.ProviderID, a.Outcome})
	r.errors = append(r.errors, a.Error)
}

func (r *recorder) seen() []attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.attempts)
}

func newDispatcher(t *testing.T, st outbox.Store, fake *twiliotest.Server, clk *clock, rec *recorder) *outbox.Dispatcher {
	t.Helper()
	d := &outbox.Dispatcher{
		Store:       st,
		Senders:     map[string]outbox.Sender{domain.EffectWhatsApp: twilioSender(t, fake, twiliotest.AuthToken)},
		Logger:      quiet,
		Now:         clk.Now,
		Poll:        time.Hour, // only a nudge or the first pass finds work
		BaseBackoff: time.Millisecond,
		MaxBackoff:  time.Millisecond,
	}
	if rec != nil {
		d.Record = rec.record
	}
	return d
}

func twilioSender(t *testing.T, fake *twiliotest.Server, token string) *twilio.Sender {
	t.Helper()
	sender, err := twilio.NewSender(twilio.SenderConfig{
		AccountSID: twiliotest.AccountSID, AuthToken: token, From: "+14155238886",
		APIURL: fake.URL, PublicURL: "https://munshi.example.com",
	})
	if err != nil {
		t.Fatalf("NewSender: %v", err)
	}
	return sender
}

var approved = domain.Outbound{
	To:        "+919810000001",
	Body:      "Order O-1042 for Rajesh Kirana Store approved: ₹25,000 (COD)",
	MediaURLs: []string{"https://munshi.example.com/media/o-1042.pdf"},
}

func enqueue(t *testing.T, st store.Store, effects ...domain.Effect) {
	t.Helper()
	if err := st.Enqueue(context.Background(), effects...); err != nil {
		t.Fatalf("Enqueue: %v", err)
	}
}

func rows(t *testing.T, st store.Store) []outbox.Status {
	t.Helper()
	rs, err := st.OutboxMessages(context.Background())
	if err != nil {
		t.Fatalf("OutboxMessages: %v", err)
	}
	return rs
}

func onlyRow(t *testing.T, st store.Store) outbox.Status {
	t.Helper()
	rs := rows(t, st)
	if len(rs) != 1 {
		t.Fatalf("outbox has %d rows, want 1", len(rs))
	}
	return rs[0]
}

// drain runs the dispatcher pass after pass, a minute apart by the clock,
// until no message is pending, and returns how many passes tried something.
func drain(t *testing.T, d *outbox.Dispatcher, st store.Store, clk *clock) int {
	t.Helper()
	tried := 0
	for range 50 {
		if d.RunOnce(context.Background()) > 0 {
			tried++
		}
		if n, err := st.OutboxDepth(context.Background()); err != nil {
			t.Fatalf("OutboxDepth: %v", err)
		} else if n == 0 {
			return tried
		}
		clk.Advance(time.Minute)
	}
	t.Fatalf("outbox still not drained after 50 passes: %+v", rows(t, st))
	return tried
}

func TestRetriesUntilOneDelivery(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	fake.Fail(2, twiliotest.ServerError)
	rec := &recorder{}
	d := newDispatcher(t, st, fake, clk, rec)
	enqueue(t, st, domain.WhatsApp(approved))

	drain(t, d, st, clk)

	requests, delivered := len(fake.Requests()), accepted(fake)
	if requests != 3 || len(delivered) != 1 {
		t.Errorf("Twilio got %d requests and accepted %d, want 3 and exactly 1", requests, len(delivered))
	}
	r := onlyRow(t, st)
	if r.Status != "sent" || r.Attempts != 3 || r.ProviderID != delivered[0] || r.LastError != "" {
		t.Errorf("row = status %q, attempts %d, provider %q, last error %q; want sent, 3, %q, none",
			r.Status, r.Attempts, r.ProviderID, r.LastError, delivered[0])
	}
	for i, b := range bodies(fake) {
		if b != approved.Body {
			t.Errorf("attempt %d sent body %q, want %q", i+1, b, approved.Body)
		}
	}
	want := []attempt{
		{r.ID, 0, "", outbox.Retry},
		{r.ID, 1, "", outbox.Retry},
		{r.ID, 2, delivered[0], outbox.Sent},
	}
	if got := rec.seen(); !slices.Equal(got, want) {
		t.Errorf("Record saw %+v, want %+v", got, want)
	}
}

func TestBackoffKeepsFailedMessageUntilDue(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	fake.Fail(1, twiliotest.ServerError)
	d := newDispatcher(t, st, fake, clk, nil)
	d.BaseBackoff, d.MaxBackoff = time.Minute, time.Hour
	enqueue(t, st, domain.WhatsApp(approved))

	if n := d.RunOnce(context.Background()); n != 1 {
		t.Fatalf("first pass tried %d, want 1", n)
	}
	// Backoff is at least BaseBackoff: nothing is due right away.
	if n := d.RunOnce(context.Background()); n != 0 {
		t.Errorf("a pass straight after a failure tried %d, want 0 (backing off)", n)
	}
	clk.Advance(2 * time.Minute) // past BaseBackoff and its 20% jitter
	if n := d.RunOnce(context.Background()); n != 1 {
		t.Errorf("a pass after the backoff tried %d, want 1", n)
	}
	if r := onlyRow(t, st); r.Status != "sent" || r.Attempts != 2 {
		t.Errorf("row = %q after %d attempts, want sent after 2", r.Status, r.Attempts)
	}
}

func TestRestartLosesNothing(t *testing.T) {
	clk := newClock()
	path := filepath.Join(t.TempDir(), "munshi.db")
	fake := twiliotest.Start(t)
	fake.Fail(1, twiliotest.ServerError)

	// First life: the message is written and its first attempt fails.
	st1 := openStore(t, path, clk)
	d1 := newDispatcher(t, st1, fake, clk, nil)
	enqueue(t, st1, domain.WhatsApp(approved))
	if n := d1.RunOnce(context.Background()); n != 1 {
		t.Fatalf("first pass tried %d messages, want 1", n)
	}
	if r := onlyRow(t, st1); r.Status != "pending" || r.Attempts != 1 || !strings.Contains(r.LastError, "500") {
		t.Fatalf("after the failed attempt: %+v, want pending with 1 attempt and the error", r)
	}
	if err := st1.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}

	// Second life: a new store and dispatcher on the same file.
	clk.Advance(time.Minute)
	st2 := openStore(t, path, clk)
	defer st2.Close()
	d2 := newDispatcher(t, st2, fake, clk, nil)
	drain(t, d2, st2, clk)
	for range 3 { // and nothing more to do, however long we wait
		clk.Advance(time.Hour)
		if n := d2.RunOnce(context.Background()); n != 0 {
			t.Errorf("a pass after delivery tried %d messages, want 0", n)
		}
	}

	requests, delivered := len(fake.Requests()), accepted(fake)
	if requests != 2 || len(delivered) != 1 {
		t.Errorf("Twilio got %d requests and accepted %d, want 2 and exactly 1", requests, len(delivered))
	}
	if r := onlyRow(t, st2); r.Status != "sent" || r.Attempts != 2 || r.ProviderID != delivered[0] {
		t.Errorf("row = %+v, want sent after 2 attempts with SID %s", r, delivered[0])
	}
}

func TestCrashedLeaseBecomesDueAgain(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			clk := newClock()
			path := filepath.Join(t.TempDir(), "munshi.db")
			st := openStore(t, path, clk)
			defer func() { st.Close() }()
			fake := twiliotest.Start(t)
			enqueue(t, st, domain.WhatsApp(approved))

			// A dispatcher claims the message and dies before marking it.
			claimed, err := st.ClaimDue(context.Background(), 10, time.Minute)
			if err != nil || len(claimed) != 1 {
				t.Fatalf("ClaimDue = %v, %v; want the message", claimed, err)
			}
			if restart {
				st.Close()
				st = openStore(t, path, clk)
			}

			d := newDispatcher(t, st, fake, clk, nil)
			if n := d.RunOnce(context.Background()); n != 0 {
				t.Fatalf("a pass during the lease tried %d, want 0", n)
			}
			clk.Advance(30 * time.Second)
			if n := d.RunOnce(context.Background()); n != 0 {
				t.Fatalf("a pass half-way through the lease tried %d, want 0", n)
			}
			clk.Advance(31 * time.Second)
			if n := d.RunOnce(context.Background()); n != 1 {
				t.Fatalf("a pass after the lease tried %d, want 1", n)
			}
			clk.Advance(time.Hour)
			if n := d.RunOnce(context.Background()); n != 0 {
				t.Errorf("a pass after delivery tried %d, want 0", n)
			}

			requests, delivered := len(fake.Requests()), accepted(fake)
			if requests != 1 || len(delivered) != 1 {
				t.Errorf("Twilio got %d requests and accepted %d, want exactly 1 each", requests, len(delivered))
			}
			if r := onlyRow(t, st); r.Status != "sent" || r.ProviderID != delivered[0] {
				t.Errorf("row = %+v, want sent with SID %s", r, delivered[0])
			}
		})
	}
}

func TestPermanentErrorIsNotRetried(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	fake.FailTo("+9198", twiliotest.InvalidNumber)
	rec := &recorder{}
	d := newDispatcher(t, st, fake, clk, rec)
	enqueue(t, st, domain.WhatsApp(domain.Outbound{To: "+9198", Body: "hello"}))

	if n := d.RunOnce(context.Background()); n != 1 {
		t.Fatalf("first pass tried %d, want 1", n)
	}
	for range 5 {
		clk.Advance(24 * time.Hour)
		if n := d.RunOnce(context.Background()); n != 0 {
			t.Errorf("a later pass tried %d, want 0: a 400 is final", n)
		}
	}
	if requests := len(fake.Requests()); requests != 1 {
		t.Errorf("Twilio got %d requests, want 1", requests)
	}
	r := onlyRow(t, st)
	if r.Status != "failed" || r.Attempts != 1 || !strings.Contains(r.LastError, "21211") {
		t.Errorf("row = status %q, attempts %d, error %q; want failed after 1 with Twilio's code 21211", r.Status, r.Attempts, r.LastError)
	}
	if depth, _ := st.OutboxDepth(context.Background()); depth != 0 {
		t.Errorf("OutboxDepth = %d, want 0: failed messages are not pending", depth)
	}
	if got := rec.seen(); len(got) != 1 || got[0].outcome != outbox.Failed {
		t.Errorf("Record saw %+v, want one final failure", got)
	}
}

func TestConcurrentDispatchersDeliverEachOnce(t *testing.T) {
	clk := newClock()
	path := filepath.Join(t.TempDir(), "munshi.db")
	fake := twiliotest.Start(t)
	// Two processes on one database: two stores, two dispatchers.
	st1 := openStore(t, path, clk)
	defer st1.Close()
	st2 := openStore(t, path, clk)
	defer st2.Close()
	const n = 40
	for i := range n {
		enqueue(t, st1, domain.WhatsApp(domain.Outbound{To: "+919810000001", Body: fmt.Sprintf("message %02d", i)}))
	}

	var wg sync.WaitGroup
	for _, st := range []store.Store{st1, st2} {
		d := newDispatcher(t, st, fake, clk, nil)
		d.Batch = 3
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d.RunOnce(context.Background()) > 0 {
			}
		}()
	}
	wg.Wait()

	requests, delivered := len(fake.Requests()), accepted(fake)
	if requests != n || len(delivered) != n {
		t.Errorf("Twilio got %d requests and accepted %d, want %d each", requests, len(delivered), n)
	}
	bodies := bodies(fake)
	slices.Sort(bodies)
	if len(slices.Compact(bodies)) != n {
		t.Errorf("%d distinct messages sent, want %d: some went twice", len(slices.Compact(bodies)), n)
	}
	for _, r := range rows(t, st1) {
		if r.Status != "sent" || r.Attempts != 1 {
			t.Errorf("row %d = %q after %d attempts, want sent after 1", r.ID, r.Status, r.Attempts)
		}
	}
}

// watchedStore tells the test each time the dispatcher has looked for work.
type watchedStore struct {
	outbox.Store
	claims chan int
}

func (w watchedStore) ClaimDue(ctx context.Context, limit int, lease time.Duration) ([]outbox.Message, error) {
	msgs, err := w.Store.ClaimDue(ctx, limit, lease)
	select {
	case w.claims <- len(msgs):
	default:
	}
	return msgs, err
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func sentCount(t *testing.T, st store.Store) int {
	n := 0
	for _, r := range rows(t, st) {
		if r.Status == "sent" {
			n++
		}
	}
	return n
}

func TestNudgeWakesRun(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	claims := make(chan int, 1)
	d := newDispatcher(t, watchedStore{st, claims}, fake, clk, nil) // Poll is an hour

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	defer func() { cancel(); <-done }()

	// Run's first pass finds nothing; from then on only a nudge wakes it.
	select {
	case n := <-claims:
		if n != 0 {
			t.Fatalf("first pass claimed %d, want 0", n)
		}
	case <-time.After(wait):
		t.Fatal("Run never looked for work")
	}
	enqueue(t, st, domain.WhatsApp(approved))
	d.Nudge()
	waitFor(t, "the nudged message to be sent", func() bool { return sentCount(t, st) == 1 })
	if requests := len(fake.Requests()); requests != 1 {
		t.Errorf("Twilio got %d requests, want 1", requests)
	}
}

func TestRunStopsOnCancelAfterInFlightSends(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	open := fake.Hold()
	defer open()
	d := newDispatcher(t, st, fake, clk, nil)
	enqueue(t, st, domain.WhatsApp(approved))

	ctx, cancel := context.WithCancel(context.Background())
	var returned atomic.Bool
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx); returned.Store(true) }()

	if len(fake.Wait(1, wait)) == 0 {
		t.Fatal("Run never sent the message")
	}
	cancel()
	// The send is still held by Twilio: Run must not return yet.
	select {
	case <-done:
		t.Fatal("Run returned while a send was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	open()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Run did not return after its context was cancelled")
	}
	// The in-flight send was finished and recorded before Run returned.
	if r := onlyRow(t, st); r.Status != "sent" || r.Attempts != 1 {
		t.Errorf("row = %q after %d attempts, want sent after 1", r.Status, r.Attempts)
	}
	// And Run started nothing new after the cancel.
	enqueue(t, st, domain.WhatsApp(domain.Outbound{To: "+919810000002", Body: "after shutdown"}))
	d.Nudge()
	if requests := len(fake.Requests()); requests != 1 {
		t.Errorf("Twilio got %d requests, want 1", requests)
	}
}

func TestRunOnceWithCancelledContextDoesNothing(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	d := newDispatcher(t, st, fake, clk, nil)
	enqueue(t, st, domain.WhatsApp(approved))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n := d.RunOnce(ctx); n != 0 {
		t.Errorf("RunOnce(cancelled) = %d, want 0", n)
	}
	if r := onlyRow(t, st); r.Status != "pending" || r.Attempts != 0 {
		t.Errorf("row = %q after %d attempts, want untouched", r.Status, r.Attempts)
	}
	// Nothing was leased either: the next pass sends it.
	if n := d.RunOnce(context.Background()); n != 1 {
		t.Errorf("RunOnce = %d, want 1", n)
	}
}

func TestLateRepliesSendLate(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	fake := twiliotest.Start(t)
	claims := make(chan int, 1)
	d := newDispatcher(t, watchedStore{st, claims}, fake, clk, nil)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	select {
	case <-claims:
	case <-time.After(wait):
		t.Fatal("Run never looked for work")
	}

	late := outbox.LateReplies{Store: st, Dispatcher: d}
	reply := domain.Reply{Text: "Sales this month: ₹12,40,500 (chart attached)", MediaURLs: []string{"https://munshi.example.com/media/sales.png"}}
	if err := late.SendLate(context.Background(), "+919900000001", reply); err != nil {
		t.Fatalf("SendLate: %v", err)
	}

	r := onlyRow(t, st)
	var payload domain.Outbound
	if err := json.Unmarshal(r.Payload, &payload); err != nil {
		t.Fatalf("payload: %v", err)
	}
	if r.Kind != domain.EffectWhatsApp || r.To != "+919900000001" || payload.Body != reply.Text || !slices.Equal(payload.MediaURLs, reply.MediaURLs) {
		t.Errorf("row = %+v with payload %+v, want a WhatsApp message with the reply", r, payload)
	}
	// SendLate nudges the dispatcher, which is otherwise asleep for an hour.
	waitFor(t, "the late reply to be sent", func() bool { return sentCount(t, st) == 1 })
	form := fake.Requests()[0].Form
	if form.Get("To") != "whatsapp:+919900000001" || form.Get("Body") != reply.Text || form.Get("MediaUrl") != reply.MediaURLs[0] {
		t.Errorf("Twilio got %v, want the late reply", form)
	}
}

type failingEnqueuer struct{ err error }

func (f failingEnqueuer) Enqueue(context.Context, ...domain.Effect) error { return f.err }

func TestLateRepliesReportsEnqueueFailure(t *testing.T) {
	cause := errors.New("sqlite: enqueue: database is locked")
	late := outbox.LateReplies{Store: failingEnqueuer{cause}, Dispatcher: &outbox.Dispatcher{}}
	err := late.SendLate(context.Background(), "+919900000001", domain.Reply{Text: "hi"})
	if !errors.Is(err, cause) || !strings.HasPrefix(err.Error(), "outbox: late reply") {
		t.Errorf("SendLate = %v, want the enqueue error wrapped with the package prefix", err)
	}
}

// coded is a refused send whose error names the provider's code.
type coded struct{ code string }

func (c coded) Error() string { return "provider: refused, code " + c.code }
func (coded) Permanent() bool { return true }
func (c coded) Code() string  { return c.code }
func (coded) Reason() string  { return "outside the window" }

// TestAttemptCarriesTheProviderCode: whoever hears of an attempt learns the
// provider's error code (Twilio's 63016 asks for a template instead).
func TestAttemptCarriesTheProviderCode(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	d := newDispatcher(t, st, twiliotest.Start(t), clk, nil)
	var got []outbox.Attempt
	d.Record = func(a outbox.Attempt) { got = append(got, a) }
	d.Senders[domain.EffectWhatsApp] = refusing{fmtWrap(coded{"63016"})}
	enqueue(t, st, domain.WhatsApp(approved))
	d.RunOnce(context.Background())
	if len(got) != 1 || got[0].Outcome != outbox.Failed || got[0].Code != "63016" || got[0].Message.To != approved.To {
		t.Fatalf("attempts = %+v; want one failure with code 63016", got)
	}
}

// doubtfulSender sends, and cannot say what it sent before.
type doubtfulSender struct {
	sends atomic.Int32
	down  atomic.Bool
}

func (s *doubtfulSender) SendPayload(context.Context, []byte) (string, error) {
	return fmt.Sprintf("SM%d", s.sends.Add(1)), nil
}

func (s *doubtfulSender) SentSince(context.Context, []byte, time.Time) ([]string, error) {
	if s.down.Load() {
		return nil, errors.New("twilio: messages sent to +919810000001: 503 Service Unavailable")
	}
	return []string{"SM1"}, nil // the message, and the one recorded sent before it
}

// TestInDoubtWaitsWhenThePastCannotBeRead: a message whose claim ran out
// with no outcome is not sent again while the provider's record cannot be
// read; once it can, a SID the outbox already holds for another message is
// not taken for it, and the message is sent.
func TestInDoubtWaitsWhenThePastCannotBeRead(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	ctx := context.Background()
	st.Enqueue(ctx, domain.WhatsApp(domain.Outbound{To: "+919810000001", Body: "first"}))
	s := &doubtfulSender{}
	d := &outbox.Dispatcher{Store: st, Senders: map[string]outbox.Sender{domain.EffectWhatsApp: s}, Logger: quiet,
		Now: clk.Now, Poll: time.Hour, BaseBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
	d.Drain(ctx) // "first" goes as SM1
	st.Enqueue(ctx, domain.WhatsApp(domain.Outbound{To: "+919810000001", Body: "second"}))
	if claimed, err := st.ClaimDue(ctx, 10, time.Minute); err != nil || len(claimed) != 1 || claimed[0].InDoubt {
		t.Fatalf("claimed %+v, %v", claimed, err)
	}
	// The claimer dies; the provider's record is down.
	s.down.Store(true)
	clk.Advance(2 * time.Minute)
	d.Drain(ctx)
	if n := s.sends.Load(); n != 1 {
		t.Fatalf("sent %d times while the record was down", n)
	}
	s.down.Store(false)
	clk.Advance(time.Minute)
	d.Drain(ctx)
	rows, _ := st.OutboxMessages(ctx)
	if s.sends.Load() != 2 || rows[1].Status != "sent" || rows[1].ProviderID != "SM2" {
		t.Fatalf("sends %d; second message %+v", s.sends.Load(), rows[1])
	}
}
