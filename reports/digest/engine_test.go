package digest_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/reports/digest/digesttest"
)

var ctx = context.Background()

// knownBooks opens a fresh SQLite store holding digesttest.Known.
func knownBooks(t testing.TB) store.Store {
	t.Helper()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "munshi.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := digesttest.Known(ctx, s); err != nil {
		t.Fatal(err)
	}
	return s
}

var opts = digest.Options{Location: digesttest.Kolkata}

func rupees(r int64) domain.Paise { return domain.Paise(r * 100) }

func pct(n int) *int { return &n }

func samePct(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestFactsOfTheKnownDay checks every figure of D's facts against values
// worked out by hand from digesttest.Known.
func TestFactsOfTheKnownDay(t *testing.T) {
	b := knownBooks(t)
	// Any time on D's date, in any zone, is D.
	f, err := digest.Build(ctx, b, digesttest.At(0, 13, 0).UTC(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Date.Equal(digesttest.D) {
		t.Fatalf("date %v, want %v", f.Date, digesttest.D)
	}

	// D: SUR ₹5,000 at 10:00, TAR ₹1,500 at 00:15 and ₹2,500 at 23:30 (an
	// IST day, though 23:30 IST is 18:00 UTC and 00:15 IST the day before
	// in UTC); the cancelled order and D+1 00:30 count nowhere.
	want := digest.DaySales{Date: digesttest.D, Amount: rupees(9000), GST: rupees(1620), Orders: 3, Customers: 2}
	if f.Sales != want {
		t.Errorf("sales %+v, want %+v", f.Sales, want)
	}

	// Baseline, the 13 Tuesdays D−91 … D−7: SUR ₹1,000 on each of the last
	// twelve, NAV ₹2,000 on D−28, OLD ₹20,000 on D−70, and D−91 with no
	// sales at all (zero, counted). Σ = ₹34,000, mean ₹34,000/13 =
	// ₹2,615.38, lowest ₹0, highest ₹21,000; D against it:
	// (13 × 9,000 − 34,000) / 34,000 = +244.1% → 244.
	bl := f.Baseline
	if len(bl.Days) != 13 {
		t.Fatalf("%d baseline days", len(bl.Days))
	}
	wantDates := []string{"2025-12-02", "2025-12-09", "2025-12-16", "2025-12-23", "2025-12-30", "2026-01-06", "2026-01-13",
		"2026-01-20", "2026-01-27", "2026-02-03", "2026-02-10", "2026-02-17", "2026-02-24"}
	wantAmounts := []int64{0, 1000, 1000, 21000, 1000, 1000, 1000, 1000, 1000, 3000, 1000, 1000, 1000}
	for i, day := range bl.Days {
		if got := day.Date.Format("2006-01-02"); got != wantDates[i] || day.Date.Weekday() != time.Tuesday {
			t.Errorf("baseline day %d is %s (%s), want %s", i, got, day.Date.Weekday(), wantDates[i])
		}
		if day.Amount != rupees(wantAmounts[i]) {
			t.Errorf("baseline %s: %s, want ₹%d", wantDates[i], day.Amount, wantAmounts[i])
		}
	}
	if bl.Sum != rupees(34000) || bl.Mean != 261538 || bl.Lowest != 0 || bl.Highest != rupees(21000) || !samePct(bl.Change, pct(244)) {
		t.Errorf("baseline Σ %s mean %s low %s high %s change %v", bl.Sum, bl.Mean, bl.Lowest, bl.Highest, deref(bl.Change))
	}

	// Week to date: Mon 2 + Tue 3 March (₹0 + ₹9,000) against Mon 23 + Tue
	// 24 February (₹0 + SUR's ₹1,000): +800%.
	if w := f.Week; w.Amount != rupees(9000) || w.Prior != rupees(1000) || !samePct(w.Change, pct(800)) ||
		w.From.Format("2006-01-02") != "2026-03-02" || w.PriorFrom.Format("2006-01-02") != "2026-02-23" || w.PriorTo.Format("2006-01-02") != "2026-02-25" {
		t.Errorf("week %+v", w)
	}
	// Month to date: 1–3 March ₹9,000 against 1–3 February: D−28 (3 Feb)
	// holds SUR ₹1,000 and NAV ₹2,000 → ₹3,000, +200%.
	if m := f.Month; m.Amount != rupees(9000) || m.Prior != rupees(3000) || !samePct(m.Change, pct(200)) ||
		m.PriorFrom.Format("2006-01-02") != "2026-02-01" || m.PriorTo.Format("2006-01-02") != "2026-02-04" {
		t.Errorf("month %+v", m)
	}

	// Customer events.
	type ev struct {
		kind  digest.EventKind
		id    string
		value domain.Paise
	}
	var got []ev
	for _, e := range f.Events {
		got = append(got, ev{e.Kind, e.CustomerID, e.Value})
	}
	wantEvents := []ev{
		// no_order, most valuable first (the orders missed: the usual order
		// × days since ÷ usual gap): OLD ₹20,000 × 70/14, NAV ₹2,000 ×
		// 20/4, CHA ₹1,500 × 10/7 = ₹2,142.857.
		{digest.NoOrder, "OLD", rupees(100000)},
		{digest.NoOrder, "NAV", rupees(10000)},
		{digest.NoOrder, "CHA", 214285},
		// drop: DEE ₹81,000 over 9 weeks (₹9,000 a week) then ₹2,000 in 4
		// (₹500 a week): 4 × ₹8,500 = ₹34,000. OLD ₹20,000 then nothing:
		// 4 × ₹2,222.22.
		{digest.Drop, "DEE", rupees(34000)},
		{digest.Drop, "OLD", 888888},
		// surge: SUR's ₹5,000 against a usual ₹1,000.
		{digest.Surge, "SUR", rupees(5000)},
		// credit_risk: RAV at 95% of the limit; OLD's bill 70 days old.
		{digest.CreditRisk, "RAV", rupees(95000)},
		{digest.CreditRisk, "OLD", rupees(23600)},
		// payment_received on D (23:30 IST counts; D−1 and D+1 00:10 do not).
		{digest.PaymentReceived, "RAV", rupees(5000)},
		{digest.PaymentReceived, "SUR", rupees(3000)},
	}
	if !reflect.DeepEqual(got, wantEvents) {
		t.Fatalf("events\n got %v\nwant %v", got, wantEvents)
	}
	byKey := map[string]digest.Event{}
	for _, e := range f.Events {
		byKey[string(e.Kind)+" "+e.CustomerID] = e
	}
	// NAV: orders 4 days apart (median gap 4), none for 20 > 1.5 × 4.
	if e := byKey["no_order NAV"]; e.DaysSince != 20 || e.Usual != 4 || !e.Habit {
		t.Errorf("NAV %+v", e)
	}
	// CHA has two orders, too few for a habit: horeca's cadence, 7.
	if e := byKey["no_order CHA"]; e.DaysSince != 10 || e.Usual != 7 || e.Habit {
		t.Errorf("CHA %+v", e)
	}
	// OLD: one order, wholesale is not in the default map: 14.
	if e := byKey["no_order OLD"]; e.DaysSince != 70 || e.Usual != digest.OtherCadence || e.Habit {
		t.Errorf("OLD %+v", e)
	}
	if e := byKey["surge SUR"]; e.Amount != rupees(5000) || e.UsualSize != rupees(1000) {
		t.Errorf("SUR %+v", e)
	}
	if e := byKey["drop DEE"]; e.RecentWeekly != rupees(500) || e.PriorWeekly != rupees(9000) {
		t.Errorf("DEE %+v", e)
	}
	if e := byKey["credit_risk RAV"]; !e.OverLimit || e.BillsTooOld || e.LimitUsed != 95 || e.Limit != rupees(100000) {
		t.Errorf("RAV %+v", e)
	}
	if e := byKey["credit_risk OLD"]; e.OverLimit || !e.BillsTooOld || e.OldestDays != 70 || e.OldestBill == "" || e.LimitUsed != 4 {
		t.Errorf("OLD %+v", e)
	}
	if e := byKey["payment_received RAV"]; e.Payments != 1 || e.Amount != rupees(5000) {
		t.Errorf("RAV paid %+v", e)
	}
	// Dues: RAV ₹95,000 + OLD ₹23,600 + SAF ₹50,000 (SAF's bill is 10
	// days old and half the limit: no risk).
	if f.Due != rupees(168600) || f.Owing != 3 || f.Received != rupees(8000) {
		t.Errorf("due %s from %d, received %s", f.Due, f.Owing, f.Received)
	}

	// Stock, most sold in D−27 … D first: LOW sold 280 in 28 days (10 a
	// day) and has 50: 5 days. HELD: 100 ready, 100 committed to LAT's
	// order: out. OUT: nothing ready, 500 in production, nothing sold.
	type st struct {
		sku       string
		out       bool
		cover     int
		sold, wip int64
		available int64
	}
	var stock []st
	for _, l := range f.Stock {
		stock = append(stock, st{l.SKU, l.Out, l.Cover, l.Sold, l.WIP, l.Available()})
	}
	wantStock := []st{{"LOW", false, 5, 280, 120, 50}, {"HELD", true, 0, 100, 0, 0}, {"OUT", true, -1, 0, 500, 0}}
	if !reflect.DeepEqual(stock, wantStock) {
		t.Errorf("stock\n got %+v\nwant %+v", stock, wantStock)
	}

	// Waiting: the draft for SAF (₹1,840.80); LAT's order of D−5 is past 3
	// days; TAR's committed orders of D and D+1 are not.
	w := f.Waiting
	if w.DraftCount != 1 || w.DraftValue != 184080 || len(w.Drafts) != 1 || w.Drafts[0].ID != digesttest.DraftID || w.Drafts[0].Customer != "Safe Supermart" {
		t.Errorf("drafts %+v", w)
	}
	if w.LateCount != 1 || w.LateValue != 118000 || len(w.Late) != 1 || w.Late[0].CustomerID != "LAT" {
		t.Errorf("late %+v", w)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestADayWithNoSales: Monday 2 March sold nothing. Its Mondays: NAV
// ₹2,000 on D−36 and CHA ₹1,500 on D−50 → Σ ₹3,500, mean ₹269.23, and
// the day is −100% against it.
func TestADayWithNoSales(t *testing.T) {
	b := knownBooks(t)
	f, err := digest.Build(ctx, b, digesttest.At(-1, 0, 0), opts)
	if err != nil {
		t.Fatal(err)
	}
	if f.Sales.Amount != 0 || f.Sales.Orders != 0 || f.Sales.Customers != 0 {
		t.Errorf("sales %+v", f.Sales)
	}
	bl := f.Baseline
	if bl.Sum != rupees(3500) || bl.Mean != 26923 || bl.Lowest != 0 || bl.Highest != rupees(2000) || !samePct(bl.Change, pct(-100)) {
		t.Errorf("baseline %+v change %v", bl, deref(bl.Change))
	}
	for _, d := range bl.Days {
		if d.Date.Weekday() != time.Monday {
			t.Errorf("baseline day %v is a %s", d.Date, d.Date.Weekday())
		}
	}
}

// TestMonthEnds: Tuesday 31 March 2026. Its Tuesdays reach back to 30
// December 2025; the month so far (1–31 March) is compared with all of
// February's 28 days.
func TestMonthEnds(t *testing.T) {
	b := knownBooks(t)
	d := time.Date(2026, 3, 31, 12, 0, 0, 0, digesttest.Kolkata)
	f, err := digest.Build(ctx, b, d, opts)
	if err != nil {
		t.Fatal(err)
	}
	bl := f.Baseline
	if first, last := bl.Days[0].Date.Format("2006-01-02"), bl.Days[12].Date.Format("2006-01-02"); first != "2025-12-30" || last != "2026-03-24" {
		t.Errorf("baseline from %s to %s", first, last)
	}
	// Tuesdays: 3 March ₹9,000, SUR's ₹1,000 on eight more (30 Dec … 24
	// Feb) and NAV's ₹2,000 on 3 Feb: Σ ₹20,000.
	if bl.Sum != rupees(20000) || bl.Highest != rupees(9000) || bl.Lowest != 0 {
		t.Errorf("baseline %+v", bl)
	}
	// February 1–28: SUR 4 × ₹1,000, NAV 3 × ₹2,000, CHA ₹1,500, DEE
	// ₹2,000, SAF ₹50,000, LAT ₹1,000 = ₹64,500. March 1–31: ₹9,000 on the
	// 3rd and TAR's ₹7,777 on the 4th = ₹16,777: −74%.
	m := f.Month
	if m.PriorFrom.Format("2006-01-02") != "2026-02-01" || m.PriorTo.Format("2006-01-02") != "2026-03-01" ||
		m.Prior != rupees(64500) || m.Amount != rupees(16777) || !samePct(m.Change, pct(-74)) {
		t.Errorf("month %+v change %v", m, deref(m.Change))
	}
}

// TestSegmentCadenceIsConfigurable: with horeca at 14 days, CHA's 10 days
// without an order are no longer news.
func TestSegmentCadenceIsConfigurable(t *testing.T) {
	b := knownBooks(t)
	o := opts
	o.Cadence = map[string]int{"horeca": 14}
	f, err := digest.Build(ctx, b, digesttest.D, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.Of(digest.NoOrder) {
		if e.CustomerID == "CHA" {
			t.Fatalf("CHA flagged with a 14-day cadence: %+v", e)
		}
	}
}
