package erp_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erp/erptest"
	"github.com/munshi/munshi/internal/store/pgtest"
)

var ctx = context.Background()

const items = `CREATE TABLE ItemMaster (ItmCd VARCHAR(20) NOT NULL PRIMARY KEY, ItmNm VARCHAR(80) NOT NULL, Rt DECIMAL(12,2), ClQty INTEGER, ModifiedOn TIMESTAMP NULL)`

var itemRows = []string{
	`INSERT INTO ItemMaster VALUES ('GC500', 'Glass Cleaner 500ml', 92.50, 2400, '2026-11-30 10:00:00')`,
	`INSERT INTO ItemMaster VALUES ('PH1L', 'Phenyl 1L', 45.00, 0, '2026-12-01 09:30:00')`,
	`INSERT INTO ItemMaster VALUES ('HW250', 'हैंड वॉश 250ml', 1234567.05, 12, '2026-12-01 11:00:00')`,
}

// source is one engine's throw-away database, filled through a writer
// connection, and its address for erp.Open.
type source struct {
	name   string
	dsn    string
	since  string // the query text with the dialect's parameter
	writer *sql.DB
}

func sources(t *testing.T) []source {
	t.Helper()
	var out []source
	path := filepath.Join(t.TempDir(), "erp.db")
	w, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	out = append(out, source{"sqlite", "sqlite:" + path, "ModifiedOn > :since", w})

	pg := pgtest.NewDatabase(t)
	pw, err := sql.Open("pgx", pg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pw.Close() })
	out = append(out, source{"postgres", pg, "ModifiedOn > $1", pw})

	my := erptest.MySQL(t)
	out = append(out, source{"mysql", my, "ModifiedOn > ?", erptest.Writer(t, my)})
	for _, s := range out {
		for _, q := range append([]string{items}, itemRows...) {
			if _, err := s.writer.Exec(q); err != nil {
				t.Fatalf("%s: %s: %v", s.name, q, err)
			}
		}
	}
	return out
}

