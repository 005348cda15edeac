package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Where a row of orders or payments came from (0007_ledger.sql).
const (
	sourceMunshi = "munshi"
	sourceImport = "import"
)

// ImportHistory writes orders and payments from history files with source
// 'import', in one transaction, idempotently: an order is upserted by its
// id (its lines replaced when they changed), a payment by its customer and
// reference (a payment without one by customer, date, amount and mode,
// repeated as often as the file repeats it), and rows already as given are
// left untouched, so a second import of the same file changes nothing.
//
// Imported rows move neither stock nor outstanding. History that would
// overwrite Munshi's own records — an order id Munshi made or holds as a
// draft, a reference Munshi recorded with another amount or mode — refuses
// the whole import with a *domain.HistoryClash naming them. An imported
// ORD-n moves the order counter past n, so Munshi never reuses it, and an
// imported D-n the draft counter, so no draft is shown under its name.
func (s *Store) ImportHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) (domain.HistoryImport, error) {
	var sum domain.HistoryImport
	err := s.inTx(ctx, func(tx *dbTx) error {
		clash := &domain.HistoryClash{}
		var err error
		if sum.Orders, err = importOrders(ctx, tx, orders, clash); err != nil {
			return err
		}
		if sum.Payments, err = importPayments(ctx, tx, payments, clash); err != nil {
			return err
		}
		if len(clash.Orders) > 0 || len(clash.Payments) > 0 {
			return clash
		}
		return nil
	})
	var clash *domain.HistoryClash
	switch {
	case errors.As(err, &clash):
		return domain.HistoryImport{}, err
	case err != nil:
		return domain.HistoryImport{}, fmt.Errorf("sqlbooks: import history: %w", err)
	}
	return sum, nil
}

func importOrders(ctx context.Context, tx *dbTx, orders []domain.Order, clash *domain.HistoryClash) (domain.Tally, error) {
	var t domain.Tally
	if len(orders) == 0 {
		return t, nil
	}
	w, err := prepareOrderWriter(ctx, tx)
	if err != nil {
		return t, err
	}
	defer w.close()
	w.source = sourceImport
	var past numbered
	for _, o := range orders {
		source, was, status, err := storedOrder(ctx, tx, o.ID)
		if err != nil {
			return t, err
		}
		switch {
		case source == "" && draftExists(ctx, tx, o.ID):
			clash.Orders = append(clash.Orders, o.ID)
		case source == "":
			if err := w.write(ctx, o); err != nil {
				return t, err
			}
			t.Added++
		case source != sourceImport:
			clash.Orders = append(clash.Orders, o.ID)
		case was == orderText(o):
			t.Unchanged++
		case status != domain.OrderCommitted && o.Status == domain.OrderCommitted:
			// Delivered or cancelled since the file was written (from the
			// chat): the books keep what happened after it.
			t.Unchanged++
		default:
			if err := replaceOrder(ctx, tx, w, o); err != nil {
				return t, err
			}
			t.Updated++
		}
		past.see(o.ID)
	}
	return t, past.keep(ctx, tx)
}

// storedOrder returns the source of the order with that id ("" when there
// is none) and, for comparing, its text as orderText writes it and its
// status.
func storedOrder(ctx context.Context, tx *dbTx, id string) (string, string, domain.OrderStatus, error) {
	var o domain.Order
	var source, payment, status, created string
	var committed, delivered sql.NullString
	var sub, gst, total int64
	err := tx.QueryRowContext(ctx, `SELECT source, customer_id, placed_by, payment_mode, status, subtotal_paise, gst_paise,
		total_paise, fingerprint, created_at, committed_at, delivered_at FROM orders WHERE id = ?`, id).Scan(
		&source, &o.CustomerID, &o.PlacedBy, &payment, &status, &sub, &gst, &total, &o.Fingerprint, &created, &committed, &delivered)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", nil
	} else if err != nil {
		return "", "", "", fmt.Errorf("order %s: %w", id, err)
	}
	if source != sourceImport {
		return source, "", "", nil // never rewritten, so not compared
	}
	o.ID, o.Payment, o.Status = id, domain.PaymentMode(payment), domain.OrderStatus(status)
	o.Subtotal, o.GST, o.Total = domain.Paise(sub), domain.Paise(gst), domain.Paise(total)
	o.CreatedAt, o.CommittedAt, o.DeliveredAt = parseTime(created), parseTime(committed.String), parseTime(delivered.String)
	rows, err := tx.QueryContext(ctx, `SELECT sku, qty, said_qty, said_unit, price_paise, gst_bp, amount_paise, gst_paise
		FROM order_lines WHERE order_id = ? ORDER BY line_no`, id)
	if err != nil {
		return "", "", "", fmt.Errorf("order %s lines: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var l domain.OrderLine
		var price, rate, amount, lineGST int64
		if err := rows.Scan(&l.SKU, &l.Qty, &l.SaidQty, &l.SaidUnit, &price, &rate, &amount, &lineGST); err != nil {
			return "", "", "", fmt.Errorf("order %s lines: %w", id, err)
		}
		l.Price, l.GSTRate, l.Amount, l.GSTAmount = domain.Paise(price), domain.GSTRate(rate), domain.Paise(amount), domain.Paise(lineGST)
		o.Lines = append(o.Lines, l)
	}
	return source, orderText(o), o.Status, rows.Err()
}

