package sqlbooks

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/munshi/munshi/reports"
)

// The owners' questions: read-only queries behind the reports tools. Each
// method reads inside one transaction of the reader pool, so that a page and
// its totals agree; each runs under ReportTimeout and returns at most
// reports.MaxRows rows.

// ReportTimeout bounds every report query; SQLite is interrupted when it
// passes.
const ReportTimeout = 2 * time.Second

var _ reports.Books = (*Store)(nil)

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// report runs fn in a read transaction of the reader pool (a deferred
// BEGIN: a shared WAL snapshot, never the write lock) under ReportTimeout.
func (s *Store) report(ctx context.Context, what string, fn func(ctx context.Context, q querier) error) error {
	ctx, cancel := context.WithTimeout(ctx, ReportTimeout)
	defer cancel()
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("sqlbooks: %s: %w", what, err)
	}
	defer tx.Rollback()
	return reportErr(ctx, what, fn(ctx, tx))
}

// reportEach runs fn, whose statements each stand alone, on the reader
// pool under ReportTimeout, outside a transaction: a single statement
// reads one snapshot by itself, and a transaction around it would only
// add its BEGIN and ROLLBACK, two round trips on PostgreSQL.
func (s *Store) reportEach(ctx context.Context, what string, fn func(ctx context.Context, q querier) error) error {
	ctx, cancel := context.WithTimeout(ctx, ReportTimeout)
	defer cancel()
	return reportErr(ctx, what, fn(ctx, s.read))
}

// reportErr is a report's error, saying so when its time ran out.
func reportErr(ctx context.Context, what string, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("sqlbooks: %s took longer than %s: %w", what, ReportTimeout, ctx.Err())
	}
	return fmt.Errorf("sqlbooks: %s: %w", what, err)
}

// limitOffset is a page's LIMIT and OFFSET written into the statement.
// SQLite plans a literal limit far better than a bound one: a week's sales
// by product, grouped with window totals, ran 2.7 times slower with "LIMIT
// ? OFFSET ?". Both are ints, never text; a negative one reads as none.
func limitOffset(p reports.Page) string {
	return " LIMIT " + strconv.Itoa(max(p.Limit, 0)) + " OFFSET " + strconv.Itoa(max(p.Offset, 0))
}

func anys(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
