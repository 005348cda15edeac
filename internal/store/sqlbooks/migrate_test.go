package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// openAt creates a database at path with the migrations up to and
// including last applied, as an older Munshi left it.
func openAt(t *testing.T, path, last string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, name := range mustGlob(t) {
		if name > last {
			break
		}
		body, err := sqliteMigrations.ReadFile("migrations/sqlite/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_migrations VALUES (?, ?)`, "migrations/"+name, formatTime(t0)); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// outboxRows reads every column of every outbox row, as text.
func outboxRows(t *testing.T, db *sql.DB) [][]string {
	t.Helper()
	rows, err := db.Query(`SELECT * FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	out := [][]string{cols}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = "'" + v.String + "'"
			}
		}
		out = append(out, row)
	}
	return out
}

// TestOutboxTakesAnyKindAfterMigration: the outbox rebuilt by 0006 keeps
// every row and column of a database from before it, its indexes, and the
// ids to come, and takes a kind it never heard of.
func TestOutboxTakesAnyKindAfterMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	old := openAt(t, path, "0005_outbox_held.sql")
	if _, err := old.Exec(`INSERT INTO outbox (kind, recipient, payload, status, attempts, next_attempt_at, lease_until,
		last_error, provider_id, delivery_status, created_at, sent_at, held_reason, held_since, subject, tell_on_failure) VALUES
		('whatsapp', '+919900000002', '{"To":"+919900000002","Body":"🧾 New order ORD-1042"}', 'sent', 1, ?, NULL, '', 'SMaaa', 'delivered', ?, ?, '', NULL, 'ORD-1042', '+919900000003'),
		('email', 'accounts@distributor.example', '{"Subject":"Order ORD-1042"}', 'pending', 0, ?, ?, 'smtp: 535', '', '', ?, NULL, 'SMTP authentication failed (535)', ?, 'ORD-1042', '+919900000003'),
		('whatsapp', '+919900000009', '{"Body":"x"}', 'failed', 7, ?, NULL, 'twilio: 21211', '', 'undelivered', ?, NULL, '', NULL, '', '')`,
		formatTime(t0), formatTime(t0), formatTime(t0.Add(1)), formatTime(t0.Add(2)), formatTime(t0.Add(3)), formatTime(t0),
		formatTime(t0.Add(4)), formatTime(t0.Add(5)), formatTime(t0)); err != nil {
		t.Fatal(err)
	}
	// A gap in the ids, as a deleted row leaves.
	if _, err := old.Exec(`INSERT INTO outbox (id, kind, recipient, payload, next_attempt_at, created_at) VALUES (9, 'email', 'ca@x', '{}', ?, ?)`,
		formatTime(t0), formatTime(t0)); err != nil {
		t.Fatal(err)
	}
	before := outboxRows(t, old)
	if _, err := old.Exec(`INSERT INTO outbox (kind, recipient, payload, next_attempt_at, created_at) VALUES ('sheets', 'Orders!A1', '{}', ?, ?)`,
		formatTime(t0), formatTime(t0)); err == nil {
		t.Fatal("the old schema took a sheets row: the test database is not the old schema")
	}
	old.Close()

	s, err := OpenSQLite(ctx, path, WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := outboxRows(t, s.db.DB); !reflect.DeepEqual(after, before) {
		t.Fatalf("rows changed by the migration:\nbefore %q\n after %q", before, after)
	}
	indexes := texts(t, s.db.DB, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' AND sql IS NOT NULL ORDER BY name`)
	if want := []string{"outbox_due", "outbox_held", "outbox_provider"}; !reflect.DeepEqual(indexes, want) {
		t.Errorf("outbox indexes %v, want %v", indexes, want)
	}
	var leftover int
	s.db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'outbox_rebuilt%'`).Scan(&leftover)
	if leftover != 0 {
		t.Error("the rebuilt table's old name is left behind")
	}

	sheets := domain.Effect{Kind: "sheets", To: "Orders!A1", Payload: []byte(`{"range":"Orders!A1","values":[["ORD-1042"]]}`)}
	if err := s.Enqueue(ctx, sheets); err != nil {
		t.Fatalf("a sheets effect after the migration: %v", err)
	}
	all, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last := all[len(all)-1]
	if len(all) != 5 || last.ID != 10 || last.Kind != "sheets" || last.To != sheets.To || string(last.Payload) != string(sheets.Payload) {
		t.Fatalf("outbox after the migration = %+v", all)
	}
	// The held email is still held and released by kind.
	if n, err := s.ReleaseHeld(ctx, domain.EffectEmail); err != nil || n != 1 {
		t.Errorf("ReleaseHeld(email) = %d, %v; want the one held mail", n, err)
	}
	if schema, err := s.Schema(ctx); err != nil || !strings.HasPrefix(schema, "sqlite "+lastMigration(t)+" ") {
		t.Errorf("Schema = %q, %v; want it to name the last migration", schema, err)
	}
}

// lastMigration is the number of the newest migration, as Schema names it.
func lastMigration(t *testing.T) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("migrations", "sqlite", "*.sql"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no migrations found: %v", err)
	}
	sort.Strings(names)
	version, _, _ := strings.Cut(filepath.Base(names[len(names)-1]), "_")
	return version
}

// TestDraftsNumberedBeforeKeepTheirNumbers: drafts saved when a draft took
// its order number as it was shown keep working after 0011: the committed
// one is found as the order it became, the one waiting for an owner is
// placed under the number the owner was shown and takes no other, and the
// drafts that follow have references of their own, the orders numbers
// after the last one taken.
func TestDraftsNumberedBeforeKeepTheirNumbers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	db := openAt(t, path, "0010_digest_editions.sql")
	rajesh := domain.Customer{ID: "C01", Name: "Rajesh Kirana Store", CreditLimit: 10000000, PaymentModes: []domain.PaymentMode{domain.PayCOD}}
	gc := domain.Product{SKU: "GC500", Name: "Glass Cleaner 500ml", Unit: "bottle", Price: 9200, GSTPercent: 1800, StockReady: 2400}
	for id, status := range map[string]orders.DraftStatus{"ORD-1400": orders.DraftCommitted, "ORD-1401": orders.DraftPendingApproval} {
		d, err := orders.Price(rajesh, domain.PayCOD, []orders.Item{{SKU: "GC500", Qty: 24}}, map[string]domain.Product{"GC500": gc})
		if err != nil {
			t.Fatal(err)
		}
		d.ID, d.PlacedBy, d.Status, d.CreatedAt = id, "+919900000003", status, t0
		payload, _ := json.Marshal(d)
		if _, err := db.Exec(`INSERT INTO drafts (id, placed_by, customer_id, status, fingerprint, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, d.PlacedBy, "C01", string(status), d.Fingerprint, string(payload), formatTime(t0)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`UPDATE counters SET value = 1401 WHERE name = 'order'`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err := OpenSQLite(ctx, path, WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.UpsertCustomers(ctx, []domain.Customer{rajesh}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertProducts(ctx, []domain.Product{gc}); err != nil {
		t.Fatal(err)
	}
	if d, ok, err := s.DraftByID(ctx, "ORD-1400"); err != nil || !ok || d.OrderID != "ORD-1400" || d.Number() != "ORD-1400" {
		t.Errorf("committed ORD-1400 = %+v, %v, %v; want it placed as ORD-1400", d, ok, err)
	}
	pending, ok, err := s.DraftByID(ctx, "ORD-1401")
	if err != nil || !ok || pending.Status != orders.DraftPendingApproval || pending.OrderID != "" {
		t.Fatalf("pending ORD-1401 = %+v, %v, %v", pending, ok, err)
	}
	allow := func(orders.Snapshot) error { return nil }
	if id, err := s.Commit(ctx, orders.Commitment{Draft: pending, By: "+919900000001", Judge: allow}); err != nil || id != "ORD-1401" {
		t.Fatalf("approving ORD-1401 = %q, %v; want it placed under the number the owner was shown", id, err)
	}
	if o, ok, err := s.Order(ctx, "ORD-1401"); err != nil || !ok || o.Total != pending.Total {
		t.Errorf("order ORD-1401 = %+v, %v, %v", o, ok, err)
	}
	next := pending
	if next.ID, err = s.NewDraftID(ctx); err != nil || next.ID != "D-1" {
		t.Fatalf("NewDraftID = %q, %v; want D-1", next.ID, err)
	}
	next.Status = orders.DraftOpen
	if err := s.SaveDraft(ctx, next); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Commit(ctx, orders.Commitment{Draft: next, By: next.PlacedBy, Judge: allow}); err != nil || id != "ORD-1402" {
		t.Errorf("the first order placed after = %q, %v; want ORD-1402", id, err)
	}
}

// TestLinesDeliveredBeforeReadAsDelivered: a line that a short delivery
// rewrote before short_qty existed reads as delivered in full, as it was
// recorded; a shortfall is never more than was ordered.
func TestLinesDeliveredBeforeReadAsDelivered(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	db := openAt(t, path, "0011_draft_refs.sql")
	now := formatTime(t0)
	for _, q := range []string{
		`INSERT INTO products (sku, name, unit, price_paise, updated_at) VALUES ('GC500', 'Glass Cleaner 500ml', 'bottle', 9200, '` + now + `')`,
		`INSERT INTO customers (id, name, updated_at) VALUES ('C01', 'Rajesh Kirana Store', '` + now + `')`,
		`INSERT INTO orders (id, customer_id, payment_mode, status, subtotal_paise, gst_paise, total_paise, created_at, delivered_at)
			VALUES ('ORD-1', 'C01', 'cod', 'delivered', 1766400, 317952, 2084352, '` + now + `', '` + now + `')`,
		`INSERT INTO order_lines (order_id, line_no, sku, qty, price_paise, gst_bp, amount_paise, gst_paise)
			VALUES ('ORD-1', 1, 'GC500', 192, 9200, 1800, 1766400, 317952)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := OpenSQLite(ctx, path, WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o, ok, err := s.Order(ctx, "ORD-1")
	if err != nil || !ok || len(o.Lines) != 1 || o.Lines[0].Qty != 192 || o.Lines[0].Short != 0 || o.Lines[0].Delivered() != 192 {
		t.Fatalf("ORD-1 = %+v, %v, %v; want its 192 bottles delivered", o, ok, err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE order_lines SET short_qty = 193 WHERE order_id = 'ORD-1'`); err == nil {
		t.Error("a shortfall of more than was ordered was kept")
	}
}
