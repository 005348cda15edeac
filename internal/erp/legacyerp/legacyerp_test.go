package legacyerp_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"

	"github.com/munshi/munshi/internal/erp/erptest"
	"github.com/munshi/munshi/internal/erp/legacyerp"
	"github.com/munshi/munshi/internal/store/pgtest"
)

// now is the tests' fixed clock: 11:30 in Kolkata on 1 December 2026.
var now = time.Date(2026, time.December, 1, 6, 0, 0, 0, time.UTC)

func openSQLite(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "erp.db")+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func openPostgres(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openMySQL gives the test its own database on the test's MySQL or
// MariaDB server (erptest), dropped when the test ends.
func openMySQL(t testing.TB) *sql.DB {
	t.Helper()
	return erptest.Writer(t, erptest.MySQL(t))
}

var openers = map[string]func(testing.TB) *sql.DB{
	legacyerp.SQLite:   openSQLite,
	legacyerp.Postgres: openPostgres,
	legacyerp.MySQL:    openMySQL,
}

func build(t testing.TB, dialect string, o legacyerp.Options) (*sql.DB, legacyerp.Facts) {
	t.Helper()
	db := openers[dialect](t)
	if o.Now.IsZero() {
		o.Now = now
	}
	start := time.Now()
	f, err := legacyerp.Build(context.Background(), db, dialect, o)
	if err != nil {
		t.Fatalf("%s: %v", dialect, err)
	}
	t.Logf("%s: built %d items, %d orders, %d sales lines in %v", dialect, f.Items, f.Orders, f.SalesLines, time.Since(start).Round(time.Millisecond))
	return db, f
}

// small is quick to build, for the tests that build more than once.
var small = legacyerp.Options{Seed: 7, Items: 60, SalesLines: 4000, Customers: 80}

// figures is everything Truth says about an ERP, for comparing two builds.
type figures struct {
	Facts      legacyerp.Facts
	Ready, WIP map[string]int64
	TotalDues  int64
	Dues       map[string]int64
	Top        []legacyerp.PartySales
	Days       map[string]legacyerp.DaySales
	Payments   map[string]legacyerp.Collections
}

func truth(t *testing.T, db *sql.DB, dialect string, f legacyerp.Facts) figures {
	t.Helper()
	ctx := context.Background()
	out := figures{Facts: f, Ready: map[string]int64{}, WIP: map[string]int64{}, Days: map[string]legacyerp.DaySales{}, Payments: map[string]legacyerp.Collections{}}
	out.Facts.Dialect = ""
	var err error
	for _, sku := range f.SKUs {
		if out.Ready[sku], err = legacyerp.ReadyStock(ctx, db, dialect, sku); err != nil {
			t.Fatal(err)
		}
		if out.WIP[sku], err = legacyerp.WIPStock(ctx, db, dialect, sku); err != nil {
			t.Fatal(err)
		}
	}
	if out.TotalDues, err = legacyerp.TotalDues(ctx, db, dialect); err != nil {
		t.Fatal(err)
	}
	if out.Dues, err = legacyerp.DuesByParty(ctx, db, dialect); err != nil {
		t.Fatal(err)
	}
	if out.Top, err = legacyerp.TopParties(ctx, db, dialect, f.LastDay.AddDate(0, 0, -30), f.LastDay.AddDate(0, 0, 1), 10); err != nil {
		t.Fatal(err)
	}
	for d := f.LastDay.AddDate(0, 0, -8); !d.After(f.LastDay); d = d.AddDate(0, 0, 1) {
		k := d.Format(time.DateOnly)
		if out.Days[k], err = legacyerp.SalesOn(ctx, db, dialect, d); err != nil {
			t.Fatal(err)
		}
		if out.Payments[k], err = legacyerp.PaymentsOn(ctx, db, dialect, d); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestBuildDefault builds the full-size ERP on each engine and checks
// what it holds.
func TestBuildDefault(t *testing.T) {
	for _, dialect := range legacyerp.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, f := build(t, dialect, legacyerp.Options{Seed: 1})
			if f.Items != 400 || f.SalesLines != 100000 || f.Dialect != dialect || f.CompanyCode != 3 || f.Company != legacyerp.CompanyName {
				t.Errorf("facts = %d items, %d lines, %q, company %d %q", f.Items, f.SalesLines, f.Dialect, f.CompanyCode, f.Company)
			}
			if got := count(t, db, dialect, `SELECT COUNT(*) FROM "SalesOrdDtl" d JOIN "SalesOrdHdr" h ON h."OrdId" = d."OrdId" WHERE h."CompCd" = 3`); got != 100000 {
				t.Errorf("the company's sales lines = %d, want 100000", got)
			}
			if got := count(t, db, dialect, `SELECT COUNT(*) FROM "SalesOrdDtl"`); got <= 100000 {
				t.Errorf("all sales lines = %d, want the other companies' too", got)
			}
			if got := count(t, db, dialect, `SELECT COUNT(*) FROM "PartyMaster"`); got != 300 {
				t.Errorf("parties = %d, want 300", got)
			}
			adversarial(t, db, dialect, f)
			mappingReads(t, db, dialect, f)
		})
	}
}

