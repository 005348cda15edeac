package handoff

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// DefaultTimeout is how long of office time a handoff waits for an
// answer before the office is reminded (MUNSHI_HANDOFF_TIMEOUT).
const DefaultTimeout = 2 * time.Hour

// Users finds the people of a handoff: who wrote, and the owners, who are
// the office unless MUNSHI_HANDOFF_TO names it.
type Users interface {
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
}

// Window is WhatsApp's 24-hour window as the digest's delivery keeps it
// (*briefing.Service is one): a free-form message reaches only someone who
// wrote in the last day; anyone else gets the approved template.
type Window interface {
	InWindow(ctx context.Context, phone string) (bool, error)
	// Template is the approved template to phone, dated day, with
	// headline; false when there is none.
	Template(to string, day time.Time, headline, about string) (domain.Effect, bool)
}

// Recorder writes the audit log; *audit.Log is one.
type Recorder interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Redactor removes secrets from text as the audit log does; *audit.Log
// is one.
type Redactor interface {
	RedactString(s string) string
}

// Service opens handoffs, relays messages both ways, closes them and
// reminds the office of the unanswered ones.
type Service struct {
	Store    Store
	Users    Users
	Audit    Recorder
	Window   Window   // optional: without it every message goes as text
	Redactor Redactor // optional: without it text goes as written
	// Office are the phones handoffs go to (MUNSHI_HANDOFF_TO); without
	// any, the owners'.
	Office  []string
	Timeout time.Duration // of office time; DefaultTimeout when zero
	Hours   Hours
	Now     func() time.Time
	// Opened hears of each handoff opened, for metrics; Nudge that the
	// outbox has something to send. Both optional.
	Opened func(Trigger)
	Nudge  func()
	Logger *slog.Logger
}

// Refused is what a phone that is not the office hears when it answers
// a handoff.
const Refused = "%s is not yours to answer: it went to the office. Nothing was passed on."

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Service) timeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultTimeout
	}
	return s.Timeout
}

func (s *Service) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

func (s *Service) redact(text string) string {
	if s.Redactor == nil {
		return text
	}
	return s.Redactor.RedactString(text)
}

func (s *Service) nudge() {
	if s.Nudge != nil {
		s.Nudge()
	}
}

// record audits one event of handoff h.
func (s *Service) record(ctx context.Context, actor, event string, h Handoff, detail map[string]any) {
	if detail == nil {
		detail = map[string]any{}
	}
	detail["event"], detail["person"], detail["trigger"] = event, h.Person.Phone, string(h.Trigger)
	s.Audit.Record(ctx, actor, audit.KindHandoff, h.Handle(), detail)
}

// office is who handoffs go to now: MUNSHI_HANDOFF_TO, or the owners;
// never the person handed over.
func (s *Service) office(ctx context.Context, person string) ([]string, error) {
	phones := s.Office
	if len(phones) == 0 {
		owners, err := s.Users.UsersByRole(ctx, domain.RoleOwner)
		if err != nil {
			return nil, fmt.Errorf("handoff: the owners: %w", err)
		}
		for _, o := range owners {
			phones = append(phones, o.Phone)
		}
	}
	var out []string
	for _, p := range phones {
		if p != person {
			out = append(out, p)
		}
	}
	return out, nil
}

// reach says, for each phone, whether it is outside WhatsApp's window:
// asked before a transaction, so that its effects are made without I/O.
func (s *Service) reach(ctx context.Context, phones []string) map[string]bool {
	outside := map[string]bool{}
	if s.Window == nil {
		return outside
	}
	for _, p := range phones {
		in, err := s.Window.InWindow(ctx, p)
		if err != nil {
			s.logger().Warn("handoff: whether the office phone is in the 24-hour window is unknown; sending text", "to", p, "err", err)
			continue
		}
		outside[p] = !in
	}
	return outside
}

// toPhones is text to each of phones as effects: the text itself, or to
// a phone outside the window the template with headline.
func (s *Service) toPhones(h Handoff, phones []string, outside map[string]bool, text, headline string) []domain.Effect {
	var out []domain.Effect
	for _, p := range phones {
		if outside[p] {
			if e, ok := s.Window.Template(p, s.now().In(s.Hours.zone()), headline, h.Handle()); ok {
				out = append(out, e)
				continue
			}
		}
		out = append(out, domain.WhatsApp(domain.Outbound{To: p, Body: text, Notice: domain.Notice{About: h.Handle()}}))
	}
	return out
}

// toPerson is text to the person handed over; outside the window (an
// answer after a weekend) the template says what happened, and the person
// reads it by writing the handle.
func (s *Service) toPerson(ctx context.Context, h Handoff, text, what string) domain.Effect {
	person := []string{h.Person.Phone}
	return s.toPhones(h, person, s.reach(ctx, person), text, fmt.Sprintf("%s: %s. Reply %s to read it.", h.Handle(), what, h.Handle()))[0]
}

// ErrNoOffice is Open's error when no one in the office is set up to
// receive a handoff (no accounts user, and the person is the only owner).
var ErrNoOffice = errors.New("handoff: no one in the office to hand over to")

