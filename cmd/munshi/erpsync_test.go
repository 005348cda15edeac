package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erp/erptest"
	"github.com/munshi/munshi/internal/erp/legacyerp"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/reports"
)

// legacyAt is the legacy ERP's clock: its history ends here.
var legacyAt = time.Date(2026, 12, 1, 18, 0, 0, 0, domain.DefaultLocation())

// legacySource builds the legacy ERP in a SQLite file and returns its
// address and a connection to it.
func legacySource(t *testing.T, lines int) (string, *sql.DB) {
	return legacySourceOn(t, legacyerp.SQLite, lines)
}

// legacySourceOn builds the legacy ERP on a throw-away database of the
// dialect's engine: a SQLite file, a PostgreSQL database (pgtest) or a
// MySQL one (erptest), and returns its DSN and a writer to it.
func legacySourceOn(t *testing.T, dialect string, lines int) (string, *sql.DB) {
	t.Helper()
	var dsn string
	var db *sql.DB
	switch dialect {
	case legacyerp.Postgres:
		dsn = pgtest.NewDatabase(t)
		var err error
		if db, err = sql.Open("pgx", dsn); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
	case legacyerp.MySQL:
		dsn = erptest.MySQL(t)
		db = erptest.Writer(t, dsn)
	default:
		path := filepath.Join(t.TempDir(), "erp.db")
		var err error
		if db, err = sql.Open("sqlite3", path); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dsn = "sqlite:" + path
	}
	if _, err := legacyerp.Build(context.Background(), db, dialect, legacyerp.Options{Seed: 7, SalesLines: lines, Now: legacyAt}); err != nil {
		t.Fatal(err)
	}
	return dsn, db
}

// TestSyncFromTheLegacyERP: the reviewed mapping, checked and then run by
// the commands, fills the books so that stock, dues, top customers and a
// day's sales read exactly what SQL on the ERP itself says.
func TestSyncFromTheLegacyERP(t *testing.T) {
	// The same, through each engine's own reviewed mapping: SQLite with
	// the most history, PostgreSQL and MySQL with less to keep it quick.
	for _, tc := range []struct {
		dialect string
		lines   int
	}{{legacyerp.SQLite, 20000}, {legacyerp.Postgres, 5000}, {legacyerp.MySQL, 5000}} {
		t.Run(tc.dialect, func(t *testing.T) { syncFromTheLegacyERP(t, tc.dialect, tc.lines) })
	}
}

