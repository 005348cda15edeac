package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// NewDraftID allocates the next draft reference, D-1 onwards. Order
// numbers are taken only by Commit.
func (s *Store) NewDraftID(ctx context.Context) (string, error) {
	n, err := nextNumber(ctx, s.db, "draft")
	if err != nil {
		return "", fmt.Errorf("sqlbooks: new draft id: %w", err)
	}
	return domain.DraftRef(n), nil
}

// newOrderID takes the next order number, ORD-1001 onwards, inside the
// transaction that places the order: if it rolls back, so does the number.
func newOrderID(ctx context.Context, tx *dbTx) (string, error) {
	n, err := nextNumber(ctx, tx, "order")
	if err != nil {
		return "", fmt.Errorf("new order id: %w", err)
	}
	return fmt.Sprintf("ORD-%d", n), nil
}

// nextNumber moves the counter name on by one and returns its new value,
// in q's transaction (or its own).
func nextNumber(ctx context.Context, q querier, name string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value`, name).Scan(&n)
	return n, err
}

// SaveDraft stores a draft just shown to its salesperson; their earlier open
// drafts are marked replaced, so "ok" only ever approves the last one shown.
func (s *Store) SaveDraft(ctx context.Context, d orders.Draft) error {
	payload, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("sqlbooks: save draft: %w", err)
	}
	err = s.inTx(ctx, func(tx *dbTx) error {
		if err := replaceOpen(ctx, tx, d.PlacedBy); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO drafts (id, placed_by, customer_id, status, fingerprint, payload, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, d.ID, d.PlacedBy, d.Customer.ID, string(d.Status), d.Fingerprint, string(payload), formatTime(d.CreatedAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: save draft %s: %w", d.ID, err)
	}
	return nil
}

// LatestDraft returns the person's most recent draft created after since,
// whatever its status.
func (s *Store) LatestDraft(ctx context.Context, phone string, since time.Time) (orders.Draft, bool, error) {
	return s.draft(ctx, `SELECT payload, status, order_id FROM drafts WHERE placed_by = ? AND created_at >= ?
		ORDER BY created_at DESC, `+s.e.seq()+` DESC LIMIT 1`, phone, formatTime(since))
}

// DraftByID returns a draft by its reference (D-57), or by the order
// number it was placed under.
func (s *Store) DraftByID(ctx context.Context, id string) (orders.Draft, bool, error) {
	return s.draft(ctx, `SELECT payload, status, order_id FROM drafts WHERE id = ?
		UNION ALL SELECT payload, status, order_id FROM drafts WHERE order_id = ? AND order_id <> '' AND id <> ? LIMIT 1`, id, id, id)
}

func (s *Store) draft(ctx context.Context, query string, args ...any) (orders.Draft, bool, error) {
	var d orders.Draft
	var payload, status, orderID string
	err := s.read.QueryRowContext(ctx, query, args...).Scan(&payload, &status, &orderID)
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	} else if err != nil {
		return d, false, fmt.Errorf("sqlbooks: draft: %w", err)
	}
	if err := json.Unmarshal([]byte(payload), &d); err != nil {
		return d, false, fmt.Errorf("sqlbooks: draft: %w", err)
	}
	d.Status, d.OrderID = orders.DraftStatus(status), orderID
	return d, true, nil
}

// MoveDraft changes a draft's status if it is in one of m.From, replacing
// the stored draft when m.Draft is set and writing m.Effects to the outbox
// in the same transaction, and reports whether it did: two people deciding
// at once cannot both win.
func (s *Store) MoveDraft(ctx context.Context, m orders.DraftMove) (bool, error) {
	set, args := `status = ?, decided_by = ?, decided_at = ?`, []any{string(m.To), m.By, formatTime(s.Now())}
	if m.Draft != nil {
		payload, err := json.Marshal(m.Draft)
		if err != nil {
			return false, fmt.Errorf("sqlbooks: move draft %s: %w", m.ID, err)
		}
		set += `, fingerprint = ?, payload = ?`
		args = append(args, m.Draft.Fingerprint, string(payload))
	}
	moved, err := s.moveStatus(ctx, "drafts", set, args, m.ID, statuses(m.From), m.Effects)
	if err != nil {
		return false, fmt.Errorf("sqlbooks: move draft %s: %w", m.ID, err)
	}
	return moved, nil
}

// moveStatus sets set (with args) on the row id of table while its status
// is one of from, and writes effects to the outbox in the same
// transaction, only if it moved: of two deciding at once, one wins.
func (s *Store) moveStatus(ctx context.Context, table, set string, args []any, id string, from []string, effects []domain.Effect) (bool, error) {
	if len(from) == 0 {
		return false, nil
	}
	args = append(args, id)
	for _, f := range from {
		args = append(args, f)
	}
	moved := false
	err := s.inTx(ctx, func(tx *dbTx) error {
		moved = false
		res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET `+set+` WHERE id = ? AND status IN (`+placeholders(len(from))+`)`, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		moved = true
		return s.enqueueTx(ctx, tx, effects...)
	})
	return moved, err
}