// Open hands user's conversation over to the office for trigger, or adds
// the message to the handoff already open, and returns what to tell the
// person; ErrNoOffice when there is no one to hand over to.
func (s *Service) Open(ctx context.Context, user domain.User, trigger Trigger, c Context) (string, error) {
	at := c.At
	if at.IsZero() {
		at = s.now()
	}
	if open, ok, err := s.Store.OpenHandoffOf(ctx, user.Phone); err != nil {
		return "", fmt.Errorf("handoff: open handoff of %s: %w", user.Phone, err)
	} else if ok {
		return s.relay(ctx, open, user, c.Text, at)
	}
	office, err := s.office(ctx, user.Phone)
	if err != nil {
		return "", err
	}
	if len(office) == 0 {
		s.Audit.Record(ctx, user.Phone, audit.KindHandoff, "", map[string]any{"event": "no office", "trigger": string(trigger)})
		return "", ErrNoOffice
	}
	h := Handoff{Person: Person{Phone: user.Phone, Name: user.Name, Role: user.Role}, Trigger: trigger, Status: Open,
		Office: office, OpenedAt: at}
	for _, m := range c.Recent {
		m.Text = s.redact(m.Text)
		h.Messages = append(h.Messages, m)
	}
	if c.Text != "" {
		h.Messages = append(h.Messages, Message{At: at, Side: FromPerson, From: user.Phone, Text: s.redact(c.Text)})
	}
	outside := s.reach(ctx, office)
	h, opened, err := s.Store.OpenHandoff(ctx, h, func(h Handoff) []domain.Effect {
		return s.toPhones(h, office, outside, s.officeText(h, c), headline(h, "needs the office"))
	})
	if err != nil {
		return "", fmt.Errorf("handoff: open for %s: %w", user.Phone, err)
	}
	if !opened { // another instance opened one a moment ago
		return s.relay(ctx, h, user, c.Text, at)
	}
	s.nudge()
	if s.Opened != nil {
		s.Opened(trigger)
	}
	s.record(ctx, user.Phone, "opened", h, map[string]any{"why": why(trigger, c.Why), "office": office,
		"intent": c.Intent, "tier": c.Tier, "draft": c.Draft})
	return fmt.Sprintf("🙋 I've passed this to the office (%s): they will answer you here. %s", h.Handle(), s.expect(h, at)), nil
}

// Relay passes what user wrote to the office when user has a handoff
// open; false when none is.
func (s *Service) Relay(ctx context.Context, user domain.User, text string, at time.Time) (string, bool, error) {
	h, ok, err := s.Store.OpenHandoffOf(ctx, user.Phone)
	if err != nil || !ok {
		return "", false, err
	}
	reply, err := s.relay(ctx, h, user, text, at)
	return reply, err == nil, err
}

// relay adds the person's text to the open h and passes it on.
func (s *Service) relay(ctx context.Context, h Handoff, user domain.User, text string, at time.Time) (string, error) {
	if at.IsZero() {
		at = s.now()
	}
	m := Message{At: at, Side: FromPerson, From: user.Phone, Text: s.redact(text)}
	body := fmt.Sprintf("💬 *%s* %s: %s\n\nReply *%s your answer* to answer.", h.Handle(), who(h.Person), m.Text, h.Handle())
	effects := s.toPhones(h, h.Office, s.reach(ctx, h.Office), body, headline(h, "wrote again"))
	ok, err := s.Store.AddHandoffMessage(ctx, h.ID, m, effects...)
	if err != nil {
		return "", fmt.Errorf("handoff: relay to %s: %w", h.Handle(), err)
	}
	if !ok {
		return "", fmt.Errorf("handoff: %s closed while relaying", h.Handle())
	}
	s.nudge()
	s.record(ctx, user.Phone, "relayed to the office", h, map[string]any{"body": m.Text})
	return fmt.Sprintf("📨 I've passed that to the office (%s); they will answer you here.", h.Handle()), nil
}

// Answer handles a message from user that names a handoff ("H-17 …") and
// returns what to tell them: the office's answer relayed to the person,
// the handoff closed or shown, or a refusal for a phone that is not the
// handoff's office; false when no handoff has that number (the message
// is not about one). What is relayed is text: nothing in it is acted on.
func (s *Service) Answer(ctx context.Context, user domain.User, r OfficeReply) (string, bool, error) {
	h, ok, err := s.Store.Handoff(ctx, r.ID)
	if err != nil || !ok {
		if err != nil {
			err = fmt.Errorf("handoff: read %s: %w", Handle(r.ID), err)
		}
		return "", false, err
	}
	reply, err := s.answer(ctx, h, user, r)
	return reply, true, err
}

