package sqlbooks

import (
	"context"
	"fmt"
	"strings"
	"time"

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
			WHERE `+where+` ORDER BY c.outstanding_paise DESC, c.id`+limitOffset(p), args...)
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
		return oldestUnpaid(ctx, q, out)
	})
	return t, out, err
}

// oldestUnpaid dates each due by its oldest unpaid bill: from the bills
// synced from the ERP where the customer has any left to pay, otherwise by
// walking the customer's credit orders newest first, adding up their
// totals until they cover the outstanding amount (payments settle the
// oldest bills first, so the last bill reached is the oldest unpaid).
// Imported orders are bills on the customer's account whatever their
// payment (their files do not say it; payments come in their own file).
// Each source is read for all the dues at once: a list of dues costs three
// statements, not three for each customer.
func oldestUnpaid(ctx context.Context, q querier, dues []reports.Due) error {
	owing := map[string]*reports.Due{}
	for i := range dues {
		if dues[i].Outstanding > 0 {
			owing[dues[i].CustomerID] = &dues[i]
		}
	}
	if len(owing) == 0 {
		return nil
	}
	billed, err := oldestBills(ctx, q, owing)
	if err != nil {
		return err
	}
	for id := range billed {
		delete(owing, id)
	}
	if len(owing) == 0 {
		return nil
	}
	covered := map[string]domain.Paise{}
	left, err := walkBills(ctx, q, owing, covered)
	if err == nil && len(left) > 0 {
		err = windowBills(ctx, q, left, covered)
	}
	if err != nil {
		return err
	}
	for id, d := range owing {
		d.BeforeRecords = covered[id] < d.Outstanding
	}
	return nil
}

// walkBillsLimit bounds the bills walkBills reads. Most dues are covered
// by a customer's last few bills; a long history is left to windowBills,
// which returns only the bills needed.
const walkBillsLimit = 256

// walkBills reads the owing customers' bills newest first, in the index's
// order, and counts each bill that the newer ones leave some of the due
// uncovered by. It returns the dues it could not finish within
// walkBillsLimit bills, reset.
func walkBills(ctx context.Context, q querier, owing map[string]*reports.Due, covered map[string]domain.Paise) (map[string]*reports.Due, error) {
	ids := dueIDs(owing)
	rows, err := q.QueryContext(ctx, fmt.Sprintf(`SELECT o.customer_id, o.id, o.total_paise, o.created_at FROM orders o
		WHERE o.customer_id IN (%s) AND `+bills+`
		ORDER BY o.customer_id, o.created_at DESC, o.id DESC LIMIT %d`, placeholders(len(ids)), walkBillsLimit), ids...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	read := 0
	for rows.Next() {
		var id, bill, at string
		var total int64
		if err := rows.Scan(&id, &bill, &total, &at); err != nil {
			return nil, err
		}
		read++
		if d := owing[id]; d != nil && covered[id] < d.Outstanding { // else the newer bills cover the due
			countBill(d, covered, bill, total, at)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if read < walkBillsLimit {
		return nil, nil // every bill was read
	}
	left := map[string]*reports.Due{}
	for id, d := range owing {
		if covered[id] < d.Outstanding {
			d.OldestBill, d.OldestAt, d.UnpaidBills = "", time.Time{}, 0
			delete(covered, id)
			left[id] = d
		}
	}
	return left, nil
}

// windowBills is walkBills for long histories: each bill with the running
// total up to it, newest first, as long as what came before it leaves
// some of the due uncovered.
func windowBills(ctx context.Context, q querier, owing map[string]*reports.Due, covered map[string]domain.Paise) error {
	values, args := make([]string, 0, len(owing)), make([]any, 0, 2*len(owing))
	for id, d := range owing {
		values = append(values, `(?, CAST(? AS BIGINT))`)
		args = append(args, id, int64(d.Outstanding))
	}
	rows, err := q.QueryContext(ctx, `WITH due(customer_id, outstanding) AS (VALUES `+strings.Join(values, ", ")+`)
		SELECT r.customer_id, r.id, r.total_paise, r.created_at, r.n FROM (
			SELECT o.customer_id, o.id, o.total_paise, o.created_at, due.outstanding,
				SUM(o.total_paise) OVER w AS covered, ROW_NUMBER() OVER w AS n
			FROM orders o JOIN due ON due.customer_id = o.customer_id
			WHERE `+bills+`
			WINDOW w AS (PARTITION BY o.customer_id ORDER BY o.created_at DESC, o.id DESC ROWS UNBOUNDED PRECEDING)
		) r WHERE r.covered - r.total_paise < r.outstanding
		ORDER BY r.customer_id, r.n`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, bill, at string
		var total int64
		var n int
		if err := rows.Scan(&id, &bill, &total, &at, &n); err != nil {
			return err
		}
		// The walk stops at the first bill not needed; a gap in the
		// numbering is one the filter left out.
		if d := owing[id]; d != nil && covered[id] < d.Outstanding && n == d.UnpaidBills+1 {
			countBill(d, covered, bill, total, at)
		}
	}
	return rows.Err()
}

// bills are the orders that are bills on a customer's account: credit
// orders and imported ones, placed or delivered.
const bills = `(o.payment_mode = 'credit' OR o.source = 'import') AND o.status IN ('committed', 'delivered')`

// countBill counts one more unpaid bill of d's customer, the oldest so far.
func countBill(d *reports.Due, covered map[string]domain.Paise, bill string, total int64, at string) {
	covered[d.CustomerID] += domain.Paise(total)
	d.OldestBill, d.OldestAt = bill, parseTime(at)
	d.UnpaidBills++
}

// dueIDs are the customers of the dues, as query arguments.
func dueIDs(owing map[string]*reports.Due) []any {
	ids := make([]any, 0, len(owing))
	for id := range owing {
		ids = append(ids, id)
	}
	return ids
}

// oldestBills dates the dues by the customers' bills synced from the ERP,
// for those with something left to pay on them, and returns which: the
// oldest of those is the oldest unpaid bill, and the due is older than the
// bills when they leave less to pay than the ERP's outstanding (what the
// chat recorded since aside).
func oldestBills(ctx context.Context, q querier, owing map[string]*reports.Due) (map[string]bool, error) {
	ids := dueIDs(owing)
	in := placeholders(len(ids))
	pending := map[string]int64{}
	rows, err := q.QueryContext(ctx, `SELECT customer_id, SUM(amount_paise) FROM provisional
		WHERE figure = 'dues' AND customer_id IN (`+in+`) AND settled_at IS NULL GROUP BY customer_id`, ids...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id string
		var amount int64
		if err := rows.Scan(&id, &amount); err != nil {
			rows.Close()
			return nil, err
		}
		pending[id] = amount
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = q.QueryContext(ctx, `SELECT b.customer_id, b.number, b.date, b.n, b.left_to_pay FROM (
			SELECT customer_id, number, date, COUNT(*) OVER (PARTITION BY customer_id) AS n,
				SUM(balance_paise) OVER (PARTITION BY customer_id) AS left_to_pay,
				ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY date, number) AS k
			FROM bills WHERE customer_id IN (`+in+`) AND balance_paise > 0
		) b WHERE b.k = 1`, ids...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	billed := map[string]bool{}
	for rows.Next() {
		var id, number, date string
		var n int
		var left int64
		if err := rows.Scan(&id, &number, &date, &n, &left); err != nil {
			return nil, err
		}
		d := owing[id]
		if d == nil {
			continue
		}
		d.OldestBill, d.OldestAt, d.UnpaidBills = number, parseTime(date), n
		d.BeforeRecords = left < int64(d.Outstanding)-pending[id]
		billed[id] = true
	}
	return billed, rows.Err()
}