func TestSourcesReadEachEngine(t *testing.T) {
	for _, s := range sources(t) {
		t.Run(s.name, func(t *testing.T) {
			src, err := erp.Open(ctx, s.dsn, erp.Options{QueryTimeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			if string(src.Dialect()) != s.name {
				t.Errorf("dialect %q", src.Dialect())
			}
			// The whole table, values normalised.
			var got [][]any
			q := `SELECT ItmCd, ItmNm, Rt, ClQty FROM ItemMaster ORDER BY ItmCd`
			if err := src.Query(ctx, q, nil, 0, func(cols []string, v []any) error {
				if len(cols) != 4 || !strings.EqualFold(cols[0], "ItmCd") {
					t.Errorf("columns %q", cols)
				}
				got = append(got, v)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 {
				t.Fatalf("rows %v", got)
			}
			hw := got[1]
			if hw[0] != "HW250" || hw[1] != "हैंड वॉश 250ml" {
				t.Errorf("text not read as written: %#v", hw)
			}
			if f, ok := hw[2].(float64); ok && s.name == "sqlite" && f == 1234567.05 {
				// SQLite keeps DECIMAL as a REAL: the float is what it holds.
			} else if r, ok := hw[2].(string); !ok || !strings.HasPrefix(r, "1234567.05") {
				t.Errorf("a decimal must come as its exact text, got %#v", hw[2])
			}
			if n, ok := hw[3].(int64); !ok || n != 12 {
				t.Errorf("an integer must come as int64, got %#v", hw[3])
			}
			// The watermark binds as the dialect names its parameter.
			since := "2026-12-01 09:00:00"
			var changed []string
			if err := src.Query(ctx, `SELECT ItmCd FROM ItemMaster WHERE `+s.since+` ORDER BY ItmCd`, &since, 0, func(_ []string, v []any) error {
				changed = append(changed, v[0].(string))
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if strings.Join(changed, ",") != "HW250,PH1L" {
				t.Errorf("changed since %s: %v", since, changed)
			}
			// A limit stops early.
			n := 0
			if err := src.Query(ctx, q+";", nil, 2, func([]string, []any) error { n++; return nil }); err != nil || n != 2 {
				t.Errorf("limit 2 read %d rows: %v", n, err)
			}
			// each's error ends the query and comes back as it is.
			stop := errors.New("enough")
			if err := src.Query(ctx, q, nil, 0, func([]string, []any) error { return stop }); err != stop {
				t.Errorf("each's error came back as %v", err)
			}
		})
	}
}

func TestSourcesAreReadOnly(t *testing.T) {
	for _, s := range sources(t) {
		t.Run(s.name, func(t *testing.T) {
			src, err := erp.Open(ctx, s.dsn, erp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			for _, q := range []string{`UPDATE ItemMaster SET ClQty = 0`, `DELETE FROM ItemMaster`, `INSERT INTO ItemMaster (ItmCd, ItmNm) VALUES ('X', 'X')`} {
				err := src.Query(ctx, q, nil, 0, func([]string, []any) error { return nil })
				if err == nil {
					t.Errorf("%s was allowed", q)
				}
			}
			var n int64
			s.writer.QueryRow(`SELECT COUNT(*) FROM ItemMaster WHERE ClQty = 0`).Scan(&n)
			if n != 1 {
				t.Errorf("the source changed: %d items with no stock", n)
			}
		})
	}
}

func TestCatalogAndSample(t *testing.T) {
	for _, s := range sources(t) {
		t.Run(s.name, func(t *testing.T) {
			src, err := erp.Open(ctx, s.dsn, erp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			tables, err := src.Tables(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(tables) != 1 || !strings.EqualFold(tables[0].Name, "ItemMaster") || tables[0].Rows != 3 {
				t.Fatalf("tables %+v", tables)
			}
			cols := tables[0].Columns
			if len(cols) != 5 || !strings.EqualFold(cols[0].Name, "ItmCd") || !cols[0].Key || cols[0].Nullable || cols[1].Key || !cols[2].Nullable {
				t.Errorf("columns %+v", cols)
			}
			names, rows, err := src.Sample(ctx, tables[0], 2)
			if err != nil || len(names) != 5 || len(rows) != 2 || rows[0][0] != "GC500" || rows[1][0] != "HW250" {
				t.Errorf("sample %v %v %v", names, rows, err)
			}
		})
	}
}

func TestStatementTimeout(t *testing.T) {
	src, err := erp.Open(ctx, pgtest.NewDatabase(t), erp.Options{QueryTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	err = src.Query(ctx, `SELECT pg_sleep(5)`, nil, 0, func([]string, []any) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("a query past its timeout gave %v", err)
	}
}

func TestOneQueryAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "erp.db")
	w, _ := sql.Open("sqlite3", path)
	defer w.Close()
	w.Exec(items)
	for _, q := range itemRows {
		w.Exec(q)
	}
	src, err := erp.Open(ctx, "sqlite:"+path, erp.Options{Parallel: 1, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src.Query(ctx, `SELECT ItmCd FROM ItemMaster`, nil, 0, func([]string, []any) error {
				n := inside.Add(1)
				if n > most.Load() {
					most.Store(n)
				}
				time.Sleep(time.Millisecond)
				inside.Add(-1)
				return nil
			})
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d queries ran at once with Parallel 1", most.Load())
	}
}

func TestOpenRefusesWhatItCannotUse(t *testing.T) {
	for dsn, want := range map[string]string{
		"oracle://scott:tiger@db/orcl":             "unknown source scheme",
		"":                                         "is not a source address",
		"postgres://erp:s3cret@127.0.0.1:1/erp":    "does not answer",
		"mysql://erp:s3cret@127.0.0.1:1/erp":       "does not answer",
		"sqlite:" + t.TempDir() + "/missing.db":    "does not answer",
		"sqlserver://erp:s3cret@%zz":               "not a valid address",
		"postgres:///nohost":                       "not a valid address",
		"just text with a password s3cret@nowhere": "is not a source address",
	} {
		_, err := erp.Open(ctx, dsn, erp.Options{ConnectTimeout: time.Second})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q) = %v, want %q", dsn, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q) leaked the password: %v", dsn, err)
		}
	}
}

func TestQuoteIdent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "erp.db")
	w, _ := sql.Open("sqlite3", path)
	defer w.Close()
	w.Ping()
	src, err := erp.Open(ctx, "sqlite:"+path, erp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, name := range []string{`Party "Nm"`, `पार्टी नाम`, `x"; DROP TABLE y; --`} {
		if _, err := w.Exec(`CREATE TABLE ` + src.QuoteIdent(name) + ` (` + src.QuoteIdent(name) + ` TEXT)`); err != nil {
			t.Errorf("%q quoted as %s: %v", name, src.QuoteIdent(name), err)
		}
	}
	tables, err := src.Tables(ctx)
	if err != nil || len(tables) != 3 {
		t.Errorf("tables with hostile names: %v %v", tables, err)
	}
}
