package reports

import (
	"context"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// ToolDailyDigest hands out a daily digest, today's or yesterday's: the
// owners' brief, or the dues part for accounts.
const ToolDailyDigest = "daily_digest"

// Editions of the digest a person may ask for, by the day it came out:
// today's is about yesterday, yesterday's about the day before.
const (
	EditionToday     = "today"
	EditionYesterday = "yesterday"
)

// Briefs hands out the daily brief for a role: the owners' brief for
// owners, the dues part for accounts. The digest (reports/digest) is built
// outside this package, which it imports; the program wires its delivery
// (internal/briefing) in.
type Briefs interface {
	// Brief is the digest that came out ago days before today (0: today's,
	// 1: yesterday's) as it was sent, or as the books make it now when it
	// was not.
	Brief(ctx context.Context, role domain.Role, ago int) (string, error)
}

// DigestBrief is the latest daily brief, as one block of text.
type DigestBrief struct {
	Text string
}

func (d *DigestBrief) Rows() int { return 1 }

func (d *DigestBrief) view(clock) ([]string, []string, int, int) {
	return strings.Split(d.Text, "\n"), nil, 0, 0
}

func (d *DigestBrief) table(clock) ([]string, [][]any, map[string]any) {
	return []string{"brief"}, [][]any{{d.Text}}, nil
}

// Table is the brief as one text cell.
func (d *DigestBrief) Table(time.Time, *time.Location) Table {
	return Table{Title: "Daily digest", Columns: []Column{{Key: "brief", Title: "Brief", Kind: ColText}},
		Rows: [][]Cell{{textCell(d.Text)}}, Count: 1}
}

// dailyDigest asks the wired Briefs for the person's part of the edition
// asked for (today's when none is named).
func (t *Tools) dailyDigest(ctx context.Context, user domain.User, args map[string]any, understood map[string]any) (Report, error) {
	ago := 0
	switch edition, _ := args["edition"].(string); edition {
	case "", EditionToday:
	case EditionYesterday:
		ago, understood["edition"] = 1, EditionYesterday
	default:
		return nil, domain.Errorf(domain.EINVALID, "The digest goes out every morning: ask for today's or yesterday's.")
	}
	if t.Briefs == nil {
		return nil, domain.Errorf(domain.ENOTFOUND, "The daily digest is not set up here yet.")
	}
	text, err := t.Briefs.Brief(ctx, user.Role, ago)
	if err != nil {
		return nil, err
	}
	return &DigestBrief{Text: text}, nil
}

// digestArgs names the edition a digest question asks for: "kal ka
// digest" is yesterday's edition (about the day before yesterday), as a
// digest is named by the morning it came out; "kal ka summary" is about
// yesterday, which today's edition is.
func digestArgs(has func(string) bool, period string) map[string]any {
	if period == PeriodYesterday && has("digest digests briefing") {
		return map[string]any{"edition": EditionYesterday}
	}
	return map[string]any{}
}

// asksForDigest reports whether a report question asks for the daily
// digest: "aaj ka digest", "kal ka summary bhejo", "daily report". Words
// of a sales question (sales, by customer, a product, this month) keep it
// a sales summary.
func asksForDigest(has func(string) bool, period string, named bool) bool {
	if has("digest digests briefing") {
		return true
	}
	if named || has("sales sale bikri becha revenue product products item items maal customer customers party wise by per top") {
		return false
	}
	if period != "" && period != PeriodToday && period != PeriodYesterday {
		return false
	}
	return has("summary summery saransh") || has("daily roz rozana") && has("report reports")
}
