package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/digest"
)

// DigestSender sends a day's digest to its recipients (owners and
// accounts, on WhatsApp and by mail), once per date and recipient. The
// delivery side provides it; until then `munshi digest --send` says it is
// not available.
type DigestSender interface {
	Send(ctx context.Context, e digest.Edition) error
}

// digestOptions are the digest's settings from the configuration; with
// narrate, the model phrases the opening when one is configured.
func (m *Main) digestOptions(narrate bool) digest.Options {
	o := digest.Options{Location: m.Config.Location, AccountsEmails: m.Config.AccountsEmails()}
	if narrate && m.LLM != nil {
		o.Narrator = m.LLM
	}
	return o
}

// Edition composes the digest of date's day from the books.
func (m *Main) Edition(ctx context.Context, date time.Time, narrate bool) (digest.Edition, error) {
	return digest.Compose(ctx, m.Store, date, m.digestOptions(narrate))
}

// latestBriefs answers "aaj ka digest": yesterday's digest, made from the
// books as they are now, without the model, inside the webhook's budget.
type latestBriefs struct{ m *Main }

func (l latestBriefs) LatestBrief(ctx context.Context, role domain.Role) (string, error) {
	e, err := l.m.Edition(ctx, digest.Yesterday(l.m.now(), l.m.Config.Location), false)
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
recipients.`

func cmdDigest(ctx context.Context, env environment, args []string) error {
	fs := newFlags("digest", digestHelp, env.stderr)
	dateFlag := fs.String("date", "", "the day, YYYY-MM-DD in MUNSHI_TZ (default yesterday)")
	send := fs.Bool("send", false, "send the digest to owners and accounts")
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
	date := digest.Yesterday(m.now(), cfg.Location)
	if *dateFlag != "" {
		if date, err = time.ParseInLocation("2006-01-02", *dateFlag, cfg.Location); err != nil {
			fmt.Fprintf(env.stderr, "munshi digest: --date %q must be a date such as 2026-03-13\n", *dateFlag)
			return errUsage
		}
	}
	if err := m.Open(ctx); err != nil {
		m.Close()
		return err
	}
	defer m.Close()
	if *send && m.DigestSender == nil {
		return errors.New("digest: --send is not available yet: delivery of the digest is not wired into this build")
	}
	e, err := m.Edition(ctx, date, true)
	if err != nil {
		return err
	}
	if e.NarrativeNote != "" && m.LLM != nil {
		m.Logger.Info("digest: the opening is the deterministic one", "why", e.NarrativeNote)
	}
	fmt.Fprintf(env.stdout, "%s\n\n----- accounts -----\n\n%s\n", e.OwnerText, e.AccountsText)
	if *send {
		return m.DigestSender.Send(ctx, e)
	}
	return nil
}
