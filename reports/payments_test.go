package reports_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/chart"
	"github.com/munshi/munshi/reports/reportstest"
)

// paymentBooks are the known books with reportstest.KnownPayments.
func paymentBooks(t *testing.T) *books {
	return openBooks(t, reportstest.Now, func(ctx context.Context, s store.Store) error {
		if err := reportstest.Known(ctx, s); err != nil {
			return err
		}
		return reportstest.KnownPayments(ctx, s)
	})
}

// asPayments routes text as the router reads it, as a payments question.
func (b *books) asPayments(text string) intent.Decision {
	d := b.router.Route(context.Background(), text)
	d.Intent = domain.IntentPaymentsReceived
	return d
}

func TestPlanPaymentsReceived(t *testing.T) {
	b := paymentBooks(t)
	for _, tt := range []struct {
		text string
		want map[string]any
	}{
		{"aaj kitna payment aaya", map[string]any{"period": "today"}},
		{"kal kis kis ne payment kiya", map[string]any{"period": "yesterday"}},
		{"is hafte kitni collection hui", map[string]any{"period": "this_week"}},
		{"kitna payment aaya", map[string]any{}},
		{"this month UPI se kitna aaya", map[string]any{"period": "this_month", "mode": []string{"upi"}}},
		{"gpay phonepe paytm se aaj", map[string]any{"period": "today", "mode": []string{"upi"}}},
		{"nakad kitna aaya aaj", map[string]any{"period": "today", "mode": []string{"cash"}}},
		{"neft aur rtgs is mahine", map[string]any{"period": "this_month", "mode": []string{"bank_transfer"}}},
		{"bank transfer se kitna aaya pichle hafte", map[string]any{"period": "last_week", "mode": []string{"bank_transfer"}}},
		{"cheque se kitna aaya is mahine", map[string]any{"period": "this_month", "mode": []string{"cheque"}}},
		{"check se kitna aaya", map[string]any{"mode": []string{"cheque"}}},
		{"check karo aaj ka payment", map[string]any{"period": "today"}}, // "please check", not a cheque
		{"UPI cash alag alag is hafte", map[string]any{"period": "this_week", "mode": []string{"upi", "cash"}, "by": "mode"}},
		{"is hafte mode wise collection", map[string]any{"period": "this_week", "by": "mode"}},
		{"cash aur gpay is hafte", map[string]any{"period": "this_week", "mode": []string{"cash", "upi"}, "by": "mode"}},
		{"pichle 7 din ka collection daily", map[string]any{"period": "last_7_days", "by": "day"}},
		{"is mahine ke payments details", map[string]any{"period": "this_month", "by": "payment"}},
		{"Rajesh ne is hafte kitna payment kiya", map[string]any{"period": "this_week", "customer": []string{"C01"}}},
		{"Sharma ji ka payment kal", map[string]any{"period": "yesterday", "customer": []string{"C02"}}},
	} {
		call, ok := b.tools.Plan(b.asPayments(tt.text))
		if !ok || call.Tool != reports.ToolPaymentsReceived || !reflect.DeepEqual(call.Args, tt.want) {
			t.Errorf("%q: %v %s %v, want %v", tt.text, ok, call.Tool, call.Args, tt.want)
		}
	}
}