// statuses is a list of statuses as the store writes them.
func statuses[S ~string](xs []S) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// Snapshot reads what the rules need for a customer and some SKUs: the
// customer, those products, and the stock already committed to open orders.
func (s *Store) Snapshot(ctx context.Context, customerID string, skus []string) (orders.Snapshot, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return orders.Snapshot{}, fmt.Errorf("sqlbooks: snapshot: %w", err)
	}
	defer tx.Rollback()
	return snapshot(ctx, tx, customerID, skus)
}

// snapshot reads a Snapshot inside tx: a read-only one for a summary, the
// commit's own for the judgement that decides it. It is what new orders
// are judged on, so an inactive customer is not found and inactive
// products are left out (the rules then find them not in the catalog).
func snapshot(ctx context.Context, tx *dbTx, customerID string, skus []string) (orders.Snapshot, error) {
	snap := orders.Snapshot{Products: map[string]domain.Product{}, Committed: map[string]int64{}}
	var err error
	if snap.Customer, err = customerByID(ctx, tx, customerID); err != nil {
		return snap, err
	}
	if snap.Customer.Inactive {
		return snap, domain.Errorf(domain.ENOTFOUND, "%s is no longer an active customer", snap.Customer.Name)
	}
	if len(skus) == 0 {
		return snap, nil
	}
	if snap.Products, err = productsIn(ctx, tx, skus); err != nil {
		return snap, fmt.Errorf("sqlbooks: snapshot: %w", err)
	}
	for sku, p := range snap.Products {
		if p.Inactive {
			delete(snap.Products, sku)
		}
	}
	args := make([]any, len(skus))
	for i, sku := range skus {
		args[i] = sku
	}
	if snap.Committed, err = committed(ctx, tx, args); err != nil {
		return snap, err
	}
	return snap, nil
}

// productsIn reads some products by SKU.
func productsIn(ctx context.Context, q querier, skus []string) (map[string]domain.Product, error) {
	out := make(map[string]domain.Product, len(skus))
	if len(skus) == 0 {
		return out, nil
	}
	args := make([]any, len(skus))
	for i, sku := range skus {
		args[i] = sku
	}
	rows, err := q.QueryContext(ctx, `SELECT `+productColumns+` FROM products WHERE sku IN (`+placeholders(len(skus))+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, err
		}
		out[p.SKU] = p
	}
	return out, rows.Err()
}

