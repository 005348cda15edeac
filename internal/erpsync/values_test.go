package erpsync

import (
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// noisy adds at run time, where floats are not exact (0.30000000000000004).
func noisy(a, b float64) float64 { return a + b }

func TestReadMoneyIsExact(t *testing.T) {
	for _, tc := range []struct {
		in   any
		unit string
		want domain.Paise
		bad  string
	}{
		{"1234.50", Rupees, 123450, ""},
		{"1234.5", Rupees, 123450, ""},
		{"1234.5000", Rupees, 123450, ""}, // a money column's four places
		{"1234.505", Rupees, 0, "more than two decimal places"},
		{"0.01", Rupees, 1, ""},
		{".5", Rupees, 50, ""},
		{"-12.30", Rupees, -1230, ""},
		{"1,23,456.00", Rupees, 12345600, ""}, // Indian grouping
		{"12,34,56,789", Rupees, 123456789 * 100, ""},
		{"1,234.50", Rupees, 123450, ""}, // Western grouping
		{"1,234,567", Rupees, 123456700, ""},
		{"12,34", Rupees, 0, "groups its digits wrongly"},
		{"123,45,678", Rupees, 0, "groups its digits wrongly"},
		{"1,,234", Rupees, 0, "groups its digits wrongly"},
		{"₹ 25,000", Rupees, 2500000, ""},
		{"Rs. 92.50", Rupees, 9250, ""},
		{"INR 10", Rupees, 1000, ""},
		{"1e3", Rupees, 0, "not a number"},
		{"12.", Rupees, 0, "not a number"},
		{"abc", Rupees, 0, "not a number"},
		{"", Rupees, 0, "not a number"},
		{"١٢٣", Rupees, 0, "not a number"}, // Arabic-Indic digits are not read as ASCII ones
		{int64(92), Rupees, 9200, ""},
		{int64(9250), Paise, 9250, ""},
		{"9250.00", Paise, 9250, ""},
		{"92.50", Paise, 0, "not a whole number of paise"},
		{92.1, Rupees, 9210, ""}, // the shortest decimal of the float, not 92.09999…
		{noisy(0.1, 0.2), Rupees, 0, "more than two decimal places"},
		{true, Rupees, 0, "not a number"},
		{time.Now(), Rupees, 0, "not a number"},
		{"100000000000000000000", Rupees, 0, "more than"},
		{"10000000000.01", Rupees, 0, "more than"},
	} {
		got, err := readMoney(tc.in, tc.unit)
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("readMoney(%v, %s): %v", tc.in, tc.unit, err)
		case tc.bad == "" && got != tc.want:
			t.Errorf("readMoney(%v, %s) = %d, want %d", tc.in, tc.unit, got, tc.want)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("readMoney(%v, %s) = %d, %v; want an error with %q", tc.in, tc.unit, got, err, tc.bad)
		}
	}
}

func TestReadQtyWithFactor(t *testing.T) {
	for _, tc := range []struct {
		in     any
		factor float64
		want   int64
		bad    string
	}{
		{int64(5), 0, 5, ""},
		{int64(5), 24, 120, ""},
		{"2.5", 2, 5, ""},
		{"2.5", 0, 0, "not a whole number"},
		{"3", 0.5, 0, "× factor 0.5 is 1.500"},
		{noisy(0.1, 0.2), 10, 3, ""}, // float noise within a millionth rounds
		{2.9999999999, 1, 3, ""},
		{-2.0000000001, 1, -2, ""},
		{"1,200", 1, 1200, ""},
		{"12.000", 12, 144, ""},
		{"2000000000", 1, 0, "more than"},
		{"x", 1, 0, "not a number"},
	} {
		got, err := readQty(tc.in, tc.factor)
		switch {
		case tc.bad == "" && (err != nil || got != tc.want):
			t.Errorf("readQty(%v, %v) = %d, %v; want %d", tc.in, tc.factor, got, err, tc.want)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("readQty(%v, %v) = %d, %v; want an error with %q", tc.in, tc.factor, got, err, tc.bad)
		}
	}
}

