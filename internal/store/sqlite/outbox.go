package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Outbox kinds.
const (
	KindWhatsApp = "whatsapp"
	KindEmail    = "email"
)

// OutboxMessage is one side effect waiting to be sent. Payload is the
// sender's JSON; the store does not look inside it.
type OutboxMessage struct {
	ID        int64
	Kind      string
	Recipient string
	Payload   []byte
	Attempts  int
}

// Enqueue adds messages to the outbox in one transaction.
func (s *Store) Enqueue(ctx context.Context, msgs ...OutboxMessage) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error { return s.enqueueTx(ctx, tx, msgs...) })
	if err != nil {
		return fmt.Errorf("sqlite: enqueue: %w", err)
	}
	return nil
}

func (s *Store) enqueueTx(ctx context.Context, tx *sql.Tx, msgs ...OutboxMessage) error {
	now := formatTime(s.Now())
	for _, m := range msgs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (kind, recipient, payload, next_attempt_at, created_at)
			VALUES (?, ?, ?, ?, ?)`, m.Kind, m.Recipient, string(m.Payload), now, now); err != nil {
			return err
		}
	}
	return nil
}

// ClaimDue leases up to limit pending messages whose time has come. A lease
// that runs out (the process died mid-send) makes the message due again, so
// a restart loses nothing.
func (s *Store) ClaimDue(ctx context.Context, limit int, lease time.Duration) ([]OutboxMessage, error) {
	now := s.Now()
	var out []OutboxMessage
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, kind, recipient, payload, attempts FROM outbox
			WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY id LIMIT ?`, formatTime(now), formatTime(now), limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			var m OutboxMessage
			var payload string
			if err := rows.Scan(&m.ID, &m.Kind, &m.Recipient, &payload, &m.Attempts); err != nil {
				rows.Close()
				return err
			}
			m.Payload = []byte(payload)
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
		return nil, fmt.Errorf("sqlite: claim outbox: %w", err)
	}
	return out, nil
}

// MarkSent records a delivery to the provider, with the provider's id.
func (s *Store) MarkSent(ctx context.Context, id int64, providerID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET status = 'sent', attempts = attempts + 1, provider_id = ?,
		sent_at = ?, lease_until = NULL, last_error = '' WHERE id = ?`, providerID, formatTime(s.Now()), id)
	if err != nil {
		return fmt.Errorf("sqlite: mark sent %d: %w", id, err)
	}
	return nil
}

// MarkRetry records a failed attempt and when to try again; with giveUp the
// message is marked failed for good.
func (s *Store) MarkRetry(ctx context.Context, id int64, reason string, next time.Time, giveUp bool) error {
	status := "pending"
	if giveUp {
		status = "failed"
	}
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = ?,
		next_attempt_at = ?, lease_until = NULL WHERE id = ?`, status, reason, formatTime(next), id)
	if err != nil {
		return fmt.Errorf("sqlite: mark retry %d: %w", id, err)
	}
	return nil
}

// OutboxDepth counts the messages not yet sent.
func (s *Store) OutboxDepth(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE status = 'pending'`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: outbox depth: %w", err)
	}
	return n, nil
}

// OutboxStatus is how one outbox message stands, for tests and operators.
type OutboxStatus struct {
	OutboxMessage
	Status         string
	LastError      string
	ProviderID     string
	DeliveryStatus string
}

// OutboxMessages lists every outbox message in order.
func (s *Store) OutboxMessages(ctx context.Context) ([]OutboxStatus, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, kind, recipient, payload, attempts, status, last_error,
		provider_id, delivery_status FROM outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: outbox messages: %w", err)
	}
	defer rows.Close()
	var out []OutboxStatus
	for rows.Next() {
		var m OutboxStatus
		var payload string
		if err := rows.Scan(&m.ID, &m.Kind, &m.Recipient, &payload, &m.Attempts, &m.Status, &m.LastError,
			&m.ProviderID, &m.DeliveryStatus); err != nil {
			return nil, fmt.Errorf("sqlite: outbox messages: %w", err)
		}
		m.Payload = []byte(payload)
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
	err := s.inTx(ctx, func(tx *sql.Tx) error {
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
		return fmt.Errorf("sqlite: record delivery status: %w", err)
	}
	return nil
}
