package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Sender delivers one kind of outbox payload and returns the provider's id.
// Its errors say what they mean for the message through methods the
// dispatcher looks for anywhere in the error's chain:
//
//   - Held() bool: sending is impossible for now for a reason that is not
//     the message's (credentials, the sender's set-up). The message waits,
//     without using up its time, until the configuration is put right.
//   - Permanent() bool: this message can never be sent (its recipient or
//     its content is refused). It is given up at once.
//   - Reason() string: the failure in a few words, for people.
//   - RetryAfter() time.Duration: a transient failure after which the
//     provider asked to wait (a 429's Retry-After); the next try is not
//     sooner.
//
// Any other failure is transient and retried with backoff until MaxAge
// (or the sender's Patience).
type Sender interface {
	SendPayload(ctx context.Context, payload []byte) (string, error)
}

// Checker is a Sender that can look in the provider's own record for a
// message it may have sent: the SIDs of the messages that are payload,
// created since, newest first. A message whose last try has no known
// outcome is looked for before it is sent again, so that a crash during
// the send does not send it twice.
type Checker interface {
	SentSince(ctx context.Context, payload []byte, since time.Time) ([]string, error)
}

// Message is one effect in the outbox, as the dispatcher claims it.
type Message struct {
	ID int64
	domain.Effect
	Attempts  int
	CreatedAt time.Time
	HeldSince time.Time // zero unless sending it is held back
	// InDoubt is set when an earlier claim ran out with no outcome
	// recorded: the process died sending it, and it may have gone.
	InDoubt bool
}

// Status is how one outbox message stands, for tests and operators.
type Status struct {
	Message
	Status         string // pending, sent or failed
	LastError      string
	HeldReason     string // why sending it is held back, when it is
	ProviderID     string
	DeliveryStatus string
}

// Store is the part of the database the dispatcher uses.
type Store interface {
	// ClaimDue leases up to limit pending messages whose time has come,
	// oldest first; a lease that runs out makes the message due again.
	ClaimDue(ctx context.Context, limit int, lease time.Duration) ([]Message, error)
	MarkSent(ctx context.Context, id int64, providerID string) error
	MarkRetry(ctx context.Context, id int64, reason string, next time.Time) error
	// MarkHeld keeps the message pending without counting the attempt.
	MarkHeld(ctx context.Context, id int64, held, lastError string, next time.Time) error
	// MarkFailed gives a pending message up and enqueues notices in the
	// same transaction; false, with nothing enqueued, when it was not
	// pending.
	MarkFailed(ctx context.Context, id int64, reason string, notices ...domain.Effect) (bool, error)
	// ReleaseHeld makes the held messages of those kinds (of every kind
	// when none is given) due now and says how many there were.
	ReleaseHeld(ctx context.Context, kinds ...string) (int, error)
	// ProviderIDKnown reports whether a message was recorded sent under
	// the provider's id.
	ProviderIDKnown(ctx context.Context, providerID string) (bool, error)
}

// Outcome is what became of one attempt.
type Outcome string

const (
	Sent   Outcome = "sent"   // the provider took it
	Retry  Outcome = "retry"  // a transient failure: tried again later
	Held   Outcome = "held"   // sending this kind is held back: waits for the set-up to be put right
	Failed Outcome = "failed" // given up for good
)

// Attempt is one try at sending a message. Error is already redacted.
type Attempt struct {
	Message    Message
	ProviderID string
	Outcome    Outcome
	Error      string
	// Code is the provider's error code when the sender's error names one
	// (a Code() string method in its chain): Twilio's "63016".
	Code string
}

// Recorder hears about every attempt, for the audit log and metrics.
type Recorder func(Attempt)

