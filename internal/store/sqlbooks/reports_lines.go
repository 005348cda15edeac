package sqlbooks

import (
	"context"
	"database/sql"
	"fmt"
	"iter"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// SaleLines streams the lines of committed and delivered orders created in
// [From, To), oldest order first, from one read transaction (a WAL
// snapshot: writers go on meanwhile). Rows are read as the caller asks for
// them, so half a million lines never sit in memory; there is no
// ReportTimeout, the caller's ctx bounds it.
func (s *Store) SaleLines(ctx context.Context, sq reports.SalesQuery) iter.Seq2[reports.SaleLine, error] {
	return func(yield func(reports.SaleLine, error) bool) {
		fail := func(err error) { yield(reports.SaleLine{}, fmt.Errorf("sqlbooks: sale lines: %w", err)) }
		// As delivered: a line none of which reached the customer is no sale.
		where := sold + ` AND o.created_at >= ? AND o.created_at < ? AND l.short_qty < l.qty`
		args := []any{formatTime(sq.From), formatTime(sq.To)}
		if n := len(sq.SKUs); n > 0 {
			where += ` AND l.sku IN (` + placeholders(n) + `)`
			args = append(args, anys(sq.SKUs)...)
		}
		if n := len(sq.CustomerIDs); n > 0 {
			where += ` AND o.customer_id IN (` + placeholders(n) + `)`
			args = append(args, anys(sq.CustomerIDs)...)
		}
		tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			fail(err)
			return
		}
		defer tx.Rollback()
		rows, err := tx.QueryContext(ctx, `SELECT o.id, o.created_at, o.customer_id, COALESCE(c.name, o.customer_id),
				l.sku, COALESCE(p.name, l.sku), COALESCE(p.unit, ''), l.qty - l.short_qty, l.price_paise, l.gst_bp, l.amount_paise, l.gst_paise
			FROM orders o JOIN order_lines l ON l.order_id = o.id
			LEFT JOIN customers c ON c.id = o.customer_id
			LEFT JOIN products p ON p.sku = l.sku
			WHERE `+where+`
			ORDER BY o.created_at, o.id, l.line_no`, args...)
		if err != nil {
			fail(err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var l reports.SaleLine
			var at string
			var rate, gstRate, amount, gst int64
			if err := rows.Scan(&l.OrderID, &at, &l.CustomerID, &l.Customer, &l.SKU, &l.Product, &l.Unit,
				&l.Qty, &rate, &gstRate, &amount, &gst); err != nil {
				fail(err)
				return
			}
			l.At, l.Rate, l.GSTRate, l.Amount, l.GST = parseTime(at), domain.Paise(rate), domain.GSTRate(gstRate), domain.Paise(amount), domain.Paise(gst)
			if !yield(l, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			fail(err)
		}
	}
}
