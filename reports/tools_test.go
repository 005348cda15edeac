package reports_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

func TestToolCheckStock(t *testing.T) {
	b := knownBooks(t)
	res := b.call(t, owner, reports.ToolCheckStock, map[string]any{"product": "GC"})
	wantText(t, res.Text, `*Glass Cleaner 500ml* (GC500)
Ready: 2,400 bottles (100 cartons)
Committed to open orders: 96 bottles (4 cartons)
Available: 2,304 bottles (96 cartons)
In production: 480 bottles (20 cartons)`)
	check := res.Report.(*reports.StockCheck)
	if len(check.Lines) != 1 || check.Lines[0].Available() != 2304 || check.Asked != 0 || res.Args["product"] != "GC500" {
		t.Fatalf("check = %+v, args %v", check, res.Args)
	}

	// "can we commit 200 cartons of phenyl?": 2,400 bottles against 1,560.
	res = b.call(t, owner, reports.ToolCheckStock, map[string]any{"product": "phenyl", "quantity": 200.0, "unit": "cartons"})
	check = res.Report.(*reports.StockCheck)
	if check.Asked != 2400 || check.CanCommit() || res.Args["quantity"] != int64(2400) {
		t.Fatalf("200 cartons of phenyl = %+v", check)
	}
	if got := lines(res.Text)[0]; got != "❌ Not from stock: 2,400 bottles (200 cartons) of Phenyl 1L asked, 1,560 bottles available (short by 840 bottles)." {
		t.Fatalf("verdict %q", got)
	}
	// 130 cartons is exactly what is available.
	res = b.call(t, owner, reports.ToolCheckStock, map[string]any{"product": "PH1L", "quantity": 130, "unit": "carton"})
	if !res.Report.(*reports.StockCheck).CanCommit() || lines(res.Text)[0] != "✅ Yes: 1,560 bottles (130 cartons) of Phenyl 1L can be committed." {
		t.Fatalf("130 cartons:\n%s", res.Text)
	}
	// A quantity without a unit is in base units; a unit the product does
	// not come in is an error that says what it comes in.
	res = b.call(t, owner, reports.ToolCheckStock, map[string]any{"product": "PH1L", "quantity": "1,561"})
	if res.Report.(*reports.StockCheck).CanCommit() {
		t.Fatal("1,561 bottles should not fit in 1,560")
	}
	_, err := b.tools.Call(context.Background(), owner, reports.ToolCheckStock, map[string]any{"product": "PH1L", "quantity": 2, "unit": "dozen"})
	if domain.ErrorCode(err) != domain.EINVALID || domain.ErrorMessage(err) != "Phenyl 1L comes in bottles, cartons of 12 or packs of 6, not dozen." {
		t.Fatalf("dozen of phenyl: %v", err)
	}
	_, err = b.tools.Call(context.Background(), owner, reports.ToolCheckStock, map[string]any{"product": "soap"})
	if domain.ErrorCode(err) != domain.ENOTFOUND || domain.ErrorMessage(err) != `I couldn't find a product called "soap".` {
		t.Fatalf("soap: %v", err)
	}
	_, err = b.tools.Call(context.Background(), owner, reports.ToolCheckStock, map[string]any{"product": "PH1L", "quantity": 2.5})
	if domain.ErrorCode(err) != domain.EINVALID {
		t.Fatalf("2.5 bottles: %v", err)
	}
}

func TestToolStockCatalogAndOutOfStock(t *testing.T) {
	b := knownBooks(t)
	res := b.call(t, owner, reports.ToolCheckStock, nil)
	wantText(t, res.Text, `*Stock*: 4 products, ₹3,45,800 ready at list price
⚠️ 2 out of stock, 1 oversold (ask "out of stock" for the list)

• Floor Broom: none available (100 pieces ready, 120 committed)
• Glass Cleaner 500ml: 2,304 bottles available (2,400 ready − 96 committed), 480 in production
• Naphthalene Balls 100g: 0 packs available, 1,000 in production
• Phenyl 1L: 1,560 bottles available (1,800 ready − 240 committed), 600 in production`)
	if res.Next != nil || res.Shown != 4 {
		t.Fatalf("shown %d, next %v", res.Shown, res.Next)
	}
	res = b.call(t, sales, reports.ToolOutOfStock, nil)
	wantText(t, res.Text, `*Out of stock*: 2 products with nothing available

• Floor Broom (BR01): 100 pieces ready, 120 committed, none in production
• Naphthalene Balls 100g (NB100): 0 packs ready, 1,000 in production`)
	// What runs out first: nothing available first, then by days of
	// cover at the last 28 days' sales.
	res = b.call(t, owner, reports.ToolOutOfStock, map[string]any{"soon": true})
	wantText(t, res.Text, `*Running low*: the products that run out first at the last 28 days' sales

• Floor Broom: none available (100 pieces ready, 120 committed)
• Naphthalene Balls 100g: 0 packs available, 1,000 in production
• Phenyl 1L: 1,560 bottles available (1,800 ready − 240 committed), 600 in production
• Glass Cleaner 500ml: 2,304 bottles available (2,400 ready − 96 committed), 480 in production`)
	if res.Args["soon"] != true {
		t.Fatalf("understood %v", res.Args)
	}
}

