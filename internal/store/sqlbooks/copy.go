package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/munshi/munshi/internal/store/pgadmin"
)

// bookTables are every table of the books, parents before the rows that
// refer to them.
var bookTables = []string{
	"products", "customers", "users", "orders", "order_lines", "payments",
	"inbound_messages", "refusals", "outbox", "message_statuses", "audit_log",
	"drafts", "counters", "proposals", "digest_sends", "digest_editions",
	"sync_states", "sync_figures", "bills", "receipts", "provisional",
	"handoffs", "handoff_messages",
}

// TableCopy is what one table held in the source and holds in the copy.
type TableCopy struct {
	Table      string
	Rows, Kept int64
	// Money is the sum of every paise column, in the source and the copy.
	Money, KeptMoney int64
}

// copyBatch bounds the rows of one INSERT, well inside PostgreSQL's
// 65,535 parameters.
const copyBatch = 500

// CopyTo copies every row of s into dst, whose books must be empty, in
// one transaction of dst read from one snapshot of s, in the order the
// rows were written; then it counts both again. It returns each table's
// rows and money in both, and an error if any differ.
func (s *Store) CopyTo(ctx context.Context, dst *Store) ([]TableCopy, error) {
	if empty, err := dst.booksEmpty(ctx); err != nil {
		return nil, fmt.Errorf("sqlbooks: copy: %w", err)
	} else if !empty {
		return nil, errors.New("sqlbooks: copy: the destination already holds books: copy only into an empty database")
	}
	src, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: copy: %w", err)
	}
	defer src.Rollback()
	var out []TableCopy
	err = dst.inTx(ctx, func(tx *dbTx) error {
		out = out[:0]
		for _, table := range bookTables {
			c, err := copyTable(ctx, src, tx, dst.e, table)
			if err != nil {
				return fmt.Errorf("%s: %w", table, err)
			}
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: copy: %w", err)
	}
	var bad []string
	for i, c := range out {
		rows, money, err := dst.tally(ctx, dst.read, c.Table)
		if err != nil {
			return out, fmt.Errorf("sqlbooks: copy: count %s: %w", c.Table, err)
		}
		out[i].Kept, out[i].KeptMoney = rows, money
		if rows != c.Rows || money != c.Money {
			bad = append(bad, fmt.Sprintf("%s (%d rows, %d paise; copied %d rows, %d paise)", c.Table, c.Rows, c.Money, rows, money))
		}
	}
	if bad != nil {
		return out, fmt.Errorf("sqlbooks: copy: the copy does not match: %s", strings.Join(bad, ", "))
	}
	return out, nil
}

// booksEmpty reports whether no table of the books holds a row, counters
// aside (a new database starts them at their first values).
func (s *Store) booksEmpty(ctx context.Context) (bool, error) {
	for _, t := range bookTables {
		if t == "counters" {
			continue
		}
		var any bool
		if err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+t+`)`).Scan(&any); err != nil {
			return false, err
		}
		if any {
			return false, nil
		}
	}
	return true, nil
}

