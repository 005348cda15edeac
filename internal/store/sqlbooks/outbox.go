package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

// outboxColumns are the columns scanOutbox reads, in its order.
const outboxColumns = `id, kind, recipient, payload, attempts, subject, tell_on_failure, created_at, COALESCE(held_since, ''),
	lease_until IS NOT NULL`

// scanOutbox reads outboxColumns into m, then any further columns into rest.
func scanOutbox(scan func(...any) error, m *outbox.Message, rest ...any) error {
	var payload, created, heldSince string
	dest := append([]any{&m.ID, &m.Kind, &m.To, &payload, &m.Attempts, &m.About, &m.TellOnFailure,
		&created, &heldSince, &m.InDoubt}, rest...)
	if err := scan(dest...); err != nil {
		return err
	}
	m.Payload, m.CreatedAt, m.HeldSince = []byte(payload), parseTime(created), parseTime(heldSince)
	return nil
}

// Enqueue adds effects to the outbox in one transaction.
func (s *Store) Enqueue(ctx context.Context, effects ...domain.Effect) error {
	err := s.inTx(ctx, func(tx *dbTx) error { return s.enqueueTx(ctx, tx, effects...) })
	if err != nil {
		return fmt.Errorf("sqlbooks: enqueue: %w", err)
	}
	return nil
}

// enqueueTx writes effects as they are: the store keeps their kind,
// recipient and payload without knowing what any kind means.
func (s *Store) enqueueTx(ctx context.Context, tx *dbTx, effects ...domain.Effect) error {
	now := formatTime(s.Now())
	for _, e := range effects {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (kind, recipient, payload, subject, tell_on_failure,
			next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			e.Kind, e.To, string(e.Payload), e.About, e.TellOnFailure, now, now); err != nil {
			return err
		}
	}
	return nil
}

// ClaimDue leases up to limit pending messages whose time has come. A lease
// that runs out (the process died mid-send) makes the message due again, so
// a restart loses nothing.
func (s *Store) ClaimDue(ctx context.Context, limit int, lease time.Duration) ([]outbox.Message, error) {
	now := s.Now()
	var out []outbox.Message
	err := s.inTx(ctx, func(tx *dbTx) error {
		out = out[:0]
		rows, err := tx.QueryContext(ctx, `SELECT `+outboxColumns+` FROM outbox
			WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY id LIMIT ?`+s.e.skipLocked(), formatTime(now), formatTime(now), limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var m outbox.Message
			if err := scanOutbox(rows.Scan, &m); err != nil {
				rows.Close()
				return err
			}
			out = append(out, m)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, m := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE outbox SET lease_until = ? WHERE id = ?`, formatTime(now.Add(lease)), m.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: claim outbox: %w", err)
	}
	return out, nil
}

// ProviderIDKnown reports whether a message was recorded sent under the
// provider's id.
func (s *Store) ProviderIDKnown(ctx context.Context, providerID string) (bool, error) {
	var known bool
	if err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM outbox WHERE provider_id = ?)`, providerID).Scan(&known); err != nil {
		return false, fmt.Errorf("sqlbooks: provider id %s: %w", providerID, err)
	}
	return known, nil
}

// MarkSent records a delivery to the provider, with the provider's id.
func (s *Store) MarkSent(ctx context.Context, id int64, providerID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET status = 'sent', attempts = attempts + 1, provider_id = ?,
		sent_at = ?, lease_until = NULL, last_error = '', held_reason = '', held_since = NULL WHERE id = ?`,
		providerID, formatTime(s.Now()), id)
	if err != nil {
		return fmt.Errorf("sqlbooks: mark sent %d: %w", id, err)
	}
	return nil
}

// MarkRetry records a failed attempt and when to try again.
func (s *Store) MarkRetry(ctx context.Context, id int64, reason string, next time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,
		lease_until = NULL, held_reason = '', held_since = NULL WHERE id = ?`, reason, formatTime(next), id)
	if err != nil {
		return fmt.Errorf("sqlbooks: mark retry %d: %w", id, err)
	}
	return nil
}

// MarkHeld records that the message could not be sent for a reason that is
// not its own (held says why), and when to try again. It stays pending and
// the attempt does not count.
func (s *Store) MarkHeld(ctx context.Context, id int64, held, lastError string, next time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET held_reason = ?, held_since = COALESCE(held_since, ?),
		last_error = ?, next_attempt_at = ?, lease_until = NULL WHERE id = ?`,
		held, formatTime(s.Now()), lastError, formatTime(next), id)
	if err != nil {
		return fmt.Errorf("sqlbooks: mark held %d: %w", id, err)
	}
	return nil
}

// MarkFailed gives a pending message up for good and, in the same
// transaction, enqueues the notices that say so. It reports false, and
// enqueues nothing, when the message was no longer pending.
func (s *Store) MarkFailed(ctx context.Context, id int64, reason string, notices ...domain.Effect) (bool, error) {
	failed := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		failed = false
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?,
			lease_until = NULL, held_reason = '', held_since = NULL WHERE id = ? AND status = 'pending'`, reason, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		failed = true
		return s.enqueueTx(ctx, tx, notices...)
	})
	if err != nil {
		return false, fmt.Errorf("sqlbooks: mark failed %d: %w", id, err)
	}
	return failed, nil
}

