package sqlbooks

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/handoff"
)

// The conversations handed over to the office (migration 0016). One open
// handoff a person is the partial unique index handoffs_one_open's: two
// instances opening one at once write one, and the other finds it.

const handoffColumns = `id, person, person_name, person_role, reason, status, office, opened_at,
	COALESCE(last_office_reply_at, ''), COALESCE(reminded_at, ''), COALESCE(closed_at, ''), closed_by`

// OpenHandoff writes h as its person's open handoff with the effects made
// from it, or returns the one open already (false).
func (s *Store) OpenHandoff(ctx context.Context, h handoff.Handoff, effects func(handoff.Handoff) []domain.Effect) (handoff.Handoff, bool, error) {
	var out handoff.Handoff
	opened := false
	write := func(tx *dbTx) error {
		opened = false
		open, err := readHandoffs(ctx, tx, `person = ? AND status = 'open'`, h.Person.Phone)
		if err != nil || len(open) > 0 {
			if err == nil {
				out = open[0]
			}
			return err
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO handoffs (person, person_name, person_role, reason, status,
			office, opened_at) VALUES (?, ?, ?, ?, 'open', ?, ?) RETURNING id`,
			h.Person.Phone, h.Person.Name, string(h.Person.Role), string(h.Trigger), joinList(h.Office),
			formatTime(h.OpenedAt)).Scan(&id); err != nil {
			return err
		}
		for _, m := range h.Messages {
			if err := addHandoffMessage(ctx, tx, id, m); err != nil {
				return err
			}
		}
		out, opened = h, true
		out.ID, out.Status = id, handoff.Open
		return s.enqueueTx(ctx, tx, effects(out)...)
	}
	err := s.inTx(ctx, write)
	if uniqueViolation(err) {
		err = s.inTx(ctx, write) // another instance opened it first: this finds it
	}
	if err != nil {
		return handoff.Handoff{}, false, fmt.Errorf("sqlbooks: open a handoff for %s: %w", h.Person.Phone, err)
	}
	return out, opened, nil
}

// OpenHandoffOf is the person's open handoff, if any.
func (s *Store) OpenHandoffOf(ctx context.Context, phone string) (handoff.Handoff, bool, error) {
	hs, err := readHandoffs(ctx, s.read, `person = ? AND status = 'open'`, phone)
	if err != nil {
		return handoff.Handoff{}, false, fmt.Errorf("sqlbooks: open handoff of %s: %w", phone, err)
	}
	if len(hs) == 0 {
		return handoff.Handoff{}, false, nil
	}
	return hs[0], true, nil
}

// Handoff reads a handoff by its ID, messages included.
func (s *Store) Handoff(ctx context.Context, id int64) (handoff.Handoff, bool, error) {
	hs, err := readHandoffs(ctx, s.read, `id = ?`, id)
	if err != nil {
		return handoff.Handoff{}, false, fmt.Errorf("sqlbooks: handoff %d: %w", id, err)
	}
	if len(hs) == 0 {
		return handoff.Handoff{}, false, nil
	}
	return hs[0], true, nil
}

// AddHandoffMessage adds m to the open handoff id and enqueues effects.
func (s *Store) AddHandoffMessage(ctx context.Context, id int64, m handoff.Message, effects ...domain.Effect) (bool, error) {
	set := `status = status`
	args := []any{}
	if m.Side == handoff.FromOffice {
		set, args = `last_office_reply_at = ?`, append(args, formatTime(m.At))
	}
	return s.changeHandoff(ctx, "add a message to", id, `UPDATE handoffs SET `+set+` WHERE id = ? AND status = 'open'`,
		append(args, id), func(tx *dbTx) error { return addHandoffMessage(ctx, tx, id, m) }, effects)
}

// CloseHandoff closes the open handoff id and enqueues effects.
func (s *Store) CloseHandoff(ctx context.Context, id int64, by string, at time.Time, effects ...domain.Effect) (bool, error) {
	return s.changeHandoff(ctx, "close", id, `UPDATE handoffs SET status = 'closed', closed_at = ?, closed_by = ?
		WHERE id = ? AND status = 'open'`, []any{formatTime(at), by, id}, nil, effects)
}

// MarkHandoffReminded records the one reminder of handoff id and
// enqueues effects, unless it was reminded, answered or closed.
func (s *Store) MarkHandoffReminded(ctx context.Context, id int64, at time.Time, effects ...domain.Effect) (bool, error) {
	return s.changeHandoff(ctx, "remind", id, `UPDATE handoffs SET reminded_at = ? WHERE id = ? AND status = 'open'
		AND reminded_at IS NULL AND last_office_reply_at IS NULL`, []any{formatTime(at), id}, nil, effects)
}

// changeHandoff runs update on handoff id and, when it changed the row,
// then and the effects, all in one transaction.
func (s *Store) changeHandoff(ctx context.Context, what string, id int64, update string, args []any, then func(*dbTx) error, effects []domain.Effect) (bool, error) {
	changed := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		changed = false
		res, err := tx.ExecContext(ctx, update, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		changed = true
		if then != nil {
			if err := then(tx); err != nil {
				return err
			}
		}
		return s.enqueueTx(ctx, tx, effects...)
	})
	if err != nil {
		return false, fmt.Errorf("sqlbooks: %s handoff %d: %w", what, id, err)
	}
	return changed, nil
}

// UnansweredHandoffs lists the open handoffs never answered nor
// reminded, oldest first.
func (s *Store) UnansweredHandoffs(ctx context.Context) ([]handoff.Handoff, error) {
	hs, err := readHandoffs(ctx, s.read, `status = 'open' AND last_office_reply_at IS NULL AND reminded_at IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: unanswered handoffs: %w", err)
	}
	return hs, nil
}

func addHandoffMessage(ctx context.Context, tx *dbTx, id int64, m handoff.Message) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO handoff_messages (handoff_id, at, side, sender, body) VALUES (?, ?, ?, ?, ?)`,
		id, formatTime(m.At), string(m.Side), m.From, m.Text)
	return err
}

// readHandoffs reads the handoffs where says, in id order, with their
// messages.
func readHandoffs(ctx context.Context, q querier, where string, args ...any) ([]handoff.Handoff, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+handoffColumns+` FROM handoffs WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	var hs []handoff.Handoff
	for rows.Next() {
		var h handoff.Handoff
		var role, trigger, status, office, opened, replied, reminded, closed string
		if err := rows.Scan(&h.ID, &h.Person.Phone, &h.Person.Name, &role, &trigger, &status, &office, &opened,
			&replied, &reminded, &closed, &h.ClosedBy); err != nil {
			rows.Close()
			return nil, err
		}
		h.Person.Role, h.Trigger, h.Status, h.Office = domain.Role(role), handoff.Trigger(trigger), handoff.Status(status), splitList(office)
		h.OpenedAt, h.LastOfficeReplyAt, h.RemindedAt, h.ClosedAt = parseTime(opened), parseTime(replied), parseTime(reminded), parseTime(closed)
		hs = append(hs, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range hs {
		if hs[i].Messages, err = readHandoffMessages(ctx, q, hs[i].ID); err != nil {
			return nil, err
		}
	}
	return hs, nil
}

func readHandoffMessages(ctx context.Context, q querier, id int64) ([]handoff.Message, error) {
	rows, err := q.QueryContext(ctx, `SELECT at, side, sender, body FROM handoff_messages WHERE handoff_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ms []handoff.Message
	for rows.Next() {
		var m handoff.Message
		var at, side string
		if err := rows.Scan(&at, &side, &m.From, &m.Text); err != nil {
			return nil, err
		}
		m.At, m.Side = parseTime(at), handoff.Side(side)
		ms = append(ms, m)
	}
	return ms, rows.Err()
}