func TestToolPaymentsReceived(t *testing.T) {
	b := paymentBooks(t)
	for _, tt := range []struct {
		text, want string
	}{
		{"aaj kitna payment aaya", `*Payments received* · today (14 Mar)
₹17,000.50 in 3 payments from 1 customer

1. Rajesh Kirana Store: ₹17,000.50 (3 payments: cash, UPI)`},
		{"kal kis kis ne payment kiya", `*Payments received* · yesterday (13 Mar)
₹26,234.56 in 2 payments from 1 customer

1. Sharma General Store: ₹26,234.56 (2 payments: UPI, cheque)`},
		// The imported payment counts with the chat's.
		{"is hafte kitni collection hui", `*Payments received* · this week so far (9–14 Mar, 6 days)
₹50,235.06 in 6 payments from 3 customers

1. Sharma General Store: ₹26,234.56 (2 payments: UPI, cheque)
2. Rajesh Kirana Store: ₹17,000.50 (3 payments: cash, UPI)
3. Mehta Traders: ₹7,000 (1 payment: bank transfer)`},
		{"this month UPI se kitna aaya", `*Payments received* by UPI · this month so far (1–14 Mar, 14 days)
₹11,234.56 in 2 payments from 2 customers

1. Rajesh Kirana Store: ₹10,000 (1 payment: UPI)
2. Sharma General Store: ₹1,234.56 (1 payment: UPI)`},
		{"is hafte mode wise collection", `*Payments received* · this week so far (9–14 Mar, 6 days)
₹50,235.06 in 6 payments from 3 customers

• Cheque: ₹25,000 (1 payment from 1 customer)
• UPI: ₹11,234.56 (2 payments from 2 customers)
• Cash: ₹7,000.50 (2 payments from 1 customer)
• Bank transfer: ₹7,000 (1 payment from 1 customer)`},
		{"pichle 7 din ka collection daily", `*Payments received* · last 7 days (8–14 Mar)
₹50,235.06 in 6 payments from 3 customers

• Sat 14 Mar: ₹17,000.50 (3 payments: cash, UPI)
• Fri 13 Mar: ₹26,234.56 (2 payments: UPI, cheque)
• Wed 11 Mar: ₹7,000 (1 payment: bank transfer)`},
		// One customer: each payment, newest first.
		{"Sharma ji ka payment kal", `*Payments received* from Sharma General Store · yesterday (13 Mar)
₹26,234.56 in 2 payments

• 13 Mar: ₹1,234.56 by UPI (ref UTR1002)
• 13 Mar: ₹25,000 by cheque (ref CHQ 004512)`},
		{"Mehta ka payment is mahine", `*Payments received* from Mehta Traders · this month so far (1–14 Mar, 14 days)
₹7,000 in 1 payment

• 11 Mar: ₹7,000 by bank transfer (ref NEFT77), imported history`},
		{"last month ka collection", `*Payments received* · last month (1–28 Feb)
₹99,999 in 1 payment from 1 customer

1. Rajesh Kirana Store: ₹99,999 (1 payment: UPI)`},
		// Nothing received is a sentence.
		{"Mehta ne aaj kitna payment kiya", "*Payments received* from Mehta Traders · today (14 Mar)\nNo payments received in this period."},
		{"cheque se kitna aaya aaj", "*Payments received* by cheque · today (14 Mar)\nNo payments received in this period."},
	} {
		wantText(t, b.tools.Answer(context.Background(), accounts, b.asPayments(tt.text)).Text, tt.want)
	}
	// What the answer puts in play, for "their outstanding": each payer once.
	res := b.call(t, owner, reports.ToolPaymentsReceived, map[string]any{"period": "this_week", "by": "payment"})
	if keys := reports.KeysOf(res); !reflect.DeepEqual(keys.Customers, []string{"C01", "C02", "C03"}) || len(keys.Rows) != 6 {
		t.Fatalf("keys %+v", keys)
	}
}

// TestPaymentsReceivedTableIsTheText: each row's name and amount are on
// its line of the text, and the totals are the whole answer's.
func TestPaymentsReceivedTableIsTheText(t *testing.T) {
	b := paymentBooks(t)
	for _, by := range []string{"customer", "mode", "day", "payment"} {
		res := b.call(t, owner, reports.ToolPaymentsReceived, map[string]any{"period": "this_week", "by": by})
		tab := res.Table()
		if tab.Period == nil || tab.Count != len(tab.Rows) || len(tab.Rows) != res.Shown {
			t.Fatalf("by %s: %+v", by, tab)
		}
		var sum domain.Paise
		text := lines(res.Text)[3:]
		for i, row := range tab.Rows {
			if len(row) != len(tab.Columns) {
				t.Fatalf("by %s: row %d has %d cells for %d columns", by, i, len(row), len(tab.Columns))
			}
			amount := row[tab.Column("amount")].Money
			sum += amount
			if !strings.Contains(text[i], amount.String()) {
				t.Errorf("by %s: %s is not on %q", by, amount, text[i])
			}
		}
		if got, _ := tab.Total("amount"); got.Money != sum || sum != 5023506 {
			t.Errorf("by %s: rows add up to %v, the total is %v", by, sum, got.Money)
		}
	}
}

