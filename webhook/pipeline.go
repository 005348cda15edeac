package webhook

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// Inbox records inbound messages by MessageSid, with the reply each got.
// A message is claimed with a lease; one whose claim ran out with no reply
// saved (the process died answering it) is claimed again.
type Inbox interface {
	// Claim records in, or finds it recorded: claimed when the caller now
	// holds it and must answer it, done (with its reply) when it was
	// answered; neither while another delivery holds a live claim.
	// EUNAUTHORIZED when sid is recorded for another sender.
	Claim(ctx context.Context, in domain.Inbound, lease time.Duration) (claimed, done bool, reply domain.Reply, err error)
	// SaveReply records the reply and ends the claim; an empty reply
	// closes the message unanswered.
	SaveReply(ctx context.Context, sid string, reply domain.Reply) error
	// Release ends the claim without a reply: the next delivery or the
	// recovery looks again.
	Release(ctx context.Context, sid string) error
	// Discard forgets an unanswered message that is not this instance's.
	Discard(ctx context.Context, sid string) error
	// ClaimAbandoned claims up to limit messages whose claim ran out
	// unanswered, as they were recorded.
	ClaimAbandoned(ctx context.Context, lease time.Duration, limit int) ([]domain.Inbound, error)
	// WroteSince reports whether in's sender has a message recorded
	// after it.
	WroteSince(ctx context.Context, in domain.Inbound) (bool, error)
}

// Responder answers one message. It should honour ctx; what it returns after
// the budget has run out is sent later through Late.
type Responder interface {
	Respond(ctx context.Context, in domain.Inbound) domain.Reply
}

// Late delivers a reply that was ready only after the budget ran out, through
// the REST API rather than TwiML.
type Late interface {
	SendLate(ctx context.Context, to string, reply domain.Reply) error
}

// Seer dedupes MessageSids across instances that share it (Redis), each
// with its own database: a claim with a lease, bound to the sender, then
// an answered mark. The database stays the record of each message.
type Seer interface {
	Seen(ctx context.Context, sid, phone string, lease time.Duration) (memory.SeenState, error)
	Answered(ctx context.Context, sid, phone string) error
}

// Auditor writes the audit log.
type Auditor interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Outcome says how a message was handled, for metrics.
type Outcome string

const (
	OutcomeAnswered  Outcome = "answered"
	OutcomeDuplicate Outcome = "duplicate"
	OutcomeInFlight  Outcome = "in_flight" // a retry while the first delivery is still being answered
	OutcomeLate      Outcome = "late"      // the budget ran out; the answer follows by REST
)

// Messages Munshi says when time runs short.
const (
	LateReply    = "Working on it — I'll send the answer in a moment."
	FailureReply = "Sorry, something went wrong on my side. Please try again in a minute."
)

// OtherSender is why a MessageSid posted from another number than its own
// is refused.
const OtherSender = "MessageSid belongs to another sender"

// Audit kinds the pipeline writes.
const (
	auditRefusal  = "refusal"
	auditRecovery = "recovery"
)

// MaxAnswerAge is how old a message may be and still be answered after a
// crash: WhatsApp lets a business reply freely only within 24 hours of the
// person's message.
const MaxAnswerAge = 24 * time.Hour

// leaseMargin is added to the longest legitimate processing (the budget and
// the late-answer grace) to make a claim's lease.
const leaseMargin = 15 * time.Second

// Pipeline is the path every inbound message takes: dedupe, answer within
// the budget, record the reply; and, for messages a crash left unanswered,
// the recovery that answers them later.
type Pipeline struct {
	Inbox     Inbox
	Responder Responder
	Late      Late          // optional: without it a late answer is only recorded, for a retry
	Seen      Seer          // optional: dedupe across instances
	Audit     Auditor       // optional
	Budget    time.Duration // the whole webhook's budget
	Grace     time.Duration // how long a late answer may still take
	Logger    *slog.Logger
	// Redact removes secrets from a body before it is recorded; the
	// responder still reads the message as sent.
	Redact func(string) string
	// Now is the clock of message ages (default time.Now); give it the
	// inbox's.
	Now func() time.Time
	// Poll is how often a retry of a message still being answered checks
	// for the reply.
	Poll time.Duration
	// MaxBody is the longest body the responder reads (0: no limit). A
	// longer one is refused, and only its start and length are recorded.
	MaxBody int

	late sync.WaitGroup // answers still to be sent late
}

// Lease is how long a claim lasts: longer than any legitimate answer, the
// budget and the late-answer grace, so that only a claim whose holder died
// runs out.
func (p *Pipeline) Lease() time.Duration { return p.budget() + p.grace() + leaseMargin }

