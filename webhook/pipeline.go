package webhook

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Inbox records inbound messages by MessageSid, with the reply each got.
type Inbox interface {
	Claim(ctx context.Context, in domain.Inbound) (claimed, done bool, reply domain.Reply, err error)
	SavedReply(ctx context.Context, sid string) (bool, domain.Reply, error)
	SaveReply(ctx context.Context, sid string, reply domain.Reply) error
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

// Seer dedupes MessageSids across instances that share it (Redis); the
// database stays the record of each message.
type Seer interface {
	Seen(ctx context.Context, sid string) (first bool, err error)
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

// Pipeline is the path every inbound message takes: dedupe, answer within
// the budget, record the reply.
type Pipeline struct {
	Inbox     Inbox
	Responder Responder
	Late      Late
	Seen      Seer          // optional: dedupe across instances
	Budget    time.Duration // the whole webhook's budget
	Grace     time.Duration // how long a late answer may still take
	Logger    *slog.Logger
	// Poll is how often a retry of a message still being answered checks
	// for the reply.
	Poll time.Duration

	late sync.WaitGroup // answers still to be sent late
}

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
// waits for it within the budget.
func (p *Pipeline) Handle(ctx context.Context, in domain.Inbound) (domain.Reply, Outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, p.budget())
	defer cancel()
	claimed, done, reply, err := p.Inbox.Claim(ctx, in)
	if err != nil {
		return domain.Reply{}, "", err
	}
	if !claimed {
		if done {
			return reply, OutcomeDuplicate, nil
		}
		return p.waitForReply(ctx, in.SID)
	}
	if p.Seen != nil {
		// Another instance took this delivery first and answers it; an
		// error means the shared store is down, and this instance answers.
		if first, err := p.Seen.Seen(ctx, in.SID); err == nil && !first {
			err := p.Inbox.SaveReply(context.WithoutCancel(ctx), in.SID, domain.Reply{})
			return domain.Reply{}, OutcomeDuplicate, err
		}
	}
	reply, outcome := p.answer(ctx, in)
	// The reply is recorded even if the caller has gone: a retry must get it.
	if err := p.Inbox.SaveReply(context.WithoutCancel(ctx), in.SID, reply); err != nil {
		return reply, outcome, err
	}
	return reply, outcome, nil
}

// answer runs the responder with a little less than the budget, so that the
// reply can still be written and sent; if it is not ready by then, the
// person is told to wait and the answer follows through Late.
func (p *Pipeline) answer(ctx context.Context, in domain.Inbound) (domain.Reply, Outcome) {
	deadline, _ := ctx.Deadline()
	work, cancelWork := context.WithDeadline(context.WithoutCancel(ctx), deadline.Add(p.grace()))
	done := make(chan domain.Reply, 1)
	go func() {
		defer cancelWork()
		defer func() {
			if r := recover(); r != nil {
				p.logger().Error("webhook: responder panicked", "sid", in.SID, "panic", r)
				done <- domain.Reply{Text: FailureReply}
			}
		}()
		done <- p.Responder.Respond(work, in)
	}()
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
		reply := <-done
		if p.Late == nil || (reply.Text == "" && len(reply.MediaURLs) == 0) {
			return
		}
		if err := p.Late.SendLate(context.WithoutCancel(ctx), in.From, reply); err != nil {
			p.logger().Error("webhook: late reply not sent", "sid", in.SID, "err", err)
		}
	}()
	return domain.Reply{Text: LateReply}, OutcomeLate
}

func (p *Pipeline) waitForReply(ctx context.Context, sid string) (domain.Reply, Outcome, error) {
	poll := p.Poll
	if poll == 0 {
		poll = 50 * time.Millisecond
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			// The first delivery will answer; this one stays silent.
			return domain.Reply{}, OutcomeInFlight, nil
		case <-t.C:
		}
		done, reply, err := p.Inbox.SavedReply(ctx, sid)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return domain.Reply{}, "", err
		}
		if done {
			return reply, OutcomeDuplicate, nil
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

func (p *Pipeline) logger() *slog.Logger {
	if p.Logger == nil {
		return slog.Default()
	}
	return p.Logger
}
