package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// Claim records an inbound message by its MessageSid and claims it for the
// caller until lease has passed: claimed is true when the message is new, or
// when an earlier claim ran out with no reply saved (Munshi died while
// answering it), and the caller must then answer it and call SaveReply. A
// delivery that does not claim it learns whether its reply is saved (done,
// with the reply) or still being worked on (neither). A MessageSid recorded
// for another sender is EUNAUTHORIZED, and nothing of it is returned.
//
// The body is stored as given (the caller redacts it, and shortens one
// too long to read, giving its length in Chars) and only for the numbers
// in users: an unknown sender's message keeps no text at rest.
func (s *Store) Claim(ctx context.Context, in domain.Inbound, lease time.Duration) (claimed, done bool, reply domain.Reply, err error) {
	now := formatTime(s.Now())
	until := formatTime(s.Now().Add(lease))
	var row inboundRow
	var found bool
	// One write, in a group commit: the record, or else what is recorded
	// and, when its claim ran out unanswered, the takeover. Each statement
	// is guarded by its own conditions, so alone it needs no transaction.
	err = s.groupLone(ctx, func(ctx context.Context, tx statements) error {
		claimed, found = false, false
		res, err := tx.ExecContext(ctx, `INSERT INTO inbound_messages (sid, sender, body, chars, received_at, lease_until, media)
			VALUES (?, ?, CASE WHEN EXISTS (SELECT 1 FROM users WHERE phone = ?) THEN ? ELSE '' END, ?, ?, ?,
				CASE WHEN EXISTS (SELECT 1 FROM users WHERE phone = ?) THEN ? ELSE '' END)
			ON CONFLICT(sid) DO NOTHING`,
			in.SID, in.From, in.From, in.Body, max(in.Chars, 0), now, until, in.From, encodeMedia(in))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			claimed = true
			return nil
		}
		if row, found, err = inboundIn(ctx, tx, in.SID); err != nil || !found {
			return err
		}
		if row.sender != in.From || row.reply.Valid || (row.leaseUntil.Valid && row.leaseUntil.String > now) {
			return nil
		}
		// The claim ran out unanswered: take it over, unless another
		// delivery or the recovery job just did.
		res, err = tx.ExecContext(ctx, `UPDATE inbound_messages SET lease_until = ?, attempts = attempts + 1
			WHERE sid = ? AND sender = ? AND reply IS NULL AND (lease_until IS NULL OR lease_until <= ?)`,
			until, in.SID, in.From, now)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		claimed = n == 1
		return nil
	})
	switch {
	case err != nil:
		return false, false, reply, fmt.Errorf("sqlbooks: claim %s: %w", in.SID, err)
	case claimed || !found:
		return claimed, false, reply, nil
	case row.sender != in.From:
		return false, false, reply, domain.Errorf(domain.EUNAUTHORIZED, "MessageSid belongs to another sender")
	case row.reply.Valid:
		reply, err = decodeReply(in.SID, row.reply.String)
		return false, err == nil, reply, err
	}
	return false, false, reply, nil // another delivery holds a live claim
}

// inboundRow is what Claim needs to know of a recorded message.
type inboundRow struct {
	sender     string
	reply      sql.NullString
	leaseUntil sql.NullString
}

func inboundIn(ctx context.Context, q querier, sid string) (inboundRow, bool, error) {
	var r inboundRow
	err := q.QueryRowContext(ctx, `SELECT sender, reply, lease_until FROM inbound_messages WHERE sid = ?`, sid).
		Scan(&r.sender, &r.reply, &r.leaseUntil)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	} else if err != nil {
		return r, false, fmt.Errorf("sqlbooks: inbound %s: %w", sid, err)
	}
	return r, true, nil
}

// SavedReply returns the reply recorded for a MessageSid, if there is one.
func (s *Store) SavedReply(ctx context.Context, sid string) (bool, domain.Reply, error) {
	var raw sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT reply FROM inbound_messages WHERE sid = ?`, sid).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !raw.Valid) {
		return false, domain.Reply{}, nil
	} else if err != nil {
		return false, domain.Reply{}, fmt.Errorf("sqlbooks: saved reply %s: %w", sid, err)
	}
	reply, err := decodeReply(sid, raw.String)
	return err == nil, reply, err
}

func decodeReply(sid, raw string) (domain.Reply, error) {
	var reply domain.Reply
	if err := json.Unmarshal([]byte(raw), &reply); err != nil {
		return domain.Reply{}, fmt.Errorf("sqlbooks: saved reply %s: %w", sid, err)
	}
	return reply, nil
}

// SaveReply records the reply to a claimed message, so that a retry of the
// same MessageSid gets it again; an empty reply closes the message without
// an answer. The claim ends with it. The audit entries ctx holds for the
// message (audit.Hold) are committed in the same transaction; if it fails
// they are still written, on their own.
func (s *Store) SaveReply(ctx context.Context, sid string, reply domain.Reply) error {
	raw, err := json.Marshal(reply)
	if err != nil {
		return fmt.Errorf("sqlbooks: save reply %s: %w", sid, err)
	}
	held := audit.TakeHeld(ctx)
	rows, _ := s.auditRows(held) // the log holds only what encodes
	at := formatTime(s.Now())
	const save = `UPDATE inbound_messages SET reply = ?, replied_at = ?, lease_until = NULL WHERE sid = ?`
	args := []any{string(raw), at, sid}
	if s.e.postgres() && len(rows) <= auditChunk {
		// On PostgreSQL the reply and its audit entries are one statement,
		// which commits them together even without a transaction.
		query := save
		if len(rows) > 0 {
			var insert string
			insert, args = auditInsert(rows, args)
			query = "WITH saved AS (" + save + ") " + insert
		}
		err = s.groupLone(ctx, func(ctx context.Context, db statements) error {
			_, err := db.ExecContext(ctx, query, args...)
			return err
		})
	} else {
		err = s.group(ctx, func(ctx context.Context, db statements) error {
			if _, err := db.ExecContext(ctx, save, args...); err != nil {
				return err
			}
			return insertAudit(ctx, db, rows)
		})
	}
	if err != nil {
		if len(held) > 0 {
			s.AppendAudit(context.WithoutCancel(ctx), held...)
		}
		return fmt.Errorf("sqlbooks: save reply %s: %w", sid, err)
	}
	return nil
}

// Release ends the caller's claim on an unanswered message without a
// reply, so that the next retry, or the recovery job, looks at it again:
// another instance is answering it, and this one must not record it as
// answered.
func (s *Store) Release(ctx context.Context, sid string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE inbound_messages SET lease_until = ? WHERE sid = ? AND reply IS NULL`,
		formatTime(s.Now()), sid); err != nil {
		return fmt.Errorf("sqlbooks: release %s: %w", sid, err)
	}
	return nil
}

