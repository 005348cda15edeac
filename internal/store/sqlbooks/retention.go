package sqlbooks

import (
	"context"
	"fmt"
	"time"
)

// sweepBatch bounds the rows one DELETE removes, so that a sweep of a
// large backlog never holds the writer for long.
const sweepBatch = 1000

// refusalMemory is how long the day of an unknown number's last refusal is
// kept: it only matters on that day.
const refusalMemory = 48 * time.Hour

// SweepInbound deletes the inbound records received before cutoff that
// were answered or closed (an unanswered one is the recovery job's), the
// handoffs closed before it with their messages, and the refusal days
// that can no longer be today. It returns how many
// inbound records went.
func (s *Store) SweepInbound(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := s.deleteInBatches(ctx, `DELETE FROM inbound_messages WHERE `+s.e.seq()+` IN (SELECT `+s.e.seq()+` FROM inbound_messages
		WHERE received_at < ? AND reply IS NOT NULL LIMIT ?)`, formatTime(cutoff))
	if err != nil {
		return n, fmt.Errorf("sqlbooks: sweep inbound messages: %w", err)
	}
	if _, err := s.deleteInBatches(ctx, `DELETE FROM refusals WHERE phone IN (SELECT phone FROM refusals
		WHERE refused_at < ? LIMIT ?)`, formatTime(s.Now().Add(-refusalMemory))); err != nil {
		return n, fmt.Errorf("sqlbooks: sweep refusals: %w", err)
	}
	// A handoff holds the conversation's messages: it goes with them once
	// it was closed before cutoff. An open one is never swept.
	if _, err := s.deleteInBatches(ctx, `DELETE FROM handoff_messages WHERE id IN (SELECT m.id FROM handoff_messages m
		JOIN handoffs h ON h.id = m.handoff_id WHERE h.status = 'closed' AND h.closed_at < ? LIMIT ?)`, formatTime(cutoff)); err != nil {
		return n, fmt.Errorf("sqlbooks: sweep handoff messages: %w", err)
	}
	if _, err := s.deleteInBatches(ctx, `DELETE FROM handoffs WHERE id IN (SELECT id FROM handoffs h
		WHERE status = 'closed' AND closed_at < ? AND NOT EXISTS (SELECT 1 FROM handoff_messages m WHERE m.handoff_id = h.id) LIMIT ?)`,
		formatTime(cutoff)); err != nil {
		return n, fmt.Errorf("sqlbooks: sweep handoffs: %w", err)
	}
	return n, nil
}

// SweepAudit deletes the audit entries written before cutoff.
func (s *Store) SweepAudit(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := s.deleteInBatches(ctx, `DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log
		WHERE at < ? LIMIT ?)`, formatTime(cutoff))
	if err != nil {
		return n, fmt.Errorf("sqlbooks: sweep audit log: %w", err)
	}
	return n, nil
}

// deleteInBatches runs query, whose last parameter is the batch size, until
// a batch deletes fewer rows than that.
func (s *Store) deleteInBatches(ctx context.Context, query string, args ...any) (int64, error) {
	args = append(args, sweepBatch)
	var total int64
	for {
		res, err := s.db.ExecContext(ctx, query, args...)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
		if n < sweepBatch {
			return total, nil
		}
	}
}
