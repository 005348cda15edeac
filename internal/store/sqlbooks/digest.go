package sqlbooks

import (
	"context"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
)

// The daily digest's reads: everything summed in SQL, one row per
// customer, product, day or order at most. Sales are committed and
// delivered orders of any source.

var _ digest.Books = (*Store)(nil)

const sold = `o.status IN ('committed', 'delivered') AND ` + notTwin

// notTwin leaves out an order taken in the chat while the ERP's copy of
// it (orders.in_erp) counts as a sale: the sale is counted once, as the
// ERP's, whose books are the truth for sales. It is a CASE, not an OR:
// SQLite runs the subquery for every order under an OR, even an order
// with no twin, which tripled the cost of a week's sales.
const notTwin = `(CASE WHEN o.in_erp = '' THEN TRUE ELSE NOT EXISTS (SELECT 1 FROM orders twin WHERE twin.id = o.in_erp AND twin.status IN ('committed', 'delivered')) END)`

// CustomerDays sums each span's orders by customer. The spans are a table
// of their own, joined to the orders by time, so that each is one range of
// the orders' status-and-date index, whatever the time zone makes a day.
func (s *Store) CustomerDays(ctx context.Context, spans []digest.Span) ([]digest.CustomerDay, error) {
	if len(spans) == 0 {
		return nil, nil
	}
	values := make([]string, len(spans))
	args := make([]any, 0, 3*len(spans))
	for i, sp := range spans {
		values[i] = "(CAST(? AS INTEGER), ?, ?)"
		args = append(args, i, formatTime(sp.From), formatTime(sp.To))
	}
	var out []digest.CustomerDay
	err := s.report(ctx, "digest sales by day", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, `WITH spans(n, lo, hi) AS (VALUES `+strings.Join(values, ", ")+`)
			SELECT sp.n, o.customer_id, COUNT(*), SUM(o.subtotal_paise), SUM(o.gst_paise), MAX(o.subtotal_paise)
			FROM spans sp CROSS JOIN orders o ON o.created_at >= sp.lo AND o.created_at < sp.hi AND `+sold+`
			GROUP BY sp.n, o.customer_id ORDER BY sp.n, o.customer_id`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r digest.CustomerDay
			var amount, gst, largest int64
			if err := rows.Scan(&r.Span, &r.CustomerID, &r.Orders, &amount, &gst, &largest); err != nil {
				return err
			}
			r.Amount, r.GST, r.Largest = domain.Paise(amount), domain.Paise(gst), domain.Paise(largest)
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// Standings reads every customer with their last order before before
// (walking their orders newest first, stopping at the first sale) and, for
// those who owe, the oldest unpaid bill as the dues report finds it.
func (s *Store) Standings(ctx context.Context, before time.Time) ([]digest.Standing, error) {
	var out []digest.Standing
	err := s.report(ctx, "digest customers", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, `SELECT c.id, c.name, c.segment, c.credit_limit_paise, c.outstanding_paise,
				COALESCE((SELECT o.created_at FROM orders o WHERE o.customer_id = c.id AND o.created_at < ? AND `+sold+`
					ORDER BY o.created_at DESC LIMIT 1), '')
			FROM customers c ORDER BY c.id`, formatTime(before))
		if err != nil {
			return err
		}
		for rows.Next() {
			var st digest.Standing
			var limit, due int64
			var last string
			if err := rows.Scan(&st.CustomerID, &st.Name, &st.Segment, &limit, &due, &last); err != nil {
				rows.Close()
				return err
			}
			st.CreditLimit, st.Outstanding = domain.Paise(limit), domain.Paise(due)
			if last != "" {
				st.LastOrder = parseTime(last)
			}
			out = append(out, st)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		dues := make([]reports.Due, len(out))
		for i := range out {
			dues[i] = reports.Due{CustomerID: out[i].CustomerID, Outstanding: out[i].Outstanding}
		}
		if err := oldestUnpaid(ctx, q, dues); err != nil {
			return err
		}
		for i, d := range dues {
			out[i].OldestBill, out[i].OldestAt = d.OldestBill, d.OldestAt
		}
		return nil
	})
	return out, err
}

// PaymentsIn sums the payments received in a span by customer.
func (s *Store) PaymentsIn(ctx context.Context, sp digest.Span) ([]digest.PaymentSum, error) {
	var out []digest.PaymentSum
	err := s.report(ctx, "digest payments", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, `SELECT customer_id, COUNT(*), SUM(amount_paise) FROM payments
			WHERE received_at >= ? AND received_at < ? GROUP BY customer_id ORDER BY customer_id`,
			formatTime(sp.From), formatTime(sp.To))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p digest.PaymentSum
			var amount int64
			if err := rows.Scan(&p.CustomerID, &p.Payments, &amount); err != nil {
				return err
			}
			p.Amount = domain.Paise(amount)
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// StockAtRisk returns the products with nothing available, or with fewer
// than minDays days of cover at the span's average daily sales:
// available / (sold / days) < minDays ⇔ available · days < minDays · sold.
func (s *Store) StockAtRisk(ctx context.Context, sp digest.Span, days, minDays int) ([]digest.StockItem, error) {
	var out []digest.StockItem
	err := s.report(ctx, "digest stock", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, `WITH `+heldCTE+`, `+soldCTE("")+`
			SELECT p.sku, p.name, p.unit, p.pack_sizes, p.stock_ready, COALESCE(h.qty, 0), p.stock_wip, COALESCE(x.qty, 0)
			FROM products p LEFT JOIN held h ON h.sku = p.sku LEFT JOIN sold x ON x.sku = p.sku
			WHERE p.active AND (p.stock_ready - COALESCE(h.qty, 0) <= 0
				OR (x.qty > 0 AND (p.stock_ready - COALESCE(h.qty, 0)) * ? < ? * x.qty))
			ORDER BY COALESCE(x.qty, 0) DESC, p.name, p.sku`,
			formatTime(sp.From), formatTime(sp.To), days, minDays)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var it digest.StockItem
			var packs string
			if err := rows.Scan(&it.SKU, &it.Name, &it.Unit, &packs, &it.Ready, &it.Committed, &it.WIP, &it.Sold); err != nil {
				return err
			}
			it.Packs = parsePacks(packs)
			out = append(out, it)
		}
		return rows.Err()
	})
	return out, err
}

