package conversation

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// A message answered by the recovery after a crash arrives long after it
// was sent. Acting on it then is safe only if its sender has said nothing
// since: otherwise they have dealt with it (sent it again, said "ok" to
// what followed), and a late summary would invite an "ok" to an order
// already placed.

// quotedChars is how much of a message a late answer quotes.
const quotedChars = 60

// overtaken reports whether the person has written since in: by the
// inbox's record, or by the conversation, which every instance sharing
// memory writes (the inbox may be another instance's).
func overtaken(in domain.Inbound, conv memory.Conversation) bool {
	if in.Overtaken {
		return true
	}
	sent := received(in).UnixMilli()
	for i := len(conv.Turns) - 1; i >= 0; i-- {
		if t := conv.Turns[i]; t.Role == memory.RolePerson && t.At.UnixMilli() > sent {
			return true
		}
	}
	return false
}

// notProcessed tells the person, once, that a message of theirs was not
// acted on, and what it said.
func (s *Service) notProcessed(in domain.Inbound) domain.Reply {
	return domain.Reply{Stale: true, Text: fmt.Sprintf(
		"⏱ Your message of %s%s was not processed: something went wrong on my side, and you have written since, so I did nothing with it. If it still matters, please send it again.",
		s.sentAt(in), quoted(in.Body))}
}

// late marks the answer to a recovered message as late, naming the
// message it answers, so that it is not taken for the answer to a newer
// one.
func (s *Service) late(in domain.Inbound, reply domain.Reply) domain.Reply {
	if reply.Text == "" {
		return reply
	}
	reply.Text = fmt.Sprintf("⏱ _A late answer to your message of %s%s; something went wrong on my side._\n\n%s",
		s.sentAt(in), quoted(in.Body), reply.Text)
	return reply
}

// sentAt is when in was sent, as the person's clock shows it.
func (s *Service) sentAt(in domain.Inbound) string {
	zone := s.Zone
	if zone == nil {
		zone = domain.DefaultLocation()
	}
	return received(in).In(zone).Format("2 Jan, 15:04")
}

// quoted is a body shortened for quoting, with what leads into it; empty
// when nothing of it is kept.
func quoted(body string) string {
	// Marks that WhatsApp would read as formatting go: the quote is the
	// message's words.
	body = strings.Join(strings.Fields(strings.NewReplacer("_", " ", "*", " ", "~", " ", "`", " ").Replace(body)), " ")
	if body == "" {
		return ""
	}
	if r := []rune(body); len(r) > quotedChars {
		body = strings.TrimSpace(string(r[:quotedChars])) + "…"
	}
	return " (“" + body + "”)"
}
