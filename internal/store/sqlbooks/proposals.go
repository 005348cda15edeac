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
	"github.com/munshi/munshi/orders"
)

// NewProposalID allocates the next proposal number.
func (s *Store) NewProposalID(ctx context.Context) (string, error) {
	n, err := nextNumber(ctx, s.db, "proposal")
	if err != nil {
		return "", fmt.Errorf("sqlbooks: new proposal id: %w", err)
	}
	return domain.ProposalRef(n), nil
}

// replaceOpen marks a person's open drafts and proposals replaced: what
// they are shown next is what "ok" will be about.
func replaceOpen(ctx context.Context, tx *dbTx, phone string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE drafts SET status = ? WHERE placed_by = ? AND status = ?`,
		string(orders.DraftReplaced), phone, string(orders.DraftOpen)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE proposals SET status = ? WHERE proposed_by = ? AND status = ?`,
		string(orders.ProposalReplaced), phone, string(orders.ProposalOpen))
	return err
}

// SaveProposal stores a proposal just shown, replacing what its proposer
// had open.
func (s *Store) SaveProposal(ctx context.Context, p orders.Proposal) error {
	payload, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("sqlbooks: save proposal: %w", err)
	}
	err = s.inTx(ctx, func(tx *dbTx) error {
		if err := replaceOpen(ctx, tx, p.ProposedBy); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO proposals (id, kind, proposed_by, subject, status, fingerprint, payload, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.ID, string(p.Kind), p.ProposedBy, p.Subject, string(p.Status), p.Fingerprint,
			string(payload), formatTime(p.CreatedAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: save proposal %s: %w", p.ID, err)
	}
	return nil
}

// SetAside replaces the person's open drafts and proposals.
func (s *Store) SetAside(ctx context.Context, phone string) error {
	if err := s.inTx(ctx, func(tx *dbTx) error { return replaceOpen(ctx, tx, phone) }); err != nil {
		return fmt.Errorf("sqlbooks: set aside: %w", err)
	}
	return nil
}

// LatestProposal returns the person's most recent proposal created after
// since, whatever its status.
func (s *Store) LatestProposal(ctx context.Context, phone string, since time.Time) (orders.Proposal, bool, error) {
	var p orders.Proposal
	var payload, status string
	err := s.read.QueryRowContext(ctx, `SELECT payload, status FROM proposals WHERE proposed_by = ? AND created_at >= ?
		ORDER BY created_at DESC, `+s.e.seq()+` DESC LIMIT 1`, phone, formatTime(since)).Scan(&payload, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	} else if err != nil {
		return p, false, fmt.Errorf("sqlbooks: proposal: %w", err)
	}
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		return p, false, fmt.Errorf("sqlbooks: proposal: %w", err)
	}
	p.Status = orders.ProposalStatus(status)
	return p, true, nil
}

// DropProposal moves an open proposal to dropped.
func (s *Store) DropProposal(ctx context.Context, id, by string) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE proposals SET status = ?, decided_at = ? WHERE id = ? AND status = ?`,
		string(orders.ProposalDropped), formatTime(s.Now()), id, string(orders.ProposalOpen))
	if err != nil {
		return false, fmt.Errorf("sqlbooks: drop proposal %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Ledger reads what a proposal is judged against, in one read transaction.
func (s *Store) Ledger(ctx context.Context, q orders.LedgerQuery) (orders.Ledger, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return orders.Ledger{}, fmt.Errorf("sqlbooks: ledger: %w", err)
	}
	defer tx.Rollback()
	return ledgerIn(ctx, tx, q)
}

func ledgerIn(ctx context.Context, tx *dbTx, q orders.LedgerQuery) (orders.Ledger, error) {
	var l orders.Ledger
	skus := append([]string(nil), q.SKUs...)
	customer := q.CustomerID
	if q.OrderID != "" {
		o, source, ok, err := orderIn(ctx, tx, q.OrderID)
		if err != nil {
			return l, err
		}
		if ok {
			l.Order, l.OrderSource, customer = &o, source, o.CustomerID
			for _, ln := range o.Lines {
				skus = append(skus, ln.SKU)
			}
		}
	}
	if customer != "" {
		c, err := customerByID(ctx, tx, customer)
		if err != nil && domain.ErrorCode(err) != domain.ENOTFOUND {
			return l, err
		}
		if err == nil {
			l.Customer = &c
		}
	}
	var err error
	if l.Products, err = productsIn(ctx, tx, skus); err != nil {
		return l, fmt.Errorf("sqlbooks: ledger: %w", err)
	}
	if q.Reference != "" && customer != "" {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM payments WHERE customer_id = ? AND reference <> '' AND upper(reference) = upper(?)`,
			customer, q.Reference).Scan(&n); err != nil {
			return l, fmt.Errorf("sqlbooks: ledger: %w", err)
		}
		l.ReferenceUsed = n > 0
	}
	return l, nil
}