func TestReadPercent(t *testing.T) {
	for in, want := range map[any]domain.GSTRate{"18": 1800, "18.00": 1800, "2.5%": 250, " 5 % ": 500, 0.25: 25, int64(28): 2800, "0": 0} {
		if got, err := readPercent(in); err != nil || got != want {
			t.Errorf("readPercent(%v) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []any{"101", "-5", "2.555", "eighteen"} {
		if got, err := readPercent(in); err == nil {
			t.Errorf("readPercent(%v) = %v, want an error", in, got)
		}
	}
}

func TestReadDate(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	at := func(y int, m time.Month, d, hh, mm, ss int) time.Time { return time.Date(y, m, d, hh, mm, ss, 0, ist) }
	for _, tc := range []struct {
		in   any
		want time.Time
	}{
		{"2026-03-05", at(2026, 3, 5, 0, 0, 0)},
		{"2026-03-05 14:30:15", at(2026, 3, 5, 14, 30, 15)},
		{"2026-03-05T14:30", at(2026, 3, 5, 14, 30, 0)},
		{"2026-03-05 14:30:15.123", time.Date(2026, 3, 5, 14, 30, 15, 123e6, ist)},
		{"05-03-2026", at(2026, 3, 5, 0, 0, 0)}, // day first
		{"05/03/2026", at(2026, 3, 5, 0, 0, 0)},
		{"5/3/2026 2:30 PM", at(2026, 3, 5, 14, 30, 0)},
		{"05/03/2026 14:30:00", at(2026, 3, 5, 14, 30, 0)},
		{"05-Mar-2026", at(2026, 3, 5, 0, 0, 0)},
		{"2026-03-05T09:00:00Z", at(2026, 3, 5, 14, 30, 0)}, // an instant
		{"2026-03-05 14:30:00+05:30", at(2026, 3, 5, 14, 30, 0)},
		// A driver's zoneless DATETIME comes as UTC: its wall clock is the ERP's.
		{time.Date(2026, 3, 5, 14, 30, 0, 0, time.UTC), at(2026, 3, 5, 14, 30, 0)},
		// An instant in another zone stays the instant.
		{time.Date(2026, 3, 5, 9, 0, 0, 0, time.FixedZone("X", 0)), at(2026, 3, 5, 14, 30, 0)},
	} {
		got, err := readDate(tc.in, ist)
		if err != nil || !got.Equal(tc.want) || got.Location() != ist {
			t.Errorf("readDate(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []any{"13/13/2026", "2026-02-30", "yesterday", "1975-01-01", "2150-01-01", int64(20260305), ""} {
		if got, err := readDate(in, ist); err == nil {
			t.Errorf("readDate(%v) = %v, want an error", in, got)
		}
	}
}

func TestReadPhone(t *testing.T) {
	for in, want := range map[string]string{
		"+919810000001": "+919810000001", "98100 00001": "+919810000001", "098100-00001": "+919810000001",
		"91 98100 00001": "+919810000001", "+91-98100-00001": "+919810000001", "+44 20 7946 0958": "+442079460958",
	} {
		if got, err := readPhone(in); err != nil || got != want {
			t.Errorf("readPhone(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"12345", "call me", "9810000001 / 9810000002", "+0123456789"} {
		if got, err := readPhone(in); err == nil {
			t.Errorf("readPhone(%q) = %q, want an error", in, got)
		}
	}
}

func TestTransforms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ts   []string
		want string
	}{
		{"  gc500 ", []string{"trim", "upper"}, "GC500"},
		{"GLASS  cleaner\t500ML", []string{"collapse", "title"}, "Glass Cleaner 500ml"},
		{"+91 (98100) 00001", []string{"digits"}, "+919810000001"},
		{"a+b 12", []string{"digits"}, "12"},
		{"राम  किराना", []string{"collapse"}, "राम किराना"},
		{"BTL", []string{"lower"}, "btl"},
	} {
		if got := transform(tc.in, tc.ts); got != tc.want {
			t.Errorf("transform(%q, %v) = %q, want %q", tc.in, tc.ts, got, tc.want)
		}
	}
}

// TestRowsReadModesAndStatuses: values map the ERP's spellings (after the
// transforms, whatever their case) before domain's parsing; an unknown
// one is the row's problem, naming its column.
func TestRowsReadModesAndStatuses(t *testing.T) {
	m := mustParse(t, `source: {dsn: x}
entities:
  payments:
    query: q
    fields:
      date: D
      customer_id: C
      amount: A
      mode: {column: M, transform: [trim, lower], values: {chq: cheque, NEFT: bank_transfer}}
  sales:
    query: q
    fields:
      order_id: O
      date: D
      customer_id: C
      sku: S
      qty: Q
      price: P
      status: {column: St, values: {"2": delivered, "9": cancelled}}
`)
	loc := m.Location()
	pay := &layout{entity: Payments, spec: m.Entities[Payments], def: entityDefs[Payments], loc: loc, index: map[string]int{"mode": 0}, since: -1}
	for in, want := range map[any]domain.PaymentMode{" CHQ ": domain.PayCheque, "neft": domain.PayBankTransfer, "UPI": domain.PayUPI, nil: domain.PayBankTransfer} {
		r := &row{l: pay, n: 1, vals: []any{in}}
		if got := r.mode("mode"); got != want || len(r.problems) > 0 {
			t.Errorf("mode(%v) = %q %v, want %q", in, got, r.problems, want)
		}
	}
	r := &row{l: pay, n: 4, key: "C01 R9", vals: []any{"Barter"}}
	if r.mode("mode"); len(r.problems) != 1 || r.problems[0].String() != `payments row 4 (C01 R9): mode (column M): "barter" is not a payment mode: cod, credit, upi, cheque or bank_transfer (map the ERP's under values)` {
		t.Errorf("problems %v", r.problems)
	}
	sales := &layout{entity: Sales, spec: m.Entities[Sales], def: entityDefs[Sales], loc: loc, index: map[string]int{"status": 0}, since: -1}
	for in, want := range map[any]domain.OrderStatus{int64(2): domain.OrderDelivered, "9": domain.OrderCancelled, "Committed": domain.OrderCommitted, nil: domain.OrderDelivered} {
		r := &row{l: sales, n: 1, vals: []any{in}}
		if got := r.status("status"); got != want || len(r.problems) > 0 {
			t.Errorf("status(%v) = %q %v, want %q", in, got, r.problems, want)
		}
	}
	r = &row{l: sales, n: 2, vals: []any{int64(5)}}
	if r.status("status"); len(r.problems) != 1 || !strings.Contains(r.problems[0].String(), `status (column St): "5" is not committed`) {
		t.Errorf("problems %v", r.problems)
	}
}
