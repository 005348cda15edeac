package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// clock is a test clock that the store reads through Store.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

var t0 = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

// openStore opens a fresh database file in a temporary directory, with its
// clock at t0.
func openStore(t *testing.T) (*Store, *clock, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "munshi.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	c := &clock{t: t0}
	s.Now = c.Now
	return s, c, path
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func demoProducts() []domain.Product {
	return []domain.Product{
		{
			SKU: "GC500", Name: "Glass Cleaner 500ml",
			Aliases:   []string{"GC", "colin", "ग्लास क्लीनर"},
			Unit:      "bottle",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}},
			Price:     9200, GSTPercent: 1800, StockReady: 2400, StockWIP: 480,
		},
		{
			SKU: "BR01", Name: "Floor Broom",
			Aliases:   []string{"broom", "jhadu", "झाड़ू"},
			Unit:      "piece",
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}},
			Price:     8000, GSTPercent: 1200, StockReady: 600,
		},
		{
			SKU: "X1", Name: "Loose item, no packs 🧽", Unit: "piece", Price: 0, GSTPercent: 250,
		},
	}
}

func demoCustomers() []domain.Customer {
	return []domain.Customer{
		{
			ID: "C01", Name: "Rajesh Kirana Store", Aliases: []string{"Rajesh", "rajesh bhai", "राजेश"},
			Phone: "+919810000001", Segment: "kirana", CreditLimit: 10000000, Outstanding: 3500000,
			PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit, domain.PayUPI},
		},
		{
			ID: "C02", Name: "Sharma General Store", Aliases: []string{"Sharma"},
			Phone: "+919810000002", Segment: "general_store", CreditLimit: 15000000, Outstanding: -50050,
			PaymentModes: []domain.PaymentMode{domain.PayCheque, domain.PayBankTransfer},
		},
		{ID: "C03", Name: "Walk-in", PaymentModes: []domain.PaymentMode{domain.PayCOD}},
	}
}

func demoUsers() []domain.User {
	return []domain.User{
		{Phone: "+919900000001", Name: "Vikram Singh", Role: domain.RoleOwner},
		{Phone: "+919900000002", Name: "Priya Nair", Role: domain.RoleAccounts},
		{Phone: "+919900000003", Name: "Ravi Kumar", Role: domain.RoleSales},
		{Phone: "+919900000004", Name: "Sunil Yadav", Role: domain.RoleSales},
	}
}

func TestOpenMigratesAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("first Open: %v", err)
	}
	var names []string
	rows, err := s.db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	for _, want := range []string{"audit_log", "customers", "inbound_messages", "message_statuses", "order_lines",
		"orders", "outbox", "payments", "products", "schema_migrations", "users"} {
		if !contains(names, want) {
			t.Errorf("table %s missing after Open; have %v", want, names)
		}
	}
	if err := s.UpsertUsers(ctx, demoUsers()[:1]); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	for i := range 2 {
		s, err = Open(ctx, path)
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

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func mustGlob(t *testing.T) []string {
	t.Helper()
	names, err := migrations.ReadDir("migrations")
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
	if _, err := Open(context.Background(), t.TempDir()); err == nil {
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

func TestProductsRoundTripAndUpsert(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	ps := demoProducts()
	if err := s.UpsertProducts(ctx, ps); err != nil {
		t.Fatal(err)
	}
	got, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Product{ps[1], ps[0], ps[2]} // ordered by SKU
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Products:\n got %+v\nwant %+v", got, want)
	}

	// Upsert by SKU: GC500 changes, a new SKU arrives, the rest stay.
	c.Advance(time.Hour)
	gc := ps[0]
	gc.Name, gc.Price, gc.StockReady, gc.StockWIP = "Glass Cleaner 500 ml", 9550, 2280, 0
	gc.Aliases = []string{"GC"}
	gc.PackSizes = []domain.PackSize{{Name: "carton", Units: 20}}
	fc := domain.Product{SKU: "FC1L", Name: "Floor Cleaner 1L", Unit: "bottle", Price: 12000, GSTPercent: 1800}
	if err := s.UpsertProducts(ctx, []domain.Product{gc, fc}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = []domain.Product{ps[1], fc, gc, ps[2]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after upsert:\n got %+v\nwant %+v", got, want)
	}
	var updated string
	if err := s.db.QueryRow(`SELECT updated_at FROM products WHERE sku = 'GC500'`).Scan(&updated); err != nil {
		t.Fatal(err)
	}
	if updated != formatTime(t0.Add(time.Hour)) {
		t.Errorf("GC500 updated_at = %s, want the store clock %s", updated, formatTime(t0.Add(time.Hour)))
	}
}

func TestUpsertProductsIsAllOrNothing(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	ps := demoProducts()
	ps[1].Price = -1 // violates CHECK (price_paise >= 0)
	err := s.UpsertProducts(ctx, ps)
	if err == nil {
		t.Fatal("a negative price was stored")
	}
	if !strings.Contains(err.Error(), "BR01") {
		t.Errorf("error %q does not name the product", err)
	}
	if n := count(t, s, "products"); n != 0 {
		t.Errorf("%d products written by a failed upsert, want 0", n)
	}
}

func TestCustomersRoundTripAndUpsert(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	cs := demoCustomers()
	if err := s.UpsertCustomers(ctx, cs); err != nil {
		t.Fatal(err)
	}
	got, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, cs) {
		t.Fatalf("Customers:\n got %+v\nwant %+v", got, cs)
	}

	c2 := cs[1]
	c2.Outstanding, c2.CreditLimit = 12000000, 20000000
	c2.PaymentModes = []domain.PaymentMode{domain.PayUPI}
	c2.Phone = "+919810000099"
	if err := s.UpsertCustomers(ctx, []domain.Customer{c2}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Customer{cs[0], c2, cs[2]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after upsert:\n got %+v\nwant %+v", got, want)
	}

	bad := cs[0]
	bad.ID, bad.CreditLimit = "C09", -1 // violates CHECK
	if err := s.UpsertCustomers(ctx, []domain.Customer{{ID: "C08", Name: "Ashok", PaymentModes: []domain.PaymentMode{domain.PayCOD}}, bad}); err == nil {
		t.Fatal("a negative credit limit was stored")
	}
	if n := count(t, s, "customers"); n != 3 {
		t.Errorf("%d customers after a failed upsert, want 3", n)
	}
}

func TestUsers(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	us := demoUsers()
	if err := s.UpsertUsers(ctx, us); err != nil {
		t.Fatal(err)
	}
	for _, want := range us {
		got, err := s.UserByPhone(ctx, want.Phone)
		if err != nil || got != want {
			t.Errorf("UserByPhone(%s) = %+v, %v; want %+v", want.Phone, got, err, want)
		}
	}
	sales, err := s.UsersByRole(ctx, domain.RoleSales)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sales, us[2:]) {
		t.Errorf("UsersByRole(sales) = %+v, want %+v", sales, us[2:])
	}

	// Upsert by phone: Ravi becomes an owner.
	ravi := domain.User{Phone: "+919900000003", Name: "Ravi K.", Role: domain.RoleOwner}
	if err := s.UpsertUsers(ctx, []domain.User{ravi}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.UserByPhone(ctx, ravi.Phone); err != nil || got != ravi {
		t.Errorf("after upsert: %+v, %v; want %+v", got, err, ravi)
	}
	owners, err := s.UsersByRole(ctx, domain.RoleOwner)
	if err != nil || len(owners) != 2 {
		t.Errorf("owners = %+v, %v; want two", owners, err)
	}
	if n := count(t, s, "users"); n != 4 {
		t.Errorf("%d users, want 4", n)
	}

	// A role outside the contract is refused by the schema, and nothing of
	// the batch is written.
	err = s.UpsertUsers(ctx, []domain.User{
		{Phone: "+919900000005", Name: "New", Role: domain.RoleSales},
		{Phone: "+919900000006", Name: "Boss", Role: domain.Role("manager")},
	})
	if err == nil {
		t.Fatal("role manager was stored")
	}
	if _, err := s.UserByPhone(ctx, "+919900000005"); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("the good user of a failed batch was written: %v", err)
	}
}

func TestUserByPhoneUnknown(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	if err := s.UpsertUsers(ctx, demoUsers()); err != nil {
		t.Fatal(err)
	}
	for _, phone := range []string{"+919999999999", "", "919900000001", "whatsapp:+919900000001"} {
		_, err := s.UserByPhone(ctx, phone)
		if err == nil {
			t.Errorf("UserByPhone(%q) found someone", phone)
			continue
		}
		if code := domain.ErrorCode(err); code != domain.ENOTFOUND {
			t.Errorf("UserByPhone(%q) code = %q, want %q", phone, code, domain.ENOTFOUND)
		}
		var de *domain.Error
		if !errors.As(err, &de) || de.Message == "" {
			t.Errorf("UserByPhone(%q) error %v is not a *domain.Error with a message", phone, err)
		}
	}
}

func TestIsEmpty(t *testing.T) {
	ctx := context.Background()
	for _, fill := range []struct {
		name string
		do   func(*Store) error
	}{
		{"products", func(s *Store) error { return s.UpsertProducts(ctx, demoProducts()[:1]) }},
		{"customers", func(s *Store) error { return s.UpsertCustomers(ctx, demoCustomers()[:1]) }},
		{"users", func(s *Store) error { return s.UpsertUsers(ctx, demoUsers()[:1]) }},
	} {
		t.Run(fill.name, func(t *testing.T) {
			s, _, _ := openStore(t)
			if empty, err := s.IsEmpty(ctx); err != nil || !empty {
				t.Fatalf("fresh database: IsEmpty = %v, %v; want true", empty, err)
			}
			// The outbox and audit log are not books: they leave it empty.
			if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "startup"}); err != nil {
				t.Fatal(err)
			}
			if empty, err := s.IsEmpty(ctx); err != nil || !empty {
				t.Fatalf("after an audit entry: IsEmpty = %v, %v; want true", empty, err)
			}
			if err := fill.do(s); err != nil {
				t.Fatal(err)
			}
			if empty, err := s.IsEmpty(ctx); err != nil || empty {
				t.Fatalf("with %s: IsEmpty = %v, %v; want false", fill.name, empty, err)
			}
		})
	}
}

