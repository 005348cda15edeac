package conversation

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// What waits for a person's next message: the question Munshi asked (a
// frame the orders side keeps in memory), or the summary it showed, which
// the message may correct; and what an "ok" after an unread message means.

// FrameTTL is how long a question waits for its answer; after it, the
// answer is read as a message of its own.
const FrameTTL = 30 * time.Minute

// Tools that mark Munshi's turns in memory besides the report tools.
const (
	// toolQuestion marks a reply that asked something before anything
	// could be shown.
	toolQuestion = "question"
	// toolUnread marks a reply to a message Munshi could not read: an
	// "ok" after it confirms nothing.
	toolUnread = "unread"
)

// waited reads a message against what waits for it: the question asked,
// or the summary shown, which it may correct.
func (s *Service) waited(ctx context.Context, user domain.User, conv memory.Conversation, d intent.Decision, ref memory.Reference, at time.Time, t *turn) (domain.Reply, bool) {
	t.decision = d
	fr, draft := conv.Frame, shownDraft(conv)
	if h, ok := s.Router.(hearer); ok && (fr.Live(at) || draft != "") && hasDevanagari(d.Text) {
		// What waits narrows what a word can mean: a Devanagari name
		// nobody listed is read by its sound.
		d.Normalized = h.Hear(d.Text)
	}
	if fr.Live(at) {
		return s.answerFrame(ctx, user, fr, d, at, t)
	}
	if draft != "" && ref.Kind != memory.RefSameOrder {
		if reply, ok := s.Orders.Correct(ctx, user, draft, d); ok {
			return s.ordered(reply, at, t), true
		}
	}
	return domain.Reply{}, false
}

// correctedPayment reads a message as a correction of a payment the last
// reply showed ("nahi 12000 tha"); the orders side tells whether one
// waits, and the words whether this is one. Only a reply that showed
// something (a summary's subject) can have shown a payment, so other
// messages are not read again.
func (s *Service) correctedPayment(ctx context.Context, user domain.User, conv memory.Conversation, d intent.Decision, at time.Time, t *turn) (domain.Reply, bool) {
	i := lastReply(conv)
	if i < 0 || conv.Turns[i].Tool != "" || conv.Turns[i].DraftID == "" {
		return domain.Reply{}, false
	}
	reply, ok := s.Orders.CorrectPayment(ctx, user, conv.Turns[i].At, d)
	if !ok {
		return domain.Reply{}, false
	}
	t.decision = d
	return s.ordered(reply, at, t), true
}

// hearer reads a message with the catalog's sounds (intent.Live.Hear).
type hearer interface {
	Hear(text string) intent.Normalized
}

// hasDevanagari reports a letter of the Devanagari block in text.
func hasDevanagari(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { return r >= 0x0900 && r <= 0x097f }) >= 0
}

// answerFrame reads a message against the question Munshi waits on: an
// "ok" does not answer it, "cancel" drops it, and an answer fills it.
// False hands the message on to be read as itself; the question still
// waits.
func (s *Service) answerFrame(ctx context.Context, user domain.User, fr *memory.Frame, d intent.Decision, at time.Time, t *turn) (domain.Reply, bool) {
	switch {
	case d.Intent == domain.IntentConfirm && orderRef(d) == "":
		q, _ := s.Orders.Asked(fr.Data)
		t.tool = toolQuestion
		return domain.Reply{Text: stillNeed(q)}, true
	case d.Intent == domain.IntentCancel && orderRef(d) == "":
		// "Ashok nahi, Rajesh" reads as a cancel, but answers with the
		// name it keeps; the orders side tells which it is.
		if reply, ok := s.Orders.Answer(ctx, user, fr.Data, d); ok {
			return s.ordered(reply, at, t), true
		}
		t.frame = &memory.Frame{}
		s.Audit.Record(ctx, user.Phone, "cancel", "", map[string]any{"pending": true})
		return domain.Reply{Text: "OK, dropped. Nothing was placed or recorded."}, true
	}
	reply, ok := s.Orders.Answer(ctx, user, fr.Data, d)
	if !ok {
		return domain.Reply{}, false
	}
	return s.ordered(reply, at, t), true
}

