package reports_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// TestReportAnswer: questions in English, Hinglish and Devanagari, routed
// by the intent router, go straight to the right tool.
func TestReportAnswer(t *testing.T) {
	b := knownBooks(t)
	cases := []struct {
		user domain.User
		text string
		want string // the reply's first line
	}{
		{owner, "how much stock do we have?", "*Stock*: 4 products, ₹3,45,800 ready at list price"},
		{owner, "GC ka stock kitna hai", "*Glass Cleaner 500ml* (GC500)"},
		{sales, "GC ka stock kitna hai", "*Glass Cleaner 500ml* (GC500)"},
		{owner, "ग्लास क्लीनर का स्टॉक कितना है", "*Glass Cleaner 500ml* (GC500)"},
		{owner, "फिनाइल का स्टॉक", "*Phenyl 1L* (PH1L)"},
		{owner, "can we commit 200 cartons of phenyl?", "❌ Not from stock: 2,400 bottles (200 cartons) of Phenyl 1L asked, 1,560 bottles available (short by 840 bottles)."},
		{owner, "100 carton phenyl de sakte hain?", "✅ Yes: 1,200 bottles (100 cartons) of Phenyl 1L can be committed."},
		{owner, "kya khatam ho gaya", "*Out of stock*: 2 products with nothing available"},
		{owner, "out of stock kya hai", "*Out of stock*: 2 products with nothing available"},
		{owner, "kaunsa maal khatam hone wala hai", "*Running low*: the products that run out first at the last 28 days' sales"},
		{owner, "which items are running low", "*Running low*: the products that run out first at the last 28 days' sales"},
		{owner, "who owes us money?", "*Who owes us*: 2 customers, ₹1,95,000 in all"},
		{accounts, "Mehta ji ka outstanding", "*Mehta Traders* (C03)"},
		{owner, "मेहता जी का बकाया", "*Mehta Traders* (C03)"},
		{owner, "Rajesh ka outstanding kitna hai", "*Rajesh Kirana Store* (C01)"},
		{owner, "pending orders dikhao", "*Pending orders*"},
		{accounts, "Sharma ji ka pending order", "*Pending orders* for Sharma General Store"},
		{owner, "who bought glass cleaner last week?", "*Who bought Glass Cleaner 500ml*, last week (2–8 Mar)"},
		{owner, "aaj ki sales", "*Sales today (14 Mar)*"},
		{owner, "kal ki bikri", "*Sales yesterday (13 Mar)*"},
		{owner, "is hafte ki sales", "*Sales this week so far (9–14 Mar, 6 days)*"},
		{accounts, "pichle mahine ki sales", "*Sales last month (1–28 Feb)*"},
		{owner, "पिछले हफ्ते की बिक्री", "*Sales last week (2–8 Mar)*"},
		{owner, "last 30 days sales by customer", "*Sales last 30 days (13 Feb–14 Mar)*"},
		{owner, "top customers this month", "*Top customers this month so far (1–14 Mar, 14 days)*"},
		{owner, "sales report", "*Sales this month so far (1–14 Mar, 14 days)*"},
		{owner, "namaste", reports.HelpText},
	}
	for _, c := range cases {
		got := b.ask(t, c.user, c.text)
		if first := lines(got)[0]; first != c.want {
			t.Errorf("%s %q:\n%s\nwant first line %q", c.user.Role, c.text, got, c.want)
		}
	}
	// The plan, for the unknown-intent question.
	call, ok := b.tools.Plan(b.router.Route(context.Background(), "who bought glass cleaner last week?"))
	if !ok || call.Tool != reports.ToolSalesSummary || call.Args["by"] != "customer" || call.Args["period"] != "last_week" {
		t.Fatalf("plan = %+v, %v", call, ok)
	}
	// By customer, the sales answer lists customers.
	got := b.ask(t, owner, "last 30 days sales by customer")
	wantContains(t, got, "1. Rajesh Kirana Store: ₹28,440 (3 orders)", "2. Sharma General Store: ₹15,600 (1 order)")
}