func TestToolOutstanding(t *testing.T) {
	b := knownBooks(t)
	res := b.call(t, accounts, reports.ToolOutstanding, nil)
	wantText(t, res.Text, `*Who owes us*: 2 customers, ₹1,95,000 in all
⚠️ 1 over their credit limit

1. Sharma General Store: ₹1,60,000 ⚠️ over limit by ₹10,000; oldest bill over 60 days
2. Rajesh Kirana Store: ₹35,000 (limit ₹1,00,000); oldest bill 40 days`)
	res = b.call(t, owner, reports.ToolOutstanding, map[string]any{"customer": "Rajesh"})
	wantText(t, res.Text, `*Rajesh Kirana Store* (C01)
Outstanding: ₹35,000
Credit limit: ₹1,00,000
Headroom: ₹65,000
Oldest unpaid bill: ORD-1001 of 2 Feb, 40 days; 3 unpaid bills`)
	due := res.Report.(*reports.Dues).Customers[0]
	if due.Outstanding != 3500000 || due.Headroom() != 6500000 || due.OldestBill != "ORD-1001" {
		t.Fatalf("Rajesh = %+v", due)
	}
	res = b.call(t, owner, reports.ToolOutstanding, map[string]any{"customer": "C03"})
	wantText(t, res.Text, "*Mehta Traders* (C03)\nNothing outstanding. 👍\nCredit limit: ₹5,00,000")
}

func TestToolPendingOrders(t *testing.T) {
	b := knownBooks(t)
	res := b.call(t, accounts, reports.ToolPendingOrders, nil)
	wantText(t, res.Text, `*Pending orders*
⏳ Waiting for approval: 1 (₹2,605.44)
🚚 To deliver: 2 (₹39,581.76)

⏳ ORD-1008 Mehta Traders: ₹2,605.44, 1 item, today
🚚 ORD-1004 Rajesh Kirana Store: ₹21,173.76, 2 items, 1 day
🚚 ORD-1005 Sharma General Store: ₹18,408, 1 item, today`)
	// Sales staff see only what they placed, even when they ask for all.
	res = b.call(t, sales, reports.ToolPendingOrders, map[string]any{"customer": "Sharma"})
	if p := res.Report.(*reports.PendingOrders); p.Totals.Count() != 0 || p.PlacedBy != sales.Phone {
		t.Fatalf("Ravi asking for Sharma's: %+v", p)
	}
	res = b.call(t, sales, reports.ToolPendingOrders, nil)
	p := res.Report.(*reports.PendingOrders)
	if p.Totals.Count() != 2 || p.Orders[0].ID != "ORD-1008" || p.Orders[1].ID != "ORD-1004" || !strings.HasPrefix(res.Text, "*Your pending orders*") {
		t.Fatalf("Ravi's: %+v\n%s", p, res.Text)
	}
}