// ordered notes in the turn what an orders reply leaves waiting: the
// question it asked, or nothing.
func (s *Service) ordered(r domain.Reply, at time.Time, t *turn) domain.Reply {
	t.frame = &memory.Frame{}
	if r.Pending != "" {
		t.frame = &memory.Frame{Data: r.Pending, Expires: at.Add(FrameTTL)}
	}
	return asked(r, t)
}

// stillWaiting adds to an answer given while a question waits, or just
// after a draft's summary, that it still waits: a question or a thanks
// in between is no yes, and the draft is easily taken for sent.
func (s *Service) stillWaiting(r domain.Reply, conv memory.Conversation, at time.Time) domain.Reply {
	if r.Text == "" {
		return r
	}
	if q, ok := s.waitingOn(conv, at); ok {
		r.Text += "\n\n_I'm still waiting for your answer to: " + q + "_"
	} else if id := shownDraft(conv); domain.IsDraftRef(id) {
		r.Text += "\n\n" + fmt.Sprintf(DraftStillWaits, id)
	}
	return r
}

// waitingOn is the question Munshi waits on at at, if any.
func (s *Service) waitingOn(conv memory.Conversation, at time.Time) (string, bool) {
	if !conv.Frame.Live(at) {
		return "", false
	}
	return s.Orders.Asked(conv.Frame.Data)
}

func stillNeed(q string) string {
	return "I still need an answer to my question before anything can be placed or recorded:\n\n" + q +
		"\n\nPlease answer it, or send the whole message again."
}

// shownDraft is the draft Munshi's last reply showed, if it showed one;
// past replies to messages it could not read, the one shown before them.
func shownDraft(conv memory.Conversation) string {
	for i := len(conv.Turns) - 1; i >= 0; i-- {
		t := conv.Turns[i]
		if t.Role != memory.RoleMunshi {
			continue
		}
		if t.Tool != toolQuestion && (domain.IsDraftRef(t.DraftID) || strings.HasPrefix(t.DraftID, "ORD-")) {
			return t.DraftID
		}
		// "Sorry, I didn't understand that, so I changed nothing": the
		// summary before it is still the one a correction changes.
		if t.Tool != toolUnread {
			return ""
		}
	}
	return ""
}

// lastReply is the index of Munshi's last turn in memory, or -1.
func lastReply(conv memory.Conversation) int {
	for i := len(conv.Turns) - 1; i >= 0; i-- {
		if conv.Turns[i].Role == memory.RoleMunshi {
			return i
		}
	}
	return -1
}

// customerSentAlone is the person's last message when it was one
// customer's name and nothing else Munshi could read, sent within
// FrameTTL of at: the customer an order that follows names none of.
func customerSentAlone(conv memory.Conversation, at time.Time) (string, bool) {
	i := lastReply(conv)
	if i < 1 || conv.Turns[i].Tool != toolUnread {
		return "", false
	}
	said := conv.Turns[i-1]
	if said.Role != memory.RolePerson || len(said.Customers) != 1 || len(said.Products) > 0 ||
		len(strings.Fields(said.Text)) > 4 || at.Sub(said.At) > FrameTTL {
		return "", false
	}
	return said.Text, true
}

// lastUnread reports whether Munshi's last reply was to a message it
// could not read.
func lastUnread(conv memory.Conversation) bool {
	i := lastReply(conv)
	return i >= 0 && conv.Turns[i].Tool == toolUnread
}

// received is when a message arrived (now, for one without a time).
func received(in domain.Inbound) time.Time {
	if in.Received.IsZero() {
		return time.Now()
	}
	return in.Received
}

// asked notes in the turn whether the reply is such a question.
func asked(r domain.Reply, t *turn) domain.Reply {
	if r.Question {
		t.tool = toolQuestion
	}
	return r
}

// pendingQuestion is the question Munshi's last reply asked, if it asked one.
func pendingQuestion(conv memory.Conversation) (string, bool) {
	i := lastReply(conv)
	if i < 0 {
		return "", false
	}
	return conv.Turns[i].Text, conv.Turns[i].Tool == toolQuestion
}
