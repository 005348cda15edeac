package reports_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// statusBooks are the known books with an order in every state: ORD-1009,
// Ravi's, refused by the owner three hours ago, and T-77, an imported
// bill of his still open in the old system.
func statusBooks(t *testing.T) *books {
	return openBooks(t, reportstest.Now, func(ctx context.Context, s store.Store) error {
		if err := reportstest.Known(ctx, s); err != nil {
			return err
		}
		cs, err := s.Customers(ctx)
		if err != nil {
			return err
		}
		ps, err := s.Products(ctx)
		if err != nil {
			return err
		}
		bySKU := map[string]domain.Product{}
		for _, p := range ps {
			bySKU[p.SKU] = p
		}
		d, err := orders.Price(cs[0], domain.PayCredit, []orders.Item{{SKU: "PH1L", Qty: 12}}, bySKU)
		if err != nil {
			return err
		}
		d.ID, d.PlacedBy, d.Status, d.CreatedAt = "ORD-1009", reportstest.KnownSales, orders.DraftPendingApproval, reportstest.Now.Add(-4*time.Hour)
		if err := s.SaveDraft(ctx, d); err != nil {
			return err
		}
		if _, err := s.MoveDraft(ctx, orders.DraftMove{ID: d.ID, From: []orders.DraftStatus{orders.DraftPendingApproval},
			To: orders.DraftRejected, By: reportstest.KnownOwner}); err != nil {
			return err
		}
		l := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 24, Price: 9000, GSTRate: 1800})
		at := reportstest.Now.Add(-100 * 24 * time.Hour)
		_, err = s.ImportHistory(ctx, []domain.Order{{ID: "T-77", CustomerID: "C03", PlacedBy: reportstest.KnownSales,
			Status: domain.OrderCommitted, Lines: []domain.OrderLine{l}, Subtotal: l.Amount, GST: l.GSTAmount,
			Total: l.Amount + l.GSTAmount, CreatedAt: at, CommittedAt: at}}, nil)
		return err
	})
}

func statusOf(t *testing.T, res reports.Result) *reports.OrderStatus {
	t.Helper()
	s, ok := res.Report.(*reports.OrderStatus)
	if !ok {
		t.Fatalf("report %T, want *reports.OrderStatus", res.Report)
	}
	return s
}

func orderIDs(s *reports.OrderStatus) []string {
	var out []string
	for _, o := range s.Orders {
		out = append(out, o.ID)
	}
	return out
}

func TestToolOrderStatusOwnOrders(t *testing.T) {
	b := statusBooks(t)
	// Ravi's own orders, newest first, whatever the others placed.
	res := b.call(t, sales, reports.ToolOrderStatus, nil)
	wantText(t, res.Text, `*Your orders*: 4
⏳ 1 waiting for approval, 🚚 2 to deliver, 🚫 1 not approved

⏳ ORD-1008 Mehta Traders: ₹2,605.44, waiting for the owner's approval, today
🚫 ORD-1009 Rajesh Kirana Store: ₹920.40, not approved by the owner, today
🚚 ORD-1004 Rajesh Kirana Store: ₹21,173.76, committed, to deliver, 1 day
🚚 T-77 Mehta Traders: ₹2,548.80, committed, to deliver (imported history), 100 days`)
	// Asking about a customer narrows his own; never someone else's.
	res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"customer": "Sharma"})
	if s := statusOf(t, res); s.Totals.Count() != 0 || !s.Mine || res.Text != "*Your orders for Sharma General Store*: none." {
		t.Fatalf("Ravi asking for Sharma's: %+v\n%s", s, res.Text)
	}
	// One of his by number, as people write it.
	for _, ref := range []string{"ORD-1004", "ord 1004", "1004", "order #1004", "ORDER-1004"} {
		res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"order": ref})
		wantText(t, res.Text, `*ORD-1004* for Rajesh Kirana Store
🚚 Committed, to deliver
₹21,173.76 with GST, 2 items, placed on 13 Mar (1 day)`)
	}
	res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"order": "t-77"})
	wantContains(t, res.Text, "*T-77* for Mehta Traders", "(imported history)")
	// By its number alone, the one order the books number so their way.
	for _, ref := range []string{"77", "order 77"} {
		res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"order": ref})
		wantContains(t, res.Text, "*T-77* for Mehta Traders", "(imported history)")
	}
	// His last order: the newest of his, as one order; of a customer he
	// has none for, none.
	res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"latest": true})
	wantContains(t, res.Text, "*ORD-1008* for Mehta Traders", "Waiting for the owner's approval")
	res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"latest": true, "customer": "Rajesh"})
	wantContains(t, res.Text, "*ORD-1009* for Rajesh Kirana Store")
	if res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"latest": true, "customer": "Sharma"}); res.Text != "*Your orders for Sharma General Store*: none." {
		t.Fatalf("the last of none: %q", res.Text)
	}
}