func TestToolSalesSummary(t *testing.T) {
	b := knownBooks(t)
	res := b.call(t, owner, reports.ToolSalesSummary, map[string]any{"period": "last_30_days"})
	wantText(t, res.Text, `*Sales last 30 days (13 Feb–14 Mar)*
₹44,040 before GST (+₹7,351.20 GST), 4 orders

1. Phenyl 1L: ₹23,400, 360 bottles (30 cartons)
2. Glass Cleaner 500ml: ₹11,040, 120 bottles (5 cartons)
3. Floor Broom: ₹9,600, 120 pieces (10 dozen)`)
	// "who bought glass cleaner last week?" is one call.
	res = b.call(t, owner, reports.ToolSalesSummary, map[string]any{"period": "last week", "product": "glass cleaner"})
	wantText(t, res.Text, `*Who bought Glass Cleaner 500ml*, last week (2–8 Mar)
₹2,208 before GST (+₹397.44 GST), 1 order, 24 bottles (1 carton)

1. Rajesh Kirana Store: ₹2,208, 24 bottles (1 carton)`)
	if !reflect.DeepEqual(res.Args, map[string]any{"period": "last_week", "product": "GC500", "by": "customer"}) {
		t.Fatalf("understood %v", res.Args)
	}
	res = b.call(t, accounts, reports.ToolTopCustomers, map[string]any{"period": "this_month"})
	wantText(t, res.Text, `*Top customers this month so far (1–14 Mar, 14 days)*
₹36,240 before GST (+₹5,947.20 GST), 3 orders

1. Rajesh Kirana Store: ₹20,640 (2 orders)
2. Sharma General Store: ₹15,600 (1 order)`)
	res = b.call(t, owner, reports.ToolSalesSummary, map[string]any{"period": "this_week", "by": "day"})
	wantText(t, res.Text, `*Sales this week so far (9–14 Mar, 6 days)*
₹34,032 before GST (+₹5,549.76 GST), 2 orders

• Fri 13 Mar: ₹18,432 (1 order)
• Sat 14 Mar: ₹15,600 (1 order)`)
	res = b.call(t, owner, reports.ToolSalesSummary, map[string]any{"period": "today", "customer": "Mehta"})
	wantText(t, res.Text, "*Sales today (14 Mar)* to Mehta Traders\nNo sales in this period.")
	for _, bad := range []map[string]any{{"period": "fortnight"}, {"by": "salesman"}, {"product": 42}} {
		if _, err := b.tools.Call(context.Background(), owner, reports.ToolSalesSummary, bad); domain.ErrorCode(err) != domain.EINVALID {
			t.Errorf("%v: %v, want invalid", bad, err)
		}
	}
}

// TestToolRefusals: roles are enforced in the tool layer, politely, naming
// who can see it, and every refusal is audited.
func TestToolRefusals(t *testing.T) {
	b := knownBooks(t)
	cases := []struct {
		user domain.User
		tool string
		want string
	}{
		{sales, reports.ToolOutstanding, "Sorry Ravi, dues and outstanding are only shared with the owners and the accounts team. Please ask them if you need this. 🙏"},
		{sales, reports.ToolSalesSummary, "Sorry Ravi, sales figures are only shared with the owners and the accounts team. Please ask them if you need this. 🙏"},
		{sales, reports.ToolTopCustomers, "Sorry Ravi, sales figures are only shared with the owners and the accounts team. Please ask them if you need this. 🙏"},
		{accounts, reports.ToolCheckStock, "Sorry Priya, stock figures are only shared with the owners and the sales staff. Please ask them if you need this. 🙏"},
		{accounts, reports.ToolOutOfStock, "Sorry Priya, stock figures are only shared with the owners and the sales staff. Please ask them if you need this. 🙏"},
		{nobody, reports.ToolPendingOrders, "Sorry Guest, pending orders are only shared with the owners, the accounts team and the sales staff. Please ask them if you need this. 🙏"},
		{nobody, reports.ToolCheckStock, "Sorry Guest, stock figures are only shared with the owners and the sales staff. Please ask them if you need this. 🙏"},
	}
	for _, c := range cases {
		res, err := b.tools.Call(context.Background(), c.user, c.tool, map[string]any{"customer": "Mehta"})
		if domain.ErrorCode(err) != domain.EUNAUTHORIZED || !res.Refused || res.Text != c.want || res.Report != nil {
			t.Errorf("%s %s: %v %+v", c.user.Role, c.tool, err, res)
		}
	}
	// Anyone else may use nothing at all.
	for _, s := range reports.Specs() {
		if reports.Allowed(nobody.Role, s.Name) || reports.Allowed("", s.Name) {
			t.Errorf("role %q may use %s", nobody.Role, s.Name)
		}
		if !reports.Allowed(domain.RoleOwner, s.Name) {
			t.Errorf("owners may not use %s", s.Name)
		}
	}
	refusals := b.audits(t, reports.KindRefusal)
	if len(refusals) != len(cases) {
		t.Fatalf("%d refusals audited, want %d", len(refusals), len(cases))
	}
	r := refusals[0]
	if r.Actor != sales.Phone || r.Subject != reports.ToolOutstanding || r.Detail["refused"] != true || r.Detail["role"] != "sales" {
		t.Fatalf("refusal entry %+v", r)
	}
	// Through the deterministic path too.
	if got := b.ask(t, sales, "Mehta ji ka outstanding"); got != cases[0].want {
		t.Fatalf("sales asking dues: %q", got)
	}
}