func TestOutboxLease(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	msgs := []domain.Effect{
		{Kind: domain.EffectWhatsApp, To: "+919900000002", Payload: []byte(`{"body":"Order O-1 approved"}`)},
		{Kind: domain.EffectEmail, To: "accounts@munshi.example", Payload: []byte(`{"subject":"Order O-1"}`)},
		{Kind: domain.EffectWhatsApp, To: "+919900000001", Payload: []byte(`{"body":"डाइजेस्ट 🙏"}`)},
	}
	if err := s.Enqueue(ctx, msgs...); err != nil {
		t.Fatal(err)
	}
	if d, err := s.OutboxDepth(ctx); err != nil || d != 3 {
		t.Fatalf("OutboxDepth = %d, %v; want 3", d, err)
	}

	const lease = 30 * time.Second
	got, err := s.ClaimDue(ctx, 2, lease)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("ClaimDue(limit 2) = %d messages", len(got))
	}
	for i, m := range got {
		w := msgs[i]
		if m.ID == 0 || m.Kind != w.Kind || m.To != w.To || string(m.Payload) != string(w.Payload) || m.Attempts != 0 {
			t.Errorf("claimed %d = %+v, want %+v", i, m, w)
		}
	}
	if got[0].ID >= got[1].ID {
		t.Errorf("not in id order: %d, %d", got[0].ID, got[1].ID)
	}
	rest, err := s.ClaimDue(ctx, 10, lease)
	if err != nil || len(rest) != 1 || rest[0].To != msgs[2].To {
		t.Fatalf("second ClaimDue = %+v, %v; want only the third message", rest, err)
	}

	// Every message is leased now: nothing is due until the lease runs out.
	for _, d := range []time.Duration{0, time.Second, lease - time.Microsecond} {
		c.mu.Lock()
		c.t = t0.Add(d)
		c.mu.Unlock()
		if again, err := s.ClaimDue(ctx, 10, lease); err != nil || len(again) != 0 {
			t.Fatalf("ClaimDue %v into the lease = %+v, %v; want nothing", d, again, err)
		}
	}
	if d, _ := s.OutboxDepth(ctx); d != 3 {
		t.Errorf("leased messages are still pending: depth %d, want 3", d)
	}
	c.Advance(time.Microsecond) // the lease has ended: the sender died
	again, err := s.ClaimDue(ctx, 10, lease)
	if err != nil || len(again) != 3 {
		t.Fatalf("ClaimDue after the lease = %d messages, %v; want 3", len(again), err)
	}
	if again[0].ID != got[0].ID || again[0].Attempts != 0 {
		t.Errorf("re-leased %+v, want %+v", again[0], got[0])
	}
}

