package sqlbooks

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/reports"
)

var _ reports.Synced = (*Store)(nil)

// SyncedAt returns when each figure the ERP owns was last written from it.
func (s *Store) SyncedAt(ctx context.Context) (map[string]time.Time, error) {
	var out map[string]time.Time
	err := s.reportEach(ctx, "synced at", func(ctx context.Context, q querier) error {
		var err error
		out, err = syncedAt(ctx, q)
		return err
	})
	return out, err
}

// UnsettledPayments returns, per customer, the chat's payments the ERP
// has not shown yet.
func (s *Store) UnsettledPayments(ctx context.Context, customerIDs []string) (map[string]domain.Paise, error) {
	var out map[string]domain.Paise
	err := s.reportEach(ctx, "unsettled payments", func(ctx context.Context, q querier) error {
		var err error
		out, err = unsettledPayments(ctx, q, customerIDs)
		return err
	})
	return out, err
}

func syncedAt(ctx context.Context, q querier) (map[string]time.Time, error) {
	rows, err := q.QueryContext(ctx, `SELECT figure, synced_at FROM sync_figures`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var f, at string
		if err := rows.Scan(&f, &at); err != nil {
			return nil, err
		}
		out[f] = parseTime(at)
	}
	return out, rows.Err()
}

// unsettledPayments sums the unsettled provisional payments by customer,
// as money received (positive); all customers when ids is empty.
func unsettledPayments(ctx context.Context, q querier, ids []string) (map[string]domain.Paise, error) {
	where, args := "", []any{}
	if len(ids) > 0 {
		where, args = ` AND customer_id IN (`+placeholders(len(ids))+`)`, anys(ids)
	}
	rows, err := q.QueryContext(ctx, `SELECT customer_id, -SUM(amount_paise) FROM provisional
		WHERE figure = 'dues' AND kind = 'payment' AND settled_at IS NULL`+where+` GROUP BY customer_id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]domain.Paise{}
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = domain.Paise(n)
	}
	return out, rows.Err()
}

// addSyncedStock fills the lines' AsOf and Provisional when the ERP owns
// the stock, and returns AsOf.
func addSyncedStock(ctx context.Context, q querier, lines []reports.StockLine) (time.Time, error) {
	at, err := syncedAt(ctx, q)
	asOf, ok := at[string(erpsync.FigureStock)]
	if err != nil || !ok || len(lines) == 0 {
		return asOf, err
	}
	skus := make([]any, len(lines))
	for i, l := range lines {
		skus[i] = l.SKU
	}
	rows, err := q.QueryContext(ctx, `SELECT sku, SUM(qty) FROM provisional WHERE figure = 'stock' AND settled_at IS NULL
		AND sku IN (`+placeholders(len(skus))+`) GROUP BY sku`, skus...)
	if err != nil {
		return asOf, err
	}
	defer rows.Close()
	pending := map[string]int64{}
	for rows.Next() {
		var sku string
		var n int64
		if err := rows.Scan(&sku, &n); err != nil {
			return asOf, err
		}
		pending[sku] = n
	}
	for i := range lines {
		lines[i].AsOf, lines[i].Provisional = asOf, pending[lines[i].SKU]
	}
	return asOf, rows.Err()
}

// addSyncedDues fills the dues' AsOf and Provisional when the ERP owns
// the dues, and returns AsOf.
func addSyncedDues(ctx context.Context, q querier, dues []reports.Due) (time.Time, error) {
	at, err := syncedAt(ctx, q)
	asOf, ok := at[string(erpsync.FigureDues)]
	if err != nil || !ok || len(dues) == 0 {
		return asOf, err
	}
	ids := make([]string, len(dues))
	for i, d := range dues {
		ids[i] = d.CustomerID
	}
	paid, err := unsettledPayments(ctx, q, ids)
	if err != nil {
		return asOf, err
	}
	for i := range dues {
		dues[i].AsOf, dues[i].Provisional = asOf, paid[dues[i].CustomerID]
	}
	return asOf, nil
}
