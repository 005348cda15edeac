package erp

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql"  // MySQL and MariaDB sources
	_ "github.com/jackc/pgx/v5/stdlib"  // PostgreSQL sources
	_ "github.com/mattn/go-sqlite3"     // SQLite sources
	_ "github.com/microsoft/go-mssqldb" // SQL Server sources
)

// Source is an open ERP database.
type Source struct {
	db       *sql.DB
	dialect  Dialect
	redacted string
	opts     Options
	slots    chan struct{} // one per query allowed at once
}

// Open connects to the source the DSN names and checks, within the
// connect timeout, that it answers.
func Open(ctx context.Context, dsn string, o Options) (*Source, error) {
	o = o.withDefaults()
	c, err := parseDSN(dsn, o)
	if err != nil {
		return nil, err
	}
	return openWith(ctx, c, Redact(dsn), o)
}

func openWith(ctx context.Context, c conn, redacted string, o Options) (*Source, error) {
	db, err := sql.Open(c.driver, c.dsn)
	if err != nil {
		return nil, fmt.Errorf("erp: open %s: %s", redacted, scrub(err, c.dsn))
	}
	db.SetMaxOpenConns(o.MaxConns)
	db.SetMaxIdleConns(o.MaxConns)
	db.SetConnMaxLifetime(30 * time.Minute)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Source{db: db, dialect: c.dialect, redacted: redacted, opts: o, slots: make(chan struct{}, o.Parallel)}
	if o.Later {
		return s, nil
	}
	pctx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("erp: %s does not answer: %s", redacted, scrub(err, c.dsn))
	}
	return s, nil
}

// scrub is err's text without the driver DSN's password in it.
func scrub(err error, dsn string) string {
	msg := err.Error()
	for _, secret := range secretsOf(dsn) {
		msg = strings.ReplaceAll(msg, secret, "xxxxx")
	}
	return msg
}