func TestOutboxSentRetryGiveUp(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	if err := s.Enqueue(ctx,
		domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000002", Payload: []byte(`{"n":1}`)},
		domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000003", Payload: []byte(`{"n":2}`)},
		domain.Effect{Kind: domain.EffectEmail, To: "accounts@munshi.example", Payload: []byte(`{"n":3}`)},
	); err != nil {
		t.Fatal(err)
	}
	const lease = time.Minute
	ms, err := s.ClaimDue(ctx, 10, lease)
	if err != nil || len(ms) != 3 {
		t.Fatalf("ClaimDue = %d, %v", len(ms), err)
	}
	sent, retry, dead := ms[0].ID, ms[1].ID, ms[2].ID

	if err := s.MarkSent(ctx, sent, "SMsent0001"); err != nil {
		t.Fatal(err)
	}
	next := t0.Add(5 * time.Minute)
	if err := s.MarkRetry(ctx, retry, "twilio: 503 Service Unavailable", next); err != nil {
		t.Fatal(err)
	}
	if failed, err := s.MarkFailed(ctx, dead, "smtp: 550 no such mailbox"); err != nil || !failed {
		t.Fatalf("MarkFailed = %v, %v; want true", failed, err)
	}
	if d, err := s.OutboxDepth(ctx); err != nil || d != 1 {
		t.Errorf("OutboxDepth = %d, %v; want 1 (only the retry)", d, err)
	}

	all, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		status, lastError, providerID string
		attempts                      int
	}
	wantRows := map[int64]row{
		sent:  {"sent", "", "SMsent0001", 1},
		retry: {"pending", "twilio: 503 Service Unavailable", "", 1},
		dead:  {"failed", "smtp: 550 no such mailbox", "", 1},
	}
	for _, m := range all {
		g := row{m.Status, m.LastError, m.ProviderID, m.Attempts}
		if g != wantRows[m.ID] {
			t.Errorf("message %d = %+v, want %+v", m.ID, g, wantRows[m.ID])
		}
	}

	// The retry is not due before its time, even with the lease cleared.
	c.Advance(5*time.Minute - time.Microsecond)
	if got, err := s.ClaimDue(ctx, 10, lease); err != nil || len(got) != 0 {
		t.Fatalf("ClaimDue before the retry time = %+v, %v; want nothing", got, err)
	}
	c.Advance(time.Microsecond)
	got, err := s.ClaimDue(ctx, 10, lease)
	if err != nil || len(got) != 1 || got[0].ID != retry || got[0].Attempts != 1 {
		t.Fatalf("ClaimDue at the retry time = %+v, %v; want message %d with 1 attempt", got, err, retry)
	}
	// Sent and failed messages are never due again.
	c.Advance(365 * 24 * time.Hour)
	if err := s.MarkSent(ctx, retry, "SMsent0002"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ClaimDue(ctx, 10, lease); err != nil || len(got) != 0 {
		t.Fatalf("ClaimDue a year later = %+v, %v; want nothing", got, err)
	}
	if d, _ := s.OutboxDepth(ctx); d != 0 {
		t.Errorf("OutboxDepth = %d, want 0", d)
	}
}

func TestEnqueueIsAllOrNothing(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	err := s.Enqueue(ctx,
		domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000002", Payload: []byte(`{}`)},
		domain.Effect{To: "+919900000002", Payload: []byte(`{}`)}, // no kind: no sender could ever carry it out
	)
	if err == nil {
		t.Fatal("an effect without a kind was stored")
	}
	if n := count(t, s, "outbox"); n != 0 {
		t.Errorf("%d outbox rows after a failed Enqueue, want 0", n)
	}
}

func TestOutboxConcurrentClaimDue(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	const total = 60
	var msgs []domain.Effect
	for i := range total {
		msgs = append(msgs, domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000002", Payload: []byte{byte('a' + i%26)}})
	}
	if err := s.Enqueue(ctx, msgs...); err != nil {
		t.Fatal(err)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seen = map[int64]int{}
		errs []error
	)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Bounded, so that a broken lease fails the test instead of
			// hanging it.
			for range total {
				got, err := s.ClaimDue(ctx, 4, time.Hour)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				for _, m := range got {
					seen[m.ID]++
				}
				mu.Unlock()
				if err != nil || len(got) == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("ClaimDue failed: %v", errs)
	}
	if len(seen) != total {
		t.Errorf("%d distinct messages leased, want %d", len(seen), total)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("message %d leased %d times while its lease held", id, n)
		}
	}
}

