package briefing

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Figure is one headline number of a brief as its reader sees it:
// {"sales", "₹49,288"}.
type Figure struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Kept is an edition as it was sent: kept when it was first composed for
// sending, so that asking for that day later shows what people read then
// rather than the books as they stand now (a cancellation lowers a day's
// sales after its digest went out).
type Kept struct {
	Date                      string    // YYYY-MM-DD in MUNSHI_TZ: the day it is about
	KeptAt                    time.Time // when it was composed for sending
	Headline, Owner, Accounts string
	OwnerFigures              []Figure
	AccountsFigures           []Figure
}

// Change is a headline figure that reads differently in the books now
// than in the edition that was sent.
type Change struct {
	Name, Then, Now string
}

// Issue is the digest of a day as someone asking for it reads it: the
// edition that was sent, with what later changes to the books make read
// differently; or, for a day never sent, the day as the books read now.
type Issue struct {
	Edition
	// Sent is when the edition was kept for sending; zero when the day
	// was never sent.
	Sent time.Time
	// OwnerChanges and AccountsChanges are the figures of each part that
	// read differently now.
	OwnerChanges, AccountsChanges []Change
	loc                           *time.Location
	now                           time.Time
}

// Text is the part of the issue a person of role reads (the owners'
// brief, or the dues part for accounts), after a line that says what
// reads differently now when the books changed since it was sent.
func (i Issue) Text(role domain.Role) string {
	text, changes := i.Owner, i.OwnerChanges
	if role == domain.RoleAccounts {
		text, changes = i.Accounts, i.AccountsChanges
	}
	if note := i.note(changes); note != "" {
		return note + "\n\n" + text
	}
	return text
}

// note says what later changes make read differently: "Since it was sent
// at 07:00, later changes to the books make it read differently now:
// sales ₹49,288 → ₹18,000." "" when nothing does.
func (i Issue) note(changes []Change) string {
	if len(changes) == 0 || i.Sent.IsZero() {
		return ""
	}
	var parts []string
	for _, c := range changes {
		parts = append(parts, fmt.Sprintf("%s %s → %s", c.Name, c.Then, c.Now))
	}
	sent := i.Sent.In(i.loc)
	when := "at " + sent.Format("15:04")
	if y, m, d := i.now.In(i.loc).Date(); sent.Year() != y || sent.Month() != m || sent.Day() != d {
		when = "on " + sent.Format("2 Jan") + " " + when
	}
	return fmt.Sprintf("Since it was sent %s, later changes to the books make it read differently now: %s.",
		when, strings.Join(parts, ", "))
}

// Note is Text's note for the owners' and the accounts' parts.
func (i Issue) Note(role domain.Role) string {
	if role == domain.RoleAccounts {
		return i.note(i.AccountsChanges)
	}
	return i.note(i.OwnerChanges)
}

// current is the source of editions as the books read now.
func (s *Service) current() Editions {
	if s.Current != nil {
		return s.Current
	}
	return s.Editions
}

// kept is ed as the store keeps it, for the day.
func (s *Service) kept(day time.Time, ed Edition) Kept {
	return Kept{Date: day.Format(time.DateOnly), Headline: ed.Headline, Owner: ed.Owner,
		Accounts: ed.Accounts, OwnerFigures: ed.OwnerFigures, AccountsFigures: ed.AccountsFigures}
}

// Issue is the digest of date's day for someone who asks for it: the
// edition sent, compared with the books now; a day never sent is composed
// from the books as they are.
func (s *Service) Issue(ctx context.Context, date time.Time) (Issue, error) {
	day := s.day(date)
	now, err := s.current().Edition(ctx, day)
	if err != nil {
		return Issue{}, fmt.Errorf("briefing: the digest of %s: %w", day.Format(time.DateOnly), err)
	}
	return s.Compare(ctx, now)
}

// Compare is the edition kept for ed's day compared with ed (the day as
// the books make it now), or ed itself when none was kept.
func (s *Service) Compare(ctx context.Context, ed Edition) (Issue, error) {
	kept, ok, err := s.Sends.KeptEdition(ctx, s.day(ed.Date).Format(time.DateOnly))
	if err != nil {
		return Issue{}, fmt.Errorf("briefing: %w", err)
	}
	if !ok {
		return s.issue(Issue{Edition: ed}), nil
	}
	return s.against(kept, ed), nil
}

// Keep keeps ed as the edition of its day unless one was kept before, and
// returns the one kept, compared with ed: what "munshi digest --send"
// prints is what it sends.
func (s *Service) Keep(ctx context.Context, ed Edition) (Issue, error) {
	kept, err := s.Sends.KeepEdition(ctx, s.kept(s.day(ed.Date), ed))
	if err != nil {
		return Issue{}, fmt.Errorf("briefing: %w", err)
	}
	return s.against(kept, ed), nil
}

// against is kept as sent, with the figures that read differently in now.
func (s *Service) against(kept Kept, now Edition) Issue {
	is := Issue{Edition: now, Sent: kept.KeptAt}
	is.Headline, is.Owner, is.Accounts = kept.Headline, kept.Owner, kept.Accounts
	is.OwnerFigures, is.AccountsFigures = kept.OwnerFigures, kept.AccountsFigures
	is.OwnerChanges = changes(kept.OwnerFigures, now.OwnerFigures)
	is.AccountsChanges = changes(kept.AccountsFigures, now.AccountsFigures)
	return s.issue(is)
}

func (s *Service) issue(is Issue) Issue {
	is.loc, is.now = s.loc(), s.now()
	return is
}

// changes are the figures of then that read differently in now, in then's
// order; a figure now lacks is not a change.
func changes(then, now []Figure) []Change {
	current := map[string]string{}
	for _, f := range now {
		current[f.Name] = f.Value
	}
	var out []Change
	for _, f := range then {
		if v, ok := current[f.Name]; ok && v != f.Value {
			out = append(out, Change{Name: f.Name, Then: f.Value, Now: v})
		}
	}
	return out
}

// Brief is the digest that came out ago days before today (0: today's,
// about yesterday; 1: yesterday's, about the day before) as a person of
// role reads it: what was sent, with a note when the books have changed
// since, or, when it was not sent, the day as the books read now. It
// never asks the model, so it answers inside the webhook's budget.
func (s *Service) Brief(ctx context.Context, role domain.Role, ago int) (string, error) {
	is, err := s.Issue(ctx, s.Yesterday().AddDate(0, 0, -max(ago, 0)))
	if err != nil {
		return "", err
	}
	return is.Text(role), nil
}
