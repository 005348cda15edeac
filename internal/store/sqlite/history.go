package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// AddHistory writes past orders (with their lines) and payments in one
// transaction. It is how the demo's sales history gets into the books; the
// orders are taken as they are, without touching stock or outstanding.
func (s *Store) AddHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, o := range orders {
			if err := insertOrder(ctx, tx, o); err != nil {
				return err
			}
			if err := bumpOrderCounter(ctx, tx, o.ID); err != nil {
				return err
			}
		}
		for _, p := range payments {
			if _, err := tx.ExecContext(ctx, `INSERT INTO payments (customer_id, amount_paise, mode, received_at, reference)
				VALUES (?, ?, ?, ?, ?)`, p.CustomerID, int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference); err != nil {
				return fmt.Errorf("payment for %s: %w", p.CustomerID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: add history: %w", err)
	}
	return nil
}

func insertOrder(ctx context.Context, tx *sql.Tx, o domain.Order) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO orders (id, customer_id, placed_by, payment_mode, status,
		subtotal_paise, gst_paise, total_paise, fingerprint, created_at, committed_at, delivered_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.CustomerID, o.PlacedBy, string(o.Payment), string(o.Status), int64(o.Subtotal), int64(o.GST),
		int64(o.Total), o.Fingerprint, formatTime(o.CreatedAt), nullTime(o.CommittedAt), nullTime(o.DeliveredAt)); err != nil {
		return fmt.Errorf("order %s: %w", o.ID, err)
	}
	for i, l := range o.Lines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_lines (order_id, line_no, sku, qty, said_qty, said_unit,
			price_paise, gst_bp, amount_paise, gst_paise) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			o.ID, i+1, l.SKU, l.Qty, l.SaidQty, l.SaidUnit, int64(l.Price), int64(l.GSTRate), int64(l.Amount),
			int64(l.GSTAmount)); err != nil {
			return fmt.Errorf("order %s line %d: %w", o.ID, i+1, err)
		}
	}
	return nil
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}