func TestRecordDeliveryStatus(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	if err := s.Enqueue(ctx,
		domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000002", Payload: []byte(`{"n":1}`)},
		domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000003", Payload: []byte(`{"n":2}`)},
		domain.Effect{Kind: domain.EffectWhatsApp, To: "+919900000004", Payload: []byte(`{"n":3}`)},
	); err != nil {
		t.Fatal(err)
	}
	ms, err := s.ClaimDue(ctx, 10, time.Minute)
	if err != nil || len(ms) != 3 {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, ms[0].ID, "SMaaa"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSent(ctx, ms[1].ID, "SMbbb"); err != nil {
		t.Fatal(err)
	}
	// ms[2] stays unsent, with no provider id.

	c.Advance(time.Second)
	steps := []struct{ sid, status, code string }{
		{"SMaaa", "sent", ""},
		{"SMaaa", "delivered", ""},
		{"SMbbb", "undelivered", "63016"},
		{"SMzzz", "read", ""},   // not one of ours: recorded, touches nothing
		{"", "failed", "30008"}, // an empty SID must not match the unsent message
	}
	for _, st := range steps {
		if err := s.RecordDeliveryStatus(ctx, st.sid, st.status, st.code); err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{ms[0].ID: "delivered", ms[1].ID: "undelivered", ms[2].ID: ""}
	for _, m := range all {
		if m.DeliveryStatus != want[m.ID] {
			t.Errorf("message %d (provider %q) delivery status = %q, want %q", m.ID, m.ProviderID, m.DeliveryStatus, want[m.ID])
		}
		if m.ID == ms[2].ID && m.Status != "pending" {
			t.Errorf("unsent message status = %q", m.Status)
		}
	}
	if n := count(t, s, "message_statuses"); n != len(steps) {
		t.Errorf("%d statuses recorded, want %d", n, len(steps))
	}
	var code, at string
	if err := s.db.QueryRow(`SELECT error_code, received_at FROM message_statuses WHERE message_sid = 'SMbbb'`).Scan(&code, &at); err != nil {
		t.Fatal(err)
	}
	if code != "63016" || at != formatTime(t0.Add(time.Second)) {
		t.Errorf("SMbbb status row = %q at %s", code, at)
	}
}

func TestAudit(t *testing.T) {
	s, c, _ := openStore(t)
	ctx := context.Background()
	ist := time.FixedZone("IST", 5*3600+1800)
	at := time.Date(2026, 3, 14, 15, 0, 0, 123456000, ist)
	entries := []audit.Entry{
		{
			At: at, Actor: "+919900000003", Kind: "decision", Subject: "SM0001",
			Detail: map[string]any{
				"intent": "order", "tier": "rules", "confidence": 0.93,
				"items":   []any{map[string]any{"sku": "GC500", "qty": float64(120)}},
				"payment": nil, "text": "5 carton GC aur 10 pack phenyl — राजेश",
			},
		},
		{Actor: "+919900000009", Kind: "refusal", Subject: "SM0002", Detail: map[string]any{"reason": "unknown user"}},
		{Actor: "system", Kind: "outbound", Detail: map[string]any{}},
	}
	for _, e := range entries {
		c.Advance(time.Second)
		if err := s.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.AuditEntries(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d entries, want 3", len(got))
	}
	for i, g := range got {
		w := entries[i]
		if i > 0 && g.ID <= got[i-1].ID {
			t.Errorf("entries out of order: %d after %d", g.ID, got[i-1].ID)
		}
		if g.Actor != w.Actor || g.Kind != w.Kind || g.Subject != w.Subject || !reflect.DeepEqual(g.Detail, w.Detail) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, g, w)
		}
		wantAt := w.At
		if wantAt.IsZero() {
			wantAt = t0.Add(time.Duration(i+1) * time.Second) // the store clock
		}
		if !g.At.Equal(wantAt) || g.At.Location() != time.UTC {
			t.Errorf("entry %d at %v, want %v in UTC", i, g.At, wantAt)
		}
	}
	refusals, err := s.AuditEntries(ctx, "refusal")
	if err != nil || len(refusals) != 1 || refusals[0].Subject != "SM0002" || refusals[0].Detail["reason"] != "unknown user" {
		t.Errorf("AuditEntries(refusal) = %+v, %v", refusals, err)
	}
	if none, err := s.AuditEntries(ctx, "import"); err != nil || len(none) != 0 {
		t.Errorf("AuditEntries(import) = %+v, %v; want none", none, err)
	}

	// A detail that cannot be JSON is refused, not stored half-way.
	if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "bad", Detail: map[string]any{"f": func() {}}}); err == nil {
		t.Error("a function in the detail was accepted")
	}
	if n := count(t, s, "audit_log"); n != 3 {
		t.Errorf("%d audit rows, want 3", n)
	}
}