// TestToolAudit: every call is audited with who, which tool, the
// arguments, the rows returned, the latency and whether it was refused.
func TestToolAudit(t *testing.T) {
	b := knownBooks(t)
	b.call(t, owner, reports.ToolCheckStock, map[string]any{"product": "phenyl", "quantity": 5, "unit": "carton", "sql": "DROP TABLE products"})
	b.tools.Call(context.Background(), owner, reports.ToolOutstanding, map[string]any{"customer": "Nobody Traders"})
	es := b.audits(t, reports.KindTool)
	if len(es) != 2 {
		t.Fatalf("%d tool entries, want 2: %+v", len(es), es)
	}
	e := es[0]
	args, _ := e.Detail["args"].(map[string]any)
	if e.Actor != owner.Phone || e.Subject != reports.ToolCheckStock || e.Detail["tool"] != reports.ToolCheckStock ||
		e.Detail["rows"] != 1.0 || e.Detail["refused"] != false || args["product"] != "phenyl" || args["quantity"] != 5.0 ||
		args["unit"] != "carton" || args["sql"] != nil {
		t.Fatalf("entry %+v", e)
	}
	if ignored, _ := args["ignored"].([]any); len(ignored) != 1 || ignored[0] != "sql" {
		t.Fatalf("unknown arguments are named, not kept: %v", args)
	}
	if _, ok := e.Detail["latency_us"].(float64); !ok {
		t.Fatalf("no latency: %+v", e.Detail)
	}
	if es[1].Detail["error"] != domain.ENOTFOUND || es[1].Detail["rows"] != 0.0 {
		t.Fatalf("failed call entry %+v", es[1])
	}
	// A tool that does not exist is refused as invalid, and audited.
	if _, err := b.tools.Call(context.Background(), owner, "run_sql", map[string]any{"query": "SELECT 1"}); domain.ErrorCode(err) != domain.EINVALID {
		t.Fatalf("run_sql: %v", err)
	}
	if n := len(b.audits(t, reports.KindTool)); n != 3 {
		t.Fatalf("%d entries after run_sql, want 3", n)
	}
}

// TestToolKeys: an answer says which customers and products it put in
// play, so that "their outstanding" can follow "who bought it?".
func TestToolKeys(t *testing.T) {
	b := knownBooks(t)
	ctx := context.Background()
	call, _ := b.tools.Plan(b.router.Route(ctx, "who bought glass cleaner last week?"))
	reply, keys := b.tools.ReplyKeys(ctx, owner, call)
	if !strings.HasPrefix(reply.Text, "*Who bought Glass Cleaner 500ml*") ||
		!reflect.DeepEqual(keys.Customers, []string{"C01"}) || !reflect.DeepEqual(keys.Products, []string{"GC500"}) {
		t.Fatalf("keys %+v", keys)
	}
	// The buyers' dues follow, by id.
	_, keys = b.tools.ReplyKeys(ctx, owner, reports.Call{Tool: reports.ToolOutstanding})
	if !reflect.DeepEqual(keys.Customers, []string{"C02", "C01"}) {
		t.Fatalf("dues keys %+v", keys)
	}
	reply, _ = b.tools.ReplyKeys(ctx, owner, reports.Call{Tool: reports.ToolOutstanding, Args: map[string]any{"customer": keys.Customers}})
	wantContains(t, reply.Text, "*Sharma General Store* (C02)", "*Rajesh Kirana Store* (C01)")
	// A refusal puts nothing in play.
	_, keys = b.tools.ReplyKeys(ctx, sales, reports.Call{Tool: reports.ToolOutstanding})
	if len(keys.Customers)+len(keys.Products)+len(keys.Rows) != 0 {
		t.Fatalf("refusal keys %+v", keys)
	}
}
