package briefing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Editions makes the digest of a date.
type Editions interface {
	// Edition is the digest of the day that starts at date (midnight in
	// the business's time zone).
	Edition(ctx context.Context, date time.Time) (Edition, error)
}

// Edition is the digest of one day, as each of its readers gets it.
type Edition struct {
	Date     time.Time
	Headline string // one line, for the template's variables
	Owner    string // the owners' WhatsApp brief (under 1,000 characters)
	Accounts string // the dues part, for accounts users on WhatsApp
	// The mails; their To is set here, one address at a time, from
	// OWNER_EMAIL and ACCOUNTS_EMAIL. A mail without a subject is not sent.
	OwnerMail, AccountsMail domain.Email
	// The headline figures of each part as its reader sees them, so that
	// an edition kept when it was sent can be told apart from the same day
	// composed again after the books changed.
	OwnerFigures, AccountsFigures []Figure
}

// Window is how long after a person's last message WhatsApp lets Munshi
// write to them freely.
const Window = 24 * time.Hour

// Service delivers the digest. Set the fields, then use it from any
// goroutine.
type Service struct {
	// Editions makes the edition to send (the model may phrase its
	// opening); Current the day as the books read now, without the model,
	// to answer someone who asks for a digest inside the webhook's budget
	// and to compare a kept edition with. Nil Current is Editions.
	Editions, Current Editions
	Sends             Sends
	// Nudge tells the outbox dispatcher that something was enqueued.
	Nudge  func()
	Logger *slog.Logger
	Now    func() time.Time
	// Location is where a day starts (MUNSHI_TZ).
	Location *time.Location
	// TemplateSID is the approved template for people outside the window
	// (MUNSHI_DIGEST_TEMPLATE_SID); without it they get only the email.
	TemplateSID    string
	OwnerEmails    []string
	AccountsEmails []string
	// Margin is taken off the window, so that a brief that waits a little
	// in the outbox still reaches WhatsApp inside it. Zero means 15 minutes.
	Margin time.Duration

	mu        sync.Mutex
	emailOnly int // people the last run could reach only by email
}

// Sent is what one Send did.
type Sent struct {
	Date      string // YYYY-MM-DD
	Briefs    int    // briefs enqueued on WhatsApp
	Templates int    // templates enqueued, the brief held for the reply
	EmailOnly int    // people outside the window with no template: the brief held, the email goes
	Mails     int
	Already   int // deliveries claimed before (another instance, an earlier run)
}

// Total is how many deliveries this run claimed.
func (s Sent) Total() int { return s.Briefs + s.Templates + s.EmailOnly + s.Mails }

// Went says what this run sent, "2 briefs, 1 template, 2 mails", or
// why it sent nothing.
func (s Sent) Went() string {
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{s.Briefs, "brief"}, {s.Templates, "template"}, {s.Mails, "mail"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, domain.Plural(p.word, int64(p.n))))
		}
	}
	if s.EmailOnly > 0 {
		parts = append(parts, fmt.Sprintf("%d %s held for the next message (no template)", s.EmailOnly, domain.Plural("brief", int64(s.EmailOnly))))
	}
	switch {
	case len(parts) > 0 && s.Already > 0:
		return strings.Join(parts, ", ") + fmt.Sprintf("; %d sent before", s.Already)
	case len(parts) > 0:
		return strings.Join(parts, ", ")
	case s.Already > 0:
		return fmt.Sprintf("nothing sent: every delivery of the digest went before (%d)", s.Already)
	}
	return "nothing sent: no owner or accounts user on WhatsApp and no OWNER_EMAIL or ACCOUNTS_EMAIL to send it to"
}

// aboutPrefix marks the outbox effects of a digest: "digest 2026-03-13".
const aboutPrefix = "digest "

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) loc() *time.Location {
	if s.Location != nil {
		return s.Location
	}
	return time.UTC
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Service) nudge() {
	if s.Nudge != nil {
		s.Nudge()
	}
}

// Yesterday is the day before now, in the business's time zone: the day
// the morning's digest is about.
func (s *Service) Yesterday() time.Time {
	now := s.now().In(s.loc())
	return time.Date(now.Year(), now.Month(), now.Day()-1, 0, 0, 0, 0, s.loc())
}

