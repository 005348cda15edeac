package digest_test

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/reports/digest/digesttest"
)

func TestBriefOfTheKnownDay(t *testing.T) {
	b := knownBooks(t)
	e, err := digest.Compose(ctx, b, digesttest.D, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("owner brief (%d chars):\n%s", reports.Chars(e.OwnerText), e.OwnerText)
	t.Logf("accounts brief:\n%s", e.AccountsText)
	want := "Tue 3 Mar: sales ₹9,000 before GST from 3 orders (2 customers), 244% above a usual Tuesday (₹2,615; ₹0–₹21,000 over 13 weeks)."
	if e.Headline != want {
		t.Errorf("headline\n got %s\nwant %s", e.Headline, want)
	}
	// Actions, one a customer (OLD's ₹1,00,000 of missed orders outweighs
	// its ₹23,600 due and its drop), the best of each kind first by value:
	// OLD's missed orders, RAV's ₹95,000 due, DEE's ₹34,000 shortfall.
	// SUR's big order and the payments are news, not actions.
	for _, s := range []string{
		e.Headline,
		"Week so far ₹9,000 (+800% on last week); month so far ₹9,000 (+200% on last month).",
		"Big order: Surya Stores ₹5,000 (usually ₹1,000). Received ₹8,000 from 2 customers.",
		"1. Call Old Bills Co: no order for 70 days, expected every 14 (wholesale)",
		"2. Chase Ravi Wholesale: ₹95,000 due, 95% of the ₹1,00,000 limit",
		"3. Call Deepak Agency: ₹500 a week over 4 weeks, down from ₹9,000",
		"Stock: 2 out: Held Broom, Out Of Stock Mop (500 in production); 1 under 7 days: Low Cover Soap (5 days of stock left, 120 in production).",
		"Waiting: 1 draft for your approval (₹1,841, oldest Safe Supermart); 1 order undelivered after 3 days (₹1,180, oldest T-",
	} {
		wantIn(t, "owner brief", e.OwnerText, s)
	}
	if strings.Contains(e.OwnerText, "4. ") || reports.Chars(e.OwnerText) > digest.MaxBriefChars {
		t.Errorf("owner brief too long or with more than 3 actions")
	}
	for _, s := range []string{
		"Received ₹8,000 from 2 customers: Ravi Wholesale ₹5,000, Surya Stores ₹3,000.",
		"Due now ₹1,68,600 from 3 customers.",
		"1. Ravi Wholesale: ₹95,000 due, 95% of the ₹1,00,000 limit",
		"2. Old Bills Co: ₹23,600 due, oldest bill 70 days",
	} {
		wantIn(t, "accounts brief", e.AccountsText, s)
	}
	if strings.Contains(e.AccountsText, "Sales") || strings.Contains(e.AccountsText, "Stock") {
		t.Errorf("the accounts brief is the dues part only:\n%s", e.AccountsText)
	}

	// The mail: every table, the chart inline, the day's file attached.
	m := e.OwnerMail
	for _, s := range []string{"Tuesdays over 13 weeks", "Tue 2 Dec 2025", "Low Cover Soap", "Every customer event", "Naveen Traders", `src="cid:` + digest.ChartID} {
		wantIn(t, "owner mail", m.HTML, s)
	}
	if !strings.Contains(m.Text, "Week and month so far") || len(m.Attachments) != 2 {
		t.Fatalf("owner mail text or attachments: %d attachments", len(m.Attachments))
	}
	if a := m.Attachments[0]; a.ContentID != digest.ChartID || a.ContentType != "image/png" || !strings.HasPrefix(string(a.Data), "\x89PNG") {
		t.Errorf("chart attachment %s %s", a.Name, a.ContentType)
	}
	if a := m.Attachments[1]; a.Name != "sales-2026-03-03.xlsx" || !strings.HasPrefix(string(a.Data), "PK") {
		t.Errorf("sales file %s", a.Name)
	}
	if am := e.AccountsMail; !strings.Contains(am.HTML, "Ravi Wholesale") || strings.Contains(am.HTML, "Low Cover Soap") || len(am.Attachments) != 0 {
		t.Errorf("accounts mail holds more than dues")
	}
}

// TestBriefOfABigDayFits: a day with many customers, long names, events
// and stock problems still makes a brief under 1,000 characters.
func TestBriefOfABigDayFits(t *testing.T) {
	long := strings.Repeat("Shree Ganesh Mahalaxmi Provision and General ", 3)
	f := digest.Facts{Date: digesttest.D, Location: digesttest.Kolkata}
	f.Sales = digest.DaySales{Date: digesttest.D, Amount: 98765432100, GST: 17777777778, Orders: 12345, Customers: 2345}
	f.Baseline.Mean, f.Baseline.Lowest, f.Baseline.Highest = 12345678900, 100, 99999999999
	p := 700
	f.Baseline.Change, f.Week.Change, f.Month.Change = &p, &p, &p
	for i := range 50 {
		id := string(rune('A'+i%26)) + string(rune('a'+i/26))
		f.Events = append(f.Events,
			digest.Event{Kind: digest.NoOrder, CustomerID: id, Customer: long + id, DaysSince: 1234, Usual: 7, Value: 100000000},
			digest.Event{Kind: digest.CreditRisk, CustomerID: id, Customer: long + id, Amount: 9999999999, Limit: 1000000000, LimitUsed: 999, OverLimit: true, BillsTooOld: true, OldestDays: 999, Value: 9999999999},
			digest.Event{Kind: digest.PaymentReceived, CustomerID: id, Customer: long + id, Amount: 123456789, Payments: 3})
		f.Stock = append(f.Stock, digest.StockLine{StockItem: digest.StockItem{SKU: id, Name: long + id, WIP: 123456}, Out: i%2 == 0, Cover: 3})
	}
	f.Waiting = digest.Waiting{DraftCount: 999, DraftValue: 99999999999, LateCount: 999, LateValue: 99999999999,
		Drafts: []digest.OpenItem{{ID: "ORD-99999", Customer: long}}, Late: []digest.OpenItem{{ID: "ORD-99998", Customer: long, CreatedAt: digesttest.At(-30, 0, 0)}}}
	owner, accounts := digest.OwnerText(f, ""), digest.AccountsText(f)
	t.Logf("owner (%d):\n%s\naccounts (%d):\n%s", reports.Chars(owner), owner, reports.Chars(accounts), accounts)
	if n := reports.Chars(owner); n > digest.MaxBriefChars || !strings.Contains(owner, "1. Chase") || !strings.Contains(owner, "Stock:") || !strings.Contains(owner, "Waiting:") {
		t.Errorf("owner brief of %d chars", n)
	}
	if n := reports.Chars(accounts); n > digest.MaxBriefChars || !strings.Contains(accounts, "Due now") {
		t.Errorf("accounts brief of %d chars", n)
	}
}

func wantIn(t *testing.T, what, text, part string) {
	t.Helper()
	if !strings.Contains(text, part) {
		t.Errorf("%s lacks %q", what, part)
	}
}

// TestDaysReadAsDays: a product's cover reads as the stock left, one day
// or several; a customer who orders daily is expected "every day".
func TestDaysReadAsDays(t *testing.T) {
	f := digest.Facts{Date: digesttest.D, Location: digesttest.Kolkata}
	for _, c := range []struct {
		name  string
		cover int
		wip   int64
	}{{"Floor Mop", 1, 0}, {"Phenyl 1L", 2, 40}, {"Glass Cleaner", 0, 0}} {
		f.Stock = append(f.Stock, digest.StockLine{StockItem: digest.StockItem{SKU: c.name, Name: c.name, Ready: 10, WIP: c.wip, Sold: 100}, Cover: c.cover})
	}
	want := "Stock: 3 under 7 days: Floor Mop (1 day of stock left), Phenyl 1L (2 days of stock left, 40 in production), " +
		"Glass Cleaner (under a day of stock left)."
	if got := digest.StockText(f, 3); got != want {
		t.Errorf("StockText =\n%s\nwant\n%s", got, want)
	}
	html := digest.OwnerMail(ctx, f, "", nil, nil).HTML
	for _, cell := range []string{">1 day<", ">2 days<", ">under a day<"} {
		wantIn(t, "owner mail", html, cell)
	}
	f.Events = []digest.Event{
		{Kind: digest.NoOrder, CustomerID: "C1", Customer: "Daily Dairy", DaysSince: 2, Usual: 1, Habit: true, Value: 300},
		{Kind: digest.NoOrder, CustomerID: "C2", Customer: "Weekly Mart", DaysSince: 12, Usual: 7, Segment: "dealer", Value: 200},
	}
	owner := digest.OwnerText(f, "")
	wantIn(t, "owner brief", owner, "1. Call Daily Dairy: no order for 2 days, usually every day")
	wantIn(t, "owner brief", owner, "2. Call Weekly Mart: no order for 12 days, expected every 7 (dealer)")
}
