package sqlbooks

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// AddHistory writes past orders (with their lines) and payments in one
// transaction. It is how the demo's sales history gets into the books; the
// orders are taken as they are, without touching stock or outstanding.
// Statements are prepared once for the batch, and the counters are moved
// once, past the highest numbered order.
func (s *Store) AddHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) error {
	err := s.inTx(ctx, func(tx *dbTx) error {
		if lines(orders) >= bulkLines {
			// A bulk load touches the pages of the order indexes again and
			// again: keep them in memory while it runs.
			var was int64
			if err := tx.QueryRowContext(ctx, `PRAGMA cache_size`).Scan(&was); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = %d`, -bulkCacheKiB)); err != nil {
				return err
			}
			defer tx.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA cache_size = %d`, was))
		}
		w, err := prepareOrderWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		var past numbered
		for _, o := range orders {
			if err := w.write(ctx, o); err != nil {
				return err
			}
			past.see(o.ID)
		}
		if err := past.keep(ctx, tx); err != nil {
			return err
		}
		if len(payments) == 0 {
			return nil
		}
		pay, err := tx.PrepareContext(ctx, `INSERT INTO payments (customer_id, amount_paise, mode, received_at, reference)
			VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer pay.Close()
		for _, p := range payments {
			if _, err := pay.ExecContext(ctx, p.CustomerID, int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference); err != nil {
				return fmt.Errorf("payment for %s: %w", p.CustomerID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: add history: %w", err)
	}
	return nil
}

// bulkLines is how many order lines make AddHistory a bulk load, and
// bulkCacheKiB the writer's page cache while it runs (SQLite's default
// is 2,000 KiB).
const (
	bulkLines    = 20000
	bulkCacheKiB = 131072
)

func lines(orders []domain.Order) int {
	n := 0
	for _, o := range orders {
		n += len(o.Lines)
	}
	return n
}

// numbered is how far history's numbers go, so the counters stay past
// them: Munshi never places an ORD-n the books already hold, nor shows a
// draft D-n when an order of the books is called that.
type numbered struct{ order, draft int64 }

func (n *numbered) see(id string) {
	n.order = max(n.order, orderNumber(id))
	if domain.IsDraftRef(id) {
		d, _ := strconv.ParseInt(strings.TrimPrefix(id, domain.DraftPrefix), 10, 64)
		n.draft = max(n.draft, d)
	}
}

// keep moves the counters past what n saw, inside tx.
func (n numbered) keep(ctx context.Context, tx *dbTx) error {
	for _, c := range []struct {
		name string
		past int64
	}{{"order", n.order}, {"draft", n.draft}} {
		if c.past == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE counters SET value = `+tx.e.greatest("value", "?")+` WHERE name = ?`, c.past, c.name); err != nil {
			return err
		}
	}
	return nil
}

// orderNumber is n of an order numbered ORD-n, else 0.
func orderNumber(id string) int64 {
	var n int64
	if _, err := fmt.Sscanf(id, "ORD-%d", &n); err != nil {
		return 0
	}
	return n
}

// orderWriter inserts orders and their lines inside one transaction, with
// source saying where they came from ("munshi" when empty).
type orderWriter struct {
	order, line *sql.Stmt
	source      string
}

func prepareOrderWriter(ctx context.Context, tx *dbTx) (orderWriter, error) {
	var w orderWriter
	var err error
	if w.order, err = tx.PrepareContext(ctx, `INSERT INTO orders (id, customer_id, placed_by, payment_mode, status,
		subtotal_paise, gst_paise, total_paise, fingerprint, created_at, committed_at, delivered_at, source)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`); err != nil {
		return w, err
	}
	if w.line, err = tx.PrepareContext(ctx, `INSERT INTO order_lines (order_id, line_no, sku, qty, said_qty, said_unit,
		short_qty, price_paise, gst_bp, amount_paise, gst_paise) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`); err != nil {
		w.order.Close()
		return w, err
	}
	return w, nil
}

func (w orderWriter) close() {
	w.order.Close()
	w.line.Close()
}

func (w orderWriter) write(ctx context.Context, o domain.Order) error {
	source := w.source
	if source == "" {
		source = sourceMunshi
	}
	if _, err := w.order.ExecContext(ctx, o.ID, o.CustomerID, o.PlacedBy, string(o.Payment), string(o.Status), int64(o.Subtotal),
		int64(o.GST), int64(o.Total), o.Fingerprint, formatTime(o.CreatedAt), nullTime(o.CommittedAt), nullTime(o.DeliveredAt), source); err != nil {
		return fmt.Errorf("order %s: %w", o.ID, err)
	}
	return w.writeLines(ctx, o)
}

func (w orderWriter) writeLines(ctx context.Context, o domain.Order) error {
	for i, l := range o.Lines {
		if _, err := w.line.ExecContext(ctx, o.ID, i+1, l.SKU, l.Qty, l.SaidQty, l.SaidUnit, l.Short, int64(l.Price), int64(l.GSTRate),
			int64(l.Amount), int64(l.GSTAmount)); err != nil {
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