// Settle applies a proposal in one transaction: the proposal is claimed
// first from st.From (open unless said), so two "ok"s (or two approvals)
// apply it once; the judgement reads the books inside the same
// transaction, and its changes, messages and audit entry are written with
// it or not at all.
func (s *Store) Settle(ctx context.Context, st orders.Settlement) error {
	at := st.At
	if at.IsZero() {
		at = s.Now()
	}
	from := st.From
	if from == "" {
		from = orders.ProposalOpen
	}
	return s.inTx(ctx, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE proposals SET status = ?, decided_at = ?, decided_by = ? WHERE id = ? AND status = ?`,
			string(orders.ProposalApplied), formatTime(at), st.By, st.ProposalID, string(from))
		if err != nil {
			return fmt.Errorf("sqlbooks: settle %s: %w", st.ProposalID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return domain.Errorf(domain.ECONFLICT, "%s is not waiting for an ok", st.ProposalID)
		}
		l, err := ledgerIn(ctx, tx, st.Query)
		if err != nil {
			return fmt.Errorf("sqlbooks: settle %s: %w", st.ProposalID, err)
		}
		settled, err := st.Judge(l)
		if err != nil {
			return err
		}
		paid := map[int]int64{} // a payment change's index → its row
		for i, c := range settled.Changes {
			id, err := applyChange(ctx, tx, c, st.By, at)
			if err != nil {
				return fmt.Errorf("sqlbooks: settle %s: %w", st.ProposalID, err)
			}
			if c.Kind == orders.ChangePayment {
				paid[i] = id
			}
		}
		// What the ERP owns moved at once; it is provisional until the
		// ERP shows it too.
		if err := recordProvisional(ctx, tx, st.ProposalID, settled.Changes, paid, at); err != nil {
			return fmt.Errorf("sqlbooks: settle %s: %w", st.ProposalID, err)
		}
		if err := s.enqueueTx(ctx, tx, settled.Effects...); err != nil {
			return err
		}
		for _, n := range settled.Notes {
			if err := s.appendAudit(ctx, tx, audit.Entry{At: at, Actor: n.Actor, Kind: n.Kind, Subject: n.Subject, Detail: n.Detail}); err != nil {
				return err
			}
		}
		return nil
	})
}

// applyChange writes one change, and returns the row a payment became.
// Each is guarded by the state it expects (an order still committed), so
// a change the judgement did not foresee is a conflict, not a silent
// write.
func applyChange(ctx context.Context, tx *dbTx, c orders.Change, by string, at time.Time) (int64, error) {
	if c.Kind == orders.ChangePayment {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO payments (customer_id, amount_paise, mode, received_at, reference, source, recorded_by)
			VALUES (?, ?, ?, ?, ?, 'munshi', ?) RETURNING id`, c.CustomerID, int64(c.Amount), string(c.Mode), formatTime(at), c.Reference, by).Scan(&id)
		if uniqueViolation(err) {
			return 0, domain.Errorf(domain.ECONFLICT, "reference %s is already recorded for %s", c.Reference, c.CustomerID)
		}
		return id, err
	}
	return 0, applyOther(ctx, tx, c, at)
}

func applyOther(ctx context.Context, tx *dbTx, c orders.Change, at time.Time) error {
	one := func(what string, res sql.Result, err error) error {
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return domain.Errorf(domain.ECONFLICT, "%s changed meanwhile", what)
		}
		return nil
	}
	switch c.Kind {
	case orders.ChangeDeliver:
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'delivered', delivered_at = ?, subtotal_paise = ?, gst_paise = ?,
			total_paise = ? WHERE id = ? AND status = 'committed'`, formatTime(at), int64(c.Subtotal), int64(c.GST), int64(c.Total), c.OrderID)
		if err := one(c.OrderID, res, err); err != nil {
			return err
		}
		return deliverLines(ctx, tx, c)
	case orders.ChangeCancel:
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'cancelled', cancelled_at = ?, note = ? WHERE id = ? AND status = 'committed'`,
			formatTime(at), c.Note, c.OrderID)
		return one(c.OrderID, res, err)
	case orders.ChangeDue:
		res, err := tx.ExecContext(ctx, `UPDATE customers SET outstanding_paise = outstanding_paise + ? WHERE id = ?`, int64(c.Amount), c.CustomerID)
		return one(c.CustomerID, res, err)
	case orders.ChangeStock:
		res, err := tx.ExecContext(ctx, `UPDATE products SET stock_ready = stock_ready + ?, stock_wip = stock_wip + ? WHERE sku = ?`,
			c.Ready, c.WIP, c.SKU)
		return one(c.SKU, res, err)
	}
	return fmt.Errorf("unknown change %q", c.Kind)
}

// deliverLines records what of each line was delivered. A line keeps the
// quantity ordered; its shortfall is noted and its amounts follow what was
// delivered. c.Lines are every line of the order in its order, so a line
// that changed meanwhile is a conflict, not a guess.
func deliverLines(ctx context.Context, tx *dbTx, c orders.Change) error {
	rows, err := tx.QueryContext(ctx, `SELECT line_no, sku, qty FROM order_lines WHERE order_id = ? ORDER BY line_no`, c.OrderID)
	if err != nil {
		return err
	}
	type line struct {
		no  int
		sku string
		qty int64
	}
	var have []line
	for rows.Next() {
		var l line
		if err := rows.Scan(&l.no, &l.sku, &l.qty); err != nil {
			rows.Close()
			return err
		}
		have = append(have, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(have) != len(c.Lines) {
		return domain.Errorf(domain.ECONFLICT, "the lines of %s changed meanwhile", c.OrderID)
	}
	for i, h := range have {
		l := c.Lines[i]
		if l.SKU != h.sku || l.Qty != h.qty {
			return domain.Errorf(domain.ECONFLICT, "line %d of %s changed meanwhile", h.no, c.OrderID)
		}
		if l.Short == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE order_lines SET short_qty = ?, amount_paise = ?, gst_paise = ?
			WHERE order_id = ? AND line_no = ?`, l.Short, int64(l.Amount), int64(l.GSTAmount), c.OrderID, h.no); err != nil {
			return err
		}
	}
	return nil
}