func TestToolPaymentsReceivedArguments(t *testing.T) {
	b := paymentBooks(t)
	ctx := context.Background()
	// Dates, both days counted; "to" defaults to today.
	res := b.call(t, owner, reports.ToolPaymentsReceived, map[string]any{"from": "2026-03-11", "to": "2026-03-13", "mode": "upi, cheque", "by": "mode"})
	wantText(t, res.Text, `*Payments received* by UPI or cheque · 11–13 Mar
₹26,234.56 in 2 payments from 1 customer

• Cheque: ₹25,000 (1 payment from 1 customer)
• UPI: ₹1,234.56 (1 payment from 1 customer)`)
	if want := map[string]any{"from": "2026-03-11", "to": "2026-03-13", "mode": []string{"upi", "cheque"}, "by": "mode"}; !reflect.DeepEqual(res.Args, want) {
		t.Fatalf("understood %v, want %v", res.Args, want)
	}
	res = b.call(t, owner, reports.ToolPaymentsReceived, map[string]any{"from": "2026-02-14", "mode": "COD"})
	if p := res.Report.(*reports.PaymentsReceived); p.Totals.Amount != 700050 || p.Period.Days() != 29 || res.Args["mode"] != "cash" || res.Args["to"] != "2026-03-14" {
		t.Fatalf("since 14 Feb in cash: %+v %v", p.Totals, res.Args)
	}
	for _, mode := range []any{"NEFT", "bank transfer", "bank_transfer", []any{"rtgs"}} {
		res = b.call(t, owner, reports.ToolPaymentsReceived, map[string]any{"period": "this_week", "mode": mode})
		if res.Args["mode"] != "bank_transfer" || res.Report.(*reports.PaymentsReceived).Totals.Amount != 700000 {
			t.Errorf("mode %v: %v\n%s", mode, res.Args, res.Text)
		}
	}
	for _, tt := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"period": "fortnight"}, domain.EINVALID},
		{map[string]any{"period": "last_100000_days"}, domain.EINVALID},
		{map[string]any{"from": "1900-01-01", "to": "2999-12-31"}, domain.EINVALID}, // a huge period
		{map[string]any{"from": "2025-01-01"}, domain.EINVALID},                     // over 366 days to today
		{map[string]any{"from": "2026-03-10", "to": "2026-03-01"}, domain.EINVALID},
		{map[string]any{"from": "14/03/2026"}, domain.EINVALID},
		{map[string]any{"to": "2026-03-10"}, domain.EINVALID},
		{map[string]any{"period": "today", "from": "2026-03-01"}, domain.EINVALID},
		{map[string]any{"mode": "bitcoin"}, domain.EINVALID},
		{map[string]any{"mode": 7}, domain.EINVALID},
		{map[string]any{"by": "salesman"}, domain.EINVALID},
		{map[string]any{"customer": "Nobody Traders"}, domain.ENOTFOUND},
		{map[string]any{"customer": "' OR 1=1 --"}, domain.ENOTFOUND},
	} {
		if _, err := b.tools.Call(ctx, owner, reports.ToolPaymentsReceived, tt.args); domain.ErrorCode(err) != tt.code {
			t.Errorf("%v: %v, want %s", tt.args, err, tt.code)
		}
	}
	// A full year of dates is the longest period taken.
	if _, err := b.tools.Call(ctx, owner, reports.ToolPaymentsReceived, map[string]any{"from": "2025-03-15", "to": "2026-03-14"}); err != nil {
		t.Fatalf("366 days: %v", err)
	}
}

