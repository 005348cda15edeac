package sqlbooks

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
)

// The SQLite store's behaviour is internal/store/storetest's, run by
// TestConformance. These tests are of SQLite itself: the file, its
// pragmas and migrations, how times are written, and what lands in which
// table.

var t0 = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// openStore opens a fresh database file in a temporary directory, with its
// clock at t0.
func openStore(t *testing.T) (*Store, *clocktest.Clock, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "munshi.db")
	c := clocktest.At(t0)
	s, err := OpenSQLite(context.Background(), path, WithClock(c.Now))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, c, path
}

// texts reads the one text column query returns.
func texts(t *testing.T, db interface {
	Query(string, ...any) (*sql.Rows, error)
}, query string, args ...any) []string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func TestOpenMigratesAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	s, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatalf("first Open: %v", err)
	}
	names := texts(t, s.db.DB, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	for _, want := range []string{"audit_log", "customers", "inbound_messages", "message_statuses", "order_lines",
		"orders", "outbox", "payments", "products", "schema_migrations", "users"} {
		if !slices.Contains(names, want) {
			t.Errorf("table %s missing after Open; have %v", want, names)
		}
	}
	if err := s.UpsertUsers(ctx, []domain.User{{Phone: "+919900000001", Name: "Vikram Singh", Role: domain.RoleOwner}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	for i := range 2 {
		s, err = OpenSQLite(ctx, path)
		if err != nil {
			t.Fatalf("reopen %d: %v", i+1, err)
		}
		var n int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM schema_migrations WHERE name = 'migrations/0001_init.sql'`).Scan(&n); err != nil || n != 1 {
			t.Errorf("reopen %d: migration recorded %d times (%v), want once", i+1, n, err)
		}
		if total := count(t, s, "schema_migrations"); total != len(mustGlob(t)) {
			t.Errorf("reopen %d: %d migrations recorded, %d embedded", i+1, total, len(mustGlob(t)))
		}
		if u, err := s.UserByPhone(ctx, "+919900000001"); err != nil || u.Name != "Vikram Singh" {
			t.Errorf("reopen %d: user lost: %+v, %v", i+1, u, err)
		}
		if err := s.Ping(ctx); err != nil {
			t.Errorf("Ping: %v", err)
		}
		s.Close()
	}
}
func mustGlob(t *testing.T) []string {
	t.Helper()
	names, err := sqliteMigrations.ReadDir("migrations/sqlite")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n.Name(), ".sql") {
			out = append(out, n.Name())
		}
	}
	return out
}
func TestOpenFailsOnADirectory(t *testing.T) {
	if _, err := OpenSQLite(context.Background(), t.TempDir()); err == nil {
		t.Fatal("Open on a directory succeeded")
	}
}
func TestPragmas(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	// The writer is one connection; hold it and several readers at once so
	// that each pragma is checked on every kind of connection: foreign_keys
	// is per connection.
	var conns []*sql.Conn
	for i := range 4 {
		pool := s.read
		if i == 0 {
			pool = s.db
		}
		c, err := pool.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		var mode string
		var fk, busy int
		if err := c.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busy); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || fk != 1 || busy != 5000 {
			t.Errorf("connection %d: journal_mode=%s foreign_keys=%d busy_timeout=%d; want wal, 1, 5000", i, mode, fk, busy)
		}
	}
	var only int
	if err := conns[1].QueryRowContext(ctx, `PRAGMA query_only`).Scan(&only); err != nil || only != 1 {
		t.Errorf("readers must be query-only: %d %v", only, err)
	}
	if _, err := conns[1].ExecContext(ctx, `DELETE FROM products`); err == nil {
		t.Error("a reader connection could write")
	}
	for _, c := range conns {
		c.Close()
	}
}
func TestTimeFormatSorts(t *testing.T) {
	// Times are stored as text and compared as text by ClaimDue: the format
	// must keep its width so that text order is time order.
	times := []time.Time{
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 1000, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 999999000, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 6, 0, time.FixedZone("IST", 5*3600+1800)),
		time.Date(2026, 1, 2, 8, 0, 0, 0, time.UTC),
	}
	for i := 1; i < len(times); i++ {
		a, b := formatTime(times[i-1]), formatTime(times[i])
		if len(a) != len(b) {
			t.Errorf("%s and %s differ in width", a, b)
		}
		if (a < b) != times[i-1].Before(times[i]) {
			t.Errorf("text order of %s and %s disagrees with time order", a, b)
		}
		if got := parseTime(b); !got.Equal(times[i]) {
			t.Errorf("parseTime(%s) = %v, want %v", b, got, times[i])
		}
	}
}

// TestWritesStampTheStoreClock: rows carry the store's clock, in the
// fixed-width UTC text the queries compare.
func TestWritesStampTheStoreClock(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	c.Advance(time.Hour)
	if err := s.UpsertProducts(ctx, []domain.Product{{SKU: "GC500", Name: "Glass Cleaner 500ml", Unit: "bottle", Price: 9200}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(ctx, domain.WhatsApp(domain.Outbound{To: "+919900000002", Body: "hi"})); err != nil {
		t.Fatal(err)
	}
	var updated, created, due string
	if err := s.db.QueryRow(`SELECT updated_at FROM products WHERE sku = 'GC500'`).Scan(&updated); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow(`SELECT created_at, next_attempt_at FROM outbox`).Scan(&created, &due); err != nil {
		t.Fatal(err)
	}
	want := formatTime(t0.Add(time.Hour))
	if updated != want || created != want || due != want {
		t.Errorf("stamped %s, %s, %s; want the store clock %s", updated, created, due, want)
	}
}

// TestHistoryRows: history lands as rows with numbered lines, NULL for an
// order not yet delivered, and payments as given.
func TestHistoryRows(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	if err := s.UpsertProducts(ctx, []domain.Product{{SKU: "PH1L", Name: "Phenyl 1L", Unit: "bottle", Price: 6500, GSTPercent: 1800},
		{SKU: "NB100", Name: "Naphthalene Balls", Unit: "pack", Price: 3000, GSTPercent: 1800}}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertCustomers(ctx, []domain.Customer{{ID: "C07", Name: "Mehta Traders"}}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 2, 1, 6, 30, 0, 0, time.UTC)
	open := domain.Order{ID: "T-5531", CustomerID: "C07", Payment: domain.PayUPI, Status: domain.OrderCommitted, CreatedAt: at,
		Lines: []domain.OrderLine{{SKU: "PH1L", Qty: 12}, {SKU: "NB100", Qty: 100}, {SKU: "PH1L", Qty: 6}}}
	paid := domain.Payment{CustomerID: "C07", Amount: 120000, Mode: domain.PayUPI, ReceivedAt: at.Add(time.Hour), Reference: "UPI/4471/₹"}
	if err := s.AddHistory(ctx, []domain.Order{open}, []domain.Payment{paid}); err != nil {
		t.Fatal(err)
	}
	var committed, delivered sql.NullString
	if err := s.db.QueryRow(`SELECT committed_at, delivered_at FROM orders WHERE id = 'T-5531'`).Scan(&committed, &delivered); err != nil {
		t.Fatal(err)
	}
	if committed.Valid || delivered.Valid {
		t.Errorf("zero times stored as %v and %v, want NULL", committed, delivered)
	}
	lines := texts(t, s.db.DB, `SELECT line_no || ':' || sku || ':' || qty FROM order_lines WHERE order_id = 'T-5531' ORDER BY line_no`)
	if want := []string{"1:PH1L:12", "2:NB100:100", "3:PH1L:6"}; !slices.Equal(lines, want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
	var ref, received string
	var amount int64
	if err := s.db.QueryRow(`SELECT amount_paise, reference, received_at FROM payments WHERE customer_id = 'C07'`).Scan(&amount, &ref, &received); err != nil ||
		amount != 120000 || ref != paid.Reference || received != formatTime(paid.ReceivedAt) {
		t.Errorf("payment row = %d %q at %s, %v", amount, ref, received, err)
	}
	// An order number that is not ORD-… leaves the counter alone.
	var counter int64
	if err := s.db.QueryRow(`SELECT value FROM counters WHERE name = 'order'`).Scan(&counter); err != nil || counter != 1000 {
		t.Errorf("order counter = %d, %v; want 1000, so the next order is ORD-1001", counter, err)
	}
}

// TestDeliveryStatusesAreKept: every status callback is kept, ours or not.
func TestDeliveryStatusesAreKept(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	c.Advance(time.Second)
	for _, st := range [][3]string{{"SMaaa", "sent", ""}, {"SMbbb", "undelivered", "63016"}, {"", "failed", "30008"}} {
		if err := s.RecordDeliveryStatus(ctx, st[0], st[1], st[2]); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, s, "message_statuses"); n != 3 {
		t.Errorf("%d statuses recorded, want 3", n)
	}
	var code, at string
	if err := s.db.QueryRow(`SELECT error_code, received_at FROM message_statuses WHERE message_sid = 'SMbbb'`).Scan(&code, &at); err != nil {
		t.Fatal(err)
	}
	if code != "63016" || at != formatTime(t0.Add(time.Second)) {
		t.Errorf("SMbbb status row = %q at %s", code, at)
	}
}

// TestBulkHistoryGivesTheCacheBack: a history large enough to be a bulk
// load runs with a larger page cache, and the writer has its own back
// afterwards, whether the load succeeded or not.
func TestBulkHistoryGivesTheCacheBack(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	if err := s.UpsertProducts(ctx, []domain.Product{{SKU: "PH1L", Name: "Phenyl 1L", Unit: "bottle", Price: 6500}}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertCustomers(ctx, []domain.Customer{{ID: "C07", Name: "Mehta Traders"}}); err != nil {
		t.Fatal(err)
	}
	cacheSize := func() int64 {
		t.Helper()
		var n int64
		if err := s.db.QueryRow(`PRAGMA cache_size`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	was := cacheSize()
	big := domain.Order{ID: "ORD-5000", CustomerID: "C07", Payment: domain.PayCOD, Status: domain.OrderDelivered, CreatedAt: t0}
	for range bulkLines {
		big.Lines = append(big.Lines, domain.OrderLine{SKU: "PH1L", Qty: 1})
	}
	bad := big
	bad.ID, bad.CustomerID = "ORD-5001", "C99"
	if err := s.AddHistory(ctx, []domain.Order{bad}, nil); err == nil {
		t.Fatal("history of an unknown customer was written")
	}
	if got := cacheSize(); got != was {
		t.Fatalf("after a failed bulk load the cache is %d, was %d", got, was)
	}
	if err := s.AddHistory(ctx, []domain.Order{big}, nil); err != nil {
		t.Fatal(err)
	}
	if got := cacheSize(); got != was {
		t.Fatalf("after a bulk load the cache is %d, was %d", got, was)
	}
	if n := count(t, s, "order_lines"); n != bulkLines {
		t.Fatalf("%d lines written, want %d", n, bulkLines)
	}
}
