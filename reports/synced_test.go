package reports_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// TestAnswersSayWhatIsNotInTheERPYet: once the ERP owns the dues, a
// customer's dues say when they were synced and what the chat recorded
// that the ERP's books do not show yet.
func TestAnswersSayWhatIsNotInTheERPYet(t *testing.T) {
	ctx := context.Background()
	b := knownBooks(t)
	asOf := reportstest.Now.Add(-20 * time.Minute)
	batch := erpsync.Batch{Entity: erpsync.Dues, State: erpsync.State{LastRun: asOf, LastGood: asOf}}
	if _, err := b.store.SyncDues(ctx, batch, []erpsync.DuesRow{{CustomerID: "C01", Outstanding: 3500000}}); err != nil {
		t.Fatal(err)
	}
	// A payment of ₹5,000 recorded in the chat since.
	p := orders.Proposal{ID: "P-1", Kind: orders.ProposePayment, ProposedBy: accounts.Phone, Status: orders.ProposalOpen, CreatedAt: reportstest.Now}
	if err := b.store.SaveProposal(ctx, p); err != nil {
		t.Fatal(err)
	}
	err := b.store.Settle(ctx, orders.Settlement{ProposalID: "P-1", By: accounts.Phone, Query: orders.LedgerQuery{CustomerID: "C01"},
		Judge: func(orders.Ledger) (orders.Settled, error) {
			return orders.Settled{Changes: []orders.Change{
				{Kind: orders.ChangePayment, CustomerID: "C01", Amount: 500000, Mode: domain.PayCOD},
				{Kind: orders.ChangeDue, CustomerID: "C01", Amount: -500000},
			}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	res := b.call(t, accounts, reports.ToolOutstanding, map[string]any{"customer": "C01"})
	wantContains(t, res.Text, "Outstanding: ₹30,000 (as of "+asOf.In(domain.DefaultLocation()).Format("15:04")+")",
		"₹5,000 recorded here, not yet in the books")
	// The Excel file says the same: a column of what was paid here, and
	// when the ERP's figures are from.
	table := res.Report.(interface {
		Table(time.Time, *time.Location) reports.Table
	}).Table(reportstest.Now, domain.DefaultLocation())
	col := table.Column("not_in_books")
	if col < 0 || table.Rows[0][col].Money != 500000 {
		t.Errorf("the dues table has no column of the ₹5,000 paid here: %+v", table.Columns)
	}
	var synced string
	for _, tot := range table.Totals {
		if tot.Column.Key == "synced_at" {
			synced = tot.Value.Text
		}
	}
	if synced != asOf.In(domain.DefaultLocation()).Format("2 Jan 2006 15:04") {
		t.Errorf("the dues table says the ERP's figures are as of %q", synced)
	}
}

// TestAsOfOnlyWhenStale: an answer on the ERP's figure says as of when
// only once its last sync is older than StaleAfter (three times its
// tier); a fresh one reads like Munshi's own.
func TestAsOfOnlyWhenStale(t *testing.T) {
	ctx := context.Background()
	b := knownBooks(t)
	synced := reportstest.Now.Add(-20 * time.Minute)
	batch := erpsync.Batch{Entity: erpsync.Dues, State: erpsync.State{LastRun: synced, LastGood: synced}}
	if _, err := b.store.SyncDues(ctx, batch, []erpsync.DuesRow{{CustomerID: "C01", Outstanding: 3500000}}); err != nil {
		t.Fatal(err)
	}
	asOf := " (as of " + synced.In(domain.DefaultLocation()).Format("15:04") + ")"
	for _, tc := range []struct {
		after time.Duration
		says  bool
	}{{time.Hour, false}, {6 * time.Minute, true}} {
		b.tools.StaleAfter = map[string]time.Duration{"dues": tc.after}
		one := b.call(t, accounts, reports.ToolOutstanding, map[string]any{"customer": "C01"}).Text
		all := b.call(t, accounts, reports.ToolOutstanding, nil).Text
		if strings.Contains(one, "Outstanding: ₹35,000"+asOf) != tc.says || strings.Contains(all, asOf) != tc.says {
			t.Errorf("stale after %s: as of said %v, want %v:\n%s\n%s", tc.after, !tc.says, tc.says, one, all)
		}
	}
}
