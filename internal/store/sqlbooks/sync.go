package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
)

// The books as an ERP keeps them (migration 0015). Each Sync* call is one
// writing transaction: the rows, the entity's state, the figures the rows
// set (stock, dues) marked as the ERP's, and the settling of the
// provisional entries (provisional.go) the rows show; a bad row (an
// unknown customer, a key twice in the batch) refuses it all, and the
// entity keeps its previous state.
//
// A field the ERP gives empty (aliases, pack sizes, phone, segment,
// payment modes, a zero credit limit) keeps what the books hold: a
// mapping need not name it, and the chat's vocabulary and credit rules
// depend on it.

var _ erpsync.Books = (*Store)(nil)

// Where an order of the ERP's came from, in orders.erp_entity.
const (
	erpSales      = "sales"
	erpOpenOrders = "open_orders"
)

// syncWrite runs one write of a sync in a transaction: fn's rows, then the
// figures in owns marked as the ERP's as of the batch, then the entity's
// state.
func (s *Store) syncWrite(ctx context.Context, what string, b erpsync.Batch, owns []erpsync.Figure, fn func(tx *dbTx) error) error {
	entity := b.Entity
	if entity == "" {
		entity = b.State.Entity
	}
	if entity == "" {
		return domain.Errorf(domain.EINVALID, "sqlbooks: %s: the batch names no entity", what)
	}
	err := s.inTx(ctx, func(tx *dbTx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if err := s.ownFigures(ctx, tx, owns, b.State); err != nil {
			return err
		}
		return putState(ctx, tx, entity, b.State)
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: %s: %w", what, err)
	}
	return nil
}

// ownFigures marks figures as the ERP's, as of the batch's state.
func (s *Store) ownFigures(ctx context.Context, tx *dbTx, figures []erpsync.Figure, st erpsync.State) error {
	now := s.Now()
	asOf := st.LastGood
	if asOf.IsZero() {
		asOf = st.LastRun
	}
	if asOf.IsZero() {
		asOf = now
	}
	for _, f := range figures {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sync_figures (figure, owned_since, synced_at) VALUES (?, ?, ?)
			ON CONFLICT(figure) DO UPDATE SET synced_at = excluded.synced_at`, string(f), formatTime(now), formatTime(asOf)); err != nil {
			return fmt.Errorf("figure %s: %w", f, err)
		}
	}
	return nil
}

func putState(ctx context.Context, tx *dbTx, e erpsync.Entity, st erpsync.State) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO sync_states (entity, watermark, last_run, last_good, rows, last_error, failures)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(entity) DO UPDATE SET watermark = excluded.watermark, last_run = excluded.last_run,
			last_good = excluded.last_good, rows = excluded.rows, last_error = excluded.last_error, failures = excluded.failures`,
		string(e), st.Watermark, nullTime(st.LastRun), nullTime(st.LastGood), st.Rows, st.LastError, st.Failures)
	if err != nil {
		return fmt.Errorf("state of %s: %w", e, err)
	}
	return nil
}

// figuresFor is the figure among owns that an entity's rows may set.
func figuresFor(owns []erpsync.Figure, f erpsync.Figure) []erpsync.Figure {
	if slices.Contains(owns, f) {
		return []erpsync.Figure{f}
	}
	return nil
}

// distinct refuses a batch with an empty key or a key twice.
func distinct(what string, keys []string) error {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		switch {
		case k == "":
			return domain.Errorf(domain.EINVALID, "a %s without its key", what)
		case seen[k]:
			return domain.Errorf(domain.EINVALID, "%s %s is in the batch twice", what, k)
		}
		seen[k] = true
	}
	return nil
}

// jsonList is keys as the JSON array engine.jsonStrings reads.
func jsonList(keys []string) string {
	if keys == nil {
		keys = []string{}
	}
	b, _ := json.Marshal(keys)
	return string(b)
}

// SyncStates returns every entity's state, in run order.
func (s *Store) SyncStates(ctx context.Context) ([]erpsync.State, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT entity, watermark, last_run, last_good, rows, last_error, failures FROM sync_states`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: sync states: %w", err)
	}
	defer rows.Close()
	var out []erpsync.State
	for rows.Next() {
		var st erpsync.State
		var entity string
		var run, good sql.NullString
		if err := rows.Scan(&entity, &st.Watermark, &run, &good, &st.Rows, &st.LastError, &st.Failures); err != nil {
			return nil, fmt.Errorf("sqlbooks: sync states: %w", err)
		}
		st.Entity, st.LastRun, st.LastGood = erpsync.Entity(entity), parseTime(run.String), parseTime(good.String)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlbooks: sync states: %w", err)
	}
	rank := func(e erpsync.Entity) int {
		if i := slices.Index(erpsync.Entities, e); i >= 0 {
			return i
		}
		return len(erpsync.Entities)
	}
	slices.SortFunc(out, func(a, b erpsync.State) int {
		if d := rank(a.Entity) - rank(b.Entity); d != 0 {
			return d
		}
		return strings.Compare(string(a.Entity), string(b.Entity))
	})
	return out, nil
}

// RecordSyncFailure notes a failed run and writes nothing else: the
// watermark, the last good run and its rows stay.
func (s *Store) RecordSyncFailure(ctx context.Context, e erpsync.Entity, at time.Time, reason string) error {
	err := s.inTx(ctx, func(tx *dbTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sync_states (entity, last_run, last_error, failures) VALUES (?, ?, ?, 1)
			ON CONFLICT(entity) DO UPDATE SET last_run = excluded.last_run, last_error = excluded.last_error,
				failures = sync_states.failures + 1`, string(e), formatTime(at), reason)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: record sync failure of %s: %w", e, err)
	}
	return nil
}

// settleTime is when a settlement happens: the run's time, else now.
func (s *Store) settleTime(st erpsync.Settle) time.Time {
	if st.Now.IsZero() {
		return s.Now()
	}
	return st.Now
}

func knownCustomer(ctx context.Context, tx *dbTx, id, what string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM customers WHERE id = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.EINVALID, "%s names customer %q, whom the books do not hold", what, id)
	}
	return nil
}

func knownProduct(ctx context.Context, tx *dbTx, sku, what string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM products WHERE sku = ?`, sku).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.EINVALID, "%s names product %q, which the books do not hold", what, sku)
	}
	return nil
}
