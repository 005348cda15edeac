package reports_test

import (
	"context"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// briefs hands out fixed briefs by role, counts the calls and keeps the
// edition last asked for.
type briefs struct{ calls, ago int }

func (b *briefs) Brief(_ context.Context, role domain.Role, ago int) (string, error) {
	b.calls++
	b.ago = ago
	if role == domain.RoleAccounts {
		return "*Munshi dues · Fri 13 Mar*\nDue now ₹1,95,000 from 2 customers.", nil
	}
	return "*Munshi digest · Fri 13 Mar*\nFri 13 Mar: sales ₹44,040.", nil
}

func TestDigestOnDemand(t *testing.T) {
	b := knownBooks(t)
	// Digest words make the digest; sales words keep a sales summary.
	for text, want := range map[string]string{
		"aaj ka digest":           reports.ToolDailyDigest,
		"kal ka summary bhejo":    reports.ToolDailyDigest,
		"daily report":            reports.ToolDailyDigest,
		"digest":                  reports.ToolDailyDigest,
		"sales summary last week": reports.ToolSalesSummary,
		"daily sales report":      reports.ToolSalesSummary,
		"kal ka report":           reports.ToolSalesSummary,
		"top customers":           reports.ToolTopCustomers,
	} {
		d := b.router.Route(context.Background(), text)
		if d.Intent != domain.IntentReport {
			t.Fatalf("%q routed to %s", text, d.Intent)
		}
		if call, ok := b.tools.Plan(d); !ok || call.Tool != want {
			t.Errorf("%q → %s, want %s", text, call.Tool, want)
		}
	}

	// Not wired: a polite word, not an error page.
	if got := b.ask(t, owner, "aaj ka digest"); !strings.Contains(got, "not set up") {
		t.Errorf("without briefs: %q", got)
	}
	src := &briefs{}
	b.tools.Briefs = src
	if got := b.ask(t, owner, "aaj ka digest"); got != "*Munshi digest · Fri 13 Mar*\nFri 13 Mar: sales ₹44,040." {
		t.Errorf("owner got %q", got)
	}
	if got := b.ask(t, accounts, "kal ka summary bhejo"); !strings.HasPrefix(got, "*Munshi dues") {
		t.Errorf("accounts got %q", got)
	}
	// Salespeople are refused like other owner questions, without the
	// digest being made.
	before := src.calls
	got := b.ask(t, sales, "daily report")
	if src.calls != before || !strings.Contains(got, "Sorry Ravi") || !strings.Contains(got, "the owners and the accounts team") {
		t.Errorf("sales got %q (%d digests made)", got, src.calls-before)
	}
	if a := b.audits(t, "refusal"); len(a) == 0 || a[len(a)-1].Subject != reports.ToolDailyDigest {
		t.Errorf("refusal not audited: %+v", a)
	}
}

// TestDigestEditionAskedFor: "aaj ka digest" is today's edition (about
// yesterday) and "kal ka digest" yesterday's (about the day before); a
// summary "of kal" is about yesterday, which today's edition is.
func TestDigestEditionAskedFor(t *testing.T) {
	b := knownBooks(t)
	src := &briefs{}
	b.tools.Briefs = src
	for text, ago := range map[string]int{
		"aaj ka digest":        0,
		"digest":               0,
		"kal ka digest":        1,
		"kal ka digest bhejo":  1,
		"yesterday digest":     1,
		"kal ka summary bhejo": 0,
		"aaj ka summary":       0,
	} {
		src.ago = -1
		if got := b.ask(t, owner, text); !strings.HasPrefix(got, "*Munshi digest") || src.ago != ago {
			t.Errorf("%q asked for the edition of %d days ago (%q), want %d", text, src.ago, got, ago)
		}
	}
	before := src.calls
	_, err := b.tools.Call(context.Background(), owner, reports.ToolDailyDigest, map[string]any{"edition": "last_week"})
	if domain.ErrorCode(err) != domain.EINVALID || !strings.Contains(domain.ErrorMessage(err), "today's or yesterday's") || src.calls != before {
		t.Errorf("an unknown edition = %v; want refused without a digest", err)
	}
}
