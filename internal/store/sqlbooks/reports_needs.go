package sqlbooks

import (
	"context"

	"github.com/munshi/munshi/reports"
)

// soldCTE sums the base units of committed and delivered orders created in
// [?, ?) by SKU, as delivered (imported history included: it is sales),
// starting from the orders of the period, whose lines a covering index
// holds; filter narrows the lines ("" for all).
func soldCTE(filter string) string {
	return `sold AS MATERIALIZED (SELECT l.sku AS sku, SUM(l.qty - l.short_qty) AS qty
		FROM orders o CROSS JOIN order_lines l ON l.order_id = o.id
		WHERE o.created_at >= ? AND o.created_at < ? AND ` + sold + filter + ` GROUP BY l.sku)`
}

// StockNeeds ranks a stock answer's products in one statement. The days
// of cover, available / (sold / days), order as available / sold (the
// days are the same for every product); the quotient is a double, exact in
// its order while available × sold stays under 2⁵² (equal ratios are equal
// doubles, so ties fall to name and SKU as they should).
func (s *Store) StockNeeds(ctx context.Context, nq reports.StockNeedsQuery) ([]reports.StockLine, error) {
	limit := reports.Page{Limit: nq.Limit}.Clamp().Limit
	var lineSKUs, out string
	productSKUs := ` WHERE p.active` // inactive products are in no stock answer
	var skus []any
	if n := len(nq.SKUs); n > 0 {
		in := ` IN (` + placeholders(n) + `)`
		lineSKUs, productSKUs, skus = ` AND l.sku`+in, productSKUs+` AND p.sku`+in, anys(nq.SKUs)
	}
	if nq.OutOnly {
		out = ` WHERE available <= 0`
	}
	query := `WITH ` + heldCTE + `, ` + soldCTE(lineSKUs) + `,
		stock AS (SELECT ` + stockColumns + `, COALESCE(h.qty, 0) AS committed,
				p.stock_ready - COALESCE(h.qty, 0) AS available, COALESCE(x.qty, 0) AS sold
			FROM products p LEFT JOIN held h ON h.sku = p.sku LEFT JOIN sold x ON x.sku = p.sku` + productSKUs + `)
		SELECT sku, name, unit, pack_sizes, price_paise, stock_ready, stock_wip, committed FROM stock` + out + `
		ORDER BY CASE WHEN available <= 0 THEN 0 WHEN sold > 0 THEN 1 ELSE 2 END,
			CASE WHEN available <= 0 THEN sold ELSE 0 END DESC,
			CASE WHEN available > 0 AND sold > 0 THEN CAST(available AS DOUBLE PRECISION) / sold ELSE 0 END,
			name, sku` + limitOffset(reports.Page{Limit: limit})
	args := append(append([]any{formatTime(nq.From), formatTime(nq.To)}, skus...), skus...)
	var lines []reports.StockLine
	err := s.report(ctx, "stock needs", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var committed int64
			l, err := scanStockLine(rows, &committed)
			if err != nil {
				return err
			}
			l.Committed = committed
			lines = append(lines, l)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		_, err = addSyncedStock(ctx, q, lines)
		return err
	})
	return lines, err
}