// TestPaymentsReceivedRoles: owners and accounts see collections; sales
// staff and anyone else are refused as for dues, and every call audited.
func TestPaymentsReceivedRoles(t *testing.T) {
	b := paymentBooks(t)
	ctx := context.Background()
	for _, u := range []domain.User{owner, accounts} {
		if !reports.Allowed(u.Role, reports.ToolPaymentsReceived) {
			t.Errorf("%s may not see payments received", u.Role)
		}
	}
	want := "Sorry Ravi, payments received are only shared with the owners and the accounts team. Please ask them if you need this. 🙏"
	if got := b.tools.Answer(ctx, sales, b.asPayments("aaj kitna payment aaya")).Text; got != want {
		t.Fatalf("sales asking: %q", got)
	}
	res, err := b.tools.Call(ctx, nobody, reports.ToolPaymentsReceived, nil)
	if domain.ErrorCode(err) != domain.EUNAUTHORIZED || !res.Refused || res.Report != nil {
		t.Fatalf("a driver asking: %v %+v", err, res)
	}
	b.call(t, accounts, reports.ToolPaymentsReceived, map[string]any{"period": "kal", "mode": "upi", "sql": "DROP TABLE payments"})
	refusals := b.audits(t, reports.KindRefusal)
	if len(refusals) != 2 || refusals[0].Actor != sales.Phone || refusals[0].Subject != reports.ToolPaymentsReceived || refusals[0].Detail["refused"] != true {
		t.Fatalf("refusals %+v", refusals)
	}
	tools := b.audits(t, reports.KindTool)
	if len(tools) != 1 {
		t.Fatalf("%d tool entries", len(tools))
	}
	args, _ := tools[0].Detail["args"].(map[string]any)
	if tools[0].Actor != accounts.Phone || tools[0].Detail["rows"] != 1.0 || args["period"] != "kal" || args["mode"] != "upi" || args["sql"] != nil {
		t.Fatalf("entry %+v", tools[0])
	}
}

// TestPaymentsReceivedMore: a long list pages with MORE, each message
// within the limit, every payment shown once.
func TestPaymentsReceivedMore(t *testing.T) {
	b := paymentBooks(t)
	ctx := context.Background()
	var many []domain.Payment
	for i := range 35 {
		many = append(many, domain.Payment{CustomerID: "C03", Amount: domain.Paise(100001 + i), Mode: domain.PayUPI,
			ReceivedAt: reportstest.Now.Add(-time.Duration(i+1) * time.Minute), Reference: fmt.Sprintf("UTR-%02d", i)})
	}
	if err := b.store.AddHistory(ctx, nil, many); err != nil {
		t.Fatal(err)
	}
	text := b.tools.Answer(ctx, owner, b.asPayments("Mehta ke aaj ke payments")).Text
	seen := map[string]bool{}
	for page := 0; ; page++ {
		if reports.Chars(text) > reports.MaxMessageChars {
			t.Fatalf("page %d is too long", page)
		}
		for _, l := range lines(text) {
			if strings.HasPrefix(l, "• ") {
				seen[l] = true
			}
		}
		if !strings.HasSuffix(text, reports.MoreHint) {
			if page != 3 || !strings.Contains(text, "That's all: 31–35 of 35.") {
				t.Fatalf("page %d ends:\n%s", page, text)
			}
			break
		}
		if page == 0 && !strings.Contains(text, "Showing 1–10 of 35.") {
			t.Fatalf("first page:\n%s", text)
		}
		reply, ok := b.tools.More(ctx, owner)
		if !ok {
			t.Fatalf("no MORE after page %d", page)
		}
		text = reply.Text
	}
	if len(seen) != 35 || !seen["• 14 Mar: ₹1,000.01 by UPI (ref UTR-00)"] {
		t.Fatalf("%d payments shown", len(seen))
	}
}