func syncFromTheLegacyERP(t *testing.T, dialect string, lines int) {
	ctx := context.Background()
	dsn, erpDB := legacySourceOn(t, dialect, lines)
	dir := t.TempDir()
	mapping, err := legacyerp.Mapping(dialect)
	if err != nil {
		t.Fatal(err)
	}
	mappingFile := filepath.Join(dir, "erp.yaml")
	os.WriteFile(mappingFile, mapping, 0o600)
	env := map[string]string{"MUNSHI_DB": filepath.Join(dir, "munshi.db"), "ERP_DSN": dsn, "MUNSHI_LOG_LEVEL": "warn"}

	out, errOut, err := cli(t, env, "", "sync", "--config", mappingFile, "--check")
	if err != nil {
		t.Fatalf("sync --check: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "reads cleanly") {
		t.Errorf("sync --check printed:\n%s", out)
	}
	if b, _ := store.Open(ctx, env["MUNSHI_DB"]); b != nil {
		empty, _ := b.IsEmpty(ctx)
		b.Close()
		if !empty {
			t.Errorf("--check wrote to the books")
		}
	}
	out, errOut, err = cli(t, env, "", "sync", "--config", mappingFile, "--once")
	if err != nil {
		t.Fatalf("sync --once: %v\n%s\n%s", err, out, errOut)
	}
	for _, e := range []string{"products", "customers", "dues", "bills", "sales", "payments", "receipts"} {
		if !strings.Contains(out, e) {
			t.Errorf("sync --once did not report %s:\n%s", e, out)
		}
	}

	books, err := store.Open(ctx, env["MUNSHI_DB"])
	if err != nil {
		t.Fatal(err)
	}
	defer books.Close()
	// Stock of every product, as the ERP sums its godowns.
	ps, _ := books.Products(ctx)
	if len(ps) == 0 {
		t.Fatal("no products synced")
	}
	ready := map[string]int64{}
	all := skus(ps)
	for len(all) > 0 {
		n := min(len(all), reports.MaxRows)
		lines, err := books.StockOf(ctx, all[:n])
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			ready[l.SKU] = l.Ready
		}
		all = all[n:]
	}
	for _, p := range ps {
		want, err := legacyerp.ReadyStock(ctx, erpDB, dialect, p.SKU)
		if err != nil {
			t.Fatal(err)
		}
		if ready[p.SKU] != want {
			t.Errorf("%s: ready %d in Munshi, %d in the ERP", p.SKU, ready[p.SKU], want)
		}
	}
	// Dues: the total and each customer's.
	wantDues, _ := legacyerp.DuesByParty(ctx, erpDB, dialect)
	totals, dues, err := books.Dues(ctx, reports.DuesQuery{Page: reports.Page{Limit: reports.MaxRows}})
	if err != nil {
		t.Fatal(err)
	}
	var positive int64
	for _, v := range wantDues {
		if v > 0 {
			positive += v
		}
	}
	if int64(totals.Outstanding) != positive {
		t.Errorf("dues total %s in Munshi, %s in the ERP", totals.Outstanding, domain.Paise(positive))
	}
	for _, d := range dues {
		if int64(d.Outstanding) != wantDues[d.CustomerID] {
			t.Errorf("%s owes %s in Munshi, %s in the ERP", d.CustomerID, d.Outstanding, domain.Paise(wantDues[d.CustomerID]))
		}
	}
	// Top customers of the last 30 days.
	// Whole days, as the ERP's dates are.
	to := time.Date(legacyAt.Year(), legacyAt.Month(), legacyAt.Day(), 0, 0, 0, 0, domain.DefaultLocation())
	from := to.AddDate(0, 0, -30)
	top, err := legacyerp.TopParties(ctx, erpDB, dialect, from, to, 5)
	if err != nil {
		t.Fatal(err)
	}
	_, got, err := books.SalesSummary(ctx, reports.SalesQuery{From: from, To: to, By: reports.ByCustomer, UTCOffset: 330 * 60, Page: reports.Page{Limit: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(top) || len(top) == 0 {
		t.Fatalf("top customers: %d in Munshi, %d in the ERP", len(got), len(top))
	}
	for i := range top {
		if got[i].Key != top[i].CustomerID || int64(got[i].Amount) != top[i].Value || got[i].Orders != top[i].Orders {
			t.Errorf("top customer %d: Munshi %s %s (%d orders), ERP %s %s (%d orders)", i+1,
				got[i].Key, got[i].Amount, got[i].Orders, top[i].CustomerID, domain.Paise(top[i].Value), top[i].Orders)
		}
	}
	// The daily digest of the ERP's last whole day: its sales and its
	// collections, as the ERP sums them.
	day := to.AddDate(0, 0, -1)
	sales, err := legacyerp.SalesOn(ctx, erpDB, dialect, day)
	if err != nil {
		t.Fatal(err)
	}
	paid, err := legacyerp.PaymentsOn(ctx, erpDB, dialect, day)
	if err != nil {
		t.Fatal(err)
	}
	dayTotals, _, err := books.SalesSummary(ctx, reports.SalesQuery{From: day, To: to, By: reports.ByDay, UTCOffset: 330 * 60, Page: reports.Page{Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if int64(dayTotals.Amount) != sales.Value || dayTotals.Orders != sales.Orders {
		t.Errorf("%s: sales %s in %d orders in Munshi, %s in %d in the ERP", day.Format("2006-01-02"),
			dayTotals.Amount, dayTotals.Orders, domain.Paise(sales.Value), sales.Orders)
	}
	brief, _, err := cli(t, env, "", "digest", "--date", day.Format("2006-01-02"))
	if err != nil {
		t.Fatalf("digest: %v", err)
	}
	// The digest speaks in whole rupees.
	rupees := func(p int64) string { return domain.Paise((p + 50) / 100 * 100).String() }
	for _, want := range []string{"sales " + rupees(sales.Value), fmt.Sprintf("from %d orders", sales.Orders), "Received " + rupees(paid.Amount)} {
		if !strings.Contains(brief, want) {
			t.Errorf("the digest of %s lacks %s:\n%s", day.Format("2006-01-02"), want, brief)
		}
	}
	// A second run changes nothing.
	out, _, err = cli(t, env, "", "sync", "--config", mappingFile, "--once")
	if err != nil {
		t.Fatalf("second sync --once: %v\n%s", err, out)
	}
	again, _, _ := books.Dues(ctx, reports.DuesQuery{Page: reports.Page{Limit: 1}})
	if again.Outstanding != totals.Outstanding {
		t.Errorf("a second run moved the dues: %s then %s", totals.Outstanding, again.Outstanding)
	}
}

func skus(ps []domain.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.SKU
	}
	return out
}

func TestSyncCommandRefusesBadUse(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"MUNSHI_DB": filepath.Join(dir, "m.db")}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("source: {dsn: 'sqlite:/nowhere.db'}\nentities:\n  productz: {query: SELECT 1}\n"), 0o600)
	huge := filepath.Join(dir, "huge.yaml")
	os.WriteFile(huge, []byte(strings.Repeat("#", 2<<20)), 0o600)
	for _, args := range [][]string{
		{"sync"},
		{"sync", "--config", bad},
		{"sync", "--config", bad, "--check", "--once"},
	} {
		if _, _, err := cli(t, env, "", args...); err == nil || err.Error() != errUsage.Error() {
			t.Errorf("%q: %v, want the usage", args, err)
		}
	}
	for file, want := range map[string]string{bad: "productz", huge: "", filepath.Join(dir, "missing.yaml"): "missing.yaml"} {
		_, _, err := cli(t, env, "", "sync", "--config", file, "--check")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("sync --config %s: %v, want %q", filepath.Base(file), err, want)
		}
	}
}

// TestSyncRunsOnTheirTiers moves the legacy ERP between runs: changed
// stock and a new order appear after one run, an order committed late
// inside the overlap is not missed, a bad row refuses its run and leaves
// the books and the watermark as they were, an outage keeps the last good
// data and the next run recovers, and a deleted product becomes inactive.
func TestSyncRunsOnTheirTiers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "erp.db")
	erpDB, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer erpDB.Close()
	facts, err := legacyerp.Build(ctx, erpDB, legacyerp.SQLite, legacyerp.Options{Seed: 3, Items: 60, SalesLines: 3000, Customers: 40, Now: legacyAt})
	if err != nil {
		t.Fatal(err)
	}
	books, err := store.Open(ctx, filepath.Join(t.TempDir(), "munshi.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer books.Close()
	dsn := "sqlite:" + path
	s := benchSyncer(t, dsn, books)
	if _, err := s.Once(ctx); err != nil {
		t.Fatal(err)
	}
	state := func(e erpsync.Entity) erpsync.State {
		st, err := books.SyncStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range st {
			if x.Entity == e {
				return x
			}
		}
		t.Fatalf("no state for %s", e)
		return erpsync.State{}
	}
	ready := func(sku string) int64 {
		l, err := books.StockOf(ctx, []string{sku})
		if err != nil || len(l) != 1 {
			t.Fatalf("stock of %s: %v %v", sku, l, err)
		}
		return l[0].Ready
	}
	sku, other := facts.SKUs[0], facts.SKUs[1]
	party := facts.CustomerIDs[0]
	watermark := state(erpsync.Sales).Watermark
	if watermark == "" {
		t.Fatal("the first run kept no watermark")
	}

	// Changed stock, a new order and one committed late inside the overlap.
	if err := legacyerp.SetStock(ctx, erpDB, legacyerp.SQLite, sku, 777, 0); err != nil {
		t.Fatal(err)
	}
	fresh, err := legacyerp.AddOrder(ctx, erpDB, legacyerp.SQLite, legacyerp.Order{CustomerID: party, Date: facts.LastModified,
		ModifiedOn: facts.LastModified.Add(time.Minute), Lines: []legacyerp.Line{{SKU: sku, Qty: 7}}})
	if err != nil {
		t.Fatal(err)
	}
	late, err := legacyerp.AddOrder(ctx, erpDB, legacyerp.SQLite, legacyerp.Order{CustomerID: party, Date: facts.LastModified,
		ModifiedOn: facts.LastModified.Add(-5 * time.Minute), Lines: []legacyerp.Line{{SKU: other, Qty: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, erpsync.Products); err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(ctx, erpsync.Sales)
	if err != nil {
		t.Fatal(err)
	}
	if r.Full || r.Written.Added != 2 {
		t.Errorf("the incremental run: full %v, %+v", r.Full, r.Written)
	}
	if got := ready(sku); got != 777 {
		t.Errorf("%s ready %d after the run, want 777", sku, got)
	}
	for _, no := range []string{fresh, late} {
		if _, ok, err := books.Order(ctx, strings.ToUpper(no)); err != nil || !ok {
			t.Errorf("order %s not in the books: %v", no, err)
		}
	}

	// A bad row refuses the run; nothing moves.
	before := state(erpsync.Sales)
	if err := legacyerp.SetLineQty(ctx, erpDB, legacyerp.SQLite, fresh, 1, -5, facts.LastModified.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, erpsync.Sales); err == nil {
		t.Error("a negative quantity was taken")
	}
	after := state(erpsync.Sales)
	if after.Watermark != before.Watermark || after.LastGood != before.LastGood || after.LastError == "" || after.Failures != 1 {
		t.Errorf("state after a bad row: %+v (before %+v)", after, before)
	}
	if o, _, _ := books.Order(ctx, strings.ToUpper(fresh)); len(o.Lines) != 1 || o.Lines[0].Qty != 7 {
		t.Errorf("the order was half-written: %+v", o.Lines)
	}
	if err := legacyerp.SetLineQty(ctx, erpDB, legacyerp.SQLite, fresh, 1, 9, facts.LastModified.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, erpsync.Sales); err != nil {
		t.Fatalf("the corrected row: %v", err)
	}
	if o, _, _ := books.Order(ctx, strings.ToUpper(fresh)); len(o.Lines) != 1 || o.Lines[0].Qty != 9 {
		t.Errorf("the corrected line: %+v", o.Lines)
	}

	// An outage keeps the last good data; the next run recovers.
	if err := legacyerp.SetStock(ctx, erpDB, legacyerp.SQLite, sku, 500, 0); err != nil {
		t.Fatal(err)
	}
	down := benchSyncer(t, dsn, books)
	down.Source.(interface{ Close() error }).Close()
	if _, err := down.Run(ctx, erpsync.Products); err == nil {
		t.Error("a closed source synced")
	}
	if got := ready(sku); got != 777 {
		t.Errorf("the outage moved the stock to %d", got)
	}
	if st := state(erpsync.Products); st.LastError == "" || st.Failures == 0 {
		t.Errorf("the outage was not recorded: %+v", st)
	}
	if _, err := s.Run(ctx, erpsync.Products); err != nil {
		t.Fatal(err)
	}
	if got, st := ready(sku), state(erpsync.Products); got != 500 || st.LastError != "" || st.Failures != 0 {
		t.Errorf("after recovery: ready %d, state %+v", got, st)
	}

	// A product the ERP deletes becomes inactive; its history keeps its name.
	if err := legacyerp.DeleteItem(ctx, erpDB, legacyerp.SQLite, other); err != nil {
		t.Fatal(err)
	}
	r, err = s.Run(ctx, erpsync.Products)
	if err != nil || r.Deactivated != 1 {
		t.Fatalf("deactivated %d: %v", r.Deactivated, err)
	}
	ps, _ := books.Products(ctx)
	for _, p := range ps {
		if p.SKU == other && !p.Inactive {
			t.Errorf("%s is still active", other)
		}
	}
	if o, ok, _ := books.Order(ctx, strings.ToUpper(late)); !ok || o.Lines[0].SKU != other {
		t.Errorf("the late order lost its product: %+v", o)
	}
}

// TestConnectWritesADraftThatSyncs: munshi connect on the legacy ERP
// writes a draft that munshi sync --check reads cleanly as it stands.
func TestConnectWritesADraftThatSyncs(t *testing.T) {
	dsn, _ := legacySource(t, 3000)
	dir := t.TempDir()
	draft := filepath.Join(dir, "draft.yaml")
	env := map[string]string{"MUNSHI_DB": filepath.Join(dir, "munshi.db"), "ERP_DSN": dsn, "MUNSHI_LOG_LEVEL": "warn"}
	out, report, err := cli(t, env, "", "connect", "--source", dsn, "--out", draft)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, report)
	}
	if !strings.Contains(out, "wrote the draft mapping") || !strings.Contains(report, "AMT") {
		t.Errorf("connect printed %q and reported:\n%s", out, report)
	}
	if _, _, err := cli(t, env, "", "connect", "--source", dsn, "--out", draft); err == nil || !strings.Contains(err.Error(), "never overwritten") {
		t.Errorf("a second connect over the draft: %v", err)
	}
	out, _, err = cli(t, env, "", "sync", "--config", draft, "--check")
	if err != nil {
		t.Fatalf("sync --check of the draft: %v\n%s", err, out)
	}
}

// TestServeStartsWhileTheERPIsDown: serve with MUNSHI_SYNC_CONFIG starts
// and answers though the ERP does not answer; /readyz reports the copy
// degraded and /metrics counts the failed runs.
func TestServeStartsWhileTheERPIsDown(t *testing.T) {
	mapping, err := legacyerp.Mapping(legacyerp.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "erp.yaml")
	os.WriteFile(file, mapping, 0o600)
	t.Setenv("ERP_DSN", "sqlite:"+filepath.Join(t.TempDir(), "gone.db"))
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_SYNC_CONFIG": file})
	if reply := say(t, m, "SMerp01", demo.OwnerPhone, "GC ka stock kitna hai"); !strings.Contains(reply, "Glass Cleaner") {
		t.Errorf("the stock question while the ERP is down: %s", reply)
	}
	patience.WaitFor(t, "the first sync runs to fail", func() bool {
		status, body, err := getPage("http://" + m.Addr() + "/readyz")
		return err == nil && status == 200 && strings.Contains(body, `"status":"degraded"`) && strings.Contains(body, `"erp":"failing: products`)
	})
	// /readyz reports products failing as soon as their copy is stale
	// ("never synced"), which may be before the first run has failed:
	// wait for the failed run itself.
	var metrics string
	patience.WaitFor(t, "/metrics to count the failed products sync", func() bool {
		var err error
		_, metrics, err = getPage("http://" + m.Addr() + "/metrics")
		return err == nil && strings.Contains(metrics, `munshi_sync_failures{entity="products"} 1`)
	})
	if !strings.Contains(metrics, `munshi_sync_age_seconds{entity="products"} -1`) {
		t.Errorf("/metrics lacks the failed products sync:\n%s", grepLines(metrics, "munshi_sync"))
	}
}

// getPage is the status and body of a GET of url.
func getPage(url string) (int, string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw), err
}

func grepLines(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