// Discard deletes an unanswered message that was never this instance's to
// answer (its MessageSid belongs to another sender elsewhere), so that the
// record does not stand in the real sender's way.
func (s *Store) Discard(ctx context.Context, sid string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM inbound_messages WHERE sid = ? AND reply IS NULL`, sid); err != nil {
		return fmt.Errorf("sqlbooks: discard %s: %w", sid, err)
	}
	return nil
}

// ClaimAbandoned claims, for lease, up to limit messages that were claimed
// and never answered once their claim has run out (oldest first), and
// returns them as they were recorded: the body as stored (redacted, and
// empty for unknown senders) and Received the time they arrived.
func (s *Store) ClaimAbandoned(ctx context.Context, lease time.Duration, limit int) ([]domain.Inbound, error) {
	now := s.Now()
	// The claim is checked again on the row it updates, so that of two
	// instances claiming at once each row goes to one.
	rows, err := s.db.QueryContext(ctx, `UPDATE inbound_messages SET lease_until = ?, attempts = attempts + 1
		WHERE sid IN (SELECT sid FROM inbound_messages
			WHERE reply IS NULL AND (lease_until IS NULL OR lease_until <= ?) ORDER BY received_at LIMIT ?`+s.e.skipLocked()+`)
			AND reply IS NULL AND (lease_until IS NULL OR lease_until <= ?)
		RETURNING sid, sender, body, chars, received_at, media`, formatTime(now.Add(lease)), formatTime(now), limit, formatTime(now))
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: claim abandoned messages: %w", err)
	}
	defer rows.Close()
	var out []domain.Inbound
	for rows.Next() {
		var in domain.Inbound
		var received, media string
		if err := rows.Scan(&in.SID, &in.From, &in.Body, &in.Chars, &received, &media); err != nil {
			return nil, fmt.Errorf("sqlbooks: claim abandoned messages: %w", err)
		}
		in.Received = parseTime(received)
		in.MediaURLs, in.MediaTypes = decodeMedia(media)
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlbooks: claim abandoned messages: %w", err)
	}
	return out, nil
}

// WroteSince reports whether the sender of in has a message recorded after
// it: a message the recovery finds unanswered is then not acted on, since
// its sender has moved on.
func (s *Store) WroteSince(ctx context.Context, in domain.Inbound) (bool, error) {
	var later bool
	err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM inbound_messages
		WHERE sender = ? AND sid <> ? AND received_at > (SELECT received_at FROM inbound_messages WHERE sid = ?))`,
		in.From, in.SID, in.SID).Scan(&later)
	if err != nil {
		return false, fmt.Errorf("sqlbooks: messages of %s since %s: %w", in.From, in.SID, err)
	}
	return later, nil
}

// FirstRefusalToday records that the unknown number phone is refused today
// (the calendar day in zone, by the store's clock) and reports whether it
// is the first refusal of that day.
func (s *Store) FirstRefusalToday(ctx context.Context, phone string, zone *time.Location) (bool, error) {
	now := s.Now()
	res, err := s.db.ExecContext(ctx, `INSERT INTO refusals (phone, day, refused_at) VALUES (?, ?, ?)
		ON CONFLICT(phone) DO UPDATE SET day = excluded.day, refused_at = excluded.refused_at
		WHERE refusals.day <> excluded.day`, phone, now.In(zone).Format(time.DateOnly), formatTime(now))
	if err != nil {
		return false, fmt.Errorf("sqlbooks: refusal of %s: %w", phone, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// inboundFile is one file of a message as the inbox keeps it.
type inboundFile struct {
	URL  string `json:"u"`
	Type string `json:"t,omitempty"`
}

// encodeMedia is the JSON of in's files, or "" for none.
func encodeMedia(in domain.Inbound) string {
	if len(in.MediaURLs) == 0 {
		return ""
	}
	files := make([]inboundFile, len(in.MediaURLs))
	for i, u := range in.MediaURLs {
		files[i].URL = u
		if i < len(in.MediaTypes) {
			files[i].Type = in.MediaTypes[i]
		}
	}
	b, _ := json.Marshal(files)
	return string(b)
}

// decodeMedia reads encodeMedia's JSON back; nothing for none or for a
// value it cannot read.
func decodeMedia(s string) (urls, types []string) {
	var files []inboundFile
	if s == "" || json.Unmarshal([]byte(s), &files) != nil {
		return nil, nil
	}
	for _, f := range files {
		urls, types = append(urls, f.URL), append(types, f.Type)
	}
	return urls, types
}