// TestPaymentsReceivedHostileNames: names from the books stay on their
// line of the text, and are text, not formulas, in the file.
func TestPaymentsReceivedHostileNames(t *testing.T) {
	b := paymentBooks(t)
	s := withShelf(t, b)
	ctx := context.Background()
	names := map[string]string{
		"C20": "=HYPERLINK(\"http://x.example\",\"pay\")",
		"C21": "Fake Store\n1. Sharma General Store: ₹9,99,999",
		"C22": "\u202eerotS lahgihC",
		"C23": "गुप्ता किराना 🛒",
	}
	var cs []domain.Customer
	var pays []domain.Payment
	for id, name := range names {
		cs = append(cs, domain.Customer{ID: id, Name: name, CreditLimit: 100000, PaymentModes: []domain.PaymentMode{domain.PayCOD}})
		pays = append(pays, domain.Payment{CustomerID: id, Amount: 12345, Mode: domain.PayCOD, ReceivedAt: reportstest.Now.Add(-time.Minute)})
	}
	if err := b.store.UpsertCustomers(ctx, cs); err != nil {
		t.Fatal(err)
	}
	if err := b.store.AddHistory(ctx, nil, pays); err != nil {
		t.Fatal(err)
	}
	res := b.call(t, owner, reports.ToolPaymentsReceived, map[string]any{"period": "today"})
	text := lines(res.Text)
	if len(text) != 3+5 || !strings.HasPrefix(res.Text, "*Payments received* · today (14 Mar)\n₹17,494.30 in 7 payments from 5 customers") {
		t.Fatalf("every customer a line:\n%s", res.Text)
	}
	wantContains(t, res.Text, "Fake Store 1. Sharma General Store: ₹9,99,999: ₹123.45", "erotS lahgihC: ₹123.45", "गुप्ता किराना 🛒: ₹123.45")
	if strings.ContainsRune(res.Text, '\u202e') {
		t.Fatal("a bidirectional override reached the text")
	}
	reply, _ := b.tools.ReplyKeys(ctx, owner, reports.Call{Tool: reports.ToolPaymentsReceived, Args: map[string]any{"period": "today"}, Format: intent.FormatExcel})
	if len(reply.MediaURLs) != 1 {
		t.Fatalf("no file: %s", reply.Text)
	}
	f := openXLSX(t, s.fetch(t, reply.MediaURLs[0]).Body)
	rows, _ := f.GetRows("By customer")
	for i, row := range rows[1 : len(rows)-1] {
		cell := "A" + strconv.Itoa(i+2)
		if formula, _ := f.GetCellFormula("By customer", cell); formula != "" {
			t.Errorf("%s (%q) is a formula: %q", cell, row[0], formula)
		}
		if row[1] == "C20" && row[0] != names["C20"] {
			t.Errorf("the formula-like name is %q, want it as text", row[0])
		}
	}
}

