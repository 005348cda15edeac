package sqlbooks

import (
	"context"
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// PaymentsReceived sums the payments received in [From, To), grouped as
// asked. Every payment counts, whatever its source: recorded through the
// chat, imported from history files or written with the demo's history,
// each is money that came in. The totals come from their own pass over the
// same rows, so that a page past the end still has them.
func (s *Store) PaymentsReceived(ctx context.Context, pq reports.PaymentsQuery) (reports.PaymentsTotals, []reports.PaymentLine, error) {
	p := pq.Page.Clamp()
	var t reports.PaymentsTotals
	var out []reports.PaymentLine
	where := `p.received_at >= ? AND p.received_at < ?`
	args := []any{formatTime(pq.From), formatTime(pq.To)}
	if n := len(pq.CustomerIDs); n > 0 {
		where += ` AND p.customer_id IN (` + placeholders(n) + `)`
		args = append(args, anys(pq.CustomerIDs)...)
	}
	if n := len(pq.Modes); n > 0 {
		where += ` AND p.mode IN (` + placeholders(n) + `)`
		for _, m := range pq.Modes {
			args = append(args, string(m))
		}
	}
	// Day groups: the UTC text moved to local time, as sales by day are.
	day := s.e.localDay("p.received_at", pq.UTCOffset)
	// Every grouping reads the same columns: key, label, customer id and
	// name, mode, amount, payments, customers, modes, latest, reference,
	// imported.
	var key, query string
	switch pq.By {
	case reports.PaymentsByMode:
		key = `p.mode`
		query = `SELECT p.mode, p.mode, '', '', p.mode, SUM(p.amount_paise) AS amount, COUNT(*), COUNT(DISTINCT p.customer_id),
				p.mode, MAX(p.received_at), '', 0
			FROM payments p WHERE ` + where + ` GROUP BY p.mode ORDER BY amount DESC, p.mode`
	case reports.PaymentsByDay:
		key = day
		query = `SELECT ` + day + ` AS k, ` + day + `, '', '', '', SUM(p.amount_paise), COUNT(*), COUNT(DISTINCT p.customer_id),
				` + s.e.joined("DISTINCT p.mode", ",", "") + `, MAX(p.received_at), '', 0
			FROM payments p WHERE ` + where + ` GROUP BY k ORDER BY k DESC`
	case reports.PaymentsByPayment:
		key = `p.id`
		query = `SELECT CAST(p.id AS TEXT), COALESCE(c.name, p.customer_id), p.customer_id, COALESCE(c.name, p.customer_id), p.mode,
				p.amount_paise, 1, 1, p.mode, p.received_at, p.reference, p.source = '` + sourceImport + `'
			FROM payments p LEFT JOIN customers c ON c.id = p.customer_id
			WHERE ` + where + ` ORDER BY p.received_at DESC, p.id DESC`
	default:
		key = `p.customer_id`
		query = `SELECT g.k, COALESCE(c.name, g.k), g.k, COALESCE(c.name, g.k), '', g.amount, g.n, 1, g.modes, g.last, '', 0
			FROM (SELECT p.customer_id AS k, SUM(p.amount_paise) AS amount, COUNT(*) AS n, ` + s.e.joined("DISTINCT p.mode", ",", "") + ` AS modes,
					MAX(p.received_at) AS last
				FROM payments p WHERE ` + where + ` GROUP BY p.customer_id) g
			LEFT JOIN customers c ON c.id = g.k
			ORDER BY g.amount DESC, g.last DESC, g.k`
	}
	err := s.report(ctx, "payments received", func(ctx context.Context, q querier) error {
		var amount int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT p.customer_id), COALESCE(SUM(p.amount_paise), 0),
				COUNT(DISTINCT `+key+`) FROM payments p WHERE `+where, args...).Scan(&t.Payments, &t.Customers, &amount, &t.Groups); err != nil {
			return err
		}
		t.Amount = domain.Paise(amount)
		if t.Payments == 0 {
			return nil
		}
		rows, err := q.QueryContext(ctx, query+limitOffset(p), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var l reports.PaymentLine
			var mode, modes, last string
			var amount int64
			if err := rows.Scan(&l.Key, &l.Label, &l.CustomerID, &l.Customer, &mode, &amount, &l.Payments, &l.Customers,
				&modes, &last, &l.Reference, &l.Imported); err != nil {
				return err
			}
			l.Mode, l.Modes, l.Amount, l.Last = domain.PaymentMode(mode), modeList(modes), domain.Paise(amount), parseTime(last)
			out = append(out, l)
		}
		return rows.Err()
	})
	return t, out, err
}

// modeList reads group_concat's modes in domain.PaymentModes order, any
// mode outside it after them.
func modeList(s string) []domain.PaymentMode {
	if s == "" {
		return nil
	}
	var out []domain.PaymentMode
	for _, m := range strings.Split(s, ",") {
		if m != "" && !slices.Contains(out, domain.PaymentMode(m)) {
			out = append(out, domain.PaymentMode(m))
		}
	}
	rank := func(m domain.PaymentMode) int {
		if i := slices.Index(domain.PaymentModes, m); i >= 0 {
			return i
		}
		return len(domain.PaymentModes)
	}
	slices.SortStableFunc(out, func(a, b domain.PaymentMode) int { return rank(a) - rank(b) })
	return out
}