// Waiting counts and lists the drafts waiting for an owner and the
// committed orders created before lateBefore; imported history is not
// work waiting.
func (s *Store) Waiting(ctx context.Context, lateBefore time.Time, limit int) (digest.Waiting, error) {
	var w digest.Waiting
	limit = max(0, min(limit, reports.MaxRows))
	const drafts = `FROM drafts d LEFT JOIN customers c ON c.id = d.customer_id WHERE d.status = 'pending_approval'`
	const late = `FROM orders o LEFT JOIN customers c ON c.id = o.customer_id
		WHERE o.status = 'committed' AND o.source <> 'import' AND o.created_at < ?`
	cutoff := formatTime(lateBefore)
	err := s.report(ctx, "digest waiting", func(ctx context.Context, q querier) error {
		var draftValue, lateValue int64
		if err := q.QueryRowContext(ctx, `SELECT
			(SELECT COUNT(*) `+drafts+`), (SELECT COALESCE(SUM(`+s.e.jsonInt("d.payload", "total")+`), 0) `+drafts+`),
			(SELECT COUNT(*) `+late+`), (SELECT COALESCE(SUM(o.total_paise), 0) `+late+`)`, cutoff, cutoff).Scan(
			&w.DraftCount, &draftValue, &w.LateCount, &lateValue); err != nil {
			return err
		}
		w.DraftValue, w.LateValue = domain.Paise(draftValue), domain.Paise(lateValue)
		list := func(query string, args ...any) ([]digest.OpenItem, error) {
			rows, err := q.QueryContext(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			var out []digest.OpenItem
			for rows.Next() {
				var it digest.OpenItem
				var total int64
				var at string
				if err := rows.Scan(&it.ID, &it.CustomerID, &it.Customer, &total, &at); err != nil {
					return nil, err
				}
				it.Total, it.CreatedAt = domain.Paise(total), parseTime(at)
				out = append(out, it)
			}
			return out, rows.Err()
		}
		var err error
		if w.Drafts, err = list(`SELECT d.id, d.customer_id, COALESCE(c.name, d.customer_id),
			COALESCE(`+s.e.jsonInt("d.payload", "total")+`, 0), d.created_at `+drafts+` ORDER BY d.created_at, d.`+s.e.seq()+` LIMIT ?`, limit); err != nil {
			return err
		}
		w.Late, err = list(`SELECT o.id, o.customer_id, COALESCE(c.name, o.customer_id), o.total_paise, o.created_at `+late+`
			ORDER BY o.created_at, o.id LIMIT ?`, cutoff, limit)
		return err
	})
	return w, err
}

// DaySaleLines lists the order lines of the sales created in a span, as
// delivered: a line none of which reached the customer is no sale.
func (s *Store) DaySaleLines(ctx context.Context, sp digest.Span) ([]digest.SaleLine, error) {
	var out []digest.SaleLine
	err := s.report(ctx, "digest sale lines", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, `SELECT o.created_at, o.id, o.customer_id, COALESCE(c.name, o.customer_id),
				l.sku, COALESCE(p.name, l.sku), l.qty - l.short_qty, COALESCE(p.unit, ''), l.price_paise, l.amount_paise, l.gst_bp, l.gst_paise
			FROM orders o CROSS JOIN order_lines l ON l.order_id = o.id
				LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN products p ON p.sku = l.sku
			WHERE o.created_at >= ? AND o.created_at < ? AND `+sold+` AND l.short_qty < l.qty
			ORDER BY o.created_at, o.id, l.line_no`, formatTime(sp.From), formatTime(sp.To))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var l digest.SaleLine
			var at string
			var rate, amount, gstRate, gst int64
			if err := rows.Scan(&at, &l.OrderID, &l.CustomerID, &l.Customer, &l.SKU, &l.Product, &l.Qty, &l.Unit,
				&rate, &amount, &gstRate, &gst); err != nil {
				return err
			}
			l.Date, l.Rate, l.Amount = parseTime(at), domain.Paise(rate), domain.Paise(amount)
			l.GSTRate, l.GST = domain.GSTRate(gstRate), domain.Paise(gst)
			out = append(out, l)
		}
		return rows.Err()
	})
	return out, err
}
