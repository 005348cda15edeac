package webhook

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// recoverBatch is how many abandoned messages one round claims at a time.
const recoverBatch = 16

// Recovered counts what one recovery round did.
type Recovered struct {
	Answered  int // answered late, through Late
	Stale     int // not acted on, since its sender had written since: they were told
	Closed    int // too old to answer, answered by another instance, or not its sender's
	Elsewhere int // being answered by another instance
	Failed    int // left for a later round
}

// Recover finishes the messages that were claimed and never answered once
// their claim has run out: Munshi died while answering them, and the
// webhook request is long gone. Each is answered from its recorded text
// (redacted when it was recorded, which is the text the responder then
// reads), the reply sent through Late, recorded and audited. It is marked
// Recovered, and Overtaken when its sender has written since: the
// responder then only tells them it was not processed, so that a late
// summary never invites an "ok" to what they have dealt with. A message
// older than MaxAnswerAge is closed without an answer and audited. The
// order commit behind an "ok" is idempotent, so a message answered twice
// (a crash between sending and recording) places nothing twice.
func (p *Pipeline) Recover(ctx context.Context) (Recovered, error) {
	var r Recovered
	for ctx.Err() == nil {
		msgs, err := p.Inbox.ClaimAbandoned(ctx, p.Lease(), recoverBatch)
		if err != nil {
			return r, err
		}
		for _, in := range msgs {
			p.recoverOne(ctx, in, &r)
		}
		if len(msgs) < recoverBatch {
			break
		}
	}
	return r, nil
}

// recoverOne answers or closes one abandoned message. Once started it
// finishes, even if ctx ends: a half-answered message is what recovery is
// for.
func (p *Pipeline) recoverOne(ctx context.Context, in domain.Inbound, r *Recovered) {
	ctx = context.WithoutCancel(ctx)
	age := p.now().Sub(in.Received)
	detail := map[string]any{"age_minutes": int(age.Minutes()), "chars": len([]rune(in.Body))}
	if age > MaxAnswerAge {
		if err := p.save(ctx, in, domain.Reply{}); err != nil {
			p.logger().Error("webhook: stale message not closed", "sid", in.SID, "err", err)
			r.Failed++
			return
		}
		detail["outcome"], detail["reason"] = "closed", "older than the 24-hour reply window"
		p.audit(ctx, in, detail)
		r.Closed++
		return
	}
	switch state := p.shared(ctx, in); state {
	case memory.SeenInFlight:
		// Another instance is answering it: this claim runs out, and a
		// later round sees whether that one finished.
		r.Elsewhere++
		return
	case memory.SeenAnswered, memory.SeenOtherSender:
		if err := p.closeHere(ctx, in, state); err != nil && domain.ErrorCode(err) != domain.EUNAUTHORIZED {
			p.logger().Error("webhook: message answered elsewhere not closed", "sid", in.SID, "err", err)
			r.Failed++
			return
		}
		r.Closed++
		return
	}
	// The person may have written since, even to another instance: the
	// responder, which holds their conversation, acts on the message only
	// if they have not, and then answers it as late.
	in.Recovered = true
	overtaken, err := p.Inbox.WroteSince(ctx, in)
	if err != nil {
		p.logger().Error("webhook: later messages not checked; the recovery will look again", "sid", in.SID, "err", err)
		r.Failed++
		return
	}
	in.Overtaken = overtaken
	reply := p.respond(ctx, time.Now().Add(p.budget()+p.grace()), in)
	if !p.handOver(ctx, in, reply) {
		r.Failed++
		return
	}
	detail["outcome"], detail["silent"] = "answered", reply.Text == "" && len(reply.MediaURLs) == 0
	if reply.Stale {
		detail["outcome"] = "not acted on: its sender had written since"
		r.Stale++
	} else {
		r.Answered++
	}
	p.audit(ctx, in, detail)
	p.saveLate(ctx, in, reply)
}

func (p *Pipeline) audit(ctx context.Context, in domain.Inbound, detail map[string]any) {
	if p.Audit != nil {
		p.Audit.Record(ctx, in.From, auditRecovery, in.SID, detail)
	}
}