func historyOrders() ([]domain.Order, []domain.Payment) {
	day := time.Date(2026, 1, 5, 11, 0, 0, 0, time.UTC)
	l1 := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 120, SaidQty: 5, SaidUnit: "carton", Price: 9200, GSTRate: 1800})
	l2 := domain.PriceLine(domain.OrderLine{SKU: "BR01", Qty: 12, SaidQty: 1, SaidUnit: "dozen", Price: 8000, GSTRate: 1200})
	o1 := domain.Order{
		ID: "O-0001", CustomerID: "C01", PlacedBy: "+919900000003", Payment: domain.PayCOD,
		Status: domain.OrderDelivered, Lines: []domain.OrderLine{l1, l2},
		Subtotal: l1.Amount + l2.Amount, GST: l1.GSTAmount + l2.GSTAmount,
		Fingerprint: "fp-0001", CreatedAt: day, CommittedAt: day.Add(time.Hour), DeliveredAt: day.Add(26 * time.Hour),
	}
	o1.Total = o1.Subtotal + o1.GST
	l3 := domain.PriceLine(domain.OrderLine{SKU: "GC500", Qty: 6, SaidQty: 1, SaidUnit: "box", Price: 9200, GSTRate: 1800})
	o2 := domain.Order{
		ID: "O-0002", CustomerID: "C02", PlacedBy: "+919900000004", Payment: domain.PayCredit,
		Status: domain.OrderCommitted, Lines: []domain.OrderLine{l3},
		Subtotal: l3.Amount, GST: l3.GSTAmount, Total: l3.Amount + l3.GSTAmount, CreatedAt: day.Add(48 * time.Hour),
		CommittedAt: day.Add(49 * time.Hour),
	}
	pays := []domain.Payment{
		{CustomerID: "C01", Amount: o1.Total, Mode: domain.PayCOD, ReceivedAt: day.Add(26 * time.Hour), Reference: "cash"},
		{CustomerID: "C02", Amount: 500000, Mode: domain.PayCheque, ReceivedAt: day.Add(72 * time.Hour), Reference: "CHQ 004512"},
	}
	return []domain.Order{o1, o2}, pays
}

func seedBooks(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.UpsertProducts(ctx, demoProducts()); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertCustomers(ctx, demoCustomers()); err != nil {
		t.Fatal(err)
	}
}