// TestPaymentsReceivedChartAndExcel: the chart and the file show the
// text's figures, to the paisa.
func TestPaymentsReceivedChartAndExcel(t *testing.T) {
	b := paymentBooks(t)
	s := withShelf(t, b)
	ctx := context.Background()
	args := map[string]any{"period": "this_week"}
	text := b.call(t, owner, reports.ToolPaymentsReceived, args).Text

	// Without a grouping, a chart is the trend by day; by mode, bars.
	for _, tt := range []struct {
		args    map[string]any
		kind    chart.Kind
		caption string
		file    string
	}{
		{args, chart.Bar, "📈 *Payments received · this week so far (9–14 Mar, 6 days) · by day*", "/payments-received-2026-03-09-to-2026-03-14.png"},
		{map[string]any{"period": "this_week", "by": "mode"}, chart.HorizontalBar, "· by mode*", "/payments-received-by-mode-2026-03-09-to-2026-03-14.png"},
	} {
		reply, _ := b.tools.ReplyKeys(ctx, owner, reports.Call{Tool: reports.ToolPaymentsReceived, Args: tt.args, Format: intent.FormatChart})
		if len(reply.MediaURLs) != 1 || !strings.HasSuffix(reply.MediaURLs[0], tt.file) {
			t.Fatalf("chart %v: %q\n%s", tt.args, reply.MediaURLs, reply.Text)
		}
		wantContains(t, reply.Text, tt.caption, "Received: ₹50,235.06", "Payments: 6", "Customers: 3")
		img, err := png.DecodeConfig(bytes.NewReader(s.fetch(t, reply.MediaURLs[0]).Body))
		if w, h := chart.Size(tt.kind); err != nil || img.Width != w || img.Height != h {
			t.Errorf("chart %v: %d×%d (%v), want a %s chart", tt.args, img.Width, img.Height, err, tt.kind)
		}
	}
	page := s.fetch(t, pageLink.FindString(func() string {
		reply, _ := b.tools.ReplyKeys(ctx, owner, reports.Call{Tool: reports.ToolPaymentsReceived, Args: map[string]any{"period": "this_week", "by": "customer"}, Format: intent.FormatChart})
		return reply.Text
	}()))
	if got := chartCategories(t, page.Body); !reflect.DeepEqual(got, []string{"Sharma General Store", "Rajesh Kirana Store", "Mehta Traders"}) {
		t.Errorf("bars %q, want the text's order", got)
	}

	reply, _ := b.tools.ReplyKeys(ctx, accounts, reports.Call{Tool: reports.ToolPaymentsReceived, Args: args, Format: intent.FormatExcel})
	if len(reply.MediaURLs) != 1 || !strings.HasSuffix(reply.MediaURLs[0], "/payments-received-2026-03-09-to-2026-03-14.xlsx") {
		t.Fatalf("file %q\n%s", reply.MediaURLs, reply.Text)
	}
	wantContains(t, reply.Text, "Received: ₹50,235.06", "6 rows")
	f := openXLSX(t, s.fetch(t, reply.MediaURLs[0]).Body)
	if got := strings.Join(f.GetSheetList(), "|"); got != "By customer|Payments|About" {
		t.Fatalf("sheets %q", got)
	}
	groups, _ := f.GetRows("By customer")
	if len(groups) != 1+3+1 {
		t.Fatalf("by customer: %q", groups)
	}
	for i, want := range []struct {
		name   string
		amount domain.Paise
	}{{"Sharma General Store", 2623456}, {"Rajesh Kirana Store", 1700050}, {"Mehta Traders", 700000}} {
		r := strconv.Itoa(i + 2)
		if groups[i+1][0] != want.name || paiseAt(t, f, "By customer", "E"+r) != want.amount || !strings.Contains(text, want.name+": "+want.amount.String()) {
			t.Errorf("row %s: %q, want %s %s as in the text", r, groups[i+1], want.name, want.amount)
		}
	}
	if got := paiseAt(t, f, "By customer", "E5"); got != 5023506 {
		t.Errorf("by customer total %v", got)
	}
	payments, _ := f.GetRows("Payments")
	if len(payments) != 1+6+1 || paiseAt(t, f, "Payments", "F8") != 5023506 || payments[6][6] != "Imported history" {
		t.Fatalf("payments sheet: %q", payments)
	}
	// Nothing received: a sentence, no file; a salesperson is refused.
	reply, _ = b.tools.ReplyKeys(ctx, owner, reports.Call{Tool: reports.ToolPaymentsReceived, Args: map[string]any{"period": "today", "customer": "C03"}, Format: intent.FormatExcel})
	if len(reply.MediaURLs) != 0 || reply.Text != "No payments received today (14 Mar), so there is no file to send." {
		t.Fatalf("no payments: %q %q", reply.Text, reply.MediaURLs)
	}
	reply, _ = b.tools.ReplyKeys(ctx, sales, reports.Call{Tool: reports.ToolPaymentsReceived, Args: args, Format: intent.FormatExcel})
	if len(reply.MediaURLs) != 0 || reply.Text != reports.Refusal(sales, reports.ToolPaymentsReceived) {
		t.Fatalf("sales: %q %q", reply.Text, reply.MediaURLs)
	}
	files := b.audits(t, reports.KindFile)
	if len(files) != 4 || files[3].Detail["format"] != "excel" || files[3].Detail["period"] != "this_week" || files[3].Detail["rows"] != 6.0 {
		t.Fatalf("file audit %+v", files)
	}
}