// Dispatcher sends due outbox messages.
type Dispatcher struct {
	Store   Store
	Senders map[string]Sender
	Logger  *slog.Logger
	Record  Recorder
	// Redact removes secrets from provider error text before it is stored
	// (last_error, the held reason), logged or recorded.
	Redact      func(string) string
	Now         func() time.Time
	Poll        time.Duration // how often to look for due messages without a nudge
	Lease       time.Duration // how long a claimed message is ours
	BaseBackoff time.Duration
	MaxBackoff  time.Duration // the longest wait after a transient failure
	HeldBackoff time.Duration // the longest wait between tries of a held message
	MaxAge      time.Duration // transient failures are given up once a message is this old
	Batch       int

	// Linger is how long a batch sender's kind waits, after its first due
	// message, for more to go with it; MaxBatch the most it sends at once.
	Linger   time.Duration
	MaxBatch int

	wake chan struct{}
	once sync.Once

	mu      sync.Mutex
	holds   map[string]Hold // by kind
	batches map[string]*batch
	sending sync.WaitGroup // batches in flight
}

// Hold is why sending one kind of message is held back, and since when.
type Hold struct {
	Reason string
	Since  time.Time
}

func (d *Dispatcher) init() {
	d.once.Do(func() {
		d.wake = make(chan struct{}, 1)
		d.holds = map[string]Hold{}
		d.batches = map[string]*batch{}
		if d.Linger == 0 {
			d.Linger = 200 * time.Millisecond
		}
		if d.MaxBatch == 0 {
			d.MaxBatch = 200
		}
		if d.Now == nil {
			d.Now = time.Now
		}
		if d.Redact == nil {
			d.Redact = func(s string) string { return s }
		}
		if d.Poll == 0 {
			d.Poll = time.Second
		}
		if d.Lease == 0 {
			d.Lease = time.Minute
		}
		if d.BaseBackoff == 0 {
			d.BaseBackoff = 2 * time.Second
		}
		if d.MaxBackoff == 0 {
			d.MaxBackoff = 10 * time.Minute
		}
		if d.HeldBackoff == 0 {
			d.HeldBackoff = 5 * time.Minute
		}
		if d.MaxAge == 0 {
			d.MaxAge = 24 * time.Hour // WhatsApp's customer-service window
		}
		if d.Batch == 0 {
			d.Batch = 16
		}
		if d.Logger == nil {
			d.Logger = slog.Default()
		}
	})
}