func TestToolOrderStatusNotYours(t *testing.T) {
	b := statusBooks(t)
	res, err := b.tools.Call(context.Background(), sales, reports.ToolOrderStatus, map[string]any{"order": "ORD-1005"})
	want := "Sorry Ravi, ORD-1005 is not one of your orders, so I can't share where it stands. The owners or the accounts team can tell you. 🙏"
	if domain.ErrorCode(err) != domain.EUNAUTHORIZED || !res.Refused || res.Text != want || res.Report != nil {
		t.Fatalf("Ravi asking for Sunil's order: %v %+v", err, res)
	}
	refusals := b.audits(t, reports.KindRefusal)
	if len(refusals) != 1 || refusals[0].Actor != sales.Phone || refusals[0].Subject != reports.ToolOrderStatus || refusals[0].Detail["refused"] != true {
		t.Fatalf("refusals audited: %+v", refusals)
	}
	// Owners and accounts may ask about anyone's.
	res = b.call(t, owner, reports.ToolOrderStatus, map[string]any{"order": "ORD-1005"})
	wantText(t, res.Text, `*ORD-1005* for Sharma General Store
🚚 Committed, to deliver
₹18,408 with GST, 1 item, placed on 14 Mar (today) by Sunil Yadav`)
	res = b.call(t, accounts, reports.ToolOrderStatus, map[string]any{"order": "1007"})
	wantContains(t, res.Text, "*ORD-1007* for Mehta Traders", "❌ Cancelled", "by Sunil Yadav")
	res = b.call(t, accounts, reports.ToolOrderStatus, map[string]any{"order": "ORD-1001"})
	wantContains(t, res.Text, "✅ Delivered since 3 Feb", "placed on 2 Feb (40 days)")
	// An order nobody has is not found, for anyone.
	for _, u := range []domain.User{sales, owner} {
		res = b.call(t, u, reports.ToolOrderStatus, map[string]any{"order": "ORD-9999"})
		wantText(t, res.Text, "I can't find an order ORD-9999. Please check the number (it looks like ORD-1042).")
	}
	// Anyone without a role of the business sees nothing.
	if res, err := b.tools.Call(context.Background(), nobody, reports.ToolOrderStatus, nil); !res.Refused || domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Fatalf("nobody: %v %+v", err, res)
	}
	if n := len(b.audits(t, reports.KindRefusal)); n != 2 {
		t.Fatalf("%d refusals audited, want 2", n)
	}
	if n := len(b.audits(t, reports.KindTool)); n != 5 {
		t.Fatalf("%d calls audited, want 5", n)
	}
}

func TestToolOrderStatusFilters(t *testing.T) {
	b := statusBooks(t)
	res := b.call(t, owner, reports.ToolOrderStatus, map[string]any{"customer": "Rajesh"})
	s := statusOf(t, res)
	if got := orderIDs(s); !reflect.DeepEqual(got, []string{"ORD-1009", "ORD-1004", "ORD-1003", "ORD-1002", "ORD-1001"}) {
		t.Fatalf("Rajesh's orders %v", got)
	}
	if want := (reports.OrderStatusTotals{Rejected: 1, Committed: 1, Delivered: 3}); s.Totals != want {
		t.Fatalf("totals %+v, want %+v", s.Totals, want)
	}
	// Today in Kolkata: the draft an hour old, ORD-1005 two hours old and
	// ORD-1009 four hours old.
	res = b.call(t, owner, reports.ToolOrderStatus, map[string]any{"period": "today"})
	if got := orderIDs(statusOf(t, res)); !reflect.DeepEqual(got, []string{"ORD-1008", "ORD-1005", "ORD-1009"}) {
		t.Fatalf("today's orders %v", got)
	}
	wantContains(t, res.Text, "*Orders, today (14 Mar)*: 3", "⏳ ORD-1008 Mehta Traders: ₹2,605.44, waiting for the owner's approval, today, by Ravi Kumar")
	res = b.call(t, sales, reports.ToolOrderStatus, map[string]any{"period": "aaj"})
	if got := orderIDs(statusOf(t, res)); !reflect.DeepEqual(got, []string{"ORD-1008", "ORD-1009"}) {
		t.Fatalf("Ravi's orders today %v", got)
	}
	if _, err := b.tools.Call(context.Background(), owner, reports.ToolOrderStatus, map[string]any{"period": "someday"}); domain.ErrorCode(err) != domain.EINVALID {
		t.Fatalf("a period nobody knows: %v", err)
	}
	tab := res.Table()
	if tab.Count != 2 || tab.Column("status") != 1 || tab.Rows[0][1].Text != "waiting for the owner's approval" {
		t.Fatalf("table %+v", tab)
	}
}