// committed sums the base units on committed (undelivered) orders by SKU.
// Imported history holds no stock: the catalog's stock is its snapshot.
func committed(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, skus []any) (map[string]int64, error) {
	out := map[string]int64{}
	rows, err := q.QueryContext(ctx, `SELECT l.sku, SUM(l.qty) FROM orders o JOIN order_lines l ON l.order_id = o.id
		WHERE o.status = 'committed' AND o.source <> 'import' AND l.sku IN (`+placeholders(len(skus))+`) GROUP BY l.sku`, skus...)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: committed stock: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var sku string
		var n int64
		if err := rows.Scan(&sku, &n); err != nil {
			return nil, fmt.Errorf("sqlbooks: committed stock: %w", err)
		}
		out[sku] = n
	}
	return out, rows.Err()
}

func customerByID(ctx context.Context, tx *dbTx, id string) (domain.Customer, error) {
	var c domain.Customer
	var aliases, modes string
	var limit, outstanding int64
	var active bool
	err := tx.QueryRowContext(ctx, `SELECT id, name, aliases, phone, segment, credit_limit_paise, outstanding_paise,
		payment_modes, active FROM customers WHERE id = ?`, id).Scan(&c.ID, &c.Name, &aliases, &c.Phone, &c.Segment, &limit, &outstanding, &modes, &active)
	if errors.Is(err, sql.ErrNoRows) {
		return c, domain.Errorf(domain.ENOTFOUND, "customer %s not found", id)
	} else if err != nil {
		return c, fmt.Errorf("sqlbooks: customer %s: %w", id, err)
	}
	c.Aliases, c.CreditLimit, c.Outstanding, c.Inactive = splitList(aliases), domain.Paise(limit), domain.Paise(outstanding), !active
	for _, m := range splitList(modes) {
		c.PaymentModes = append(c.PaymentModes, domain.PaymentMode(m))
	}
	return c, nil
}

