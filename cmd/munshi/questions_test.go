package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/reportstest"
)

// standing is a clock standing at 10:00 in Kolkata on that day.
func standing(y int, mo time.Month, d int) func() time.Time {
	at := time.Date(y, mo, d, 10, 0, 0, 0, domain.DefaultLocation())
	return func() time.Time { return at }
}

func TestQuestionsEndToEnd(t *testing.T) {
	m := startMainAt(t, standing(2026, 12, 1), newFakeTwilio(t).URL, nil)
	cases := []struct {
		from, text string
		want       []string
	}{
		{demo.OwnerPhone, "how much stock do we have?", []string{"*Stock*", "products"}},
		{demo.OwnerPhone, "GC ka stock kitna hai", []string{"Glass Cleaner 500ml", "Ready: 2,400 bottles"}},
		{demo.OwnerPhone, "can we commit 200 cartons of phenyl?", []string{"Phenyl 1L", "2,400 bottles"}},
		{demo.OwnerPhone, "who owes us money?", []string{"Mehta Traders: ₹2,10,000", "Sharma General Store: ₹1,20,000"}},
		{demo.OwnerPhone, "Mehta ji ka outstanding", []string{"Mehta Traders", "Outstanding: ₹2,10,000", "Headroom: ₹2,90,000"}},
		{demo.AccountsPhone, "राजेश का बकाया कितना है", []string{"Rajesh Kirana Store", "₹35,000"}},
		{demo.OwnerPhone, "pending orders dikhao", []string{"Pending orders"}},
		{demo.OwnerPhone, "फिनाइल का स्टॉक कितना है", []string{"Phenyl 1L"}},
		{demo.OwnerPhone, "who bought glass cleaner last week?", []string{"Who bought Glass Cleaner 500ml"}},
	}
	for i, c := range cases {
		reply := say(t, m, fmt.Sprintf("SMqa%02d", i), c.from, c.text)
		for _, w := range c.want {
			if !strings.Contains(reply, w) {
				t.Errorf("%q: reply lacks %q:\n%s", c.text, w, reply)
			}
		}
	}
}

// TestTopCustomersMatchTheBooks: "top customers" ranks the customers by
// sales before GST in the period asked (in MUNSHI_TZ), with their order
// counts and the period's totals, as the books have them: the test sums
// the demo database's orders itself. With no period named, the 1st of a
// month ranks the last 30 days and the 8th the month so far; "this month"
// is the month so far.
func TestTopCustomersMatchTheBooks(t *testing.T) {
	loc := domain.DefaultLocation()
	day := func(mo time.Month, d int) time.Time { return time.Date(2026, mo, d, 0, 0, 0, 0, loc) }
	for _, c := range []struct {
		now      func() time.Time
		text     string
		title    string
		from, to time.Time
	}{
		{standing(2026, 12, 1), "top customers", "*Top customers last 30 days (2 Nov–1 Dec)*", day(11, 2), day(12, 2)},
		{standing(2026, 12, 8), "top customers", "*Top customers this month so far (1–8 Dec, 8 days)*", day(12, 1), day(12, 9)},
		{standing(2026, 11, 20), "top customers this month", "*Top customers this month so far (1–20 Nov, 20 days)*", day(11, 1), day(11, 21)},
		{standing(2026, 12, 31), "top customers this month", "*Top customers this month so far (1–31 Dec, 31 days)*", day(12, 1), day(13, 1)},
	} {
		t.Run(c.now().Format("2-Jan"), func(t *testing.T) {
			topCustomersMatchTheBooks(t, c.now, c.text, c.title, c.from, c.to)
		})
	}
}

func topCustomersMatchTheBooks(t *testing.T, now func() time.Time, text, title string, from, to time.Time) {
	path := filepath.Join(t.TempDir(), "munshi.db")
	m := startMainAt(t, now, newFakeTwilio(t).URL, map[string]string{"MUNSHI_DB": path})
	reply := say(t, m, "SMtop1", demo.AccountsPhone, text)
	if !strings.HasPrefix(reply, title+"\n") {
		t.Errorf("reply is not titled %q:\n%s", title, reply)
	}

	type rank struct {
		name   string
		amount domain.Paise
		orders int
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A sale is an order committed or delivered; drafts and cancelled
	// orders are not sales.
	rows, err := db.Query(`SELECT c.name, SUM(o.subtotal_paise), SUM(o.gst_paise), COUNT(*)
		FROM orders o JOIN customers c ON c.id = o.customer_id
		WHERE o.status IN ('committed', 'delivered') AND julianday(o.created_at) >= julianday(?) AND julianday(o.created_at) < julianday(?)
		GROUP BY o.customer_id ORDER BY SUM(o.subtotal_paise) DESC, o.customer_id`,
		from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339))
	if err != nil {
		t.Fatal(err)
	}
	var want []rank
	var amount, gst domain.Paise
	var orders int
	for rows.Next() {
		var r rank
		var g domain.Paise
		if err := rows.Scan(&r.name, &r.amount, &g, &r.orders); err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
		amount, gst, orders = amount+r.amount, gst+g, orders+r.orders
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want) < 2 {
		t.Fatalf("the demo books have %d customers with sales from %v to %v: nothing to rank", len(want), from, to)
	}

	total := fmt.Sprintf("%s before GST (+%s GST), %s orders", amount, gst, domain.GroupIndian(int64(orders)))
	if !strings.Contains(reply, total) {
		t.Errorf("reply lacks the period's total %q:\n%s", total, reply)
	}
	line := regexp.MustCompile(`(?m)^(\d+)\. (.+): (₹[\d,]+(?:\.\d\d)?) \((\d+) orders?\)$`)
	var got []rank
	for i, l := range line.FindAllStringSubmatch(reply, -1) {
		p, err := domain.ParseRupees(l[3])
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(l[4])
		if l[1] != strconv.Itoa(i+1) {
			t.Errorf("line %d is numbered %s", i+1, l[1])
		}
		got = append(got, rank{name: l[2], amount: p, orders: n})
	}
	if !strings.Contains(reply, "MORE") && len(got) != len(want) {
		t.Errorf("%d customers ranked, the books have %d:\n%s", len(got), len(want), reply)
	}
	if len(got) == 0 || len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
		t.Fatalf("ranking %+v\nwant %+v\nreply:\n%s", got, want, reply)
	}
}