func TestAddHistory(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	seedBooks(t, s)
	orders, pays := historyOrders()
	if err := s.AddHistory(ctx, orders, pays); err != nil {
		t.Fatal(err)
	}

	o1 := orders[0]
	var (
		cust, by, mode, status, fp, created string
		committed, delivered                sql.NullString
		sub, gst, total                     int64
	)
	if err := s.db.QueryRow(`SELECT customer_id, placed_by, payment_mode, status, subtotal_paise, gst_paise,
		total_paise, fingerprint, created_at, committed_at, delivered_at FROM orders WHERE id = ?`, o1.ID).
		Scan(&cust, &by, &mode, &status, &sub, &gst, &total, &fp, &created, &committed, &delivered); err != nil {
		t.Fatal(err)
	}
	if cust != "C01" || by != o1.PlacedBy || mode != "cod" || status != "delivered" || fp != "fp-0001" ||
		sub != int64(o1.Subtotal) || gst != int64(o1.GST) || total != int64(o1.Total) ||
		created != formatTime(o1.CreatedAt) || committed.String != formatTime(o1.CommittedAt) ||
		delivered.String != formatTime(o1.DeliveredAt) {
		t.Errorf("order row = %s %s %s %s %d %d %d %s %s %v %v", cust, by, mode, status, sub, gst, total, fp, created, committed, delivered)
	}
	// 120 × ₹92 = ₹11,040 + 18% and 12 × ₹80 = ₹960 + 12%.
	if o1.Subtotal != 1200000 || o1.GST != 198720+11520 {
		t.Fatalf("test order priced %v + %v", o1.Subtotal, o1.GST)
	}
	// An order not yet delivered keeps NULL, not a zero time.
	if err := s.db.QueryRow(`SELECT delivered_at FROM orders WHERE id = 'O-0002'`).Scan(&delivered); err != nil || delivered.Valid {
		t.Errorf("O-0002 delivered_at = %v, %v; want NULL", delivered, err)
	}

	rows, err := s.db.Query(`SELECT line_no, sku, qty, said_qty, said_unit, price_paise, gst_bp, amount_paise, gst_paise
		FROM order_lines WHERE order_id = ? ORDER BY line_no`, o1.ID)
	if err != nil {
		t.Fatal(err)
	}
	var lines []domain.OrderLine
	for rows.Next() {
		var no int
		var l domain.OrderLine
		if err := rows.Scan(&no, &l.SKU, &l.Qty, &l.SaidQty, &l.SaidUnit, &l.Price, &l.GSTRate, &l.Amount, &l.GSTAmount); err != nil {
			t.Fatal(err)
		}
		if no != len(lines)+1 {
			t.Errorf("line_no %d, want %d", no, len(lines)+1)
		}
		lines = append(lines, l)
	}
	rows.Close()
	if !reflect.DeepEqual(lines, o1.Lines) {
		t.Errorf("lines:\n got %+v\nwant %+v", lines, o1.Lines)
	}

	var pc int
	var sum int64
	if err := s.db.QueryRow(`SELECT COUNT(*), SUM(amount_paise) FROM payments`).Scan(&pc, &sum); err != nil {
		t.Fatal(err)
	}
	if pc != 2 || sum != int64(pays[0].Amount+pays[1].Amount) {
		t.Errorf("payments = %d totalling %d", pc, sum)
	}
	var ref, recv string
	if err := s.db.QueryRow(`SELECT reference, received_at FROM payments WHERE customer_id = 'C02'`).Scan(&ref, &recv); err != nil ||
		ref != "CHQ 004512" || recv != formatTime(pays[1].ReceivedAt) {
		t.Errorf("C02 payment = %q at %s, %v", ref, recv, err)
	}
	if n := count(t, s, "order_lines"); n != 3 {
		t.Errorf("%d order lines, want 3", n)
	}
	// History leaves stock and outstanding as they were.
	cs, _ := s.Customers(ctx)
	if cs[0].Outstanding != demoCustomers()[0].Outstanding {
		t.Errorf("outstanding changed to %v", cs[0].Outstanding)
	}
}

func TestAddHistoryRollsBack(t *testing.T) {
	good, goodPays := historyOrders()
	tests := []struct {
		name string
		edit func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment)
	}{
		{"order for an unknown customer", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			o[1].CustomerID = "C99"
			return o, p
		}},
		{"line for an unknown sku", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			o[1].Lines[0].SKU = "NOPE"
			return o, p
		}},
		{"payment from an unknown customer", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			p[1].CustomerID = "C99"
			return o, p
		}},
		{"same order twice", func(o []domain.Order, p []domain.Payment) ([]domain.Order, []domain.Payment) {
			return append(o, o[0]), p
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := openStore(t)
			seedBooks(t, s)
			ctx := context.Background()
			// Deep enough copies that one case does not leak into the next.
			orders := make([]domain.Order, len(good))
			for i, o := range good {
				o.Lines = append([]domain.OrderLine(nil), o.Lines...)
				orders[i] = o
			}
			pays := append([]domain.Payment(nil), goodPays...)
			orders, pays = tc.edit(orders, pays)

			if err := s.AddHistory(ctx, orders, pays); err == nil {
				t.Fatal("AddHistory succeeded")
			}
			for _, table := range []string{"orders", "order_lines", "payments"} {
				if n := count(t, s, table); n != 0 {
					t.Errorf("%d rows in %s after a failed AddHistory, want 0", n, table)
				}
			}
			// The books still take the good history afterwards.
			if err := s.AddHistory(ctx, good, goodPays); err != nil {
				t.Fatalf("good history after a failure: %v", err)
			}
			if n := count(t, s, "orders"); n != 2 {
				t.Errorf("%d orders, want 2", n)
			}
		})
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
