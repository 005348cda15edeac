package sheets_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/sheets"
	"github.com/munshi/munshi/internal/sheets/sheetstest"
	"github.com/munshi/munshi/internal/store"
)

// discard takes WhatsApp messages and sends them nowhere.
type discard struct{}

func (discard) SendPayload(context.Context, []byte) (string, error) { return "SM-discarded", nil }

// burst is what a burst of orders cost: how long until every row was in
// the sheet, and the requests it took.
type burst struct {
	took     time.Duration
	rows     int
	requests map[string]int
}

// writeBurst commits the effects of n orders of three lines at once (the
// order log's and two WhatsApp messages each, as a commit writes them) to
// a SQLite outbox, and runs the dispatcher with the order log against the
// fake at Google's rate, until every row is in.
func writeBurst(t testing.TB, n int, rpm int) burst {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "burst.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fake := sheetstest.Start(t, sheetID)
	c, err := sheets.New(ctx, sheets.Config{SpreadsheetID: sheetID, APIURL: fake.URL, RequestsPerMinute: rpm})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	log := &sheets.OrderLog{Sheet: c, Location: ist, Logger: quiet}
	for i := range n {
		lo := order(1001+i, domain.OrderCommitted)
		lo.Lines = append(lo.Lines, lo.Lines[0])
		lo.Lines[2].SKU = "TC500"
		err := st.Enqueue(ctx, domain.OrderLogged(lo),
			domain.WhatsApp(domain.Outbound{To: "+919900000002", Body: "new order " + lo.ID}),
			domain.WhatsApp(domain.Outbound{To: "+919900000003", Body: "placed " + lo.ID}))
		if err != nil {
			t.Fatal(err)
		}
	}
	d := &outbox.Dispatcher{Store: st, Logger: quiet, Poll: 10 * time.Millisecond,
		Senders: map[string]outbox.Sender{domain.EffectSheets: log, domain.EffectWhatsApp: discard{}}}
	runCtx, stop := context.WithCancel(ctx)
	start := time.Now()
	done := make(chan struct{})
	go func() { d.Run(runCtx); close(done) }()
	want := 3*n + 1
	deadline := start.Add(5 * time.Minute)
	for len(fake.Rows(sheets.OrdersTab)) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d rows after 5 minutes", len(fake.Rows(sheets.OrdersTab)), want)
		}
		time.Sleep(2 * time.Millisecond)
	}
	took := time.Since(start)
	for {
		if depth, _ := st.OutboxDepth(ctx); depth == 0 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	stop()
	<-done
	b := burst{took: took, rows: len(fake.Rows(sheets.OrdersTab)) - 1, requests: map[string]int{}}
	for _, r := range fake.Requests() {
		b.requests[r.Op]++
		b.requests[""]++
	}
	if b.rows != 3*n {
		t.Fatalf("%d rows for %d orders of 3 lines", b.rows, n)
	}
	return b
}

// TestBurstOfOrdersIsBatched: 1,000 orders committed at once reach the
// sheet, every row once, in a few dozen requests at most, under the
// rate limit Munshi keeps below Google's quota (60 a minute).
func TestBurstOfOrdersIsBatched(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 3,000 rows at Google's rate")
	}
	b := writeBurst(t, 1000, 50)
	t.Logf("1,000 orders (3,000 rows) in %v: %.0f rows/s, %d requests %v",
		b.took.Round(time.Millisecond), float64(b.rows)/b.took.Seconds(), b.requests[""], b.requests)
	if b.requests[""] > 40 {
		t.Errorf("%d requests for 1,000 orders; want them batched (at most 40)", b.requests[""])
	}
}

// BenchmarkOrderLogBurst reports the rows a second and the requests of a
// burst of 1,000 committed orders through the outbox to the fake: at the
// rate Munshi keeps for Google (50 requests a minute, 10 at once), and
// with no limit (what the outbox and the fake do by themselves).
func BenchmarkOrderLogBurst(b *testing.B) {
	for _, rate := range []struct {
		name string
		rpm  int
	}{{"google-rate", 50}, {"unlimited", 1_000_000}} {
		b.Run(rate.name, func(b *testing.B) {
			for range b.N {
				r := writeBurst(b, 1000, rate.rpm)
				b.ReportMetric(float64(r.rows)/r.took.Seconds(), "rows/s")
				b.ReportMetric(float64(r.requests[""]), "requests")
			}
		})
	}
}