func TestToolOrderStatusPages(t *testing.T) {
	b := statusBooks(t)
	b.tools.PageRows = 3
	ctx := context.Background()
	var seen []string
	reply := b.tools.Reply(ctx, owner, reports.Call{Tool: reports.ToolOrderStatus, Args: map[string]any{}})
	for pages := 1; ; pages++ {
		for _, l := range lines(reply.Text) {
			if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(l, f[0]+" ") && (strings.HasPrefix(f[1], "ORD-") || strings.HasPrefix(f[1], "T-")) {
				seen = append(seen, f[1])
			}
		}
		if !strings.Contains(reply.Text, "MORE") {
			break
		}
		if pages > 5 {
			t.Fatal("no end to the pages")
		}
		var ok bool
		if reply, ok = b.tools.More(ctx, owner); !ok {
			t.Fatal("MORE had nothing to continue")
		}
	}
	want := []string{"ORD-1008", "ORD-1005", "ORD-1009", "ORD-1004", "ORD-1007", "ORD-1003", "ORD-1002", "ORD-1001", "ORD-1006", "T-77"}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("pages showed %v, want %v", seen, want)
	}
}

// TestPlanOrderStatus: the router's decision that a message asks where
// orders stand maps to order_status with what the message named.
func TestPlanOrderStatus(t *testing.T) {
	b := statusBooks(t)
	for _, tc := range []struct {
		text string
		want map[string]any
	}{
		{"mera order status", map[string]any{}},
		{"ORD-1042 kahan hai", map[string]any{"order": "ORD-1042"}},
		{"order #1004 ka status?", map[string]any{"order": "order #1004"}},
		{"1004 kahan hai", map[string]any{"order": "1004"}},
		{"aaj ke mere orders", map[string]any{"period": "today"}},
		{"Rajesh ka order gaya kya?", map[string]any{"customer": []string{"C01"}}},
		{"last 30 days ke mere orders", map[string]any{"period": "last_30_days"}},
		{"5 carton GC wala order kahan hai", map[string]any{}},
		{"Rajesh ka last order kahan tak pahuncha", map[string]any{"customer": []string{"C01"}, "latest": true}},
		{"mera pichla order gaya kya", map[string]any{"latest": true}},
		{"pichle hafte ka order status", map[string]any{"period": "last_week"}},
		{"Rajesh ke last orders", map[string]any{"customer": []string{"C01"}}},
	} {
		n := b.router.Normalize(tc.text)
		call, ok := b.tools.Plan(intent.Decision{Text: tc.text, Intent: domain.IntentOrderStatus, Normalized: n})
		if !ok || call.Tool != reports.ToolOrderStatus || !reflect.DeepEqual(call.Args, tc.want) {
			t.Errorf("Plan(%q) = %+v, %v; want order_status %v", tc.text, call, ok, tc.want)
		}
	}
	// And answered through the deterministic path.
	d := intent.Decision{Text: "1004 kahan hai", Intent: domain.IntentOrderStatus, Normalized: b.router.Normalize("1004 kahan hai")}
	wantContains(t, b.tools.Answer(context.Background(), sales, d).Text, "*ORD-1004* for Rajesh Kirana Store", "🚚 Committed, to deliver")
	d = intent.Decision{Text: "ORD-1006 kahan hai", Intent: domain.IntentOrderStatus, Normalized: b.router.Normalize("ORD-1006 kahan hai")}
	wantContains(t, b.tools.Answer(context.Background(), sales, d).Text, "not one of your orders")
}

// TestOrderStatusKeys: an order status answer puts its customers in play,
// so that "unka outstanding" can follow "Rajesh ka order gaya kya?".
func TestOrderStatusKeys(t *testing.T) {
	b := statusBooks(t)
	k := reports.KeysOf(b.call(t, owner, reports.ToolOrderStatus, map[string]any{"order": "ORD-1004"}))
	if !reflect.DeepEqual(k.Customers, []string{"C01"}) || !reflect.DeepEqual(k.Rows, []string{"ORD-1004 Rajesh Kirana Store: committed, to deliver"}) {
		t.Fatalf("keys %+v", k)
	}
}
