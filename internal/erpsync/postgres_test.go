package erpsync_test

import (
	"database/sql"
	"errors"
	"net/url"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/munshi/munshi/internal/alert"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/proxytest"
	"github.com/munshi/munshi/internal/store/pgtest"
)

const pgMapping = `source:
  dsn: ${ERP_DSN}
  timezone: Asia/Kolkata
entities:
  products:
    query: SELECT code, name, rate, gst, on_hand FROM items ORDER BY code
    fields:
      sku: code
      name: name
      price: rate
      gst_percent: gst
      stock_ready: {column: on_hand, factor: 12}
  customers:
    query: SELECT code, name FROM parties ORDER BY code
    fields:
      id: code
      name: name
  sales:
    since: {column: modified_on, overlap: 10m}
    query: |
      SELECT order_no, line_no, order_date, party, item, qty, rate, modified_on
      FROM sales_lines WHERE modified_on > $1
      ORDER BY modified_on, order_no, line_no
    fields:
      order_id: order_no
      line: line_no
      date: order_date
      customer_id: party
      sku: item
      qty: qty
      price: rate
`

// TestPostgresSource: a PostgreSQL ERP read through erp: numerics as
// exact decimal text, timestamps as the ERP's wall clock, the watermark
// bound as $1; when its network goes away the books keep what they had,
// and the next run after it is back recovers.
func TestPostgresSource(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	w, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, q := range []string{
		`CREATE TABLE items (code text PRIMARY KEY, name text, rate numeric(12,4), gst numeric(5,2), on_hand numeric(12,3))`,
		`CREATE TABLE parties (code text PRIMARY KEY, name text)`,
		`CREATE TABLE sales_lines (order_no text, line_no int, order_date date, party text, item text, qty numeric(12,3),
			rate numeric(12,2), modified_on timestamp, PRIMARY KEY (order_no, line_no))`,
		`INSERT INTO items VALUES ('GC500', 'Glass Cleaner', 92.5, 18, 2.5), ('PH1L', 'Phenyl', 65, 5, 10)`,
		`INSERT INTO parties VALUES ('C01', 'Rajesh Stores')`,
		`INSERT INTO sales_lines VALUES ('T-1', 1, '2026-03-01', 'C01', 'GC500', 24, 92.50, '2026-03-01 10:00:00'),
			('T-1', 2, '2026-03-01', 'C01', 'PH1L', 12.000, 65, '2026-03-01 10:00:00')`,
	} {
		if _, err := w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	px := proxytest.New(t, u.Host)
	u.Host = px.Addr()
	m, err := erpsync.Parse([]byte(pgMapping), func(string) string { return u.String() })
	if err != nil {
		t.Fatal(err)
	}
	src, err := erp.Open(ctx, m.Source.ExpandedDSN, erp.Options{ConnectTimeout: 5 * time.Second, QueryTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	clock := clocktest.At(T0)
	st := newBooks(t, clock)
	a := audit.New(st, nil, quiet)
	s := &erpsync.Syncer{Mapping: m, Source: src, Books: st, Audit: a, Clock: clock, Logger: quiet,
		Owners: &alert.Owners{Books: st, Audit: a, Kind: erpsync.AlertKind, Logger: quiet}}
	f := &fixture{books: st, clock: clock, s: s}
	if _, err := s.Once(ctx); err != nil {
		t.Fatal(err)
	}
	if gc := f.product(t, "GC500"); gc.Price != 9250 || gc.StockReady != 30 || gc.GSTPercent != 1800 {
		t.Errorf("GC500 %+v", gc)
	}
	o, found, err := st.Order(ctx, "T-1")
	if err != nil || !found || len(o.Lines) != 2 || o.Lines[1].Qty != 12 || !o.CreatedAt.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, ist)) {
		t.Fatalf("T-1 %+v %v %v", o, found, err)
	}
	if st := f.state(t, erpsync.Sales); st.Watermark != "2026-03-01 10:00:00" {
		t.Errorf("watermark %q", st.Watermark)
	}
	if _, err := w.Exec(`UPDATE sales_lines SET qty = 30, modified_on = '2026-03-10 12:05:00' WHERE order_no = 'T-1' AND line_no = 1`); err != nil {
		t.Fatal(err)
	}
	r := f.run(t, erpsync.Sales)
	if r.Since != "2026-03-01 09:50:00" || r.Rows != 2 || r.Written.Updated != 1 || r.Watermark != "2026-03-10 12:05:00" {
		t.Errorf("incremental run %+v", r)
	}

	// The network goes away.
	px.Stop()
	if _, err := w.Exec(`UPDATE items SET on_hand = 1 WHERE code = 'GC500'`); err != nil {
		t.Fatal(err)
	}
	_, err = s.Run(ctx, erpsync.Products)
	var fl *erpsync.Failure
	if !errors.As(err, &fl) || fl.Class != "source" {
		t.Fatalf("Run with the ERP gone: %v", err)
	}
	if gc := f.product(t, "GC500"); gc.StockReady != 30 {
		t.Errorf("stock %d: the last good data was not kept", gc.StockReady)
	}
	if told := f.told(t, owner); len(told) != 1 || !contains(told[0], "cannot reach the ERP") {
		t.Errorf("owners told %q", told)
	}
	// And comes back on the same address.
	px.Restart(t)
	r = f.run(t, erpsync.Products)
	if gc := f.product(t, "GC500"); gc.StockReady != 12 || r.Written.Updated != 1 {
		t.Errorf("after recovery GC500 stock %d, run %+v", gc.StockReady, r)
	}
	if told := f.told(t, owner); len(told) != 2 || !contains(told[1], "reaches the ERP again") {
		t.Errorf("owners told %q", told)
	}
}