// orderText is an order as the books keep it, times to the microsecond
// in UTC, for telling whether an import changes it.
func orderText(o domain.Order) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%s|%d|%d|%d|%s|%s|%v|%v", o.CustomerID, o.PlacedBy, o.Payment, o.Status, o.Subtotal, o.GST, o.Total,
		o.Fingerprint, formatTime(o.CreatedAt), nullTime(o.CommittedAt), nullTime(o.DeliveredAt))
	for _, l := range o.Lines {
		fmt.Fprintf(&b, "\n%s|%d|%d|%s|%d|%d|%d|%d", l.SKU, l.Qty, l.SaidQty, l.SaidUnit, l.Price, l.GSTRate, l.Amount, l.GSTAmount)
	}
	return b.String()
}

func draftExists(ctx context.Context, tx *dbTx, id string) bool {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM drafts WHERE id = ?`, id).Scan(&n)
	return err != nil || n > 0 // unsure counts as taken: never overwrite
}

// replaceOrder rewrites an imported order that the file now gives
// differently: its header, and its lines anew.
func replaceOrder(ctx context.Context, tx *dbTx, w orderWriter, o domain.Order) error {
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET customer_id = ?, placed_by = ?, payment_mode = ?, status = ?,
		subtotal_paise = ?, gst_paise = ?, total_paise = ?, fingerprint = ?, created_at = ?, committed_at = ?, delivered_at = ?
		WHERE id = ? AND source = ?`, o.CustomerID, o.PlacedBy, string(o.Payment), string(o.Status), int64(o.Subtotal), int64(o.GST),
		int64(o.Total), o.Fingerprint, formatTime(o.CreatedAt), nullTime(o.CommittedAt), nullTime(o.DeliveredAt), o.ID, sourceImport); err != nil {
		return fmt.Errorf("order %s: %w", o.ID, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM order_lines WHERE order_id = ?`, o.ID); err != nil {
		return fmt.Errorf("order %s lines: %w", o.ID, err)
	}
	return w.writeLines(ctx, o)
}

// paymentKey is what tells apart payments without a reference.
type paymentKey struct {
	customer, at, mode string
	amount             domain.Paise
}

func importPayments(ctx context.Context, tx *dbTx, payments []domain.Payment, clash *domain.HistoryClash) (domain.Tally, error) {
	var t domain.Tally
	if len(payments) == 0 {
		return t, nil
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO payments (customer_id, amount_paise, mode, received_at, reference, source)
		VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return t, err
	}
	defer insert.Close()
	add := func(p domain.Payment) error {
		if _, err := insert.ExecContext(ctx, p.CustomerID, int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference, sourceImport); err != nil {
			return fmt.Errorf("payment of %s: %w", p.CustomerID, err)
		}
		t.Added++
		return nil
	}
	// Payments without a reference: the file's k alike need k in the books.
	stored := map[paymentKey]int{}
	for i, p := range payments {
		if p.Reference == "" {
			k := paymentKey{p.CustomerID, formatTime(p.ReceivedAt), string(p.Mode), p.Amount}
			n, ok := stored[k]
			if !ok {
				if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM payments WHERE customer_id = ? AND received_at = ?
					AND amount_paise = ? AND mode = ? AND reference = '' AND source = ?`,
					k.customer, k.at, int64(k.amount), k.mode, sourceImport).Scan(&n); err != nil {
					return t, err
				}
			}
			if n > 0 {
				t.Unchanged++
				stored[k] = n - 1
			} else if err := add(p); err != nil {
				return t, err
			} else {
				stored[k] = 0
			}
			continue
		}
		var id, amount int64
		var mode, at, ref, source string
		err := tx.QueryRowContext(ctx, `SELECT id, amount_paise, mode, received_at, reference, source FROM payments
			WHERE customer_id = ? AND upper(reference) = upper(?) AND reference <> ''`, p.CustomerID, p.Reference).Scan(
			&id, &amount, &mode, &at, &ref, &source)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if err := add(p); err != nil {
				return t, err
			}
		case err != nil:
			return t, err
		case source != sourceImport:
			// Munshi recorded it from the chat: the same payment, or a clash.
			if domain.Paise(amount) == p.Amount && mode == string(p.Mode) {
				t.Unchanged++
			} else {
				clash.Payments = append(clash.Payments, i)
			}
		case domain.Paise(amount) == p.Amount && mode == string(p.Mode) && at == formatTime(p.ReceivedAt) && ref == p.Reference:
			t.Unchanged++
		default:
			if _, err := tx.ExecContext(ctx, `UPDATE payments SET amount_paise = ?, mode = ?, received_at = ?, reference = ? WHERE id = ?`,
				int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference, id); err != nil {
				return t, fmt.Errorf("payment of %s: %w", p.CustomerID, err)
			}
			t.Updated++
		}
	}
	return t, nil
}