func TestReportPeriods(t *testing.T) {
	loc := domain.DefaultLocation()
	now := time.Date(2026, 3, 14, 9, 30, 0, 0, loc) // a Saturday
	for text, want := range map[string]string{
		"aaj": "today", "today": "today", "आज": "today", "kal": "yesterday", "yesterday": "yesterday",
		"is hafte": "this_week", "this week": "this_week", "last week": "last_week", "pichle hafte": "last_week",
		"पिछले हफ्ते": "last_week", "is mahine": "this_month", "this_month": "this_month", "pichle mahine": "last_month",
		"last month": "last_month", "last 7 days": "last_7_days", "pichle 10 din": "last_10_days", "last 2 weeks": "last_14_days",
		"last_30_days": "last_30_days", "mtd": "this_month", "fortnight": "", "": "",
		// As the router hands them on, the apostrophe dropped (train.jsonl: "yesterday's sales").
		"yesterday's sales": "yesterday", "yesterdays sales": "yesterday", "summary of todays orders": "today",
	} {
		if got := reports.PeriodName(text); got != want {
			t.Errorf("PeriodName(%q) = %q, want %q", text, got, want)
		}
	}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, loc) }
	for name, want := range map[string][2]time.Time{
		"today":        {day(2026, 3, 14), day(2026, 3, 15)},
		"yesterday":    {day(2026, 3, 13), day(2026, 3, 14)},
		"this_week":    {day(2026, 3, 9), day(2026, 3, 15)},
		"last_week":    {day(2026, 3, 2), day(2026, 3, 9)},
		"this_month":   {day(2026, 3, 1), day(2026, 3, 15)},
		"last_month":   {day(2026, 2, 1), day(2026, 3, 1)},
		"last_7_days":  {day(2026, 3, 8), day(2026, 3, 15)},
		"last_30_days": {day(2026, 2, 13), day(2026, 3, 15)},
	} {
		p, err := reports.MakePeriod(name, now, loc)
		if err != nil || !p.From.Equal(want[0]) || !p.To.Equal(want[1]) {
			t.Errorf("%s = %v–%v, %v; want %v–%v", name, p.From, p.To, err, want[0], want[1])
		}
	}
	// A Monday's week starts that day; just after midnight in Kolkata is
	// still the previous day in UTC.
	monday := time.Date(2026, 3, 16, 0, 30, 0, 0, loc)
	if p, _ := reports.MakePeriod("this_week", monday.UTC(), loc); !p.From.Equal(day(2026, 3, 16)) {
		t.Errorf("this week on a Monday starts %v", p.From)
	}
	if _, err := reports.MakePeriod("last_400_days", now, loc); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("last_400_days: %v", err)
	}
}

// TestReportMore: a long answer fills one message under 1,600 characters,
// says how to get the rest, and MORE pages through every row exactly once.
func TestReportMore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	if err := reportstest.Build(ctx, path, reportstest.Size{Products: 75, Customers: 20, Lines: 1500, Days: 30}); err != nil {
		t.Fatal(err)
	}
	b := wire(t, openStore(t, path, reportstest.Now), reportstest.Now)
	b.tools.PageRows = reports.MaxRows // let the character limit decide

	var seen []string
	text := b.ask(t, owner, "how much stock do we have?")
	for page := 0; ; page++ {
		if n := reports.Chars(text); n > reports.MaxMessageChars {
			t.Fatalf("page %d has %d characters:\n%s", page, n, text)
		}
		for _, l := range lines(text) {
			if strings.HasPrefix(l, "• ") {
				seen = append(seen, l)
			}
		}
		if !strings.HasSuffix(text, reports.MoreHint) {
			if page == 0 {
				t.Fatal("75 products fit in one message?")
			}
			if !strings.Contains(text, "That's all") {
				t.Fatalf("last page:\n%s", text)
			}
			break
		}
		if !reports.IsMore("MORE") {
			t.Fatal("MORE is not more")
		}
		reply, ok := b.tools.More(ctx, owner)
		if !ok {
			t.Fatalf("MORE after page %d found nothing", page)
		}
		text = reply.Text
	}
	if len(seen) != 75 {
		t.Fatalf("MORE showed %d products, want 75", len(seen))
	}
	uniq := map[string]bool{}
	for _, l := range seen {
		uniq[l] = true
	}
	if len(uniq) != 75 {
		t.Fatalf("%d distinct rows of 75", len(uniq))
	}
	// Nothing more to continue, and another person has nothing to continue.
	if _, ok := b.tools.More(ctx, owner); ok {
		t.Fatal("MORE continued past the end")
	}
	b.ask(t, owner, "how much stock do we have?")
	if _, ok := b.tools.More(ctx, accounts); ok {
		t.Fatal("MORE continued someone else's answer")
	}
	// A new question replaces the place MORE would continue from.
	b.ask(t, owner, "GC ka stock kitna hai")
	if _, ok := b.tools.More(ctx, owner); ok {
		t.Fatal("MORE continued an answer that had no more")
	}
	// And the place expires.
	b.ask(t, owner, "how much stock do we have?")
	b.tools.Now = func() time.Time { return reportstest.Now.Add(reports.DefaultMoreTTL + time.Minute) }
	if _, ok := b.tools.More(ctx, owner); ok {
		t.Fatal("MORE continued after it expired")
	}
}

func TestReportIsMore(t *testing.T) {
	for text, want := range map[string]bool{
		"MORE": true, "more": true, "More please": true, "*MORE*": true, "aur dikhao": true, "next": true, "और": true,
		"more stock": false, "aur 5 carton GC": false, "": false, "pending orders": false,
	} {
		if got := reports.IsMore(text); got != want {
			t.Errorf("IsMore(%q) = %v", text, got)
		}
	}
}