func TestQuestionRefusalsByRole(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	ctx := context.Background()
	// Sales staff do not see dues; accounts do not see stock.
	if r := say(t, m, "SMrr1", demo.SalesPhone, "who owes us money?"); !strings.Contains(r, "owner") || strings.Contains(r, "₹2,10,000") {
		t.Fatalf("sales asking dues: %s", r)
	}
	if r := say(t, m, "SMrr2", demo.AccountsPhone, "GC ka stock kitna hai"); strings.Contains(r, "Ready:") {
		t.Fatalf("accounts asking stock: %s", r)
	}
	refusals, _ := m.Store.AuditEntries(ctx, "refusal")
	if len(refusals) < 2 {
		t.Fatalf("refusals not audited: %+v", refusals)
	}
	tools, _ := m.Store.AuditEntries(ctx, "tool")
	for _, e := range tools {
		if e.Actor == demo.SalesPhone && e.Detail["tool"] == "outstanding" {
			t.Fatalf("a refused call ran: %+v", e)
		}
	}
}

// startLarge runs Munshi on a generated database of 10,000 SKUs and
// 500,000 order lines.
func startLarge(b *testing.B) *Main {
	b.Helper()
	path := reportstest.PrivateCopy(b, reportstest.Large)
	return startMain(b, newFakeTwilio(b).URL, map[string]string{"MUNSHI_DB": path})
}

// BenchmarkLargeStockQuestion: "GC ka stock kitna hai" through the webhook
// over 10,000 SKUs and 500,000 order lines.
func BenchmarkLargeStockQuestion(b *testing.B) {
	benchMessages(b, startLarge(b), demo.OwnerPhone, "GC ka stock kitna hai",
		want{has: []string{"*Glass Cleaner 500ml* (GC500)", "Ready:", "Available:"}})
}

// BenchmarkLargeOutstandingQuestion: "who owes us money?" at that scale.
func BenchmarkLargeOutstandingQuestion(b *testing.B) {
	benchMessages(b, startLarge(b), demo.OwnerPhone, "who owes us money?", want{has: []string{"*Who owes us*", "customers, ₹"}})
}

// BenchmarkLargeCustomerOutstanding: "Mehta ji ka outstanding".
func BenchmarkLargeCustomerOutstanding(b *testing.B) {
	benchMessages(b, startLarge(b), demo.OwnerPhone, "Mehta ji ka outstanding",
		want{has: []string{"*Mehta Traders* (C03)", "Outstanding: ₹", "Credit limit:"}})
}

// TestAnAdvanceIsNotANegativeDue: a payment larger than the dues leaves an
// advance; the summary, the confirmation and the dues question call it
// one and never show a minus sign.
func TestAnAdvanceIsNotANegativeDue(t *testing.T) {
	m := startMainAt(t, standing(2026, 12, 1), newFakeTwilio(t).URL, nil)
	shown := say(t, m, "SMadv1", demo.AccountsPhone, "Rajesh ne 50000 diya cash")
	for _, want := range []string{"Outstanding: ₹35,000 → ₹0, advance ₹15,000", "₹15,000 more than Rajesh Kirana Store owes"} {
		if !strings.Contains(shown, want) {
			t.Errorf("payment summary lacks %q:\n%s", want, shown)
		}
	}
	done := say(t, m, "SMadv2", demo.AccountsPhone, "ok")
	if !strings.Contains(done, "✅ Recorded ₹50,000 from Rajesh Kirana Store. Outstanding now ₹0, advance ₹15,000.") {
		t.Errorf("confirmation:\n%s", done)
	}
	dues := say(t, m, "SMadv3", demo.OwnerPhone, "Rajesh ka outstanding")
	if !strings.Contains(dues, "Advance: ₹15,000, paid ahead of the next bills.") {
		t.Errorf("dues question:\n%s", dues)
	}
	for _, r := range []string{shown, done, dues} {
		if strings.Contains(r, "-₹") {
			t.Errorf("a minus sign on money:\n%s", r)
		}
	}
}
