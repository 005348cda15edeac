package sqlbooks

import (
	"context"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// SalesSummary sums the lines of committed and delivered orders created in
// [From, To), grouped as asked. Lines are summed first and names joined to
// the groups after; the totals come from the same pass (window functions
// over the groups), except the count of orders by product, which needs its
// own pass over the orders (an order spans several products).
func (s *Store) SalesSummary(ctx context.Context, sq reports.SalesQuery) (reports.SalesTotals, []reports.SalesLine, error) {
	p := sq.Page.Clamp()
	var t reports.SalesTotals
	var out []reports.SalesLine
	where := sold + ` AND o.created_at >= ? AND o.created_at < ?`
	args := []any{formatTime(sq.From), formatTime(sq.To)}
	orderWhere, orderArgs := where, append([]any{}, args...) // the same orders, without reading lines
	// Sales are what was delivered: a line none of which reached the
	// customer sold nothing, and a short one sold what did.
	where += ` AND l.short_qty < l.qty`
	if n := len(sq.SKUs); n > 0 {
		where += ` AND l.sku IN (` + placeholders(n) + `)`
		orderWhere += ` AND o.id IN (SELECT order_id FROM order_lines WHERE short_qty < qty AND sku IN (` + placeholders(n) + `))`
		args, orderArgs = append(args, anys(sq.SKUs)...), append(orderArgs, anys(sq.SKUs)...)
	}
	if n := len(sq.CustomerIDs); n > 0 {
		where += ` AND o.customer_id IN (` + placeholders(n) + `)`
		orderWhere += ` AND o.customer_id IN (` + placeholders(n) + `)`
		args, orderArgs = append(args, anys(sq.CustomerIDs)...), append(orderArgs, anys(sq.CustomerIDs)...)
	}
	by := sq.By
	if by == "" {
		by = reports.ByProduct
	}
	// Day groups: the UTC text moved to local time.
	day := s.e.localDay("o.created_at", sq.UTCOffset)
	var key, label, join, order string
	switch by {
	case reports.ByCustomer:
		key, label, join, order = `o.customer_id`, `COALESCE(c.name, g.k)`, ` LEFT JOIN customers c ON c.id = g.k`, `g.amount DESC, g.k`
	case reports.ByDay:
		key, label, order = day, `g.k`, `g.k`
	default:
		key, label, order = `l.sku`, `COALESCE(pr.name, g.k)`, `g.amount DESC, g.k`
	}
	// A product's unit and packs come with each group when grouping by
	// product or when a single SKU is summed: only then do quantities add up.
	unit, packs := `''`, `''`
	switch {
	case by == reports.ByProduct:
		join += ` LEFT JOIN products pr ON pr.sku = g.k`
		unit, packs = `COALESCE(pr.unit, '')`, `COALESCE(pr.pack_sizes, '')`
	case len(sq.SKUs) == 1:
		join += ` LEFT JOIN products pr ON pr.sku = ?`
		unit, packs = `COALESCE(pr.unit, '')`, `COALESCE(pr.pack_sizes, '')`
	}
	joinArgs := []any{}
	if by != reports.ByProduct && len(sq.SKUs) == 1 {
		joinArgs = append(joinArgs, sq.SKUs[0])
	}
	// By customer or by day without a product, each order is one row: its
	// subtotal and GST are the sums of its lines (every writer of orders
	// makes them so), and the groups' order counts add up to the total.
	// By product, lines are summed and an order spans several groups, so
	// orders are counted in their own pass; one product's groups count
	// distinct orders (an order may list a SKU twice).
	ordersOnly := len(sq.SKUs) == 0 && by != reports.ByProduct
	ordersAddUp := by != reports.ByProduct || len(sq.SKUs) == 1
	inner := `SELECT ` + key + ` AS k, SUM(l.qty - l.short_qty) AS qty, SUM(l.amount_paise) AS amount, SUM(l.gst_paise) AS gst,
			COUNT(DISTINCT o.id) AS orders
		FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE ` + where + ` GROUP BY k`
	switch {
	case ordersOnly:
		inner = `SELECT ` + key + ` AS k, 0 AS qty, SUM(o.subtotal_paise) AS amount, SUM(o.gst_paise) AS gst, COUNT(*) AS orders
			FROM orders o WHERE ` + orderWhere + ` GROUP BY k`
		args = orderArgs
	case !ordersAddUp:
		inner = `SELECT ` + key + ` AS k, SUM(l.qty - l.short_qty) AS qty, SUM(l.amount_paise) AS amount, SUM(l.gst_paise) AS gst, 0 AS orders
			FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE ` + where + ` GROUP BY k`
	}
	query := `SELECT g.k, ` + label + `, ` + unit + `, ` + packs + `, g.qty, g.amount, g.gst, g.orders,
			COUNT(*) OVER (), SUM(g.qty) OVER (), SUM(g.amount) OVER (), SUM(g.gst) OVER (), SUM(g.orders) OVER ()
		FROM (` + inner + `) g` + join + `
		ORDER BY ` + order
	err := s.report(ctx, "sales summary", func(ctx context.Context, q querier) error {
		page := func(limit, offset int) error {
			rows, err := q.QueryContext(ctx, query+limitOffset(reports.Page{Limit: limit, Offset: offset}), append(append([]any{}, args...), joinArgs...)...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var l reports.SalesLine
				var ps string
				var amount, gst, sumAmount, sumGST int64
				if err := rows.Scan(&l.Key, &l.Label, &l.Unit, &ps, &l.Qty, &amount, &gst, &l.Orders,
					&t.Groups, &t.Qty, &sumAmount, &sumGST, &t.Orders); err != nil {
					return err
				}
				l.Packs, l.Amount, l.GST = parsePacks(ps), domain.Paise(amount), domain.Paise(gst)
				t.Amount, t.GST = domain.Paise(sumAmount), domain.Paise(sumGST)
				out = append(out, l)
			}
			return rows.Err()
		}
		if err := page(p.Limit, p.Offset); err != nil {
			return err
		}
		if len(out) == 0 && p.Offset > 0 { // past the end: the totals alone
			if err := page(1, 0); err != nil {
				return err
			}
			out = nil
		}
		if ordersAddUp || t.Groups == 0 {
			return nil
		}
		return q.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders o WHERE `+orderWhere, orderArgs...).Scan(&t.Orders)
	})
	return t, out, err
}