// secretsOf returns the passwords a DSN holds (URL or MySQL form).
func secretsOf(dsn string) []string {
	var out []string
	if at := strings.LastIndex(dsn, "@"); at > 0 {
		user := dsn[:at]
		if i := strings.Index(user, "://"); i >= 0 {
			user = user[i+3:]
		}
		if _, pw, ok := strings.Cut(user, ":"); ok && pw != "" {
			out = append(out, pw)
		}
	}
	for _, k := range []string{"password=", "pwd="} {
		lower := strings.ToLower(dsn)
		if i := strings.Index(lower, k); i >= 0 {
			v := dsn[i+len(k):]
			if j := strings.IndexAny(v, "&;"); j >= 0 {
				v = v[:j]
			}
			if v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// Dialect is the source's engine.
func (s *Source) Dialect() Dialect { return s.dialect }

// Redacted is the source's address without its password.
func (s *Source) Redacted() string { return s.redacted }

// Close closes the pool.
func (s *Source) Close() error { return s.db.Close() }

// ErrReadOnly says a query tried to change the ERP's data.
var ErrReadOnly = errors.New("erp: the source is read-only: a mapping's query may only read")

// Query runs q as it is written, in a read-only transaction, under the
// query timeout, holding one of the Parallel slots. since, when not nil,
// is bound as the dialect names a parameter: @since (SQL Server), :since
// (SQLite), $1 (PostgreSQL) or ? (MySQL). limit > 0 stops after limit
// rows. each gets every row's column names and normalised values; an
// error from it ends the query and is returned.
func (s *Source) Query(ctx context.Context, q string, since *string, limit int, each func(cols []string, vals []any) error) error {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("erp: %w", ctx.Err())
	}
	defer func() { <-s.slots }()
	ctx, cancel := context.WithTimeout(ctx, s.opts.QueryTimeout)
	defer cancel()
	err := s.query(ctx, q, since, limit, each)
	if err == nil {
		return nil
	}
	var stop stopped
	if errors.As(err, &stop) {
		return stop.err
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("erp: %s: the query ran past its %s timeout: %w", s.redacted, s.opts.QueryTimeout, context.DeadlineExceeded)
	}
	if isReadOnly(err) {
		return fmt.Errorf("%w (%v)", ErrReadOnly, err)
	}
	return fmt.Errorf("erp: %s: %w", s.redacted, err)
}

// stopped carries each's own error out unchanged.
type stopped struct{ err error }

func (s stopped) Error() string { return s.err.Error() }

func (s *Source) query(ctx context.Context, q string, since *string, limit int, each func([]string, []any) error) error {
	tx, err := s.db.BeginTx(ctx, s.txOptions())
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.dialect == MySQL {
		// The server's own limit on the statement: MySQL names it in
		// milliseconds, MariaDB in seconds; the other one is refused.
		ms := s.opts.QueryTimeout.Milliseconds()
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET SESSION max_execution_time = %d", ms)); err != nil {
			tx.ExecContext(ctx, fmt.Sprintf("SET SESSION max_statement_time = %.3f", float64(ms)/1000))
		}
	}
	text, args := q, s.bind(since)
	if limit > 0 {
		if s.dialect == SQLServer {
			// SET ROWCOUNT keeps the query text as the mapping wrote it.
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET ROWCOUNT %d", limit)); err != nil {
				return err
			}
			defer tx.ExecContext(context.WithoutCancel(ctx), "SET ROWCOUNT 0")
		} else {
			text = fmt.Sprintf("SELECT * FROM (%s) munshi_check LIMIT %d", strings.TrimRight(strings.TrimSpace(q), ";"), limit)
		}
	}
	rows, err := tx.QueryContext(ctx, text, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	types, _ := rows.ColumnTypes()
	binary := make([]bool, len(cols))
	for i, ct := range types {
		binary[i] = isBinaryType(ct.DatabaseTypeName())
	}
	raw := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		vals := make([]any, len(cols))
		for i, v := range raw {
			vals[i] = normalise(v, binary[i])
		}
		if err := each(cols, vals); err != nil {
			return stopped{err}
		}
		if n++; limit > 0 && n >= limit {
			break
		}
	}
	return rows.Err()
}

// txOptions asks for a read-only transaction where the driver has one.
// go-mssqldb refuses ReadOnly: SQL Server reads under the application
// intent and the login's rights instead.
func (s *Source) txOptions() *sql.TxOptions {
	if s.dialect == SQLServer {
		return &sql.TxOptions{Isolation: sql.LevelReadCommitted}
	}
	return &sql.TxOptions{ReadOnly: true}
}

// bind is the watermark as the dialect's parameter.
func (s *Source) bind(since *string) []any {
	if since == nil {
		return nil
	}
	switch s.dialect {
	case SQLServer, SQLite:
		return []any{sql.Named("since", *since)}
	}
	return []any{*since}
}

// normalise turns a driver's value into one of nil, int64, float64,
// string, bool, time.Time or []byte (binary columns only).
func normalise(v any, binary bool) any {
	switch x := v.(type) {
	case nil, int64, float64, string, bool, time.Time:
		return x
	case []byte:
		if binary {
			return append([]byte(nil), x...)
		}
		return string(x)
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case float32:
		return float64(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func isBinaryType(t string) bool {
	switch strings.ToUpper(t) {
	case "BLOB", "BYTEA", "BINARY", "VARBINARY", "IMAGE", "LONGBLOB", "MEDIUMBLOB", "TINYBLOB", "TIMESTAMP_BINARY", "ROWVERSION":
		return true
	}
	return false
}

func isTimeout(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "statement timeout") || strings.Contains(m, "canceling statement") ||
		strings.Contains(m, "max_execution_time") || strings.Contains(m, "query execution was interrupted") ||
		strings.Contains(m, "interrupted")
}

func isReadOnly(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "read-only transaction") || strings.Contains(m, "read only transaction") ||
		strings.Contains(m, "readonly database") || strings.Contains(m, "read-only") || strings.Contains(m, "query_only")
}