// day is date's day at midnight in the business's time zone.
func (s *Service) day(date time.Time) time.Time {
	d := date.In(s.loc())
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, s.loc())
}

// reader is one WhatsApp recipient of an edition with the part they read.
type reader struct {
	user domain.User
	text string
}

// Send delivers the digest of date to everyone who has not had it: a
// delivery already claimed (by another instance, the schedule, or
// "munshi digest --send") is left alone.
func (s *Service) Send(ctx context.Context, date time.Time) (Sent, error) {
	day := s.day(date)
	ed, err := s.Editions.Edition(ctx, day)
	if err != nil {
		return Sent{Date: day.Format(time.DateOnly)}, fmt.Errorf("briefing: the digest of %s: %w", day.Format(time.DateOnly), err)
	}
	return s.SendEdition(ctx, ed)
}

// SendEdition is Send of an edition already made (one just printed by
// "munshi digest --send"), so the digest is not composed twice.
func (s *Service) SendEdition(ctx context.Context, ed Edition) (Sent, error) {
	day := s.day(ed.Date)
	sent := Sent{Date: day.Format(time.DateOnly)}
	kept, err := s.Sends.KeepEdition(ctx, s.kept(day, ed))
	if err != nil {
		return sent, fmt.Errorf("briefing: %w", err)
	}
	// Everyone reads the edition kept first for the day (by another
	// instance, or an earlier run), whatever this one composed.
	ed.Headline, ed.Owner, ed.Accounts = kept.Headline, kept.Owner, kept.Accounts
	readers, err := s.readers(ctx, ed)
	if err != nil {
		return sent, err
	}
	var errs []error
	for _, r := range readers {
		if err := s.sendBrief(ctx, day, ed, r, &sent); err != nil {
			errs = append(errs, err)
		}
	}
	for _, m := range s.mails(ed) {
		if err := s.claim(ctx, Delivery{sent.Date, m.To[0], ChannelEmail}, nil, &sent.Mails, &sent.Already,
			domain.Mail(m)); err != nil {
			errs = append(errs, err)
		}
	}
	s.mu.Lock()
	s.emailOnly = sent.EmailOnly
	s.mu.Unlock()
	if sent.Total() > 0 {
		s.nudge()
	}
	return sent, errors.Join(errs...)
}

// readers are the owners and accounts users, each with their part.
func (s *Service) readers(ctx context.Context, ed Edition) ([]reader, error) {
	var out []reader
	for _, part := range []struct {
		role domain.Role
		text string
	}{{domain.RoleOwner, ed.Owner}, {domain.RoleAccounts, ed.Accounts}} {
		if strings.TrimSpace(part.text) == "" {
			continue
		}
		users, err := s.Sends.UsersByRole(ctx, part.role)
		if err != nil {
			return nil, fmt.Errorf("briefing: %s users: %w", part.role, err)
		}
		for _, u := range users {
			out = append(out, reader{u, part.text})
		}
	}
	return out, nil
}

// mails are the edition's mails, one per address.
func (s *Service) mails(ed Edition) []domain.Email {
	var out []domain.Email
	for _, list := range []struct {
		mail domain.Email
		to   []string
	}{{ed.OwnerMail, s.OwnerEmails}, {ed.AccountsMail, s.AccountsEmails}} {
		if list.mail.Subject == "" {
			continue
		}
		for _, addr := range list.to {
			m := list.mail
			m.To, m.About = []string{addr}, aboutPrefix+ed.Date.In(s.loc()).Format(time.DateOnly)
			out = append(out, m)
		}
	}
	return out
}

// sendBrief claims r's WhatsApp delivery: the brief inside the window;
// outside it the template with the brief held for their reply, or, with no
// template, the brief held and the email alone.
func (s *Service) sendBrief(ctx context.Context, day time.Time, ed Edition, r reader, sent *Sent) error {
	d := Delivery{Date: day.Format(time.DateOnly), Recipient: r.user.Phone, Channel: ChannelWhatsApp}
	brief := s.brief(d, r.text)
	inside, err := s.InWindow(ctx, r.user.Phone)
	if err != nil {
		return err
	}
	switch {
	case inside:
		return s.claim(ctx, d, nil, &sent.Briefs, &sent.Already, brief)
	case s.TemplateSID != "":
		return s.claim(ctx, d, &brief, &sent.Templates, &sent.Already, s.template(d, ed.Headline))
	}
	before := sent.EmailOnly
	err = s.claim(ctx, d, &brief, &sent.EmailOnly, &sent.Already)
	if sent.EmailOnly > before {
		s.logger().Warn("briefing: outside WhatsApp's 24-hour window and no MUNSHI_DIGEST_TEMPLATE_SID: the digest goes by email only; the brief waits for their next message",
			"date", d.Date, "to", r.user.Phone, "name", r.user.Name)
	}
	return err
}

