package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/audit"
)

// AppendAudit writes entries in order, in a group commit with the other
// small writes of the moment: it returns once they are committed. An
// entry whose detail is not JSON is refused, with an error, and the
// others are written.
func (s *Store) AppendAudit(ctx context.Context, es ...audit.Entry) error {
	rows, err := s.auditRows(es)
	if len(rows) > 0 {
		// Up to auditChunk entries are one INSERT, which needs no
		// transaction of its own (groupLone).
		write := func(ctx context.Context, db statements) error { return insertAudit(ctx, db, rows) }
		err = errors.Join(err, s.enqueue(ctx, write, len(rows) <= auditChunk))
	}
	return err
}

// auditRows encodes entries, leaving out (with an error) those whose
// detail is not JSON.
func (s *Store) auditRows(es []audit.Entry) ([]auditRow, error) {
	rows := make([]auditRow, 0, len(es))
	var errs []error
	for _, e := range es {
		r, err := s.encodeAudit(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rows = append(rows, r)
	}
	return rows, errors.Join(errs...)
}

// auditChunk bounds the rows of one INSERT: five parameters a row stay
// far below either engine's limit on a statement's parameters.
const auditChunk = 64

// insertAudit writes rows in order, a message's few entries in one
// statement rather than one statement each: on either engine a
// statement's round trip costs more than a row.
func insertAudit(ctx context.Context, db execer, rows []auditRow) error {
	for chunk := range slices.Chunk(rows, auditChunk) {
		q, args := auditInsert(chunk, nil)
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("sqlbooks: audit: %w", err)
		}
	}
	return nil
}

// auditInsert is the one INSERT of rows (at most auditChunk), its
// arguments appended to args.
func auditInsert(rows []auditRow, args []any) (string, []any) {
	q := `INSERT INTO audit_log (at, actor, kind, subject, detail) VALUES (?, ?, ?, ?, ?)` +
		strings.Repeat(", (?, ?, ?, ?, ?)", len(rows)-1)
	for _, r := range rows {
		args = append(args, r.at, r.actor, r.kind, r.subject, r.detail)
	}
	return q, args
}

// heldFirst has fn commit first the audit entries that ctx holds for its
// message (audit.Hold): a message's entries are committed no later than
// the first change it makes to the books, and before what that change
// writes to the log. unsaved writes them on their own after a
// transaction that failed (not after a COMMIT of unknown outcome).
func (s *Store) heldFirst(ctx context.Context, fn func(*dbTx) error) (withHeld func(*dbTx) error, unsaved func(error)) {
	held := audit.TakeHeld(ctx)
	if len(held) == 0 {
		return fn, func(error) {}
	}
	rows, _ := s.auditRows(held) // the log holds only what encodes
	return func(tx *dbTx) error {
			if err := insertAudit(ctx, tx, rows); err != nil {
				return err
			}
			return fn(tx)
		}, func(err error) {
			if ce := (commitError{}); err != nil && !errors.As(err, &ce) {
				s.AppendAudit(context.WithoutCancel(ctx), held...)
			}
		}
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// appendAudit writes one audit entry in db, a caller's transaction.
func (s *Store) appendAudit(ctx context.Context, db execer, e audit.Entry) error {
	row, err := s.encodeAudit(e)
	if err != nil {
		return err
	}
	return row.insert(ctx, db)
}

// auditRow is an audit entry as it is stored.
type auditRow struct{ at, actor, kind, subject, detail string }

// encodeAudit is e as it is stored, at the store's clock when e has no time.
func (s *Store) encodeAudit(e audit.Entry) (auditRow, error) {
	detail, err := json.Marshal(e.Detail)
	if err != nil {
		return auditRow{}, fmt.Errorf("sqlbooks: audit: %w", err)
	}
	if e.At.IsZero() {
		e.At = s.Now()
	}
	return auditRow{formatTime(e.At), e.Actor, e.Kind, e.Subject, string(detail)}, nil
}

func (r auditRow) insert(ctx context.Context, db execer) error {
	return insertAudit(ctx, db, []auditRow{r})
}

// AuditEntries returns the entries of a kind ("" for all) in order.
func (s *Store) AuditEntries(ctx context.Context, kind string) ([]audit.Entry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, at, actor, kind, subject, detail FROM audit_log
		WHERE ? = '' OR kind = ? ORDER BY id`, kind, kind)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: audit entries: %w", err)
	}
	defer rows.Close()
	var out []audit.Entry
	for rows.Next() {
		var e audit.Entry
		var at, detail string
		if err := rows.Scan(&e.ID, &at, &e.Actor, &e.Kind, &e.Subject, &detail); err != nil {
			return nil, fmt.Errorf("sqlbooks: audit entries: %w", err)
		}
		e.At = parseTime(at)
		if err := json.Unmarshal([]byte(detail), &e.Detail); err != nil {
			return nil, fmt.Errorf("sqlbooks: audit entry %d: %w", e.ID, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