// Commit puts an approved draft into the books in one transaction: the draft
// is marked committed (only from open or pending approval, so a second "ok"
// commits nothing), c.Judge decides on the books as they are inside the
// transaction — the writer is one connection, so nothing commits between
// that judgement and the writes — then the order takes the next order
// number (a draft numbered when it was shown keeps its own), the order and
// its lines are written, a credit order adds to the customer's
// outstanding, and the notifications and audit notes go in with it. A
// commit refused or rolled back takes no number: the numbers placed run
// on without gaps.
func (s *Store) Commit(ctx context.Context, c orders.Commitment) (string, error) {
	d, now := c.Draft, s.Now()
	var id string
	// Commits take their turn (lockCommits), every one of its tries.
	err := s.inTxAt(ctx, s.e.write, func(tx *dbTx) error {
		id = d.Number()
		res, err := tx.ExecContext(ctx, `UPDATE drafts SET status = ?, decided_by = ?, decided_at = ?
			WHERE id = ? AND status IN (?, ?)`, string(orders.DraftCommitted), c.By, formatTime(now), d.ID,
			string(orders.DraftOpen), string(orders.DraftPendingApproval))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return domain.Errorf(domain.ECONFLICT, "order %s is no longer waiting for approval", d.ID)
		}
		skus := make([]string, len(d.Lines))
		for i, l := range d.Lines {
			skus[i] = l.SKU
		}
		snap, err := snapshot(ctx, tx, d.Customer.ID, skus)
		if err != nil {
			return err
		}
		if err := c.Judge(snap); err != nil {
			return judged{err}
		}
		if id == "" {
			if id, err = newOrderID(ctx, tx); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE drafts SET order_id = ? WHERE id = ?`, id, d.ID); err != nil {
			return err
		}
		w, err := prepareOrderWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		placed := d.Order(id, now)
		if err := w.write(ctx, placed); err != nil {
			return err
		}
		if d.Payment == domain.PayCredit {
			if _, err := tx.ExecContext(ctx, `UPDATE customers SET outstanding_paise = outstanding_paise + ? WHERE id = ?`,
				int64(d.Total), d.Customer.ID); err != nil {
				return err
			}
			// Dues the ERP owns: the bill it makes settles this.
			if err := provisionalOrder(ctx, tx, id, d.Customer.ID, d.Total, now); err != nil {
				return err
			}
		}
		var effects []domain.Effect
		var notes []orders.AuditNote
		if c.Tell != nil {
			effects, notes = c.Tell(id)
		}
		if c.Log != nil {
			effects = append(effects, c.Log(placed)...)
		}
		if err := s.enqueueTx(ctx, tx, effects...); err != nil {
			return err
		}
		for _, n := range notes {
			e := audit.Entry{At: now, Actor: n.Actor, Kind: n.Kind, Subject: n.Subject, Detail: n.Detail}
			if err := s.appendAudit(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	}, s.e.lockCommits)
	var j judged
	var de *domain.Error
	switch {
	case err == nil:
		return id, nil
	case errors.As(err, &j):
		return "", j.err
	case errors.As(err, &de):
		return "", err
	}
	return "", fmt.Errorf("sqlbooks: commit %s: %w", d.ID, err)
}

// judged carries the judgement's own error out of the transaction as it is.
type judged struct{ err error }

func (j judged) Error() string { return j.err.Error() }

func placeholders(n int) string {
	if n <= 0 {
		return "NULL"
	}
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

var _ orders.Books = (*Store)(nil)

// Order reads a committed order with its lines.
func (s *Store) Order(ctx context.Context, id string) (domain.Order, bool, error) {
	o, _, ok, err := orderIn(ctx, s.read, id)
	return o, ok, err
}

// orderIn reads an order with its lines, and where it came from.
func orderIn(ctx context.Context, q querier, id string) (domain.Order, string, bool, error) {
	var o domain.Order
	var payment, status, created, source string
	var committedAt, deliveredAt sql.NullString
	var sub, gst, total int64
	err := q.QueryRowContext(ctx, `SELECT id, customer_id, placed_by, payment_mode, status, subtotal_paise, gst_paise,
		total_paise, fingerprint, created_at, committed_at, delivered_at, source FROM orders WHERE id = ?`, id).Scan(
		&o.ID, &o.CustomerID, &o.PlacedBy, &payment, &status, &sub, &gst, &total, &o.Fingerprint, &created, &committedAt, &deliveredAt, &source)
	if errors.Is(err, sql.ErrNoRows) {
		return o, "", false, nil
	} else if err != nil {
		return o, "", false, fmt.Errorf("sqlbooks: order %s: %w", id, err)
	}
	o.Payment, o.Status = domain.PaymentMode(payment), domain.OrderStatus(status)
	o.Subtotal, o.GST, o.Total = domain.Paise(sub), domain.Paise(gst), domain.Paise(total)
	o.CreatedAt, o.CommittedAt, o.DeliveredAt = parseTime(created), parseTime(committedAt.String), parseTime(deliveredAt.String)
	rows, err := q.QueryContext(ctx, `SELECT sku, qty, said_qty, said_unit, short_qty, price_paise, gst_bp, amount_paise, gst_paise
		FROM order_lines WHERE order_id = ? ORDER BY line_no`, id)
	if err != nil {
		return o, "", false, fmt.Errorf("sqlbooks: order %s lines: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var l domain.OrderLine
		var price, rate, amount, lineGST int64
		if err := rows.Scan(&l.SKU, &l.Qty, &l.SaidQty, &l.SaidUnit, &l.Short, &price, &rate, &amount, &lineGST); err != nil {
			return o, "", false, fmt.Errorf("sqlbooks: order %s lines: %w", id, err)
		}
		l.Price, l.GSTRate, l.Amount, l.GSTAmount = domain.Paise(price), domain.GSTRate(rate), domain.Paise(amount), domain.Paise(lineGST)
		o.Lines = append(o.Lines, l)
	}
	return o, source, true, rows.Err()
}

// Committed returns the base units committed to open orders for each SKU.
func (s *Store) Committed(ctx context.Context, skus ...string) (map[string]int64, error) {
	args := make([]any, len(skus))
	for i, sku := range skus {
		args[i] = sku
	}
	return committed(ctx, s.read, args)
}
