package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/webhook"
)

// newDigest wires the daily digest's delivery.
func (m *Main) newDigest() *briefing.Service {
	return &briefing.Service{
		Editions: m.editions(), Sends: m.Store, Nudge: m.Dispatcher.Nudge, Logger: m.Logger, Now: m.now,
		Location: m.location(), TemplateSID: m.Config.DigestTemplateSID,
		OwnerEmails: m.Config.OwnerEmails(), AccountsEmails: m.Config.AccountsEmails(),
	}
}

// location is MUNSHI_TZ; a configuration built in code without it is in
// Kolkata.
func (m *Main) location() *time.Location {
	if m.Config.Location != nil {
		return m.Config.Location
	}
	loc, err := config.LoadLocation(config.DefaultZone)
	if err != nil {
		return time.FixedZone(config.DefaultZone, 5*3600+1800)
	}
	return loc
}

// editions makes the digest's content. The books' totals stand until the
// digest's own content (reports) is wired here.
func (m *Main) editions() briefing.Editions {
	return booksEditions{books: m.Store}
}

// booksEditions is a plain digest from the books' totals: the day's sales,
// what waits, what is out of stock, and the dues.
type booksEditions struct{ books reports.Books }

func (e booksEditions) Edition(ctx context.Context, date time.Time) (briefing.Edition, error) {
	day := date.Format("Mon 2 Jan")
	sales, _, err := e.books.SalesSummary(ctx, reports.SalesQuery{From: date, To: date.AddDate(0, 0, 1), By: reports.ByCustomer,
		Page: reports.Page{Limit: 1}})
	if err != nil {
		return briefing.Edition{}, err
	}
	outs, _, err := e.books.StockOuts(ctx, reports.Page{Limit: 1})
	if err != nil {
		return briefing.Edition{}, err
	}
	open, _, err := e.books.OpenOrders(ctx, reports.OpenOrdersQuery{Page: reports.Page{Limit: 1}})
	if err != nil {
		return briefing.Edition{}, err
	}
	dues, _, err := e.books.Dues(ctx, reports.DuesQuery{Page: reports.Page{Limit: 1}})
	if err != nil {
		return briefing.Edition{}, err
	}
	headline := fmt.Sprintf("Sales on %s: %s before GST, %d orders from %d customers", day, sales.Amount, sales.Orders, sales.Groups)
	owner := strings.Join([]string{
		"☀️ " + headline + ".",
		fmt.Sprintf("⏳ Waiting: %d drafts for your approval, %d orders to deliver.", open.AwaitingApproval, open.ToDeliver),
		fmt.Sprintf("📦 Out of stock: %d products.", outs),
		fmt.Sprintf("💰 Dues: %s from %d customers, %d over their limit.", dues.Outstanding, dues.Customers, dues.OverLimit),
	}, "\n")
	accounts := fmt.Sprintf("💰 Dues on %s: %s from %d customers, %d over their limit.", day, dues.Outstanding, dues.Customers, dues.OverLimit)
	return briefing.Edition{
		Date: date, Headline: headline, Owner: owner, Accounts: accounts,
		OwnerMail:    domain.Email{Subject: "Munshi digest — " + day, Text: owner},
		AccountsMail: domain.Email{Subject: "Munshi dues — " + day, Text: accounts},
	}, nil
}

// cmdDigest prints the digest of a date (yesterday by default) and, with
// --send, delivers it through the same claims as the 7 am run, so that a
// manual send and the scheduled one never both go.
func cmdDigest(ctx context.Context, env environment, args []string) error {
	fs := flag.NewFlagSet("digest", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	date := fs.String("date", "", "the day the digest is about, YYYY-MM-DD (default yesterday in MUNSHI_TZ)")
	send := fs.Bool("send", false, "send it to its recipients (once per date and recipient)")
	demoMode := fs.Bool("demo", false, "seed the demo distributor into an empty database first")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return errUsage
	}
	cfg := config.FromEnv(env.getenv)
	if err := cfg.Validate(); err != nil {
		return err
	}
	m := NewMain(cfg, *demoMode, env.stderr)
	if err := m.Open(ctx); err != nil {
		return err
	}
	defer m.Close()
	day := m.Digest.Yesterday()
	if *date != "" {
		d, err := time.ParseInLocation(time.DateOnly, *date, m.location())
		if err != nil {
			fmt.Fprintf(env.stderr, "munshi digest: --date %q must be YYYY-MM-DD\n", *date)
			return errUsage
		}
		day = d
	}
	ed, err := m.Digest.Editions.Edition(ctx, day)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.stdout, ed.Owner)
	if !*send {
		return nil
	}
	sent, err := m.Digest.Send(ctx, day)
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
