package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// testPaymentsReceived sums reportstest.KnownPayments: the chat's payments
// and an imported one alike, each grouping in its order, the local day's
// edges, filters, and totals that hold on every page.
func testPaymentsReceived(t *testing.T, s store.Store, c *Clock) {
	known(t, s, c)
	if err := reportstest.KnownPayments(ctx, s); err != nil {
		t.Fatal(err)
	}
	loc := domain.DefaultLocation()
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, loc) }
	week := reports.PaymentsQuery{From: day(9), To: day(15), UTCOffset: 19800, Page: reports.Page{Limit: 10}}
	type line struct {
		Key       string
		Amount    domain.Paise
		Payments  int
		Customers int
		Modes     []domain.PaymentMode
	}
	read := func(q reports.PaymentsQuery) (reports.PaymentsTotals, []line, []reports.PaymentLine) {
		t.Helper()
		tot, lines, err := s.PaymentsReceived(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		var got []line
		for _, l := range lines {
			got = append(got, line{l.Key, l.Amount, l.Payments, l.Customers, l.Modes})
		}
		return tot, got, lines
	}
	cod, upi, chq, bank := domain.PayCOD, domain.PayUPI, domain.PayCheque, domain.PayBankTransfer

	// By customer, largest first; the imported payment counts.
	tot, got, lines := read(week)
	if want := (reports.PaymentsTotals{Groups: 3, Payments: 6, Customers: 3, Amount: 5023506}); tot != want {
		t.Fatalf("week totals %+v, want %+v", tot, want)
	}
	want := []line{{"C02", 2623456, 2, 1, []domain.PaymentMode{upi, chq}}, {"C01", 1700050, 3, 1, []domain.PaymentMode{cod, upi}},
		{"C03", 700000, 1, 1, []domain.PaymentMode{bank}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("by customer\n got %+v\nwant %+v", got, want)
	}
	if l := lines[1]; l.Label != "Rajesh Kirana Store" || l.CustomerID != "C01" || l.Customer != "Rajesh Kirana Store" ||
		!l.Last.Equal(time.Date(2026, 3, 14, 9, 0, 0, 0, loc)) {
		t.Fatalf("Rajesh %+v", l)
	}

	// By mode, largest first: ₹7,000.50 of cash before ₹7,000 by bank.
	q := week
	q.By = reports.PaymentsByMode
	tot, got, _ = read(q)
	want = []line{{"cheque", 2500000, 1, 1, []domain.PaymentMode{chq}}, {"upi", 1123456, 2, 2, []domain.PaymentMode{upi}},
		{"cod", 700050, 2, 1, []domain.PaymentMode{cod}}, {"bank_transfer", 700000, 1, 1, []domain.PaymentMode{bank}}}
	if !reflect.DeepEqual(got, want) || tot.Groups != 4 || tot.Amount != 5023506 {
		t.Fatalf("by mode %+v\n got %+v\nwant %+v", tot, got, want)
	}

	// By local day, newest first: 00:00 is today, 23:59 yesterday.
	q.By = reports.PaymentsByDay
	tot, got, _ = read(q)
	want = []line{{"2026-03-14", 1700050, 3, 1, []domain.PaymentMode{cod, upi}}, {"2026-03-13", 2623456, 2, 1, []domain.PaymentMode{upi, chq}},
		{"2026-03-11", 700000, 1, 1, []domain.PaymentMode{bank}}}
	if !reflect.DeepEqual(got, want) || tot.Groups != 3 {
		t.Fatalf("by day %+v\n got %+v\nwant %+v", tot, got, want)
	}

	// Each payment, newest first, filtered by customer and mode.
	q = reports.PaymentsQuery{From: day(14), To: day(15), By: reports.PaymentsByPayment, CustomerIDs: []string{"C01"},
		Modes: []domain.PaymentMode{cod}, Page: reports.Page{Limit: 10}}
	tot, _, lines = read(q)
	if tot != (reports.PaymentsTotals{Groups: 2, Payments: 2, Customers: 1, Amount: 700050}) || len(lines) != 2 {
		t.Fatalf("Rajesh's cash today %+v %+v", tot, lines)
	}
	if l := lines[0]; l.Amount != 500050 || l.Mode != cod || l.Reference != "" || l.Imported || l.Customer != "Rajesh Kirana Store" ||
		!l.Last.Equal(time.Date(2026, 3, 14, 8, 0, 0, 0, loc)) || l.Key == "" || l.Key == lines[1].Key {
		t.Fatalf("first payment %+v", l)
	}
	if !lines[1].Last.Equal(day(14)) {
		t.Fatalf("midnight payment at %v", lines[1].Last)
	}
	q.CustomerIDs, q.Modes, q.From = []string{"C03"}, nil, day(1)
	if _, _, lines = read(q); len(lines) != 1 || !lines[0].Imported || lines[0].Reference != "NEFT77" || lines[0].Mode != bank {
		t.Fatalf("the imported payment %+v", lines)
	}

	// A page: the totals are every payment's, past the end too.
	q = week
	q.Page = reports.Page{Offset: 1, Limit: 1}
	if tot, got, _ = read(q); tot.Groups != 3 || tot.Amount != 5023506 || len(got) != 1 || got[0].Key != "C01" {
		t.Fatalf("page 2 %+v %+v", tot, got)
	}
	q.Page = reports.Page{Offset: 9, Limit: 5}
	if tot, got, _ = read(q); tot.Payments != 6 || len(got) != 0 {
		t.Fatalf("past the end %+v %+v", tot, got)
	}
	q.Page = reports.Page{Offset: -3, Limit: 1 << 30}
	if _, got, _ = read(q); len(got) != 3 {
		t.Fatalf("clamped page %+v", got)
	}

	// Nothing received: zero totals, no lines; and a mode no one used.
	for _, q := range []reports.PaymentsQuery{
		{From: day(15), To: day(16)},
		{From: day(1), To: day(15), Modes: []domain.PaymentMode{domain.PayCredit}},
		{From: day(1), To: day(15), CustomerIDs: []string{"C99"}},
	} {
		if tot, got, _ = read(q); tot != (reports.PaymentsTotals{}) || len(got) != 0 {
			t.Fatalf("%+v: %+v %+v", q, tot, got)
		}
	}
	// Last month holds only its own payment.
	if tot, _, _ = read(reports.PaymentsQuery{From: time.Date(2026, 2, 1, 0, 0, 0, 0, loc), To: day(1)}); tot.Amount != 9999900 || tot.Payments != 1 {
		t.Fatalf("February %+v", tot)
	}
}