// Wait waits, at most until ctx ends, for the answers that missed the
// budget to be handed to Late, so that a shutdown does not drop them.
func (p *Pipeline) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		p.late.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Handle answers in, exactly once per MessageSid. A retried delivery gets the
// recorded reply; one that arrives while the first is still being answered
// waits for it within the budget, and takes the message over if the first
// delivery's claim runs out (its process died). A MessageSid recorded for
// another sender is refused with EUNAUTHORIZED.
//
// The audit entries that describe the message are held to be committed
// with its reply (audit.Hold): the reply, and so they, are committed
// before Handle returns.
func (p *Pipeline) Handle(ctx context.Context, in domain.Inbound) (domain.Reply, Outcome, error) {
	ctx, cancel := context.WithTimeout(audit.Hold(ctx, p.now), p.budget())
	defer cancel()
	defer audit.EndHold(ctx) // what a reply saved late, or never, did not take
	rec := p.AtRest(in)
	claimed, done, reply, err := p.claim(ctx, in, rec)
	switch {
	case err != nil:
		return domain.Reply{}, "", err
	case done:
		return reply, OutcomeDuplicate, nil
	case !claimed:
		return p.waitForReply(ctx, in, rec)
	}
	return p.process(ctx, in)
}

// keptChars is how much of a body too long to read is recorded: enough
// to recognise it, not the rest; redactMargin is how far past it is
// redacted first, longer than any secret.
const (
	keptChars    = 160
	redactMargin = 512
)

// AtRest is in as it is kept at rest, which is also what the recovery
// after a crash works from: redacted, and only the start of a body too
// long to read, with its length.
func (p *Pipeline) AtRest(in domain.Inbound) domain.Inbound {
	rec := in
	n := utf8.RuneCountInString(in.Body)
	long := p.MaxBody > 0 && n > p.MaxBody
	if long {
		// Only the start is kept: redact a margin beyond it, then cut, so
		// that no secret is cut in two and the rest costs nothing.
		rec.Body, rec.Chars = clip(in.Body, keptChars+redactMargin), n
	}
	if p.Redact != nil {
		rec.Body = p.Redact(rec.Body)
	}
	if long {
		rec.Body = clip(rec.Body, keptChars)
	}
	return rec
}

// clip is the first n runes of s.
func clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// claim claims in in the inbox, recorded as rec.
func (p *Pipeline) claim(ctx context.Context, in, rec domain.Inbound) (claimed, done bool, reply domain.Reply, err error) {
	claimed, done, reply, err = p.Inbox.Claim(ctx, rec, p.Lease())
	if domain.ErrorCode(err) == domain.EUNAUTHORIZED {
		p.refuseSender(ctx, in)
	}
	return claimed, done, reply, err
}

// process answers a message this instance has claimed, unless another
// instance sharing the Seer has it.
func (p *Pipeline) process(ctx context.Context, in domain.Inbound) (domain.Reply, Outcome, error) {
	switch state := p.shared(ctx, in); state {
	case memory.SeenInFlight:
		// Another instance answers it: end the claim here without a
		// record, so that a later retry looks again.
		return domain.Reply{}, OutcomeInFlight, p.Inbox.Release(context.WithoutCancel(ctx), in.SID)
	case memory.SeenAnswered, memory.SeenOtherSender:
		return domain.Reply{}, OutcomeDuplicate, p.closeHere(ctx, in, state)
	}
	reply, outcome := p.answer(ctx, in)
	if outcome == OutcomeLate {
		return reply, outcome, nil // the late answer saves itself
	}
	return reply, outcome, p.save(ctx, in, reply)
}

// shared claims in across instances and says who answers it: SeenNew for
// this instance, which is also the answer without a Seer or while the
// shared store is down.
func (p *Pipeline) shared(ctx context.Context, in domain.Inbound) memory.SeenState {
	if p.Seen == nil {
		return memory.SeenNew
	}
	state, err := p.Seen.Seen(ctx, in.SID, in.From, p.Lease())
	if err != nil {
		p.logger().Warn("webhook: shared dedupe unavailable; answering here", "sid", in.SID, "err", err)
		return memory.SeenNew
	}
	return state
}

// closeHere ends this instance's record of a message it must not answer:
// one answered elsewhere is closed (so that no recovery answers it again),
// and one whose MessageSid belongs to another sender is refused and
// forgotten (so that it does not stand in the real sender's way).
func (p *Pipeline) closeHere(ctx context.Context, in domain.Inbound, state memory.SeenState) error {
	ctx = context.WithoutCancel(ctx)
	if state == memory.SeenAnswered {
		return p.Inbox.SaveReply(ctx, in.SID, domain.Reply{})
	}
	p.refuseSender(ctx, in)
	if err := p.Inbox.Discard(ctx, in.SID); err != nil {
		return err
	}
	return domain.Errorf(domain.EUNAUTHORIZED, OtherSender)
}

