package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/munshi/munshi/internal/domain"
)

// Claim records an inbound message by its MessageSid. The first delivery
// claims it (claimed is true) and must later call SaveReply. A retried
// delivery does not claim it: done says whether its reply is already saved,
// and reply is that reply.
func (s *Store) Claim(ctx context.Context, in domain.Inbound) (claimed, done bool, reply domain.Reply, err error) {
	res, err := s.db.ExecContext(ctx, `INSERT INTO inbound_messages (sid, sender, body, received_at)
		VALUES (?, ?, ?, ?) ON CONFLICT(sid) DO NOTHING`, in.SID, in.From, in.Body, formatTime(s.Now()))
	if err != nil {
		return false, false, reply, fmt.Errorf("sqlite: claim %s: %w", in.SID, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, false, reply, nil
	}
	done, reply, err = s.SavedReply(ctx, in.SID)
	return false, done, reply, err
}

// SavedReply returns the reply recorded for a MessageSid, if there is one.
func (s *Store) SavedReply(ctx context.Context, sid string) (bool, domain.Reply, error) {
	var reply domain.Reply
	var raw sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT reply FROM inbound_messages WHERE sid = ?`, sid).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !raw.Valid) {
		return false, reply, nil
	} else if err != nil {
		return false, reply, fmt.Errorf("sqlite: saved reply %s: %w", sid, err)
	}
	if err := json.Unmarshal([]byte(raw.String), &reply); err != nil {
		return false, reply, fmt.Errorf("sqlite: saved reply %s: %w", sid, err)
	}
	return true, reply, nil
}

// SaveReply records the reply to a claimed message, so that a retry of the
// same MessageSid gets it again.
func (s *Store) SaveReply(ctx context.Context, sid string, reply domain.Reply) error {
	raw, err := json.Marshal(reply)
	if err != nil {
		return fmt.Errorf("sqlite: save reply %s: %w", sid, err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE inbound_messages SET reply = ?, replied_at = ? WHERE sid = ?`,
		string(raw), formatTime(s.Now()), sid); err != nil {
		return fmt.Errorf("sqlite: save reply %s: %w", sid, err)
	}
	return nil
}
