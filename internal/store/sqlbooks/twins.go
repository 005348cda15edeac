package sqlbooks

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Twins: an order taken in the chat is often entered in the ERP too, under
// the ERP's own number. Once the ERP's sales or open orders show it, the
// chat's order names the ERP's in orders.in_erp and sales count the ERP's
// copy only (notTwin): the ERP's books are the truth for sales, and the
// sale counts once. The chat's order stays Munshi's for everything else
// (its status, its delivery, its stock).

// twinChatOrders pairs the ERP's orders with the chat's orders they copy:
// the same customer and the same lines (SKU and quantity ordered), placed
// within days of each other, one to one, the earliest chat order first.
// A chat order whose twin is no longer a sale (an open order the ERP
// closed) may pair again.
func twinChatOrders(ctx context.Context, tx *dbTx, erp []domain.Order, days int) error {
	var unpaired int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders o WHERE o.source = 'munshi'
		AND o.status IN ('committed', 'delivered') AND `+notTwin).Scan(&unpaired); err != nil || unpaired == 0 {
		return err
	}
	for _, e := range erp {
		if e.Status == domain.OrderCancelled {
			continue
		}
		var paired int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE in_erp = ?`, e.ID).Scan(&paired); err != nil {
			return err
		}
		if paired > 0 {
			continue
		}
		from, to := within(e.CreatedAt, days)
		ids, err := stringsOf(ctx, tx, `SELECT o.id FROM orders o WHERE o.source = 'munshi' AND o.customer_id = ?
			AND o.status IN ('committed', 'delivered') AND o.created_at >= ? AND o.created_at <= ? AND `+notTwin+`
			ORDER BY o.created_at, o.id`, e.CustomerID, from, to)
		if err != nil {
			return err
		}
		chat, err := firstWithLines(ctx, tx, linesKey(e.Lines), ids)
		if err != nil {
			return err
		}
		if chat == "" {
			continue
		}
		if err := pair(ctx, tx, chat, e.ID); err != nil {
			return err
		}
	}
	return nil
}

// retwinChatOrders pairs again the chat orders whose ERP twin no longer
// counts as a sale (an open order the ERP closed), with another ERP order
// already in the books that copies them and is nobody's twin: the sale it
// became may have been synced before the open order was closed.
func retwinChatOrders(ctx context.Context, tx *dbTx, days int) error {
	type orphan struct{ id, customer, at string }
	rows, err := tx.QueryContext(ctx, `SELECT o.id, o.customer_id, o.created_at FROM orders o
		WHERE o.source = 'munshi' AND o.in_erp <> '' AND o.status IN ('committed', 'delivered') AND `+notTwin)
	if err != nil {
		return err
	}
	var orphans []orphan
	for rows.Next() {
		var o orphan
		if err := rows.Scan(&o.id, &o.customer, &o.at); err != nil {
			rows.Close()
			return err
		}
		orphans = append(orphans, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range orphans {
		want, err := storedLinesKey(ctx, tx, o.id)
		if err != nil {
			return err
		}
		from, to := within(parseTime(o.at), days)
		ids, err := stringsOf(ctx, tx, `SELECT e.id FROM orders e WHERE e.source = ? AND e.customer_id = ?
			AND e.status IN ('committed', 'delivered') AND e.created_at >= ? AND e.created_at <= ?
			AND NOT EXISTS (SELECT 1 FROM orders m WHERE m.in_erp = e.id) ORDER BY e.created_at, e.id`,
			sourceImport, o.customer, from, to)
		if err != nil {
			return err
		}
		twin, err := firstWithLines(ctx, tx, want, ids)
		if err != nil {
			return err
		}
		if twin == "" {
			continue
		}
		if err := pair(ctx, tx, o.id, twin); err != nil {
			return err
		}
	}
	return nil
}

// firstWithLines is the first of the orders ids whose lines are want
// (linesKey), or "" for none.
func firstWithLines(ctx context.Context, tx *dbTx, want string, ids []string) (string, error) {
	for _, id := range ids {
		got, err := storedLinesKey(ctx, tx, id)
		if err != nil || got == want {
			return id, err
		}
	}
	return "", nil
}

// pair makes the ERP's order erp the twin of the chat's order chat.
func pair(ctx context.Context, tx *dbTx, chat, erp string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET in_erp = ? WHERE id = ?`, erp, chat); err != nil {
		return fmt.Errorf("order %s, in the ERP as %s: %w", chat, erp, err)
	}
	return nil
}

// linesKey is an order's lines as a set to compare: SKU and quantity
// ordered, sorted.
func linesKey(lines []domain.OrderLine) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = fmt.Sprintf("%s×%d", l.SKU, l.Qty)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// storedLinesKey is linesKey of an order in the books.
func storedLinesKey(ctx context.Context, tx *dbTx, id string) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT sku, qty FROM order_lines WHERE order_id = ?`, id)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []domain.OrderLine
	for rows.Next() {
		var l domain.OrderLine
		if err := rows.Scan(&l.SKU, &l.Qty); err != nil {
			return "", err
		}
		lines = append(lines, l)
	}
	return linesKey(lines), rows.Err()
}

// stringsOf runs a query of one text column and returns its values.
func stringsOf(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
