package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

// ClaimDelivery records a digest delivery and enqueues its effects in one
// transaction; false, with nothing written, when it was claimed before.
func (s *Store) ClaimDelivery(ctx context.Context, d briefing.Delivery, held *domain.Effect, effects ...domain.Effect) (bool, error) {
	status, kind, payload, about := "sent", "", "", ""
	if held != nil {
		status, kind, payload, about = "held", held.Kind, string(held.Payload), held.About
	}
	claimed := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		claimed = false
		res, err := tx.ExecContext(ctx, `INSERT INTO digest_sends (digest_date, recipient, channel, status,
			held_kind, held_payload, held_about, claimed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`,
			d.Date, d.Recipient, d.Channel, status, kind, payload, about, formatTime(s.Now()))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		claimed = true
		return s.enqueueTx(ctx, tx, effects...)
	})
	if err != nil {
		return false, fmt.Errorf("sqlbooks: claim digest %s for %s by %s: %w", d.Date, d.Recipient, d.Channel, err)
	}
	return claimed, nil
}

// HoldDelivery turns a sent delivery into one held for the recipient's
// next message, and enqueues effects, in one transaction.
func (s *Store) HoldDelivery(ctx context.Context, d briefing.Delivery, held domain.Effect, effects ...domain.Effect) (bool, error) {
	done := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		done = false
		res, err := tx.ExecContext(ctx, `UPDATE digest_sends SET status = 'held', held_kind = ?, held_payload = ?,
			held_about = ? WHERE digest_date = ? AND recipient = ? AND channel = ? AND status = 'sent'`,
			held.Kind, string(held.Payload), held.About, d.Date, d.Recipient, d.Channel)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		done = true
		return s.enqueueTx(ctx, tx, effects...)
	})
	if err != nil {
		return false, fmt.Errorf("sqlbooks: hold digest %s for %s: %w", d.Date, d.Recipient, err)
	}
	return done, nil
}

// ReleaseDigests enqueues what is held for recipient in deliveries claimed at
// or after since, each once however many messages race to release it.
// Every message a person sends asks, and almost always nothing is held:
// that is read first, without taking the writer.
func (s *Store) ReleaseDigests(ctx context.Context, recipient string, since time.Time) (int, error) {
	var held bool
	if err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM digest_sends
		WHERE recipient = ? AND status = 'held' AND claimed_at >= ?)`, recipient, formatTime(since)).Scan(&held); err != nil {
		return 0, fmt.Errorf("sqlbooks: held digests for %s: %w", recipient, err)
	}
	if !held {
		return 0, nil
	}
	released := 0
	err := s.inTx(ctx, func(tx *dbTx) error {
		released = 0
		rows, err := tx.QueryContext(ctx, `SELECT digest_date, channel, held_kind, held_payload, held_about
			FROM digest_sends WHERE recipient = ? AND status = 'held' AND claimed_at >= ?
			ORDER BY digest_date, channel`, recipient, formatTime(since))
		if err != nil {
			return err
		}
		type heldRow struct {
			date, channel string
			effect        domain.Effect
		}
		var held []heldRow
		for rows.Next() {
			var h heldRow
			var payload string
			if err := rows.Scan(&h.date, &h.channel, &h.effect.Kind, &payload, &h.effect.About); err != nil {
				rows.Close()
				return err
			}
			h.effect.To, h.effect.Payload = recipient, []byte(payload)
			held = append(held, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		now := formatTime(s.Now())
		for _, h := range held {
			if _, err := tx.ExecContext(ctx, `UPDATE digest_sends SET status = 'released', released_at = ?
				WHERE digest_date = ? AND recipient = ? AND channel = ? AND status = 'held'`,
				now, h.date, recipient, h.channel); err != nil {
				return err
			}
			if err := s.enqueueTx(ctx, tx, h.effect); err != nil {
				return err
			}
			released++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlbooks: release held digests for %s: %w", recipient, err)
	}
	return released, nil
}

// Deliveries counts the digest deliveries claimed for a date.
func (s *Store) Deliveries(ctx context.Context, date string) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM digest_sends WHERE digest_date = ?`, date).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlbooks: digest deliveries of %s: %w", date, err)
	}
	return n, nil
}

// LastInbound is when phone last wrote, from the inbound record.
func (s *Store) LastInbound(ctx context.Context, phone string) (time.Time, bool, error) {
	var last sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT MAX(received_at) FROM inbound_messages WHERE sender = ?`, phone).Scan(&last)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("sqlbooks: last inbound: %w", err)
	}
	if !last.Valid {
		return time.Time{}, false, nil
	}
	return parseTime(last.String), true, nil
}

// SentMessage is the outbox message the provider knows by providerID.
func (s *Store) SentMessage(ctx context.Context, providerID string) (outbox.Message, bool, error) {
	var m outbox.Message
	if providerID == "" {
		return m, false, nil
	}
	err := scanOutbox(s.read.QueryRowContext(ctx, `SELECT `+outboxColumns+` FROM outbox
		WHERE provider_id = ? AND provider_id <> ''`, providerID).Scan, &m)
	if errors.Is(err, sql.ErrNoRows) {
		return m, false, nil
	} else if err != nil {
		return m, false, fmt.Errorf("sqlbooks: sent message: %w", err)
	}
	return m, true, nil
}
