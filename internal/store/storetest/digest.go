package storetest

import (
	"reflect"
	"testing"

	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/reports/digest/digesttest"
)

// The digest's reads on digesttest.Known, whose figures are worked out
// there by hand.

func knownDigest(t *testing.T, s store.Store) {
	t.Helper()
	if err := digesttest.Known(ctx, s); err != nil {
		t.Fatal(err)
	}
}

// day is the span of the known date shifted by days.
func day(days int) digest.Span {
	return digest.Span{From: digesttest.At(days, 0, 0), To: digesttest.At(days+1, 0, 0)}
}

func testDigestCustomerDays(t *testing.T, s store.Store, _ *Clock) {
	knownDigest(t, s)
	// D, D−1 (nothing), D−28 (SUR and NAV), D+1 (TAR's 00:30 order).
	rows, err := s.CustomerDays(ctx, []digest.Span{day(0), day(-1), day(-28), day(1)})
	if err != nil {
		t.Fatal(err)
	}
	type r struct {
		span        int
		id          string
		orders      int
		amount, gst int64
		largest     int64
	}
	var got []r
	for _, x := range rows {
		got = append(got, r{x.Span, x.CustomerID, x.Orders, int64(x.Amount), int64(x.GST), int64(x.Largest)})
	}
	want := []r{
		{0, "SUR", 1, 500000, 90000, 500000},
		{0, "TAR", 2, 400000, 72000, 250000}, // 00:15 and 23:30 IST; the cancelled one is not a sale
		{2, "NAV", 1, 200000, 36000, 200000},
		{2, "SUR", 1, 100000, 18000, 100000},
		{3, "TAR", 1, 777700, 139986, 777700},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("customer days\n got %+v\nwant %+v", got, want)
	}
	if rows, err := s.CustomerDays(ctx, nil); err != nil || len(rows) != 0 {
		t.Fatalf("no spans: %v %v", rows, err)
	}
}

func testDigestStandings(t *testing.T, s store.Store, _ *Clock) {
	knownDigest(t, s)
	st, err := s.Standings(ctx, day(0).To)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]digest.Standing{}
	for _, x := range st {
		by[x.CustomerID] = x
	}
	if len(st) != len(digesttest.Customers) {
		t.Fatalf("%d standings, want every customer", len(st))
	}
	// TAR's last sale before D ends is 23:30 on D (D+1 00:30 is after).
	if got := by["TAR"].LastOrder; !got.Equal(digesttest.At(0, 23, 30)) {
		t.Errorf("TAR's last order %v", got)
	}
	if !by["RAV"].LastOrder.IsZero() || by["RAV"].Outstanding != 9500000 || by["RAV"].CreditLimit != 10000000 || by["RAV"].OldestBill != "" {
		t.Errorf("RAV %+v", by["RAV"])
	}
	// OLD owes ₹23,600: the credit order of D−70 covers it exactly.
	if o := by["OLD"]; o.OldestBill == "" || !o.OldestAt.Equal(digesttest.At(-70, 9, 0)) || o.Segment != "wholesale" || o.Name != "Old Bills Co" {
		t.Errorf("OLD %+v", o)
	}
	if by["NAV"].OldestBill != "" || !by["NAV"].LastOrder.Equal(digesttest.At(-20, 11, 0)) {
		t.Errorf("NAV %+v", by["NAV"])
	}
}

func testDigestPayments(t *testing.T, s store.Store, _ *Clock) {
	knownDigest(t, s)
	got, err := s.PaymentsIn(ctx, day(0))
	if err != nil {
		t.Fatal(err)
	}
	want := []digest.PaymentSum{{CustomerID: "RAV", Payments: 1, Amount: 500000}, {CustomerID: "SUR", Payments: 1, Amount: 300000}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("payments %+v, want %+v", got, want)
	}
}

func testDigestStock(t *testing.T, s store.Store, _ *Clock) {
	knownDigest(t, s)
	items, err := s.StockAtRisk(ctx, digest.Span{From: day(-27).From, To: day(0).To}, 28, 7)
	if err != nil {
		t.Fatal(err)
	}
	var got [][5]any
	for _, it := range items {
		got = append(got, [5]any{it.SKU, it.Ready, it.Committed, it.WIP, it.Sold})
	}
	want := [][5]any{{"LOW", int64(50), int64(0), int64(120), int64(280)}, {"HELD", int64(100), int64(100), int64(0), int64(100)},
		{"OUT", int64(0), int64(0), int64(500), int64(0)}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stock %v, want %v", got, want)
	}
	// Under 4 days' cover, LOW (5 days) is no longer short; the two with
	// nothing available still are.
	if items, err = s.StockAtRisk(ctx, digest.Span{From: day(-27).From, To: day(0).To}, 28, 4); err != nil || len(items) != 2 {
		t.Fatalf("at 4 days: %+v %v", items, err)
	}
}

func testDigestWaiting(t *testing.T, s store.Store, _ *Clock) {
	knownDigest(t, s)
	w, err := s.Waiting(ctx, day(-2).From, 10)
	if err != nil {
		t.Fatal(err)
	}
	if w.DraftCount != 1 || w.DraftValue != 184080 || len(w.Drafts) != 1 || w.Drafts[0].CustomerID != "SAF" || w.Drafts[0].Total != 184080 {
		t.Errorf("drafts %+v", w)
	}
	if w.LateCount != 1 || w.LateValue != 118000 || len(w.Late) != 1 || !w.Late[0].CreatedAt.Equal(digesttest.At(-5, 10, 0)) {
		t.Errorf("late %+v", w)
	}
	// A cut-off after D+1 makes TAR's two committed orders late as well,
	// oldest first; a limit of 1 lists one and counts all.
	w, err = s.Waiting(ctx, day(2).From, 1)
	if err != nil || w.LateCount != 3 || len(w.Late) != 1 || w.Late[0].CustomerID != "LAT" {
		t.Errorf("later cut-off %+v %v", w, err)
	}
}

func testDigestSaleLines(t *testing.T, s store.Store, _ *Clock) {
	knownDigest(t, s)
	lines, err := s.DaySaleLines(ctx, day(-3))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0].SKU != "LOW" || lines[0].Qty != 280 || lines[0].Amount != 140000 || lines[0].GST != 25200 ||
		lines[0].Customer != "Deepak Agency" || lines[0].Product != "Low Cover Soap" || lines[0].Unit != "bar" || lines[0].GSTRate != 1800 ||
		lines[1].SKU != "BASE" || lines[1].Amount != 60000 {
		t.Fatalf("lines %+v", lines)
	}
	if lines, err = s.DaySaleLines(ctx, day(0)); err != nil || len(lines) != 3 {
		t.Fatalf("D's lines %+v %v", lines, err)
	}
}