// Nudge asks the dispatcher to look for due messages now, after a caller
// has written some.
func (d *Dispatcher) Nudge() {
	d.init()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run sends due messages until ctx ends, then returns once the sends in
// flight have finished. Held messages are due at once when it starts: a
// restart with the configuration put right sends them without waiting.
func (d *Dispatcher) Run(ctx context.Context) {
	d.init()
	d.Resume(ctx)
	t := time.NewTicker(d.Poll)
	defer t.Stop()
	for {
		d.Drain(ctx)
		select {
		case <-ctx.Done():
			d.Wait()
			return
		case <-t.C:
		case <-d.wake:
		}
	}
}

// Drain sends batches of due messages until none is left or ctx ends: one
// pass of Run's loop, for a scheduler that runs it every Poll and whenever
// Nudged receives.
func (d *Dispatcher) Drain(ctx context.Context) {
	for d.RunOnce(ctx) > 0 && ctx.Err() == nil {
	}
}

// Nudged receives after Nudge, once for any number of nudges since it last
// did: a scheduler running Drain wakes on it.
func (d *Dispatcher) Nudged() <-chan struct{} {
	d.init()
	return d.wake
}

// Resume makes every held message due now.
func (d *Dispatcher) Resume(ctx context.Context) {
	d.init()
	n, err := d.Store.ReleaseHeld(ctx)
	if err != nil {
		d.Logger.Error("outbox: release held messages failed", "err", err)
	} else if n > 0 {
		d.Logger.Info("outbox: held messages are due again", "count", n)
	}
}

// RunOnce sends one batch of due messages concurrently and returns how many
// it tried.
func (d *Dispatcher) RunOnce(ctx context.Context) int {
	d.init()
	if ctx.Err() != nil {
		return 0
	}
	msgs, err := d.Store.ClaimDue(ctx, d.Batch, d.Lease)
	if err != nil {
		d.Logger.Error("outbox: claim failed", "err", err)
		return 0
	}
	var wg sync.WaitGroup
	for _, m := range msgs {
		if _, ok := d.Senders[m.Kind].(BatchSender); ok {
			d.queue(ctx, m)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.deliver(context.WithoutCancel(ctx), m)
		}()
	}
	wg.Wait()
	return len(msgs)
}

func (d *Dispatcher) deliver(ctx context.Context, m Message) {
	id, err := d.sendOnce(ctx, m)
	d.settle(ctx, m, id, err)
}

// settle records the outcome of one try at m: sent under the provider's
// id, or err, classified.
func (d *Dispatcher) settle(ctx context.Context, m Message, id string, err error) {
	if err == nil {
		if err := d.Store.MarkSent(ctx, m.ID, id); err != nil {
			d.Logger.Error("outbox: mark sent failed", "id", m.ID, "err", err)
		}
		d.recovered(ctx, m.Kind)
		d.record(Attempt{Message: m, ProviderID: id, Outcome: Sent})
		return
	}
	f := d.classify(err)
	now := d.Now()
	log := d.Logger.With("id", m.ID, "kind", m.Kind, "attempt", m.Attempts+1, "err", f.text)
	switch {
	case f.held:
		since := m.HeldSince
		if since.IsZero() {
			since = now
		}
		// The hold is known before the row says so: whoever sees a held
		// row then finds the readiness check degraded, never ok.
		d.hold(m.Kind, f.reason, since)
		if err := d.Store.MarkHeld(ctx, m.ID, f.reason, f.text, now.Add(d.heldWait(now, m.HeldSince))); err != nil {
			d.Logger.Error("outbox: mark held failed", "id", m.ID, "err", err)
		}
		log.Debug("outbox: send held", "reason", f.reason)
		d.record(Attempt{Message: m, Outcome: Held, Error: f.text, Code: f.code})
	case f.permanent || (!m.CreatedAt.IsZero() && now.Sub(m.CreatedAt) >= d.maxAge(m.Kind)):
		notices := failureNotices(m, f.reason)
		failed, err := d.Store.MarkFailed(ctx, m.ID, f.text, notices...)
		if err != nil {
			d.Logger.Error("outbox: mark failed failed", "id", m.ID, "err", err)
		}
		log.Error("outbox: message given up", "reason", f.reason, "permanent", f.permanent, "warned", failed && len(notices) > 0)
		if failed && len(notices) > 0 {
			d.Nudge()
		}
		d.record(Attempt{Message: m, Outcome: Failed, Error: f.text, Code: f.code})
	default:
		if err := d.Store.MarkRetry(ctx, m.ID, f.text, now.Add(max(d.backoff(m.Attempts+1), f.retryAfter))); err != nil {
			d.Logger.Error("outbox: mark retry failed", "id", m.ID, "err", err)
		}
		log.Warn("outbox: send failed, will retry")
		d.record(Attempt{Message: m, Outcome: Retry, Error: f.text, Code: f.code})
	}
}

// sendOnce sends m, unless a try whose outcome is not known (a crash or
// a lost answer during the send) in fact went: then it is the provider's
// id of that one. Whether it went cannot always be known (the provider's
// record is down): then m waits for the next try rather than risk going
// twice.
func (d *Dispatcher) sendOnce(ctx context.Context, m Message) (string, error) {
	if m.InDoubt || m.Attempts > 0 {
		id, found, err := d.sentBefore(ctx, m)
		if err != nil {
			return "", err
		}
		if found {
			d.Logger.Info("outbox: found sent by an earlier try; not sent again", "id", m.ID, "kind", m.Kind, "provider_id", id)
			return id, nil
		}
	}
	return d.send(ctx, m)
}

// sentBefore looks in the provider's record for m, sent since it was
// written to the outbox and not recorded as another message.
func (d *Dispatcher) sentBefore(ctx context.Context, m Message) (string, bool, error) {
	checker, ok := d.Senders[m.Kind].(Checker)
	if !ok {
		return "", false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, d.Lease/2)
	defer cancel()
	ids, err := checker.SentSince(ctx, m.Payload, m.CreatedAt)
	if err != nil {
		return "", false, fmt.Errorf("outbox: whether message %d went before: %w", m.ID, err)
	}
	for _, id := range ids {
		known, err := d.Store.ProviderIDKnown(ctx, id)
		if err != nil {
			return "", false, fmt.Errorf("outbox: whether message %d went before: %w", m.ID, err)
		}
		if !known {
			return id, true, nil
		}
	}
	return "", false, nil
}

func (d *Dispatcher) send(ctx context.Context, m Message) (string, error) {
	sender, ok := d.Senders[m.Kind]
	if !ok {
		return "", noSender(m.Kind)
	}
	ctx, cancel := context.WithTimeout(ctx, d.Lease/2)
	defer cancel()
	return sender.SendPayload(ctx, m.Payload)
}

func (d *Dispatcher) record(a Attempt) {
	if d.Record != nil {
		d.Record(a)
	}
}

// failure is a failed send as the dispatcher sees it, redacted.
type failure struct {
	held, permanent bool
	text            string // the whole error, for last_error and the log
	reason          string // a few words, for people
	code            string // the provider's error code, if it gave one
	// retryAfter is how long the provider asked to be left alone (a 429's
	// Retry-After): a transient failure is not tried again sooner.
	retryAfter time.Duration
}

func (d *Dispatcher) classify(err error) failure {
	var h interface{ Held() bool }
	var p interface{ Permanent() bool }
	var r interface{ Reason() string }
	var c interface{ Code() string }
	var ra interface{ RetryAfter() time.Duration }
	f := failure{text: d.Redact(err.Error())}
	if errors.As(err, &c) {
		f.code = c.Code()
	}
	if errors.As(err, &ra) {
		f.retryAfter = ra.RetryAfter()
	}
	f.held = errors.As(err, &h) && h.Held()
	f.permanent = !f.held && errors.As(err, &p) && p.Permanent()
	reason := ""
	if errors.As(err, &r) {
		reason = r.Reason()
	}
	if reason == "" {
		reason = err.Error()
	}
	f.reason = d.Redact(shorten(reason, 160))
	return f
}

// backoff doubles from BaseBackoff per attempt up to MaxBackoff.
func (d *Dispatcher) backoff(attempt int) time.Duration {
	b := d.BaseBackoff
	for i := 1; i < attempt && b < d.MaxBackoff; i++ {
		b *= 2
	}
	return jitter(min(b, d.MaxBackoff))
}

// heldWait is how long a held message waits before its next try: as long
// as it has been held, between BaseBackoff and HeldBackoff, so that a short
// outage clears quickly and a long one costs a request every few minutes.
func (d *Dispatcher) heldWait(now, since time.Time) time.Duration {
	w := d.BaseBackoff
	if !since.IsZero() {
		w = max(w, now.Sub(since))
	}
	return jitter(min(w, d.HeldBackoff))
}

// jitter adds up to 20% so that a burst of failures does not retry in
// lockstep.
func jitter(b time.Duration) time.Duration {
	return b + time.Duration(rand.Int64N(int64(b)/5+1))
}

// noSender is a kind with no sender configured: the set-up's fault, never
// the message's.
type noSender string

func (k noSender) Error() string  { return fmt.Sprintf("outbox: no sender for %q messages", string(k)) }
func (noSender) Held() bool       { return true }
func (k noSender) Reason() string { return fmt.Sprintf("no %s sender is configured", string(k)) }

// shorten cuts s to at most n runes.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