func count(t testing.TB, db *sql.DB, dialect, q string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(ident(dialect, q)).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// ident adapts a query written with "Ident" quoting to MySQL's backticks.
func ident(dialect, q string) string {
	if dialect != legacyerp.MySQL {
		return q
	}
	b := []byte(q)
	for i := range b {
		if b[i] == '"' {
			b[i] = '`'
		}
	}
	return string(b)
}

// TestDeterministic: the same seed builds the same ERP, on any engine; a
// different seed another.
func TestDeterministic(t *testing.T) {
	db1, f1 := build(t, legacyerp.SQLite, small)
	db2, f2 := build(t, legacyerp.SQLite, small)
	a, b := truth(t, db1, legacyerp.SQLite, f1), truth(t, db2, legacyerp.SQLite, f2)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two builds with one seed differ:\n%+v\n%+v", a, b)
	}
	if a.TotalDues == 0 || len(a.Top) != 10 || a.Days[f1.LastDay.AddDate(0, 0, -1).Format(time.DateOnly)].Orders == 0 {
		t.Errorf("figures too thin to compare: dues %d, top %d", a.TotalDues, len(a.Top))
	}
	other := small
	other.Seed = 8
	db3, f3 := build(t, legacyerp.SQLite, other)
	if c := truth(t, db3, legacyerp.SQLite, f3); c.TotalDues == a.TotalDues && reflect.DeepEqual(c.Top, a.Top) {
		t.Error("another seed built the same figures")
	}
	for _, dialect := range []string{legacyerp.Postgres, legacyerp.MySQL} {
		t.Run(dialect, func(t *testing.T) {
			db, f := build(t, dialect, small)
			if c := truth(t, db, dialect, f); !reflect.DeepEqual(a, c) {
				t.Errorf("%s's figures differ from SQLite's:\n%+v\n%+v", dialect, c, a)
			}
		})
	}
}

// TestOptions: sizes are the mapped company's; Now is required.
func TestOptions(t *testing.T) {
	db, f := build(t, legacyerp.SQLite, legacyerp.Options{Seed: 3, Items: 12, SalesLines: 500, Customers: 20})
	if f.Items != 12 || len(f.SKUs) != 12 || f.SalesLines != 500 {
		t.Errorf("facts = %+v", f)
	}
	if f.LastModified.IsZero() || f.LastModified.After(now) || f.FirstDay.After(f.LastDay) {
		t.Errorf("LastModified %v, days %v..%v", f.LastModified, f.FirstDay, f.LastDay)
	}
	if got := count(t, db, legacyerp.SQLite, `SELECT COUNT(*) FROM "CompanyMaster"`); got != 5 {
		t.Errorf("companies = %d, want 5", got)
	}
	if _, err := legacyerp.Build(context.Background(), openSQLite(t), legacyerp.SQLite, legacyerp.Options{}); err == nil {
		t.Error("Build without Now: no error")
	}
	if _, err := legacyerp.Build(context.Background(), openSQLite(t), "oracle", small); err == nil {
		t.Error("Build on oracle: no error")
	}
}

func BenchmarkBuild(b *testing.B) {
	for _, dialect := range legacyerp.Dialects {
		b.Run(dialect, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				db := openers[dialect](b)
				b.StartTimer()
				if _, err := legacyerp.Build(context.Background(), db, dialect, legacyerp.Options{Seed: 1, Now: now}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
