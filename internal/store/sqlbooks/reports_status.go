package sqlbooks

import (
	"context"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// OrderStatuses returns the orders a query matches, newest first: drafts
// waiting for an owner or refused by one, and every order in the books,
// imported ones marked. Asked by a draft's reference, a placed draft is
// the order it became. Each side is cut to the page's end before the two
// are merged, so a page reads no more rows of either than it shows.
func (s *Store) OrderStatuses(ctx context.Context, sq reports.OrderStatusQuery) (reports.OrderStatusTotals, []reports.OrderState, error) {
	p := sq.Page.Clamp()
	var t reports.OrderStatusTotals
	var out []reports.OrderState
	filter := func(a string) (string, []any) {
		where, args := `1 = 1`, []any{}
		switch {
		case len(sq.OrderIDs) > 0 && a == "o":
			// A draft's reference (D-57) names the order it was placed as.
			where += ` AND (o.id IN (` + placeholders(len(sq.OrderIDs)) + `) OR o.id IN (SELECT order_id FROM drafts
				WHERE id IN (` + placeholders(len(sq.OrderIDs)) + `) AND order_id <> ''))`
			args = append(append(args, anys(sq.OrderIDs)...), anys(sq.OrderIDs)...)
		case len(sq.OrderIDs) > 0:
			where += ` AND ` + a + `.id IN (` + placeholders(len(sq.OrderIDs)) + `)`
			args = append(args, anys(sq.OrderIDs)...)
		}
		if sq.PlacedBy != "" {
			where += ` AND ` + a + `.placed_by = ?`
			args = append(args, sq.PlacedBy)
		}
		if len(sq.CustomerIDs) > 0 {
			where += ` AND ` + a + `.customer_id IN (` + placeholders(len(sq.CustomerIDs)) + `)`
			args = append(args, anys(sq.CustomerIDs)...)
		}
		if !sq.From.IsZero() {
			where += ` AND ` + a + `.created_at >= ?`
			args = append(args, formatTime(sq.From))
		}
		if !sq.To.IsZero() {
			where += ` AND ` + a + `.created_at < ?`
			args = append(args, formatTime(sq.To))
		}
		return where, args
	}
	draftWhere, draftArgs := filter("d")
	draftWhere += ` AND d.status IN ('pending_approval', 'rejected')`
	orderWhere, orderArgs := filter("o")
	err := s.report(ctx, "order status", func(ctx context.Context, q querier) error {
		// Counted table by table: each groups on its own status index,
		// where the union would sort every row it holds.
		for _, count := range []struct {
			query string
			args  []any
		}{
			{`SELECT d.status, COUNT(*) FROM drafts d WHERE ` + draftWhere + ` GROUP BY d.status`, draftArgs},
			{`SELECT o.status, COUNT(*) FROM orders o WHERE ` + orderWhere + ` GROUP BY o.status`, orderArgs},
		} {
			if err := countStates(ctx, q, &t, count.query, count.args); err != nil {
				return err
			}
		}
		end := p.Offset + p.Limit
		args := append(append([]any{}, draftArgs...), orderArgs...)
		newest := limitOffset(reports.Page{Limit: end})
		rows, err := q.QueryContext(ctx, `SELECT x.id, x.state, x.imported, x.customer_id, COALESCE(c.name, x.customer_id),
				x.placed_by, COALESCE(u.name, ''), x.total, x.lines, x.created_at, x.changed_at
			FROM (
				SELECT * FROM (SELECT d.id AS id, d.status AS state, 0 AS imported, d.customer_id AS customer_id,
					d.placed_by AS placed_by, COALESCE(`+s.e.jsonInt("d.payload", "total")+`, 0) AS total,
					COALESCE(`+s.e.jsonLen("d.payload", "lines")+`, 0) AS lines, d.created_at AS created_at,
					COALESCE(d.decided_at, d.created_at) AS changed_at
					FROM drafts d WHERE `+draftWhere+` ORDER BY d.created_at DESC, d.id DESC`+newest+`) ds
				UNION ALL
				SELECT * FROM (SELECT o.id, o.status, CASE WHEN o.source = 'import' THEN 1 ELSE 0 END, o.customer_id, o.placed_by, o.total_paise,
					(SELECT COUNT(*) FROM order_lines l WHERE l.order_id = o.id), o.created_at,
					COALESCE(o.cancelled_at, o.delivered_at, o.committed_at, o.created_at)
					FROM orders o WHERE `+orderWhere+` ORDER BY o.created_at DESC, o.id DESC`+newest+`) os
			) x LEFT JOIN customers c ON c.id = x.customer_id
			LEFT JOIN users u ON u.phone = x.placed_by AND x.placed_by <> ''
			ORDER BY x.created_at DESC, x.id DESC`+limitOffset(p), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o reports.OrderState
			var total int64
			var created, changed string
			if err := rows.Scan(&o.ID, &o.State, &o.Imported, &o.CustomerID, &o.CustomerName, &o.PlacedBy, &o.PlacedByName,
				&total, &o.Lines, &created, &changed); err != nil {
				return err
			}
			o.Total, o.CreatedAt, o.ChangedAt = domain.Paise(total), parseTime(created), parseTime(changed)
			out = append(out, o)
		}
		return rows.Err()
	})
	return t, out, err
}

// countStates adds the (state, count) rows of query to t.
func countStates(ctx context.Context, q querier, t *reports.OrderStatusTotals, query string, args []any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return err
		}
		switch state {
		case reports.StateAwaitingApproval:
			t.AwaitingApproval += n
		case reports.StateRejected:
			t.Rejected += n
		case reports.StateCommitted:
			t.Committed += n
		case reports.StateDelivered:
			t.Delivered += n
		case reports.StateCancelled:
			t.Cancelled += n
		}
	}
	return rows.Err()
}
