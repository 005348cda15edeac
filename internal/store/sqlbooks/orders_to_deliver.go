package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// openToDeliver is the orders a delivery can be about: placed, not
// delivered nor cancelled, whether Munshi placed them or they came open
// with the books' history.
const openToDeliver = `status = 'committed'`

// OrdersToDeliver returns a customer's open orders, newest first, each
// with the products and quantities of its lines, and their latest other order, in one
// read snapshot.
func (s *Store) OrdersToDeliver(ctx context.Context, customerID string, limit int) (orders.OrdersToDeliver, error) {
	var out orders.OrdersToDeliver
	limit = max(1, min(limit, 100))
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return out, fmt.Errorf("sqlbooks: orders to deliver: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE customer_id = ? AND `+openToDeliver, customerID).Scan(&out.Count); err != nil {
		return out, fmt.Errorf("sqlbooks: orders to deliver: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, customer_id, placed_by, payment_mode, status, total_paise, created_at
		FROM orders WHERE customer_id = ? AND `+openToDeliver+` ORDER BY created_at DESC, id DESC LIMIT ?`, customerID, limit)
	if err != nil {
		return out, fmt.Errorf("sqlbooks: orders to deliver: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var o domain.Order
		var payment, status, created string
		var total int64
		if err := rows.Scan(&o.ID, &o.CustomerID, &o.PlacedBy, &payment, &status, &total, &created); err != nil {
			return out, fmt.Errorf("sqlbooks: orders to deliver: %w", err)
		}
		o.Payment, o.Status, o.Total, o.CreatedAt = domain.PaymentMode(payment), domain.OrderStatus(status), domain.Paise(total), parseTime(created)
		out.Open = append(out.Open, o)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("sqlbooks: orders to deliver: %w", err)
	}
	rows.Close()
	if err := openLines(ctx, tx, out.Open); err != nil {
		return out, fmt.Errorf("sqlbooks: orders to deliver: %w", err)
	}
	var last domain.Order
	var payment, status, created string
	var deliveredAt sql.NullString
	var total int64
	err = tx.QueryRowContext(ctx, `SELECT id, customer_id, placed_by, payment_mode, status, total_paise, created_at, delivered_at
		FROM orders WHERE customer_id = ? AND NOT (`+openToDeliver+`) ORDER BY created_at DESC, id DESC LIMIT 1`, customerID).Scan(
		&last.ID, &last.CustomerID, &last.PlacedBy, &payment, &status, &total, &created, &deliveredAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return out, nil
	case err != nil:
		return out, fmt.Errorf("sqlbooks: last order of %s: %w", customerID, err)
	}
	last.Payment, last.Status, last.Total = domain.PaymentMode(payment), domain.OrderStatus(status), domain.Paise(total)
	last.CreatedAt, last.DeliveredAt = parseTime(created), parseTime(deliveredAt.String)
	out.Last = &last
	return out, nil
}

// openLines gives each order the products of its lines and their
// quantities, in their order (what a delivery may name it by: "handwash
// wala order", "10 carton phenyl pahuncha diya").
func openLines(ctx context.Context, tx *dbTx, open []domain.Order) error {
	if len(open) == 0 {
		return nil
	}
	at := map[string]int{}
	args := make([]any, len(open))
	for i, o := range open {
		at[o.ID], args[i] = i, o.ID
	}
	rows, err := tx.QueryContext(ctx, `SELECT order_id, sku, qty FROM order_lines WHERE order_id IN (`+placeholders(len(open))+`)
		ORDER BY order_id, line_no`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, sku string
		var qty int64
		if err := rows.Scan(&id, &sku, &qty); err != nil {
			return err
		}
		o := &open[at[id]]
		o.Lines = append(o.Lines, domain.OrderLine{SKU: sku, Qty: qty})
	}
	return rows.Err()
}

// OrdersNumbered returns up to three order numbers that are number or end
// with "-number" or "/number" (number is digits: nothing in it is a LIKE
// pattern).
func (s *Store) OrdersNumbered(ctx context.Context, number string) ([]string, error) {
	if number == "" || strings.Trim(number, "0123456789") != "" {
		return nil, nil
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id FROM orders WHERE id = ? OR id = ? OR id LIKE ? OR id LIKE ?
		ORDER BY id LIMIT 3`, number, "ORD-"+number, "%-"+number, "%/"+number)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: orders numbered %s: %w", number, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlbooks: orders numbered %s: %w", number, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