// copyTable copies one table's rows from src into dst, the columns both
// hold by name (a column only the destination has, such as its own write
// order, it fills itself), and returns what the source held.
func copyTable(ctx context.Context, src, dst *dbTx, de *engine, table string) (TableCopy, error) {
	c := TableCopy{Table: table}
	cols, err := columns(ctx, dst, de, table)
	if err != nil {
		return c, err
	}
	have, err := columns(ctx, src, src.e, table)
	if err != nil {
		return c, err
	}
	cols = shared(cols, have)
	if table == "counters" {
		if _, err := dst.ExecContext(ctx, `DELETE FROM counters`); err != nil {
			return c, err
		}
	}
	rows, err := src.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+table+` ORDER BY `+src.e.writeOrder(table))
	if err != nil {
		return c, err
	}
	defer rows.Close()
	var batch []any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n := len(batch) / len(cols)
		row := "(" + placeholders(len(cols)) + ")"
		q := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` + strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
		_, err := dst.ExecContext(ctx, q, batch...)
		batch = batch[:0]
		return err
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return c, err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
			if moneyColumn(cols[i]) {
				if n, ok := vals[i].(int64); ok {
					c.Money += n
				}
			}
		}
		c.Rows++
		batch = append(batch, vals...)
		if len(batch) >= copyBatch*len(cols) {
			if err := flush(); err != nil {
				return c, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return c, err
	}
	if err := flush(); err != nil {
		return c, err
	}
	return c, de.afterCopy(ctx, dst, table)
}

// moneyColumn reports whether a column holds paise: what a copy must keep to
// the paisa.
func moneyColumn(col string) bool { return strings.HasSuffix(col, "_paise") }

// shared is the columns of want that have holds too, in want's order.
func shared(want, have []string) []string {
	var out []string
	for _, c := range want {
		if slices.Contains(have, c) {
			out = append(out, c)
		}
	}
	return out
}

// columns lists a table's columns that a copy writes: not those the
// engine fills itself.
func columns(ctx context.Context, q querier, e *engine, table string) ([]string, error) {
	var query string
	if e.postgres() {
		query = `SELECT column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = ?
				AND (is_identity = 'NO' OR identity_generation = 'BY DEFAULT')
			ORDER BY ordinal_position`
	} else {
		query = `SELECT name FROM pragma_table_info(?) ORDER BY cid`
	}
	out, err := stringsOf(ctx, q, query, table)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no such table")
	}
	return out, nil
}

// tally counts a table's rows and sums its paise columns.
func (s *Store) tally(ctx context.Context, q querier, table string) (rows, money int64, err error) {
	cols, err := columns(ctx, q, s.e, table)
	if err != nil {
		return 0, 0, err
	}
	sum := "0"
	for _, c := range cols {
		if moneyColumn(c) {
			sum += " + COALESCE(SUM(" + c + "), 0)"
		}
	}
	err = q.QueryRowContext(ctx, `SELECT COUNT(*), `+sum+` FROM `+table).Scan(&rows, &money)
	return rows, money, err
}

// writeOrder orders a table's rows as they were written.
func (e *engine) writeOrder(table string) string {
	if e.postgres() {
		switch table {
		case "products", "orders", "inbound_messages", "drafts", "proposals":
			return "seq"
		case "payments", "outbox", "message_statuses", "audit_log", "provisional", "handoffs", "handoff_messages":
			return "id"
		}
		return "1"
	}
	switch table {
	case "refusals", "digest_sends", "digest_editions", "sync_states", "sync_figures": // WITHOUT ROWID
		return "1"
	}
	return "rowid"
}

// afterCopy moves PostgreSQL's id sequence of table past the ids copied
// in, so the next row written takes the next id.
func (e *engine) afterCopy(ctx context.Context, tx *dbTx, table string) error {
	if !e.postgres() {
		return nil
	}
	switch table {
	case "payments", "outbox", "message_statuses", "audit_log", "provisional", "handoffs", "handoff_messages":
		_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+table+`', 'id'), COALESCE((SELECT MAX(id) FROM `+table+`), 0) + 1, false)`)
		return err
	}
	return nil
}

// backupPostgres copies the books into a new database that dst names,
// on the same or another server: it creates the database, migrates it and
// copies every row from one snapshot.
func backupPostgres(ctx context.Context, s *Store, dst string) error {
	cfg, err := pgx.ParseConfig(dst)
	if err != nil {
		return errors.New("sqlbooks: backup: the address of the copy does not parse")
	}
	if err := pgadmin.CreateDatabase(ctx, dst); err != nil {
		return fmt.Errorf("sqlbooks: backup: %w", err)
	}
	copyTo, err := OpenPostgres(ctx, dst, PoolSize(2))
	if err != nil {
		return fmt.Errorf("sqlbooks: backup: %w", err)
	}
	defer copyTo.Close()
	if _, err := s.CopyTo(ctx, copyTo); err != nil {
		return fmt.Errorf("sqlbooks: backup to %q: %w", cfg.Database, err)
	}
	return nil
}
