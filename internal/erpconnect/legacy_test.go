package erpconnect_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erp/erptest"
	"github.com/munshi/munshi/internal/erp/legacyerp"
	"github.com/munshi/munshi/internal/erpconnect"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/store/pgtest"
)

// legacyNow is the legacy ERP's fixed clock: 11:30 in Kolkata on
// 1 December 2026.
var legacyNow = time.Date(2026, time.December, 1, 6, 0, 0, 0, time.UTC)

// buildLegacy builds the legacy ERP (100,000 sales lines of the mapped
// company) on dialect and opens it as a source.
func buildLegacy(t *testing.T, dialect string) (*erp.Source, legacyerp.Facts) {
	t.Helper()
	var db *sql.DB
	var dsn string
	switch dialect {
	case legacyerp.SQLite:
		path := filepath.Join(t.TempDir(), "erp.db")
		var err error
		if db, err = sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000"); err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		dsn = "sqlite:" + path
	case legacyerp.Postgres:
		dsn = pgtest.NewDatabase(t)
		var err error
		if db, err = sql.Open("pgx", dsn); err != nil {
			t.Fatal(err)
		}
	case legacyerp.MySQL:
		dsn = erptest.MySQL(t)
		db = erptest.Writer(t, dsn)
	}
	start := time.Now()
	f, err := legacyerp.Build(context.Background(), db, dialect, legacyerp.Options{Seed: 1, Now: legacyNow})
	if err != nil {
		t.Fatalf("%s: %v", dialect, err)
	}
	db.Close()
	t.Logf("%s: built %d items, %d orders, %d sales lines in %v", dialect, f.Items, f.Orders, f.SalesLines, time.Since(start).Round(time.Millisecond))
	src, err := erp.Open(context.Background(), dsn, erp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src, f
}

// reviewedColumns reads the reviewed mapping's fields as the table and
// column each comes from: the query's select list resolved through its
// table aliases; the few computed columns (stock summed over godowns, a
// GRN line's reference) by what they are computed from.
func reviewedColumns(t *testing.T, dialect string) map[erpsync.Entity]map[string]string {
	t.Helper()
	b, err := legacyerp.Mapping(dialect)
	if err != nil {
		t.Fatal(err)
	}
	m, err := erpsync.Parse(b, func(k string) string { return map[string]string{"ERP_DSN": "sqlite:unused"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	computed := map[string]string{"Ready": "ItemStock.ClQty", "WIP": "ItemStock.WIPQty", "Ref": "GRNDtl.GRNNo"}
	tableAlias := regexp.MustCompile("(?i)(?:FROM|JOIN)\\s+[\"`]?(\\w+)[\"`]?\\s+(\\w+)")
	item := regexp.MustCompile("^[\"`]?(\\w+)[\"`]?\\.[\"`]?(\\w+)[\"`]?$")
	out := map[erpsync.Entity]map[string]string{}
	for e, spec := range m.Entities {
		aliases := map[string]string{}
		for _, x := range tableAlias.FindAllStringSubmatch(spec.Query, -1) {
			aliases[x[2]] = x[1]
		}
		sel := spec.Query[strings.Index(spec.Query, "SELECT")+6 : strings.Index(spec.Query, "\nFROM")]
		cols := map[string]string{}
		for _, it := range splitTop(sel) {
			it = strings.TrimSpace(it)
			if x := item.FindStringSubmatch(it); x != nil {
				cols[strings.ToLower(x[2])] = aliases[x[1]] + "." + x[2]
			}
		}
		out[e] = map[string]string{}
		for f, fs := range spec.Fields {
			if fs.Column == "" {
				continue
			}
			col := cols[strings.ToLower(fs.Column)]
			if c, ok := computed[fs.Column]; ok {
				col = c
			}
			if col == "" {
				t.Fatalf("%s.%s: cannot resolve column %s in\n%s", e, f, fs.Column, spec.Query)
			}
			out[e][f] = col
		}
	}
	return out
}

// splitTop splits a select list at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// draftColumn is where the draft reads a field from, without the join it
// reads it through.
func draftColumn(d *erpconnect.Draft, e erpsync.Entity, field string) string {
	col := ""
	if f := d.Entity(e).Field(field); f != nil {
		col = f.Column
	}
	if col == "" && e == erpsync.Products && (field == "stock_ready" || field == "stock_wip") {
		if f := d.Entity(erpsync.Stock).Field(field); f != nil {
			col = f.Column // the draft keeps stock in its own entity, read every 5 minutes
		}
	}
	col, _, _ = strings.Cut(col, " via ")
	return col
}

// TestLegacyERP runs discovery on the legacy ERP, with nothing but its
// database, and counts the reviewed mapping's fields the draft placed on
// the same column. The draft must run as it stands: erpsync's check reads
// every row through it without a problem.
func TestLegacyERP(t *testing.T) {
	for _, dialect := range []string{legacyerp.SQLite, legacyerp.Postgres, legacyerp.MySQL} {
		t.Run(dialect, func(t *testing.T) {
			src, facts := buildLegacy(t, dialect)
			start := time.Now()
			d := discover(t, src, erpconnect.Options{})
			t.Logf("discovered in %v", time.Since(start).Round(time.Millisecond))
			reviewed := reviewedColumns(t, dialect)
			total, right := 0, 0
			var wrong []string
			for _, e := range erpsync.Entities {
				fields := reviewed[e]
				names := make([]string, 0, len(fields))
				for f := range fields {
					names = append(names, f)
				}
				sort.Strings(names)
				for _, f := range names {
					total++
					got := ""
					if d.Entity(e) != nil || e == erpsync.Products {
						got = draftColumn(d, e, f)
					}
					if got == fields[f] {
						right++
					} else {
						wrong = append(wrong, fmt.Sprintf("%s.%s: draft %q, reviewed %q", e, f, got, fields[f]))
					}
				}
			}
			t.Logf("%s: the draft placed %d of the reviewed mapping's %d fields on the reviewed column", dialect, right, total)
			for _, w := range wrong {
				t.Errorf("%s", w)
			}
			m := d.Mapping
			for _, e := range []erpsync.Entity{erpsync.Stock, erpsync.Dues, erpsync.Bills, erpsync.Sales, erpsync.Receipts} {
				if spec := m.Entities[e]; spec == nil || !strings.Contains(spec.Query, `= 3`) {
					t.Errorf("%s does not keep company 3", e)
				}
			}
			for _, e := range []erpsync.Entity{erpsync.Products, erpsync.Payments} {
				if spec := m.Entities[e]; spec == nil || !strings.Contains(spec.Query, "UPPER('Apple Lifestyle Industries Limited')") {
					t.Errorf("%s does not keep company 3 by its name", e)
				}
			}
			if spec := m.Entities[erpsync.Customers]; spec == nil || !strings.Contains(spec.Query, "PartyBal") {
				t.Errorf("customers do not keep company 3's parties")
			}
			if s := m.Entities[erpsync.Sales]; s == nil || s.Since == nil || s.Since.Column != "ModifiedOn" {
				t.Errorf("sales are not read from ModifiedOn on")
			}
			if _, ok := m.Entities[erpsync.OpenOrders]; ok {
				t.Errorf("open orders drafted from numeric statuses nobody named")
			}
			// The company's rows, as the ERP's own figures count them.
			rows := checkRuns(t, d, src)
			want := map[erpsync.Entity]int{erpsync.Products: facts.Items, erpsync.Stock: facts.Items, erpsync.Customers: facts.Customers,
				erpsync.Dues: facts.Customers, erpsync.Bills: facts.UnpaidBills, erpsync.Sales: facts.SalesLines,
				erpsync.Payments: facts.Payments, erpsync.Receipts: facts.GoodsIn}
			for e, n := range want {
				if rows[e] != n {
					t.Errorf("%s: the draft reads %d rows, the company has %d", e, rows[e], n)
				}
			}
		})
	}
}
