package erp

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"strings"
	"sync"
	"testing"
)

// recorder is a database/sql driver that keeps the statements and
// arguments it is given: what SQL Server would receive, on a machine with
// no SQL Server.
type recorder struct {
	mu    sync.Mutex
	stmts []string
	args  [][]driver.NamedValue
}

func (r *recorder) Open(string) (driver.Conn, error) { return &recConn{r}, nil }

type recConn struct{ r *recorder }

func (c *recConn) Prepare(q string) (driver.Stmt, error) { return nil, driver.ErrSkip }
func (c *recConn) Close() error                          { return nil }
func (c *recConn) Begin() (driver.Tx, error)             { return c, nil }
func (c *recConn) BeginTx(_ context.Context, o driver.TxOptions) (driver.Tx, error) {
	if o.ReadOnly {
		return nil, io.ErrUnexpectedEOF // as go-mssqldb refuses it
	}
	return c, nil
}
func (c *recConn) Commit() error   { return nil }
func (c *recConn) Rollback() error { return nil }
func (c *recConn) Ping(context.Context) error {
	return nil
}
func (c *recConn) record(q string, args []driver.NamedValue) {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	c.r.stmts = append(c.r.stmts, q)
	c.r.args = append(c.r.args, args)
}
func (c *recConn) ExecContext(_ context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	c.record(q, args)
	return driver.RowsAffected(0), nil
}
func (c *recConn) QueryContext(_ context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	c.record(q, args)
	return &recRows{}, nil
}
func (c *recConn) CheckNamedValue(*driver.NamedValue) error { return nil }

type recRows struct{ done bool }

func (r *recRows) Columns() []string { return []string{"ItmCd"} }
func (r *recRows) Close() error      { return nil }
func (r *recRows) Next(dest []driver.Value) error {
	if r.done {
		return io.EOF
	}
	r.done = true
	dest[0] = []byte("GC500")
	return nil
}

var rec = &recorder{}

func init() { sql.Register("munshi-recorder", rec) }

func TestSQLServerQueryReachesTheDriverUnchanged(t *testing.T) {
	s, err := openWith(context.Background(), conn{driver: "munshi-recorder", dialect: SQLServer}, "sqlserver://erp@db", Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := "SELECT TOP (100) PERCENT i.ItmCd FROM dbo.ItemMaster i WITH (NOLOCK)\n WHERE i.ModifiedOn > @since AND UPPER(i.Comp) = N'APPLE' ORDER BY i.ItmCd"
	since := "2026-12-01 10:00:00"
	var got []any
	if err := s.Query(context.Background(), q, &since, 5, func(_ []string, v []any) error { got = v; return nil }); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := []string{"SET ROWCOUNT 5", q, "SET ROWCOUNT 0"}
	if strings.Join(rec.stmts, "|") != strings.Join(want, "|") {
		t.Errorf("statements %q, want %q", rec.stmts, want)
	}
	if a := rec.args[1]; len(a) != 1 || a[0].Name != "since" || a[0].Value != since {
		t.Errorf("the watermark was bound as %+v, want @since", a)
	}
	if len(got) != 1 || got[0] != "GC500" {
		t.Errorf("row %v", got)
	}
}
