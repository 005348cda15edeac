package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/munshi/munshi/orders"
)

// ProposalByID returns a proposal by its reference, whatever its status.
func (s *Store) ProposalByID(ctx context.Context, id string) (orders.Proposal, bool, error) {
	var p orders.Proposal
	var payload, status string
	err := s.read.QueryRowContext(ctx, `SELECT payload, status FROM proposals WHERE id = ?`, id).Scan(&payload, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	} else if err != nil {
		return p, false, fmt.Errorf("sqlbooks: proposal %s: %w", id, err)
	}
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		return p, false, fmt.Errorf("sqlbooks: proposal %s: %w", id, err)
	}
	p.Status = orders.ProposalStatus(status)
	return p, true, nil
}

// MoveProposal changes a proposal's status if it is in one of m.From; its
// effects go to the outbox in the same transaction, and only if it moved.
func (s *Store) MoveProposal(ctx context.Context, m orders.ProposalMove) (bool, error) {
	moved, err := s.moveStatus(ctx, "proposals", `status = ?, decided_by = ?, decided_at = ?`,
		[]any{string(m.To), m.By, formatTime(s.Now())}, m.ID, statuses(m.From), m.Effects)
	if err != nil {
		return false, fmt.Errorf("sqlbooks: move proposal %s: %w", m.ID, err)
	}
	return moved, nil
}
