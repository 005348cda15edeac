package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/munshi/munshi/internal/audit"
)

// AppendAudit writes one audit entry.
func (s *Store) AppendAudit(ctx context.Context, e audit.Entry) error {
	return s.appendAudit(ctx, s.db, e)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Store) appendAudit(ctx context.Context, db execer, e audit.Entry) error {
	detail, err := json.Marshal(e.Detail)
	if err != nil {
		return fmt.Errorf("sqlbooks: audit: %w", err)
	}
	if e.At.IsZero() {
		e.At = s.Now()
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO audit_log (at, actor, kind, subject, detail) VALUES (?, ?, ?, ?, ?)`,
		formatTime(e.At), e.Actor, e.Kind, e.Subject, string(detail)); err != nil {
		return fmt.Errorf("sqlbooks: audit: %w", err)
	}
	return nil
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
