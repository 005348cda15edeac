package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/digest"
)

// location is MUNSHI_TZ; a configuration built in code without it is in
// the default zone.
func (m *Main) location() *time.Location {
	if m.Config.Location != nil {
		return m.Config.Location
	}
	return domain.DefaultLocation()
}

// newDigest wires the daily digest's delivery to its content: the edition
// sent has the model's opening when one is configured; the one a person
// asks for in the chat is made without it, inside the webhook's budget.
func (m *Main) newDigest() *briefing.Service {
	current := digest.Editions{Books: m.Store, Options: digest.Options{Location: m.location(), AccountsEmails: m.Config.AccountsEmails()}}
	editions := current
	if m.LLM != nil {
		editions.Options.Narrator, editions.Logger = m.LLM, m.Logger
	}
	return &briefing.Service{
		Editions: editions, Current: current, Sends: m.Store, Nudge: m.Dispatcher.Nudge, Logger: m.Logger, Now: m.now,
		Location: m.location(), TemplateSID: m.Config.DigestTemplateSID,
		OwnerEmails: m.Config.OwnerEmails(), AccountsEmails: m.Config.AccountsEmails(),
	}
}

const digestHelp = `usage: munshi digest [--date YYYY-MM-DD] [--send] [--demo]

Prints the daily digest of a date (default yesterday in MUNSHI_TZ): the
owners' brief, then the accounts' dues brief. A day whose digest was sent
prints as it was sent, after a line that says which headline figures
read differently in the books now. Today and later days have no digest
yet. --send sends it to its recipients through the same claims as the
7 am run, so a manual send and the scheduled one never both go.`

func cmdDigest(ctx context.Context, env environment, args []string) error {
	fs := newFlags("digest", digestHelp, env.stderr)
	dateFlag := fs.String("date", "", "the day, YYYY-MM-DD in MUNSHI_TZ (default yesterday)")
	send := fs.Bool("send", false, "send the digest to owners and accounts (once per date and recipient)")
	demoMode := fs.Bool("demo", false, "seed an empty database with the demo distributor first")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	m := NewMain(cfg, *demoMode, env.stderr)
	date, err := digestDate(*dateFlag, m.now(), m.location())
	if err != nil {
		fmt.Fprintf(env.stderr, "munshi digest: %v\n", err)
		return errUsage
	}
	if err := m.Open(ctx); err != nil {
		m.Close()
		return err
	}
	defer m.Close()
	return m.printDigest(ctx, env.stdout, date, *send)
}

// digestDate reads --date in loc: a day that is over. Today is not over,
// and later days have not happened, so neither has a digest yet; without
// a date it is yesterday.
func digestDate(text string, now time.Time, loc *time.Location) (time.Time, error) {
	latest := digest.Yesterday(now, loc)
	if text == "" {
		return latest, nil
	}
	date, err := time.ParseInLocation(time.DateOnly, text, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("--date %q must be a date such as 2026-03-13", text)
	}
	switch today := latest.AddDate(0, 0, 1); {
	case date.Equal(today):
		return time.Time{}, fmt.Errorf("--date %s is today, which is not over yet: its digest comes out tomorrow morning; the latest is of %s",
			text, latest.Format(time.DateOnly))
	case date.After(today):
		return time.Time{}, fmt.Errorf("--date %s is in the future: the latest digest is of %s (yesterday in %s)",
			text, latest.Format(time.DateOnly), loc)
	}
	return date, nil
}

// printDigest prints the digest of date and, with send, sends it: a day
// already sent prints as it was sent, and what is printed is what goes.
func (m *Main) printDigest(ctx context.Context, out io.Writer, date time.Time, send bool) error {
	e, err := m.Digest.Editions.Edition(ctx, date)
	if err != nil {
		return err
	}
	show := m.Digest.Compare
	if send {
		show = m.Digest.Keep
	}
	is, err := show(ctx, e)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s\n\n----- accounts -----\n\n%s\n", is.Text(domain.RoleOwner), is.Text(domain.RoleAccounts))
	if !send {
		return nil
	}
	sent, err := m.Digest.SendEdition(ctx, e)
	if err != nil {
		return err
	}
	// Deliver what this send enqueued before returning.
	m.Dispatcher.Resume(ctx)
	m.Dispatcher.Drain(ctx)
	fmt.Fprintf(out, "\nsent the digest of %s: %d briefs, %d templates, %d by email only, %d mails; %d sent before\n",
		sent.Date, sent.Briefs, sent.Templates, sent.EmailOnly, sent.Mails, sent.Already)
	return nil
}