// ReleaseHeld makes every held message of the given kinds (of every kind
// when none is given) due now, and returns how many there were.
func (s *Store) ReleaseHeld(ctx context.Context, kinds ...string) (int, error) {
	q := `UPDATE outbox SET next_attempt_at = ? WHERE status = 'pending' AND held_reason <> ''`
	args := []any{formatTime(s.Now())}
	if len(kinds) > 0 {
		q += ` AND kind IN (` + placeholders(len(kinds)) + `)`
		for _, k := range kinds {
			args = append(args, k)
		}
	}
	res, err := s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("sqlbooks: release held: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// OutboxDepth counts the messages not yet sent.
func (s *Store) OutboxDepth(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE status = 'pending'`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlbooks: outbox depth: %w", err)
	}
	return n, nil
}

// OutboxMessages lists every outbox message in order.
func (s *Store) OutboxMessages(ctx context.Context) ([]outbox.Status, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+outboxColumns+`, status, last_error, held_reason,
		provider_id, delivery_status FROM outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: outbox messages: %w", err)
	}
	defer rows.Close()
	var out []outbox.Status
	for rows.Next() {
		var m outbox.Status
		if err := scanOutbox(rows.Scan, &m.Message, &m.Status, &m.LastError, &m.HeldReason, &m.ProviderID,
			&m.DeliveryStatus); err != nil {
			return nil, fmt.Errorf("sqlbooks: outbox messages: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// deliveryRank orders Twilio's message statuses so that a callback arriving
// late ("sent" after "delivered") does not move a message backwards.
var deliveryRank = map[string]int{
	"accepted": 1, "scheduled": 1, "queued": 2, "sending": 3, "sent": 4,
	"delivered": 5, "read": 6, "undelivered": 7, "failed": 7, "canceled": 7,
}

// RecordDeliveryStatus stores a status callback and updates the outbox
// message the provider id belongs to, if any.
func (s *Store) RecordDeliveryStatus(ctx context.Context, messageSID, status, errorCode string) error {
	err := s.inTx(ctx, func(tx *dbTx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO message_statuses (message_sid, status, error_code, received_at)
			VALUES (?, ?, ?, ?)`, messageSID, status, errorCode, formatTime(s.Now())); err != nil {
			return err
		}
		var current string
		err := tx.QueryRowContext(ctx, `SELECT delivery_status FROM outbox WHERE provider_id = ? AND provider_id <> ''`, messageSID).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		if deliveryRank[status] < deliveryRank[current] {
			return nil
		}
		// provider_id <> '' keeps an empty SID from touching every unsent
		// message, and lets SQLite use the partial index outbox_provider.
		_, err = tx.ExecContext(ctx, `UPDATE outbox SET delivery_status = ? WHERE provider_id = ? AND provider_id <> ''`,
			status, messageSID)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: record delivery status: %w", err)
	}
	return nil
}
