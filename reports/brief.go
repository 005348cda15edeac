package reports

import (
	"context"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// ToolDailyDigest hands out the latest daily digest: the owners' brief,
// or the dues part for accounts.
const ToolDailyDigest = "daily_digest"

// Briefs makes the latest daily brief for a role: the owners' brief for
// owners, the dues part for accounts. The digest (reports/digest) is built
// outside this package, which it imports; the program wires one in.
type Briefs interface {
	LatestBrief(ctx context.Context, role domain.Role) (string, error)
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

// dailyDigest asks the wired Briefs for the person's part of the digest.
func (t *Tools) dailyDigest(ctx context.Context, user domain.User) (Report, error) {
	if t.Briefs == nil {
		return nil, domain.Errorf(domain.ENOTFOUND, "The daily digest is not set up here yet.")
	}
	text, err := t.Briefs.LatestBrief(ctx, user.Role)
	if err != nil {
		return nil, err
	}
	return &DigestBrief{Text: text}, nil
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