func (s *Service) answer(ctx context.Context, h Handoff, user domain.User, r OfficeReply) (string, error) {
	closed := fmt.Sprintf("%s is closed already; nothing was passed on.", h.Handle())
	if user.Phone == h.Person.Phone {
		return s.fromPerson(ctx, h, user, r)
	}
	switch {
	case !h.Answers(user.Phone):
		s.Audit.Record(ctx, user.Phone, audit.KindRefusal, h.Handle(), map[string]any{
			"reason": "not the handoff's office", "event": "answer refused", "person": h.Person.Phone})
		return fmt.Sprintf(Refused, h.Handle()), nil
	case h.Status != Open:
		return closed, nil
	case r.Close:
		return s.close(ctx, h, user)
	case r.Text == "":
		return s.officeText(h, Context{}), nil
	}
	m := Message{At: s.now(), Side: FromOffice, From: user.Phone, Text: s.redact(r.Text)}
	ok, err := s.Store.AddHandoffMessage(ctx, h.ID, m, s.toPerson(ctx, h, relayed(user, r.Text), "the office answered you"))
	if err != nil {
		return "", fmt.Errorf("handoff: answer %s: %w", h.Handle(), err)
	}
	if !ok {
		return closed, nil
	}
	s.nudge()
	s.record(ctx, user.Phone, "relayed to the person", h, map[string]any{"body": m.Text})
	return fmt.Sprintf("📨 Sent to %s (%s). *%s done* closes it.", firstName(h.Person.Name, h.Person.Phone), h.Handle(), h.Handle()), nil
}

// fromPerson handles the person's own message naming their handoff: "H-17"
// shows it, anything else is relayed while it is open.
func (s *Service) fromPerson(ctx context.Context, h Handoff, user domain.User, r OfficeReply) (string, error) {
	switch {
	case r.Text == "" && !r.Close:
		return fmt.Sprintf("*%s* (%s):\n%s", h.Handle(), h.Status, s.lines(h, h.Messages)), nil
	case h.Status != Open:
		return fmt.Sprintf("%s is closed. Write to me here, or say \"owner se baat karao\" to reach the office again.", h.Handle()), nil
	case r.Close:
		r.Text = "done"
	}
	return s.relay(ctx, h, user, r.Text, s.now())
}

// close closes h for user of the office and tells the person and the
// rest of the office.
func (s *Service) close(ctx context.Context, h Handoff, user domain.User) (string, error) {
	name := firstName(user.Name, user.Phone)
	effects := []domain.Effect{s.toPerson(ctx, h, fmt.Sprintf("✅ %s of the office closed %s. Write to me any time; say \"owner se baat karao\" to reach the office again.", name, h.Handle()), "the office closed it")}
	var others []string
	for _, p := range h.Office {
		if p != user.Phone {
			others = append(others, p)
		}
	}
	note := fmt.Sprintf("✅ %s closed %s (%s).", name, h.Handle(), who(h.Person))
	effects = append(effects, s.toPhones(h, others, s.reach(ctx, others), note, headline(h, "closed by "+name))...)
	ok, err := s.Store.CloseHandoff(ctx, h.ID, user.Phone, s.now(), effects...)
	if err != nil {
		return "", fmt.Errorf("handoff: close %s: %w", h.Handle(), err)
	}
	if !ok {
		return fmt.Sprintf("%s is closed already.", h.Handle()), nil
	}
	s.nudge()
	s.record(ctx, user.Phone, "closed", h, nil)
	return fmt.Sprintf("✅ %s closed; %s has been told.", h.Handle(), firstName(h.Person.Name, h.Person.Phone)), nil
}

// Remind reminds the office, once, of every handoff unanswered past its
// due time, and tells its person when to expect an answer: the periodic
// job. Two instances remind each handoff once between them.
func (s *Service) Remind(ctx context.Context) {
	hs, err := s.Store.UnansweredHandoffs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.logger().Error("handoff: unanswered handoffs not read", "err", err)
		}
		return
	}
	now := s.now()
	for _, h := range hs {
		due := s.Hours.Due(h.OpenedAt, s.timeout())
		if now.Before(due) || !s.Hours.IsOpen(now) {
			continue
		}
		body := fmt.Sprintf("⏰ Reminder: *%s* — %s has waited since %s for an answer (%s).\n\n%s",
			h.Handle(), who(h.Person), when(h.OpenedAt, now, s.Hours.zone()), why(h.Trigger, ""), s.lines(h, h.Messages))
		body += fmt.Sprintf("\nReply *%s your answer*, or *%s done* to close it.", h.Handle(), h.Handle())
		effects := s.toPhones(h, h.Office, s.reach(ctx, h.Office), body, headline(h, "is still waiting"))
		effects = append(effects, s.toPerson(ctx, h, fmt.Sprintf("⏳ The office has not answered %s yet, so I have reminded them. %s",
			h.Handle(), s.stillOpen(now)), "the office was reminded"))
		ok, err := s.Store.MarkHandoffReminded(ctx, h.ID, now, effects...)
		if err != nil {
			s.logger().Error("handoff: reminder not recorded", "handoff", h.Handle(), "err", err)
			continue
		}
		if ok {
			s.nudge()
			s.record(ctx, "system", "reminded", h, map[string]any{"due": due.UTC().Format(time.RFC3339)})
		}
	}
}
