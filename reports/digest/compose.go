package digest

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Edition is one day's digest, ready to send: what the delivery side puts
// in the outbox.
type Edition struct {
	Date time.Time // D, local midnight
	// Headline is one sentence: the day against its baseline (the
	// WhatsApp template's variable).
	Headline string
	// OwnerText is the owners' WhatsApp brief and AccountsText the dues
	// part for accounts; each under MaxBriefChars.
	OwnerText, AccountsText string
	OwnerMail, AccountsMail domain.Email
	Facts                   Facts
	// Narrated says the opening is the model's; NarrativeNote why not
	// when a model was asked and its text was not used.
	Narrated      bool
	NarrativeNote string
}

// Compose builds the digest of date's day (in the options' zone): the
// facts, the opening (the model's sentences when a Narrator is set and its
// text passes the check in time, else Summary), the two briefs and the
// two mails.
func Compose(ctx context.Context, b Books, date time.Time, o Options) (Edition, error) {
	f, err := Build(ctx, b, date, o)
	if err != nil {
		return Edition{}, err
	}
	lines, err := b.DaySaleLines(ctx, Span{From: f.Date, To: f.Date.AddDate(0, 0, 1)})
	if err != nil {
		return Edition{}, fmt.Errorf("digest: sale lines: %w", err)
	}
	e := Edition{Date: f.Date, Headline: Headline(f), Facts: f}
	opening := Summary(f)
	if o.Narrator != nil {
		text, why := narrate(ctx, o.Narrator, f, o.NarrativeTimeout)
		if text != "" {
			opening, e.Narrated = text, true
		}
		e.NarrativeNote = why
	}
	e.OwnerText = OwnerText(f, opening)
	e.AccountsText = AccountsText(f)
	e.OwnerMail = OwnerMail(ctx, f, opening, lines, o.OwnerEmails)
	e.AccountsMail = AccountsMail(f, o.AccountsEmails)
	return e, nil
}
