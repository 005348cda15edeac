package main

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/webhook"
)

// digestOptions are the digest's settings from the configuration; with
// narrate, the model phrases the opening when one is configured.
func (m *Main) digestOptions(narrate bool) digest.Options {
	o := digest.Options{Location: m.location(), AccountsEmails: m.Config.AccountsEmails()}
	if narrate && m.LLM != nil {
		o.Narrator = m.LLM
	}
	return o
}

// Edition composes the digest of date's day from the books.
func (m *Main) Edition(ctx context.Context, date time.Time, narrate bool) (digest.Edition, error) {
	return digest.Compose(ctx, m.Store, date, m.digestOptions(narrate))
}

// location is MUNSHI_TZ; a configuration built in code without it is in
// the default zone.
func (m *Main) location() *time.Location {
	if m.Config.Location != nil {
		return m.Config.Location
	}
	return domain.DefaultLocation()
}

// newDigest wires the daily digest's delivery to its content.
func (m *Main) newDigest() *briefing.Service {
	return &briefing.Service{
		Editions: editions{m}, Sends: m.Store, Nudge: m.Dispatcher.Nudge, Logger: m.Logger, Now: m.now,
		Location: m.location(), TemplateSID: m.Config.DigestTemplateSID,
		OwnerEmails: m.Config.OwnerEmails(), AccountsEmails: m.Config.AccountsEmails(),
	}
}

// editions is the digest's content as its delivery reads it: composed
// from the books, with the model's phrasing when one is configured.
type editions struct{ m *Main }

func (e editions) Edition(ctx context.Context, date time.Time) (briefing.Edition, error) {
	ed, err := e.m.Edition(ctx, date, true)
	if err != nil {
		return briefing.Edition{}, err
	}
	if ed.NarrativeNote != "" && e.m.LLM != nil {
		e.m.Logger.Info("digest: the opening is the deterministic one", "why", ed.NarrativeNote)
	}
	return briefing.Edition{Date: ed.Date, Headline: ed.Headline, Owner: ed.OwnerText, Accounts: ed.AccountsText,
		OwnerMail: ed.OwnerMail, AccountsMail: ed.AccountsMail}, nil
}

// latestBriefs answers "aaj ka digest": yesterday's digest, made from the
// books as they are now, without the model, inside the webhook's budget.
type latestBriefs struct{ m *Main }

func (l latestBriefs) LatestBrief(ctx context.Context, role domain.Role) (string, error) {
	e, err := l.m.Edition(ctx, digest.Yesterday(l.m.now(), l.m.location()), false)
	if err != nil {
		return "", err
	}
	if role == domain.RoleAccounts {
		return e.AccountsText, nil
	}
	return e.OwnerText, nil
}

const digestHelp = `usage: munshi digest [--date YYYY-MM-DD] [--send] [--demo]

Prints the daily digest of a date (default yesterday in MUNSHI_TZ): the
owners' brief, then the accounts' dues brief. --send sends it to its
recipients through the same claims as the 7 am run, so a manual send and
the scheduled one never both go.`

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
	date := digest.Yesterday(m.now(), m.location())
	if *dateFlag != "" {
		if date, err = time.ParseInLocation("2006-01-02", *dateFlag, m.location()); err != nil {
			fmt.Fprintf(env.stderr, "munshi digest: --date %q must be a date such as 2026-03-13\n", *dateFlag)
			return errUsage
		}
	}
	if err := m.Open(ctx); err != nil {
		m.Close()
		return err
	}
	defer m.Close()
	// The same edition is printed and, with --send, sent.
	e, err := m.Digest.Editions.Edition(ctx, date)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "%s\n\n----- accounts -----\n\n%s\n", e.Owner, e.Accounts)
	if !*send {
		return nil
	}
	sent, err := m.Digest.SendEdition(ctx, e)
	if err != nil {
		return err
	}
	// Deliver what this send enqueued before returning.
	m.Dispatcher.Resume(ctx)
	m.Dispatcher.Drain(ctx)
	fmt.Fprintf(env.stdout, "\nsent the digest of %s: %d briefs, %d templates, %d by email only, %d mails; %d sent before\n",
		sent.Date, sent.Briefs, sent.Templates, sent.EmailOnly, sent.Mails, sent.Already)
	return nil
}

// heldBriefs sends a person the digest held for them (they were outside
// WhatsApp's window) as soon as a new message of theirs is claimed.
type heldBriefs struct {
	webhook.Inbox
	digest *briefing.Service
}

func (h heldBriefs) Claim(ctx context.Context, in domain.Inbound, lease time.Duration) (claimed, done bool, reply domain.Reply, err error) {
	claimed, done, reply, err = h.Inbox.Claim(ctx, in, lease)
	if claimed && err == nil {
		h.digest.Replied(ctx, in.From)
	}
	return claimed, done, reply, err
}

// digestStatuses records status callbacks and lets the digest fall back
// when Twilio reports a brief undelivered outside the window (63016).
type digestStatuses struct {
	webhook.StatusRecorder
	digest *briefing.Service
}

func (d digestStatuses) RecordDeliveryStatus(ctx context.Context, messageSID, status, errorCode string) error {
	if err := d.StatusRecorder.RecordDeliveryStatus(ctx, messageSID, status, errorCode); err != nil {
		return err
	}
	d.digest.DeliveryFailed(ctx, messageSID, status, errorCode)
	return nil
}