// save records the reply, locally and across instances. It is recorded
// even if the caller has gone: a retry must get it.
func (p *Pipeline) save(ctx context.Context, in domain.Inbound, reply domain.Reply) error {
	ctx = context.WithoutCancel(ctx)
	if err := p.Inbox.SaveReply(ctx, in.SID, reply); err != nil {
		return err
	}
	if p.Seen != nil {
		if err := p.Seen.Answered(ctx, in.SID, in.From); err != nil {
			p.logger().Warn("webhook: answered mark not shared", "sid", in.SID, "err", err)
		}
	}
	return nil
}

// refuseSender audits a MessageSid posted from another number than its own.
func (p *Pipeline) refuseSender(ctx context.Context, in domain.Inbound) {
	p.logger().Warn("webhook: MessageSid reused from another number", "sid", in.SID)
	if p.Audit != nil {
		p.Audit.Record(ctx, in.From, auditRefusal, in.SID, map[string]any{"reason": "MessageSid of another sender"})
	}
}

// answer runs the responder with a little less than the budget, so that the
// reply can still be written and sent; if it is not ready by then, the
// person is told to wait and the answer follows through Late, and is saved
// once it is handed over (until then the claim stays, and a crash leaves
// the message to the recovery).
func (p *Pipeline) answer(ctx context.Context, in domain.Inbound) (domain.Reply, Outcome) {
	deadline, _ := ctx.Deadline()
	done := make(chan domain.Reply, 1)
	go func() { done <- p.respond(context.WithoutCancel(ctx), deadline.Add(p.grace()), in) }()
	reserve := min(p.budget()/10, 500*time.Millisecond)
	timer := time.NewTimer(time.Until(deadline.Add(-reserve)))
	defer timer.Stop()
	select {
	case reply := <-done:
		return reply, OutcomeAnswered
	case <-timer.C:
	}
	p.late.Add(1)
	go func() {
		defer p.late.Done()
		p.deliverLate(context.WithoutCancel(ctx), in, <-done)
	}()
	return domain.Reply{Text: LateReply}, OutcomeLate
}

// respond runs the responder until deadline; a panic is a polite failure.
func (p *Pipeline) respond(ctx context.Context, deadline time.Time, in domain.Inbound) (reply domain.Reply) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			p.logger().Error("webhook: responder panicked", "sid", in.SID, "panic", r)
			reply = domain.Reply{Text: FailureReply}
		}
	}()
	return p.Responder.Respond(ctx, in)
}

// deliverLate hands a reply to Late and then records it. If it cannot be
// handed over, nothing is recorded: the claim runs out and the recovery
// answers the message again rather than lose it.
func (p *Pipeline) deliverLate(ctx context.Context, in domain.Inbound, reply domain.Reply) {
	if p.handOver(ctx, in, reply) {
		p.saveLate(ctx, in, reply)
	}
}

// handOver gives a non-empty reply to Late, reporting whether it (or an
// empty one, which needs no sending) is on its way.
func (p *Pipeline) handOver(ctx context.Context, in domain.Inbound, reply domain.Reply) bool {
	if reply.Text == "" && len(reply.MediaURLs) == 0 {
		return true
	}
	if p.Late == nil {
		return true // recorded only, for a retry to fetch
	}
	if err := p.Late.SendLate(ctx, in.From, reply); err != nil {
		p.logger().Error("webhook: late reply not sent; the recovery will answer", "sid", in.SID, "err", err)
		return false
	}
	return true
}

// saveLate records a reply already handed to Late.
func (p *Pipeline) saveLate(ctx context.Context, in domain.Inbound, reply domain.Reply) {
	if err := p.save(ctx, in, reply); err != nil {
		p.logger().Error("webhook: late reply sent but not recorded", "sid", in.SID, "err", err)
	}
}

// waitForReply waits, within the budget, for the delivery that holds the
// message to answer it; if that claim runs out (its process died), this
// delivery takes the message over and answers it.
func (p *Pipeline) waitForReply(ctx context.Context, in, rec domain.Inbound) (domain.Reply, Outcome, error) {
	poll := p.Poll
	if poll == 0 {
		poll = 50 * time.Millisecond
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			// The holder will answer; this delivery stays silent.
			return domain.Reply{}, OutcomeInFlight, nil
		case <-t.C:
		}
		claimed, done, reply, err := p.claim(ctx, in, rec)
		switch {
		case err != nil && errors.Is(err, context.DeadlineExceeded):
		case err != nil:
			return domain.Reply{}, "", err
		case done:
			return reply, OutcomeDuplicate, nil
		case claimed:
			return p.process(ctx, in)
		}
	}
}

func (p *Pipeline) budget() time.Duration {
	if p.Budget <= 0 {
		return 12 * time.Second
	}
	return p.Budget
}

func (p *Pipeline) grace() time.Duration {
	if p.Grace <= 0 {
		return time.Minute
	}
	return p.Grace
}

func (p *Pipeline) now() time.Time {
	if p.Now == nil {
		return time.Now()
	}
	return p.Now()
}

func (p *Pipeline) logger() *slog.Logger {
	if p.Logger == nil {
		return slog.Default()
	}
	return p.Logger
}
