package sqlbooks

import (
	"context"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// OpenOrders returns orders waiting for approval, then for delivery, each
// oldest first. Imported history is left out: an order a history file
// calls committed was open in another system, and Munshi cannot deliver
// it (order_status shows it, as history).
func (s *Store) OpenOrders(ctx context.Context, oq reports.OpenOrdersQuery) (reports.OpenOrdersTotals, []reports.OpenOrder, error) {
	p := oq.Page.Clamp()
	var t reports.OpenOrdersTotals
	var out []reports.OpenOrder
	draftWhere, orderWhere, args := `d.status = 'pending_approval'`, `o.status = 'committed' AND o.source <> 'import'`, []any{}
	if oq.PlacedBy != "" {
		draftWhere += ` AND d.placed_by = ?`
		orderWhere += ` AND o.placed_by = ?`
		args = append(args, oq.PlacedBy)
	}
	if n := len(oq.CustomerIDs); n > 0 {
		draftWhere += ` AND d.customer_id IN (` + placeholders(n) + `)`
		orderWhere += ` AND o.customer_id IN (` + placeholders(n) + `)`
		args = append(args, anys(oq.CustomerIDs)...)
	}
	both := append(append([]any{}, args...), args...)
	err := s.report(ctx, "open orders", func(ctx context.Context, q querier) error {
		var awaitingValue, deliverValue int64
		if err := q.QueryRowContext(ctx, `SELECT
			(SELECT COUNT(*) FROM drafts d WHERE `+draftWhere+`),
			(SELECT COALESCE(SUM(`+s.e.jsonInt("d.payload", "total")+`), 0) FROM drafts d WHERE `+draftWhere+`),
			(SELECT COUNT(*) FROM orders o WHERE `+orderWhere+`),
			(SELECT COALESCE(SUM(o.total_paise), 0) FROM orders o WHERE `+orderWhere+`)`,
			append(append([]any{}, both...), both...)...).Scan(&t.AwaitingApproval, &awaitingValue, &t.ToDeliver, &deliverValue); err != nil {
			return err
		}
		t.AwaitingApprovalValue, t.ToDeliverValue = domain.Paise(awaitingValue), domain.Paise(deliverValue)
		rows, err := q.QueryContext(ctx, `SELECT x.kind, x.id, x.customer_id, COALESCE(c.name, x.customer_id), x.placed_by,
				x.total, x.lines, x.items, x.created_at
			FROM (
				SELECT 0 AS kind, d.id AS id, d.customer_id AS customer_id, d.placed_by AS placed_by,
					COALESCE(`+s.e.jsonInt("d.payload", "total")+`, 0) AS total,
					COALESCE(`+s.e.jsonLen("d.payload", "lines")+`, 0) AS lines,
					COALESCE((SELECT `+s.e.joined(s.e.jsonText("j.value", "SKU")+` || ' × ' || `+s.e.jsonText("j.value", "Qty"), ", ", "")+`
						FROM `+s.e.jsonEach("d.payload", "lines", "j")+`), '') AS items,
					d.created_at AS created_at
				FROM drafts d WHERE `+draftWhere+`
				UNION ALL
				SELECT 1, o.id, o.customer_id, o.placed_by, o.total_paise,
					(SELECT COUNT(*) FROM order_lines l WHERE l.order_id = o.id),
					COALESCE((SELECT `+s.e.joined("sku || ' × ' || qty", ", ", "line_no")+` FROM
						(SELECT sku, qty, line_no FROM order_lines l WHERE l.order_id = o.id ORDER BY line_no) ls), ''),
					o.created_at
				FROM orders o WHERE `+orderWhere+`
			) x LEFT JOIN customers c ON c.id = x.customer_id
			ORDER BY x.kind, x.created_at, x.id`+limitOffset(p), both...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o reports.OpenOrder
			var kind int
			var total int64
			var at string
			if err := rows.Scan(&kind, &o.ID, &o.CustomerID, &o.CustomerName, &o.PlacedBy, &total, &o.Lines, &o.Items, &at); err != nil {
				return err
			}
			o.Status = reports.ToDeliver
			if kind == 0 {
				o.Status = reports.AwaitingApproval
			}
			o.Total, o.CreatedAt = domain.Paise(total), parseTime(at)
			out = append(out, o)
		}
		return rows.Err()
	})
	return t, out, err
}
