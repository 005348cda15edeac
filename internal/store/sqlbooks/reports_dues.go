package sqlbooks

import (
	"context"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// Dues returns what customers owe, largest first, with their oldest unpaid
// bills (see reports.Due for how that is derived).
func (s *Store) Dues(ctx context.Context, dq reports.DuesQuery) (reports.DuesTotals, []reports.Due, error) {
	p := dq.Page.Clamp()
	var t reports.DuesTotals
	var out []reports.Due
	where, args := `c.outstanding_paise > 0`, []any{}
	if len(dq.CustomerIDs) > 0 {
		where, args = `c.id IN (`+placeholders(len(dq.CustomerIDs))+`)`, anys(dq.CustomerIDs)
	}
	err := s.report(ctx, "dues", func(ctx context.Context, q querier) error {
		var sum int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(c.outstanding_paise), 0),
			COALESCE(SUM(CASE WHEN c.outstanding_paise > c.credit_limit_paise THEN 1 ELSE 0 END), 0) FROM customers c WHERE `+where, args...).Scan(
			&t.Customers, &sum, &t.OverLimit); err != nil {
			return err
		}
		t.Outstanding = domain.Paise(sum)
		rows, err := q.QueryContext(ctx, `SELECT c.id, c.name, c.outstanding_paise, c.credit_limit_paise FROM customers c
			WHERE `+where+` ORDER BY c.outstanding_paise DESC, c.id LIMIT ? OFFSET ?`, append(args, p.Limit, p.Offset)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var d reports.Due
			var due, limit int64
			if err := rows.Scan(&d.CustomerID, &d.Name, &due, &limit); err != nil {
				rows.Close()
				return err
			}
			d.Outstanding, d.CreditLimit = domain.Paise(due), domain.Paise(limit)
			out = append(out, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if t.AsOf, err = addSyncedDues(ctx, q, out); err != nil {
			return err
		}
		for i := range out {
			if err := oldestUnpaid(ctx, q, &out[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return t, out, err
}

// oldestUnpaid walks the customer's credit bills newest first, adding up
// their totals until they cover the outstanding amount: payments settle
// the oldest bills first, so the last bill reached is the oldest unpaid.
// Imported orders are bills on the customer's account whatever their
// payment (their files do not say it; payments come in their own file).
func oldestUnpaid(ctx context.Context, q querier, d *reports.Due) error {
	if d.Outstanding <= 0 {
		return nil
	}
	if billed, err := oldestBill(ctx, q, d); billed || err != nil {
		return err
	}
	rows, err := q.QueryContext(ctx, `SELECT id, total_paise, created_at FROM orders
		WHERE customer_id = ? AND (payment_mode = 'credit' OR source = 'import') AND status IN ('committed', 'delivered')
		ORDER BY created_at DESC, id DESC`, d.CustomerID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var covered domain.Paise
	for covered < d.Outstanding && rows.Next() {
		var id, at string
		var total int64
		if err := rows.Scan(&id, &total, &at); err != nil {
			return err
		}
		covered += domain.Paise(total)
		d.OldestBill, d.OldestAt = id, parseTime(at)
		d.UnpaidBills++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	d.BeforeRecords = covered < d.Outstanding
	return nil
}

// oldestBill dates the dues by the customer's bills synced from the ERP,
// if any has something left to pay: the oldest of those is the oldest
// unpaid bill, and the due is older than the bills when they leave less
// to pay than the ERP's outstanding (what the chat recorded since aside).
func oldestBill(ctx context.Context, q querier, d *reports.Due) (bool, error) {
	var n int
	var left int64
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(balance_paise), 0) FROM bills
		WHERE customer_id = ? AND balance_paise > 0`, d.CustomerID).Scan(&n, &left); err != nil || n == 0 {
		return false, err
	}
	var number, date string
	if err := q.QueryRowContext(ctx, `SELECT number, date FROM bills WHERE customer_id = ? AND balance_paise > 0
		ORDER BY date, number LIMIT 1`, d.CustomerID).Scan(&number, &date); err != nil {
		return false, err
	}
	var pending int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(amount_paise), 0) FROM provisional
		WHERE figure = 'dues' AND customer_id = ? AND settled_at IS NULL`, d.CustomerID).Scan(&pending); err != nil {
		return false, err
	}
	d.OldestBill, d.OldestAt, d.UnpaidBills = number, parseTime(date), n
	d.BeforeRecords = left < int64(d.Outstanding)-pending
	return true, nil
}