// claim claims d with its effects and counts it as done or as claimed
// before.
func (s *Service) claim(ctx context.Context, d Delivery, held *domain.Effect, done, already *int, effects ...domain.Effect) error {
	ok, err := s.Sends.ClaimDelivery(ctx, d, held, effects...)
	switch {
	case err != nil:
		return fmt.Errorf("briefing: %w", err)
	case ok:
		*done++
	default:
		*already++
	}
	return nil
}

// InWindow reports whether phone wrote recently enough for a free-form
// message to reach them (a handoff's office asks too).
func (s *Service) InWindow(ctx context.Context, phone string) (bool, error) {
	last, ok, err := s.Sends.LastInbound(ctx, phone)
	if err != nil {
		return false, fmt.Errorf("briefing: %w", err)
	}
	margin := s.Margin
	if margin == 0 {
		margin = 15 * time.Minute
	}
	return ok && s.now().Sub(last) < Window-margin, nil
}

// brief is the WhatsApp brief of d as an outbox effect.
func (s *Service) brief(d Delivery, text string) domain.Effect {
	return domain.WhatsApp(domain.Outbound{To: d.Recipient, Body: text,
		Notice: domain.Notice{About: aboutPrefix + d.Date}})
}

// template is the approved template of d: {"1": the date, "2": the
// headline}.
func (s *Service) template(d Delivery, headline string) domain.Effect {
	date, _ := time.Parse(time.DateOnly, d.Date)
	e, _ := s.Template(d.Recipient, date, headline, aboutPrefix+d.Date)
	return e
}

// Template is the approved template (MUNSHI_DIGEST_TEMPLATE_SID) to
// phone, with day's date and headline as its variables, about what about
// names: the one message that reaches someone outside WhatsApp's 24-hour
// window, for the digest and for a handoff's office alike. False when no
// template is configured.
func (s *Service) Template(to string, day time.Time, headline, about string) (domain.Effect, bool) {
	return domain.WhatsApp(domain.Outbound{To: to, ContentSID: s.TemplateSID,
		ContentVariables: map[string]string{"1": day.Format("2 Jan 2006"), "2": templateText(headline)},
		Notice:           domain.Notice{About: about}}), s.TemplateSID != ""
}

// templateText fits text to a template variable: WhatsApp refuses new
// lines, tabs and long runs of spaces in one, and a long one is cut.
func templateText(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	const most = 200
	if utf8.RuneCountInString(text) > most {
		text = string([]rune(text)[:most-1]) + "…"
	}
	if text == "" {
		return "-"
	}
	return text
}

// Replied sends phone the briefs held for them (outside the window) now
// that they have written, once each; briefs older than the window stay
// unsent, as the next morning's digest replaces them.
func (s *Service) Replied(ctx context.Context, phone string) {
	n, err := s.Sends.ReleaseDigests(ctx, phone, s.now().Add(-Window))
	if err != nil {
		s.logger().Error("briefing: held briefs not released", "to", phone, "err", err)
		return
	}
	if n > 0 {
		s.logger().Info("briefing: held digest sent after their message", "to", phone, "briefs", n)
		s.nudge()
	}
}

// Note is what /readyz says of the digest: why some people get it by
// email only; "" when nothing needs saying.
func (s *Service) Note() string {
	if s.TemplateSID != "" {
		return ""
	}
	s.mu.Lock()
	n := s.emailOnly
	s.mu.Unlock()
	note := "no MUNSHI_DIGEST_TEMPLATE_SID: people who have not written in 24 hours get the digest by email only"
	if n > 0 {
		note += fmt.Sprintf(" (%d in the last digest)", n)
	}
	return note
}
