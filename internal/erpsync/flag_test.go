package erpsync_test

import (
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/orders"
)

// TestUnsettledTellsAccounts: a payment recorded in the chat against dues
// the ERP owns stays provisional; once it is older than settle_days and
// the ERP still does not show it, a run tells accounts, once. The ERP's
// payment of it settles it.
func TestUnsettledTellsAccounts(t *testing.T) {
	f := newFixture(t)
	for _, e := range []erpsync.Entity{erpsync.Products, erpsync.Customers, erpsync.Dues} {
		f.run(t, e)
	}
	ps, _ := f.books.Products(ctx)
	cs, _ := f.books.Customers(ctx)
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := &orders.Service{Books: f.books, Parser: orders.NewParser(r, ps, cs), Audit: audit.New(f.books, nil, quiet), Logger: quiet,
		MinimumOrder: 100000, Now: f.clock.Now}
	priya := domain.User{Phone: accounts, Name: "Priya", Role: domain.RoleAccounts}
	if reply := svc.RecordPayment(ctx, priya, "Rajesh 7000 cash"); !strings.Contains(strings.ToLower(reply.Text), "ok") {
		t.Fatalf("payment: %q", reply.Text)
	}
	if reply := svc.Confirm(ctx, priya, ""); !strings.Contains(reply.Text, "Recorded") {
		t.Fatalf("ok: %q", reply.Text)
	}
	before := len(f.told(t, accounts))
	f.clock.Advance(6 * 24 * time.Hour)
	if r := f.run(t, erpsync.Dues); r.Flagged != 0 {
		t.Fatalf("flagged within the week: %+v", r)
	}
	f.clock.Advance(2 * 24 * time.Hour)
	if r := f.run(t, erpsync.Dues); r.Flagged != 1 {
		t.Fatalf("not flagged after eight days: %+v", r)
	}
	told := f.told(t, accounts)[before:]
	if len(told) != 1 || !contains(told[0], "still not in the ERP after 7 days", "payment of ₹7,000 from C01", "10 Mar") {
		t.Fatalf("accounts told %q", told)
	}
	if r := f.run(t, erpsync.Dues); r.Flagged != 0 || len(f.told(t, accounts)) != before+1 {
		t.Fatalf("told again: %+v", r)
	}
	// The ERP shows it at last: the payments run settles it.
	f.erp.exec(t, `INSERT INTO MoneyReceipts VALUES ('R-7', '2026-03-10', 'C01', '7000', 'cash')`)
	if r := f.run(t, erpsync.Payments); r.Settled != 1 {
		t.Errorf("payments run %+v, want the chat's payment settled", r)
	}
}
