package sqlbooks

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// pool is a database seen through its engine: every query is written once,
// with ? placeholders, and bound the way the engine wants them.
type pool struct {
	*sql.DB
	e *engine
}

// dbTx is a transaction of a pool, binding its queries the same way.
type dbTx struct {
	*sql.Tx
	e *engine
}

func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.DB.ExecContext(ctx, p.e.bind(query), args...)
}

func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return p.DB.QueryContext(ctx, p.e.bind(query), args...)
}

func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return p.DB.QueryRowContext(ctx, p.e.bind(query), args...)
}

// BeginTx begins a transaction. A read-only one sees one snapshot for all
// its statements, as SQLite's deferred transaction does.
func (p *pool) BeginTx(ctx context.Context, opts *sql.TxOptions) (*dbTx, error) {
	if opts != nil && opts.ReadOnly && opts.Isolation == sql.LevelDefault {
		opts = &sql.TxOptions{ReadOnly: true, Isolation: p.e.snapshot}
	}
	tx, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &dbTx{Tx: tx, e: p.e}, nil
}

func (t *dbTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.e.bind(query), args...)
}

func (t *dbTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.e.bind(query), args...)
}

func (t *dbTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.e.bind(query), args...)
}

func (t *dbTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return t.Tx.PrepareContext(ctx, t.e.bind(query))
}

// bound caches PostgreSQL's spelling of each query: the same few hundred
// are bound on every message.
var bound sync.Map

// bind returns query with its placeholders as the engine numbers them.
func (e *engine) bind(query string) string {
	if !e.dollars {
		return query
	}
	if b, ok := bound.Load(query); ok {
		return b.(string)
	}
	// SQLite's CROSS JOIN … ON is a join whose order the query fixes;
	// PostgreSQL plans joins itself.
	b := strings.ReplaceAll(dollars(query), "CROSS JOIN", "JOIN")
	bound.Store(query, b)
	return b
}

// dollars numbers the ? placeholders of query $1, $2, … in order, leaving
// those inside quoted literals, quoted names and comments alone.
func dollars(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(query[i+1:], c)
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j+2])
			i += j + 1
		case c == '-' && i+1 < len(query) && query[i+1] == '-':
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j])
			i += j - 1
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
