package digest

import (
	"context"
	"log/slog"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/domain"
)

// Editions makes the digest's editions for its delivery
// (briefing.Editions): composed from Books with Options, the model
// phrasing the opening when Options.Narrator is set.
type Editions struct {
	Books   Books
	Options Options
	// Logger hears why the model's opening was not used; nil: not told.
	Logger *slog.Logger
}

// Edition composes the digest of date's day as the delivery sends it.
func (e Editions) Edition(ctx context.Context, date time.Time) (briefing.Edition, error) {
	ed, err := Compose(ctx, e.Books, date, e.Options)
	if err != nil {
		return briefing.Edition{}, err
	}
	if ed.NarrativeNote != "" && e.Logger != nil {
		e.Logger.Info("digest: the opening is the deterministic one", "why", ed.NarrativeNote)
	}
	return briefing.Edition{Date: ed.Date, Headline: ed.Headline, Owner: ed.OwnerText, Accounts: ed.AccountsText,
		OwnerMail: ed.OwnerMail, AccountsMail: ed.AccountsMail,
		OwnerFigures: OwnerFigures(ed.Facts), AccountsFigures: AccountsFigures(ed.Facts)}, nil
}

// OwnerFigures are the owners' brief's headline numbers as it writes
// them: the day's sales, orders and customers, and the payments received.
func OwnerFigures(f Facts) []briefing.Figure {
	return []briefing.Figure{
		{Name: "sales", Value: money(f.Sales.Amount)},
		{Name: "orders", Value: domain.GroupIndian(int64(f.Sales.Orders))},
		{Name: "customers", Value: domain.GroupIndian(int64(f.Sales.Customers))},
		{Name: "received", Value: money(f.Received)},
	}
}

// AccountsFigures are the dues brief's headline numbers: the payments
// received on the day, and what is due and from how many customers.
func AccountsFigures(f Facts) []briefing.Figure {
	return []briefing.Figure{
		{Name: "received", Value: money(f.Received)},
		{Name: "due", Value: money(f.Due)},
		{Name: "customers owing", Value: domain.GroupIndian(int64(f.Owing))},
	}
}
