package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/sheets"
	"github.com/munshi/munshi/internal/sheets/sheetstest"
	"github.com/munshi/munshi/internal/store"
)

const testSheetID = "1MunshiTestSheet_0123456789abcdef"

// sheetEnv is the environment that points Munshi at the fake sheet.
func sheetEnv(fake *sheetstest.Server, extra map[string]string) map[string]string {
	env := map[string]string{"MUNSHI_SHEETS_ID": testSheetID, "SHEETS_API_URL": fake.URL}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// quickOutbox retries within milliseconds, so a test need not wait for
// the dispatcher's minutes.
func quickOutbox(m *Main) {
	m.Dispatcher.BaseBackoff, m.Dispatcher.HeldBackoff, m.Dispatcher.Linger = time.Millisecond, 20*time.Millisecond, 5*time.Millisecond
}

// startSheetShop is the demo server logging orders to a fake sheet.
func startSheetShop(t *testing.T, extra map[string]string, configure ...func(*Main)) (*Main, *fakeTwilio, *sheetstest.Server) {
	t.Helper()
	tw := newFakeTwilio(t)
	fake := sheetstest.Start(t, testSheetID)
	m := startMain(t, tw.URL, sheetEnv(fake, extra), append([]func(*Main){quickOutbox}, configure...)...)
	return m, tw, fake
}

// orderRows are the Orders tab's rows of one order.
func orderRows(fake *sheetstest.Server, id string) [][]string {
	var out [][]string
	for _, r := range fake.Rows(sheets.OrdersTab) {
		if len(r) > 0 && r[0] == id {
			out = append(out, r)
		}
	}
	return out
}

// waitRows waits until the order has n rows in the sheet with status.
func waitRows(t *testing.T, fake *sheetstest.Server, id string, n int, status string) [][]string {
	t.Helper()
	var rows [][]string
	eventually(t, fmt.Sprintf("%d %s rows of %s in the sheet", n, status, id), func() bool {
		rows = orderRows(fake, id)
		if len(rows) != n {
			return false
		}
		for _, r := range rows {
			if len(r) < 3 || r[2] != status {
				return false
			}
		}
		return true
	})
	return rows
}

// sheetNumber is how the sheet shows a number Munshi wrote.
func sheetNumber(p domain.Paise) string {
	f, _ := strconv.ParseFloat(fmt.Sprintf("%d.%02d", int64(p)/100, int64(p)%100), 64)
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// checkRows compares the sheet's rows of an order with the books' order.
func checkRows(t *testing.T, m *Main, rows [][]string, o domain.Order) {
	t.Helper()
	placed := o.CommittedAt.In(domain.DefaultLocation())
	products := map[string]domain.Product{}
	ps, _ := m.Store.Products(context.Background())
	for _, p := range ps {
		products[p.SKU] = p
	}
	if len(rows) != len(o.Lines) {
		t.Fatalf("%d rows for %d lines", len(rows), len(o.Lines))
	}
	for i, ln := range o.Lines {
		p := products[ln.SKU]
		want := []string{o.ID, strconv.Itoa(i + 1), string(o.Status), placed.Format("2006-01-02"), placed.Format("15:04"),
			o.CustomerID, "Rajesh Kirana Store", o.PlacedBy, ln.SKU, p.Name, strconv.FormatInt(ln.Qty, 10), p.Unit,
			fmt.Sprintf("%d %s", ln.SaidQty, ln.SaidUnit), sheetNumber(ln.Price), "18", sheetNumber(ln.GSTAmount),
			sheetNumber(ln.Amount), sheetNumber(o.Total), string(o.Payment), strconv.FormatInt(ln.Short, 10)}
		got := rows[i]
		if len(got) != len(sheets.Header) || strings.Join(got[:len(want)], "|") != strings.Join(want, "|") {
			t.Errorf("row of line %d\n got %s\nwant %s|…", i+1, strings.Join(got, "|"), strings.Join(want, "|"))
		}
	}
}

func TestOrderLogEndToEnd(t *testing.T) {
	m, tw, fake := startSheetShop(t, nil)
	ctx := context.Background()
	o := placeAndOk(t, m, "sh1", "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD")
	rows := waitRows(t, fake, o.ID, 2, "committed")
	checkRows(t, m, rows, o)
	if h := fake.Rows(sheets.OrdersTab)[0]; strings.Join(h, "|") != strings.Join(sheets.Header, "|") {
		t.Errorf("header %q", h)
	}

	// Delivered two cartons short: the same rows, updated.
	shown := say(t, m, "SMsh1d", demo.AccountsPhone, o.ID+" delivered, GC 2 carton kam")
	mustContain(t, "delivery summary", shown, o.ID, "Reply *ok*")
	mustContain(t, "delivery ok", say(t, m, "SMsh1k", demo.AccountsPhone, "ok"), o.ID, "delivered")
	rows = waitRows(t, fake, o.ID, 2, "delivered")
	got, _, err := m.Store.Order(ctx, o.ID)
	if err != nil || got.Status != domain.OrderDelivered || got.Lines[0].Short != 48 {
		t.Fatalf("books: %+v %v", got, err)
	}
	checkRows(t, m, rows, got)
	if n := len(fake.Rows(sheets.OrdersTab)); n != 3 {
		t.Errorf("%d rows in the tab, want the header and the order's two lines", n)
	}

	// A second order, cancelled by the owner: its own rows, cancelled.
	c := placeAndOk(t, m, "sh2", "10 carton glass cleaner for Rajesh, cash")
	waitRows(t, fake, c.ID, 1, "committed")
	mustContain(t, "cancel summary", say(t, m, "SMsh2c", demo.OwnerPhone, "cancel "+c.ID+" customer refused"), c.ID)
	mustContain(t, "cancel ok", say(t, m, "SMsh2k", demo.OwnerPhone, "ok"), "cancelled")
	waitRows(t, fake, c.ID, 1, "cancelled")
	waitRows(t, fake, o.ID, 2, "delivered")
	eventually(t, "the outbox to empty", func() bool { n, _ := m.Store.OutboxDepth(ctx); return n == 0 })
	for _, r := range m.outboxOf(t, domain.EffectSheets) {
		if r.Status != "sent" || r.Attempts != 1 {
			t.Errorf("sheets message %+v; want sent at the first try", r)
		}
	}
	// Accounts were told as always; the sheet is no part of that.
	waitFor(t, tw, demo.AccountsPhone, o.ID)
}

// outboxOf lists the outbox messages of a kind.
func (m *Main) outboxOf(t *testing.T, kind string) []outbox.Status {
	t.Helper()
	rows, err := m.Store.OutboxMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []outbox.Status
	for _, r := range rows {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

func TestOrderLogWaitsOutAnOutage(t *testing.T) {
	m, _, fake := startSheetShop(t, nil)
	fake.Inject(sheetstest.Fault{Status: 503})
	a := placeAndOk(t, m, "out1", "10 carton glass cleaner for Rajesh, cash")
	reply := say(t, m, "SMout2", demo.SalesPhone, "12 carton glass cleaner for Rajesh, cash")
	if !strings.Contains(reply, "Reply *ok*") {
		t.Fatal(reply)
	}
	if r := say(t, m, "SMout2k", demo.SalesPhone, "ok"); !strings.Contains(r, "placed") || strings.Contains(r, "could not be told") {
		t.Errorf("an order placed while the sheet is down: %q; want placed, accounts told as always", r)
	}
	// Google is down for a while: tries fail, nothing is written, nothing
	// is given up.
	eventually(t, "a few failed tries", func() bool { return fake.Count("") >= 6 })
	if rows := fake.Rows(sheets.OrdersTab); len(rows) > 0 {
		t.Fatalf("rows while down: %q", rows)
	}
	for _, r := range m.outboxOf(t, domain.EffectSheets) {
		if r.Status != "pending" {
			t.Errorf("while down: %+v", r)
		}
	}
	fake.Clear()
	waitRows(t, fake, a.ID, 1, "committed")
	eventually(t, "every row once", func() bool {
		rows := fake.Rows(sheets.OrdersTab)
		return len(rows) == 3 // the header and the two orders' one line each
	})
	eventually(t, "the outbox to empty", func() bool { n, _ := m.Store.OutboxDepth(context.Background()); return n == 0 })
	time.Sleep(50 * time.Millisecond)
	if rows := fake.Rows(sheets.OrdersTab); len(rows) != 3 || rows[1][0] == rows[2][0] {
		t.Errorf("after the outage: %q; want each order's row once", rows)
	}
}

func TestOrderLogNotSharedIsHeldAndToldOnce(t *testing.T) {
	logs := &syncLog{}
	m, tw, fake := startSheetShop(t, nil, func(m *Main) { m.Dispatcher.Logger = slog.New(slog.NewTextHandler(logs, nil)) })
	fake.Inject(sheetstest.Fault{Status: 403})
	o := placeAndOk(t, m, "ns1", "10 carton glass cleaner for Rajesh, cash")
	var row outbox.Status
	eventually(t, "the sheet's row to be held", func() bool {
		rows := m.outboxOf(t, domain.EffectSheets)
		if len(rows) == 1 {
			row = rows[0]
		}
		return row.HeldReason != ""
	})
	if row.Status != "pending" || row.Attempts != 0 || !strings.Contains(row.HeldReason, "not shared with the service account") {
		t.Errorf("held row %+v", row)
	}
	code, status, checks := readyz(t, m)
	if code != 200 || status != "degraded" || !strings.Contains(checks["sheets"], "not shared with the service account") {
		t.Errorf("/readyz = %d %s %v", code, status, checks)
	}
	if _, held := m.Channels.Problem(); held {
		t.Error("a held sheet is reported as accounts not being told")
	}
	told := waitFor(t, tw, demo.OwnerPhone, "cannot write orders to the Google Sheet")
	if !strings.Contains(told, "not shared") {
		t.Errorf("owners told %q", told)
	}
	// Many tries later: still held, logged once, the owners told once.
	second := placeAndOk(t, m, "ns2", "10 carton glass cleaner for Rajesh, cash")
	eventually(t, "several held tries", func() bool { return fake.Count("") >= 8 })
	if n := countTo(tw, demo.OwnerPhone, "cannot write orders"); n != 1 {
		t.Errorf("owners told %d times, want once", n)
	}
	if n := logs.count("ERROR", "outbox: sending is held"); n != 1 {
		t.Errorf("the hold logged %d times, want once", n)
	}
	// Shared at last: the rows that waited go in, once.
	fake.Clear()
	waitRows(t, fake, o.ID, 1, "committed")
	waitRows(t, fake, second.ID, 1, "committed")
	waitFor(t, tw, demo.OwnerPhone, "writing orders to the Google Sheet again")
	eventually(t, "/readyz ok", func() bool { _, _, c := readyz(t, m); return c["sheets"] == "ok" })
}

func TestOrderLogCrashBetweenCommitAndWrite(t *testing.T) {
	tw := newFakeTwilio(t)
	fake := sheetstest.Start(t, testSheetID)
	db := filepath.Join(t.TempDir(), "munshi.db")
	env := sheetEnv(fake, map[string]string{"MUNSHI_DB": db})
	// An instance whose dispatcher never runs after start: the commit's
	// effects wait in the outbox as a crash would leave them.
	m1 := startMain(t, tw.URL, env, quickOutbox, func(m *Main) {
		m.Dispatcher.Poll = time.Hour
		m.Orders.Nudge = nil
	})
	a := placeAndOk(t, m1, "cr1", "10 carton glass cleaner for Rajesh, cash")
	b := placeAndOk(t, m1, "cr2", "12 carton glass cleaner for Rajesh, cash")
	// a's write reached Google and the process died before it was
	// recorded; b's was never tried. Both are claimed when it dies.
	ctx := context.Background()
	msgs, err := m1.Store.ClaimDue(ctx, 100, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range msgs {
		if msg.Kind == domain.EffectSheets && msg.About == a.ID {
			if r := m1.Dispatcher.Senders[domain.EffectSheets].(outbox.BatchSender).SendBatch(ctx, [][]byte{msg.Payload}); r[0].Err != nil {
				t.Fatal(r[0].Err)
			}
		}
	}
	if len(orderRows(fake, a.ID)) != 1 || len(orderRows(fake, b.ID)) != 0 {
		t.Fatalf("before the restart: %q", fake.Rows(sheets.OrdersTab))
	}
	m1.Close()

	m2 := startMain(t, tw.URL, env, quickOutbox)
	waitRows(t, fake, b.ID, 1, "committed")
	eventually(t, "the outbox to empty", func() bool { n, _ := m2.Store.OutboxDepth(ctx); return n == 0 })
	if rows := fake.Rows(sheets.OrdersTab); len(rows) != 3 {
		t.Errorf("after the restart %q; want the header and each order's row once", rows)
	}
}

// csvRows reads CSV text as a tab's rows.
func csvRows(t *testing.T, text []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestImportFromSheet(t *testing.T) {
	fake := sheetstest.Start(t, testSheetID)
	fake.SetTab("Price list", csvRows(t, demo.CatalogCSV))
	fake.SetTab("Customers", csvRows(t, demo.CustomersCSV))
	env := sheetEnv(fake, map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "m.db")})
	out, _, err := cli(t, env, "", "import", "catalog", "--sheet", "Price list")
	if err != nil || !strings.Contains(out, `imported 14 catalog rows from the sheet's tab "Price list"`) {
		t.Fatalf("%q %v", out, err)
	}
	if out, _, err := cli(t, env, "", "import", "--sheet", "Customers", "customers"); err != nil || !strings.Contains(out, "imported 9 customers rows") {
		t.Fatalf("%q %v", out, err)
	}
	// A bad row refuses the tab, named by its row; nothing is imported.
	bad := csvRows(t, demo.CatalogCSV)
	bad[1][5] = "abc"                                // row 2: GC500's price
	bad = append(bad, []string{"NEW1", "New Thing"}) // row 16: cells left out are empty
	fake.SetTab("Price list", bad)
	_, _, err = cli(t, env, "", "import", "catalog", "--sheet", "Price list")
	if err == nil || !strings.Contains(err.Error(), `catalog tab "Price list" refused, nothing imported`) ||
		!strings.Contains(err.Error(), `row 2: price "abc" is not an amount in rupees`) || !strings.Contains(err.Error(), "row 16: ") {
		t.Fatalf("bad tab: %v", err)
	}
	books, err := store.Open(context.Background(), env["MUNSHI_DB"])
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := books.Products(context.Background())
	for _, p := range ps {
		if p.SKU == "NEW1" || (p.SKU == "GC500" && p.Price != 9200) {
			t.Errorf("half-imported: %+v", p)
		}
	}
	books.Close()
	if _, _, err := cli(t, env, "", "import", "catalog", "--sheet", "Nope"); err == nil || !strings.Contains(err.Error(), `no tab "Nope"`) {
		t.Errorf("missing tab: %v", err)
	}
	if _, _, err := cli(t, env, "", "import", "users", "--sheet", "Customers"); err == nil {
		t.Error("--sheet users was accepted")
	}
	noSheet := map[string]string{"MUNSHI_DB": env["MUNSHI_DB"]}
	if _, _, err := cli(t, noSheet, "", "import", "catalog", "--sheet", "Price list"); err == nil || !strings.Contains(err.Error(), "MUNSHI_SHEETS_ID") {
		t.Errorf("without MUNSHI_SHEETS_ID: %v", err)
	}
	_, help, _ := cli(t, nil, "", "import", "--help")
	for _, want := range []string{"--sheet TAB", "MUNSHI_SHEETS_ID", "GOOGLE_APPLICATION_CREDENTIALS", "SHEETS_API_URL"} {
		if !strings.Contains(help, want) {
			t.Errorf("import --help lacks %q", want)
		}
	}
}

func TestSheetSyncWhileServing(t *testing.T) {
	fake := sheetstest.Start(t, testSheetID)
	catalog := csvRows(t, demo.CatalogCSV)
	fake.SetTab(sheets.CatalogTab, catalog)
	tw := newFakeTwilio(t)
	m := startMain(t, tw.URL, sheetEnv(fake, map[string]string{"MUNSHI_SHEETS_SYNC": "1m"}), quickOutbox,
		func(m *Main) { m.Config.SheetsSync = 30 * time.Millisecond })
	ctx := context.Background()
	stockOf := func(sku string) int64 { return readyOf(t, m, sku) }

	// A product added to the sheet is read in messages without a restart.
	before := stockOf("GC500")
	withNew := append(append([][]string(nil), catalog...),
		[]string{"SAN500", "Sanitiser 500ml", "sanitiser|sanitizer", "bottle", "carton=24", "110.00", "18", "480", "0"})
	fake.SetTab(sheets.CatalogTab, withNew)
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		r := say(t, m, fmt.Sprintf("SMsync%d", i), demo.SalesPhone, "2 carton sanitiser for Rajesh, cash")
		if strings.Contains(r, "Sanitiser 500ml") && strings.Contains(r, "Reply *ok*") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sheet's new product was never read: %s", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The pull keeps the books' stock: deliveries move it, not the sheet.
	if got := stockOf("GC500"); got != before {
		t.Errorf("GC500 stock %d after the pull, want %d", got, before)
	}
	if got := stockOf("SAN500"); got != 480 {
		t.Errorf("a new product's stock %d, want the sheet's 480", got)
	}

	// A bad row: the last good catalog stays, the owners are told once.
	bad := append([][]string(nil), withNew...)
	bad[2] = append([]string(nil), withNew[2]...)
	bad[2][5] = "sixty five" // row 3: PH1L's price
	bad[len(bad)-1] = append([]string(nil), withNew[len(withNew)-1]...)
	bad[len(bad)-1][5] = "99"
	fake.SetTab(sheets.CatalogTab, bad)
	told := waitFor(t, tw, demo.OwnerPhone, "Catalog tab of the Google Sheet has rows Munshi cannot take")
	if !strings.Contains(told, `row 3: price "sixty five" is not an amount in rupees`) {
		t.Errorf("owners told %q", told)
	}
	pulls := fake.Count(sheetstest.OpValuesGet)
	eventually(t, "several pulls of the bad tab", func() bool { return fake.Count(sheetstest.OpValuesGet) >= pulls+10 })
	if n := countTo(tw, demo.OwnerPhone, "Catalog tab of the Google Sheet has rows"); n != 1 {
		t.Errorf("owners told %d times about one problem, want once", n)
	}
	ps, _ := m.Store.Products(ctx)
	for _, p := range ps {
		if p.SKU == "SAN500" && p.Price != 11000 {
			t.Errorf("a bad tab changed the catalog: %+v", p)
		}
	}
	// Put right: taken, and the owners hear it once.
	fake.SetTab(sheets.CatalogTab, withNew)
	waitFor(t, tw, demo.OwnerPhone, "Catalog tab of the Google Sheet reads well again")
}
