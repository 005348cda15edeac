package conversation

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/handoff"
	"github.com/munshi/munshi/memory"
)

// Handing over to the office: when Munshi cannot help, a person can. The
// conversation decides when (the person asked, disputed, was not
// understood twice, or a bounded step gave up) and what the office is told
// of it; internal/handoff keeps the handoff and relays. A relayed text is
// never routed: "H-17 ok" from the office approves nothing.

// Handoffs hands conversations over to the office; *handoff.Service is
// one. Each returns what to tell the person who wrote.
type Handoffs interface {
	// Open hands user over for trigger, or adds the message to the
	// handoff open already; handoff.ErrNoOffice when no one in the
	// office can receive it.
	Open(ctx context.Context, user domain.User, trigger handoff.Trigger, c handoff.Context) (string, error)
	// Relay passes text to the office while user has a handoff open;
	// false when none is.
	Relay(ctx context.Context, user domain.User, text string, at time.Time) (string, bool, error)
	// Answer handles a message naming a handoff ("H-17 …"); false when no
	// handoff has that number.
	Answer(ctx context.Context, user domain.User, r handoff.OfficeReply) (string, bool, error)
}

// NotPassedOn is the reply when the office could not be reached.
const NotPassedOn = "Sorry, I couldn't pass this on to the office just now. Please try again in a minute, or call them directly."

// recentShown is how many turns of memory the office is shown.
const recentShown = 6

// officeReply answers a message that names a handoff ("H-17 haan, 5%
// discount de do", "H-17 done") before anything routes it: its text is
// relayed, never read as an order or an approval. False when the message
// names no handoff, and it is answered as usual.
func (s *Service) officeReply(ctx context.Context, user domain.User, text string) (domain.Reply, bool) {
	if s.Handoffs == nil {
		return domain.Reply{}, false
	}
	r, ok := handoff.ParseReply(text)
	if !ok {
		return domain.Reply{}, false
	}
	reply, ok, err := s.Handoffs.Answer(ctx, user, r)
	if err != nil {
		s.Logger.Error("conversation: handoff reply not handled", "err", err)
		return domain.Reply{Text: NotPassedOn}, true
	}
	return domain.Reply{Text: reply}, ok
}

// handOver hands the conversation over for trigger and says so to the
// person.
func (s *Service) handOver(ctx context.Context, user domain.User, in domain.Inbound, d intent.Decision, conv memory.Conversation, trigger handoff.Trigger, why string) (domain.Reply, bool) {
	text := in.Body
	if strings.TrimSpace(text) == "" && len(in.MediaURLs) > 0 {
		text = "(a voice note or photo Munshi could not read)"
	}
	c := handoff.Context{Text: text, At: received(in), Why: why, Recent: recent(user, conv),
		Intent: string(d.Intent), Tier: string(d.Tier), Draft: shownDraft(conv)}
	reply, err := s.Handoffs.Open(ctx, user, trigger, c)
	switch {
	case errors.Is(err, handoff.ErrNoOffice):
		return domain.Reply{Text: NoOffice}, false
	case err != nil:
		s.Logger.Error("conversation: handoff not opened", "trigger", string(trigger), "err", err)
		return domain.Reply{Text: NotPassedOn}, true
	}
	return domain.Reply{Text: reply}, true
}

// NoOffice answers a request for the office when no one there is set up
// to receive it. A handoff Munshi would have opened by itself (a second
// message not understood) gives the usual reply instead.
const NoOffice = "I could not pass this on: no one in the office is set up to receive it. Please call the office directly."

// handOverAsked hands over a message routed to handoff: the person asked for
// someone, or disputes what Munshi said.
func (s *Service) handOverAsked(ctx context.Context, user domain.User, in domain.Inbound, d intent.Decision, conv memory.Conversation) domain.Reply {
	if s.Handoffs == nil {
		return domain.Reply{Text: NoHandoff}
	}
	trigger := handoff.Asked
	if intent.HandoffReason(d) == "dispute" {
		trigger = handoff.Dispute
	}
	reply, _ := s.handOver(ctx, user, in, d, conv, trigger, "")
	return reply
}

// NoHandoff answers a request for the office when no handoff is set up.
const NoHandoff = "I can't reach the office from here. Please call them directly; I can show prices, stock, dues and orders."

// unread answers a message Munshi could not: relayed to the office while
// a handoff is open, or handed over when a bounded step gave up or it is
// the second in a row not understood. False when none of these holds,
// and the usual "didn't understand" follows.
func (s *Service) unread(ctx context.Context, user domain.User, in domain.Inbound, d intent.Decision, conv memory.Conversation) (domain.Reply, bool) {
	if s.Handoffs == nil {
		return domain.Reply{}, false
	}
	reply, ok, err := s.Handoffs.Relay(ctx, user, in.Body, received(in))
	switch {
	case err != nil:
		s.Logger.Error("conversation: message not relayed to the office", "err", err)
		return domain.Reply{Text: NotPassedOn}, true
	case ok:
		return domain.Reply{Text: reply}, true
	case d.NotOurs != "":
		return domain.Reply{}, false // its own reply says who decides
	case s.Agent != nil && d.Intent != domain.IntentUnknown:
		// question() lets a question through only when the agent gave up.
		return s.handOver(ctx, user, in, d, conv, handoff.GaveUp, "the question was not answered within the agent's steps and calls")
	case d.Tier == intent.TierNone && strings.Contains(d.Reason, "llm failed"):
		return s.handOver(ctx, user, in, d, conv, handoff.GaveUp, "the language model did not answer and the local tiers could not read the message")
	case lastUnread(conv):
		return s.handOver(ctx, user, in, d, conv, handoff.NotUnderstood, "")
	}
	return domain.Reply{}, false
}

// GaveUp hands user's conversation over to the office because a bounded
// step gave up on in; why says which, in the office's words ("the voice
// note could not be heard"). It is the hook for the steps outside
// answer's own path: a voice note or a photo that could not be read calls
// it with the message and the memory it was answered with, and sends the
// reply it returns. False when no handoff to the office is set up: the
// caller answers as it would have.
func (s *Service) GaveUp(ctx context.Context, user domain.User, in domain.Inbound, conv memory.Conversation, why string) (domain.Reply, bool) {
	if s.Handoffs == nil {
		return domain.Reply{}, false
	}
	return s.handOver(ctx, user, in, intent.Decision{}, conv, handoff.GaveUp, why)
}

// recent is the end of the conversation as the office reads it.
func recent(user domain.User, conv memory.Conversation) []handoff.Message {
	turns := conv.Turns
	if len(turns) > recentShown {
		turns = turns[len(turns)-recentShown:]
	}
	var out []handoff.Message
	for _, t := range turns {
		m := handoff.Message{At: t.At, Side: handoff.FromMunshi, Text: t.Text}
		if t.Role == memory.RolePerson {
			m.Side, m.From = handoff.FromPerson, user.Phone
		}
		out = append(out, m)
	}
	return out
}
