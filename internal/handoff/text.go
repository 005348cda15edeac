package handoff

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Context is what the office is told of a handoff besides who and why:
// the message that set it off, the conversation before it and what Munshi
// made of it.
type Context struct {
	Text   string    // the message that set it off
	At     time.Time // when it arrived
	Why    string    // for a step that gave up, which and why ("the voice note could not be read")
	Recent []Message // the conversation before it, oldest first, from memory
	// What Munshi tried: the intent and tier the message was routed to,
	// and the draft shown, if any ("D-57").
	Intent, Tier, Draft string
}

// Most of the conversation the office is shown, and of each message.
const (
	recentShown  = 6
	messageChars = 200
)

// why says a trigger in words.
func why(t Trigger, detail string) string {
	switch t {
	case Asked:
		return "asked to talk to someone in the office"
	case NotUnderstood:
		return "Munshi did not understand two messages in a row"
	case Dispute:
		return "disputes what Munshi said"
	case GaveUp:
		if detail != "" {
			return "Munshi gave up: " + detail
		}
		return "Munshi gave up"
	}
	return string(t)
}

// who is a person as the office reads them: "Ravi Kumar (sales)".
func who(p Person) string {
	name := p.Name
	if name == "" {
		name = p.Phone
	}
	if p.Role == "" {
		return name
	}
	return fmt.Sprintf("%s (%s)", name, p.Role)
}

// firstName is what a message calls someone: "Ravi".
func firstName(name, phone string) string {
	if f := strings.Fields(name); len(f) > 0 {
		return f[0]
	}
	return phone
}

// officeText is the message every office phone gets when h opens, and
// when someone of the office asks to see it ("H-17"): the handle, who,
// why, what Munshi tried, the last messages, and how to answer.
func (s *Service) officeText(h Handoff, c Context) string {
	var b strings.Builder
	fmt.Fprintf(&b, "🙋 *%s* — %s needs the office\n", h.Handle(), who(h.Person))
	fmt.Fprintf(&b, "Why: %s\n", s.redact(why(h.Trigger, c.Why)))
	if tried := tried(c); tried != "" {
		fmt.Fprintf(&b, "Munshi tried: %s\n", tried)
	}
	if lines := s.lines(h, h.Messages); lines != "" {
		b.WriteString("\nThe conversation:\n")
		b.WriteString(lines)
	}
	fmt.Fprintf(&b, "\nReply *%s your answer* to answer %s here, *%s done* to close it.",
		h.Handle(), firstName(h.Person.Name, h.Person.Phone), h.Handle())
	return b.String()
}

// tried says what Munshi made of the message.
func tried(c Context) string {
	var parts []string
	if c.Intent != "" {
		p := "read it as " + c.Intent
		if c.Tier != "" {
			p += " (" + c.Tier + ")"
		}
		parts = append(parts, p)
	}
	if c.Draft != "" {
		parts = append(parts, "draft "+c.Draft+" was shown")
	}
	return strings.Join(parts, "; ")
}

// lines are the last messages of a handoff, one a line, redacted and
// shortened.
func (s *Service) lines(h Handoff, ms []Message) string {
	if len(ms) > recentShown {
		ms = ms[len(ms)-recentShown:]
	}
	var b strings.Builder
	for _, m := range ms {
		text := strings.Join(strings.Fields(s.redact(m.Text)), " ")
		if utf8.RuneCountInString(text) > messageChars {
			text = string([]rune(text)[:messageChars-1]) + "…"
		}
		fmt.Fprintf(&b, "• %s: %s\n", s.speaker(h, m), text)
	}
	return b.String()
}

// speaker names who wrote a message of h.
func (s *Service) speaker(h Handoff, m Message) string {
	switch m.Side {
	case FromMunshi:
		return "Munshi"
	case FromOffice:
		return "Office"
	}
	return firstName(h.Person.Name, h.Person.Phone)
}

// headline is the template's text for an office phone outside the
// window: the handle and who, so that they write back to read it.
func headline(h Handoff, what string) string {
	return fmt.Sprintf("%s: %s — %s. Reply %s to read it.", h.Handle(), who(h.Person), what, h.Handle())
}

// when says a time the way the person reads it: "11:30", "11:30
// tomorrow", "Mon 3 Mar, 11:30".
func when(t, now time.Time, zone *time.Location) string {
	t, now = t.In(zone), now.In(zone)
	y1, m1, d1 := t.Date()
	y2, m2, d2 := now.Date()
	today := time.Date(y2, m2, d2, 0, 0, 0, 0, zone)
	switch day := time.Date(y1, m1, d1, 0, 0, 0, 0, zone); {
	case day.Equal(today):
		return t.Format("15:04")
	case day.Equal(today.AddDate(0, 0, 1)):
		return t.Format("15:04") + " tomorrow"
	}
	return t.Format("Mon 2 Jan, 15:04")
}

// expect tells the person honestly, as h opens, when the office will
// answer it.
func (s *Service) expect(h Handoff, now time.Time) string {
	due, zone := s.Hours.Due(h.OpenedAt, s.timeout()), s.Hours.zone()
	if !s.Hours.IsOpen(now) {
		return fmt.Sprintf("The office is closed now; it opens at %s, so expect an answer by %s.",
			when(s.Hours.NextOpening(now), now, zone), when(due, now, zone))
	}
	return fmt.Sprintf("Expect an answer by %s.", when(due, now, zone))
}

// stillOpen tells the person, as the office is reminded, until when it is
// there to answer today.
func (s *Service) stillOpen(now time.Time) string {
	if s.Hours.Always() {
		return "They will answer you here."
	}
	_, closing := s.Hours.day(now)
	return fmt.Sprintf("They are in the office until %s today and will answer you here.", when(closing, now, s.Hours.zone()))
}

// relayed is an office reply as the person reads it: marked as coming
// from that person of the office, never as Munshi's own.
func relayed(from domain.User, text string) string {
	return fmt.Sprintf("👤 %s (office): %s", firstName(from.Name, from.Phone), text)
}
