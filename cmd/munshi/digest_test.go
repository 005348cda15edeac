package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/digest/digesttest"
)

func TestDigestCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := digesttest.Known(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	s.Close()
	env := map[string]string{"MUNSHI_DB": db}
	out, _, err := cli(t, env, "", "digest", "--date", "2026-03-03")
	if err != nil {
		t.Fatal(err)
	}
	owner, accounts, ok := strings.Cut(out, "----- accounts -----")
	if !ok || !strings.HasPrefix(owner, "*Munshi digest · Tue 3 Mar*\nTue 3 Mar: sales ₹9,000 before GST from 3 orders") ||
		!strings.Contains(owner, "2. Chase Ravi Wholesale") || !strings.Contains(accounts, "*Munshi dues · Tue 3 Mar*") {
		t.Fatalf("digest:\n%s", out)
	}
	// In another zone the same date is another stretch of time: in London
	// TAR's 00:15 IST order falls on 2 March and the 00:30 IST one of 4
	// March on the 3rd: ₹5,000 + ₹2,500 + ₹7,777.
	out, _, err = cli(t, map[string]string{"MUNSHI_DB": db, "MUNSHI_TZ": "Europe/London"}, "", "digest", "--date", "2026-03-03")
	if err != nil || !strings.Contains(out, "sales ₹15,277 before GST from 3 orders") {
		t.Fatalf("in London: %v\n%s", err, out)
	}

	for _, args := range [][]string{{"digest", "--date", "3/3/2026"}, {"digest", "extra"}, {"digest", "--bogus"}} {
		if _, _, err := cli(t, env, "", args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	// A day that has not happened has no digest (not "−100% on last
	// month"): refused with exit status 2, before the database is read.
	out, errOut, err := cli(t, env, "", "digest", "--date", "2999-01-01")
	if !errors.Is(err, errUsage) || out != "" || !strings.Contains(errOut, "--date 2999-01-01 is in the future: the latest digest is of ") {
		t.Errorf("a future date = %v, printed %q, said %q; want refused", err, out, errOut)
	}
}

// TestDigestDate: --date names a day that is over, in MUNSHI_TZ; today is
// not over and later days have not happened. The clock stands on the 1st
// and on the 31st of a month, just after midnight in Kolkata (still the
// day before in UTC).
func TestDigestDate(t *testing.T) {
	loc := digesttest.Kolkata
	for _, now := range []time.Time{
		time.Date(2026, 12, 1, 0, 10, 0, 0, loc),
		time.Date(2026, 12, 31, 0, 10, 0, 0, loc),
		time.Date(2027, 1, 1, 23, 50, 0, 0, loc),
	} {
		today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
		yesterday := today.AddDate(0, 0, -1)
		if got, err := digestDate("", now, loc); err != nil || !got.Equal(yesterday) {
			t.Errorf("%v: no date = %v, %v; want yesterday %v", now, got, err, yesterday)
		}
		for _, day := range []time.Time{yesterday, today.AddDate(0, 0, -40)} {
			if got, err := digestDate(day.Format(time.DateOnly), now, loc); err != nil || !got.Equal(day) {
				t.Errorf("%v: --date %s = %v, %v", now, day.Format(time.DateOnly), got, err)
			}
		}
		latest := "the latest is of " + yesterday.Format(time.DateOnly)
		if _, err := digestDate(today.Format(time.DateOnly), now, loc); err == nil ||
			!strings.Contains(err.Error(), "is today, which is not over yet") || !strings.Contains(err.Error(), latest) {
			t.Errorf("%v: today = %v; want refused, naming the latest", now, err)
		}
		for _, later := range []time.Time{today.AddDate(0, 0, 1), today.AddDate(1, 0, 0)} {
			if _, err := digestDate(later.Format(time.DateOnly), now, loc); err == nil ||
				!strings.Contains(err.Error(), "is in the future") || !strings.Contains(err.Error(), yesterday.Format(time.DateOnly)) {
				t.Errorf("%v: --date %s = %v; want refused", now, later.Format(time.DateOnly), err)
			}
		}
	}
}

// TestPastDigestReadsAsSent: the digest of Tuesday 3 March goes out at
// 07:00 on the 4th; an order of the 3rd entered later changes the day.
// "kal ka digest" on the 5th and "munshi digest --date 2026-03-03" show
// the edition that was sent and what reads differently now; "aaj ka
// digest" (the 4th's, never sent) is the day as the books read now.
func TestPastDigestReadsAsSent(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "m.db")
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := digesttest.Known(ctx, s); err != nil {
		t.Fatal(err)
	}
	const owner = "+919900000001"
	if err := s.UpsertUsers(ctx, []domain.User{{Phone: owner, Name: "Vikram Singh", Role: domain.RoleOwner}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	clk := &testClock{fixed: digesttest.At(1, 7, 0)}
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_DB": db}, onClock(clk))

	var sent strings.Builder
	if err := m.printDigest(ctx, &sent, digesttest.D, true); err != nil {
		t.Fatal(err)
	}
	brief, _, _ := strings.Cut(sent.String(), "\n\n----- accounts -----")
	if !strings.HasPrefix(brief, "*Munshi digest · Tue 3 Mar*\nTue 3 Mar: sales ₹9,000 before GST from 3 orders (2 customers)") {
		t.Fatalf("the digest sent:\n%s", sent.String())
	}

	// Safe Supermart's ₹3,000 order of the 3rd, entered the next day.
	line := domain.PriceLine(domain.OrderLine{SKU: "BASE", Qty: 3000, SaidQty: 3000, SaidUnit: "piece", Price: 100, GSTRate: 1800})
	at := digesttest.At(0, 14, 0)
	late := domain.Order{ID: "T-900", CustomerID: "SAF", Status: domain.OrderDelivered, Payment: domain.PayCOD,
		CreatedAt: at, CommittedAt: at, DeliveredAt: at.Add(time.Hour), Lines: []domain.OrderLine{line},
		Subtotal: line.Amount, GST: line.GSTAmount, Total: line.Amount + line.GSTAmount}
	if err := m.Store.AddHistory(ctx, []domain.Order{late}, nil); err != nil {
		t.Fatal(err)
	}
	clk.Advance(26 * time.Hour) // 09:00 on the 5th
	note := "Since it was sent on 4 Mar at 07:00, later changes to the books make it read differently now: " +
		"sales ₹9,000 → ₹12,000, orders 3 → 4, customers 2 → 3."
	if got := say(t, m, "SMkal1", owner, "kal ka digest"); !strings.Contains(got, note+"\n\n"+brief) {
		t.Errorf("kal ka digest =\n%s\nwant the brief sent after\n%s", got, note)
	}
	if got := say(t, m, "SMaaj1", owner, "aaj ka digest"); !strings.Contains(got, "*Munshi digest · Wed 4 Mar*") || strings.Contains(got, "Since it was sent") {
		t.Errorf("aaj ka digest (the 4th, never sent) =\n%s", got)
	}
	var again strings.Builder
	if err := m.printDigest(ctx, &again, digesttest.D, false); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(again.String(), note+"\n\n"+brief) {
		t.Errorf("munshi digest --date 2026-03-03 printed\n%s\nwant the brief sent after\n%s", again.String(), note)
	}
}

func TestDigestOfTheDemo(t *testing.T) {
	env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "m.db")}
	out, _, err := cli(t, env, "", "digest", "--demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"*Munshi digest · ", "Big order: Gupta Supermart", "*Today*", "1. ", "Stock: ", "Floor Mop", "Waiting: 1 order undelivered",
		"*Munshi dues · ", "Received ", "Due now "} {
		if !strings.Contains(out, want) {
			t.Errorf("demo digest lacks %q:\n%s", want, out)
		}
	}
}
