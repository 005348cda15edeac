package erpsync_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/munshi/munshi/internal/alert"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/store"
)

var (
	ctx   = context.Background()
	quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
	ist   = domain.DefaultLocation()
	// T0 is when the tests' books start: 10 March 2026, noon in Kolkata.
	T0 = time.Date(2026, 3, 10, 12, 0, 0, 0, ist)
)

const (
	owner    = "+919900000001"
	accounts = "+919900000002"
)

// testERP is the test ERP: an SQLite file built from testdata/erp.sql, a
// writer to change it as the ERP's users would, and its address.
type testERP struct {
	path string
	db   *sql.DB
}

func newERP(t *testing.T) *testERP {
	t.Helper()
	schema, err := os.ReadFile("testdata/erp.sql")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "erp.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(string(schema)); err != nil {
		t.Fatal(err)
	}
	return &testERP{path: path, db: db}
}

func (e *testERP) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := e.db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (e *testERP) dsn() string { return "sqlite://" + e.path }

// open reads the ERP through erp, as Munshi does.
func (e *testERP) open(t *testing.T) *erp.Source {
	t.Helper()
	src, err := erp.Open(ctx, e.dsn(), erp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// mapping is testdata/mapping.yaml for this ERP.
func (e *testERP) mapping(t *testing.T) *erpsync.Mapping {
	t.Helper()
	data, err := os.ReadFile("testdata/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := erpsync.Parse(data, func(k string) string {
		if k == "ERP_DSN" {
			return e.dsn()
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// newBooks is Munshi's books on a fresh SQLite file, with an owner and
// someone in accounts, on the clock.
func newBooks(t *testing.T, clock *clocktest.Clock) store.Store {
	t.Helper()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "munshi.db"), store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.UpsertUsers(ctx, []domain.User{{Phone: owner, Name: "Vikram", Role: domain.RoleOwner},
		{Phone: accounts, Name: "Priya", Role: domain.RoleAccounts}}); err != nil {
		t.Fatal(err)
	}
	return st
}

// fixture is a syncer of the test ERP into fresh books.
type fixture struct {
	erp   *testERP
	books store.Store
	clock *clocktest.Clock
	s     *erpsync.Syncer
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := newERP(t)
	clock := clocktest.At(T0)
	st := newBooks(t, clock)
	a := audit.New(st, nil, quiet)
	s := &erpsync.Syncer{Mapping: e.mapping(t), Source: e.open(t), Books: st, Audit: a, Clock: clock, Logger: quiet,
		Owners: &alert.Owners{Books: st, Audit: a, Kind: erpsync.AlertKind, Logger: quiet}}
	return &fixture{erp: e, books: st, clock: clock, s: s}
}

func (f *fixture) run(t *testing.T, e erpsync.Entity) erpsync.Result {
	t.Helper()
	res, err := f.s.Run(ctx, e)
	if err != nil {
		t.Fatalf("Run(%s): %v", e, err)
	}
	return res
}

func (f *fixture) product(t *testing.T, sku string) domain.Product {
	t.Helper()
	ps, err := f.books.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.SKU == sku {
			return p
		}
	}
	t.Fatalf("no product %s in the books", sku)
	return domain.Product{}
}

func (f *fixture) customer(t *testing.T, id string) domain.Customer {
	t.Helper()
	cs, err := f.books.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no customer %s in the books", id)
	return domain.Customer{}
}

func (f *fixture) state(t *testing.T, e erpsync.Entity) erpsync.State {
	t.Helper()
	states, err := f.books.SyncStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range states {
		if s.Entity == e {
			return s
		}
	}
	return erpsync.State{Entity: e}
}

// told is the WhatsApp messages queued for phone.
func (f *fixture) told(t *testing.T, phone string) []string {
	t.Helper()
	msgs, err := f.books.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		if m.Kind == domain.EffectWhatsApp && m.To == phone {
			var body struct{ Body string }
			if err := json.Unmarshal(m.Payload, &body); err != nil {
				t.Fatal(err)
			}
			out = append(out, body.Body)
		}
	}
	return out
}

func contains(s string, words ...string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
