package sqlbooks

import (
	"context"
	"strings"

	"github.com/munshi/munshi/reports"
)

// MatchProducts finds products by SKU, name or alias.
func (s *Store) MatchProducts(ctx context.Context, text string, limit int) ([]reports.Named, error) {
	return s.match(ctx, "match products", `SELECT sku, name FROM products`, `sku`, text, limit)
}

// MatchCustomers finds customers by id, name or alias.
func (s *Store) MatchCustomers(ctx context.Context, text string, limit int) ([]reports.Named, error) {
	return s.match(ctx, "match customers", `SELECT id, name FROM customers`, `id`, text, limit)
}

// match tries, in order, the exact key (as written and upper-cased), the
// exact name or alias (ignoring ASCII case), then names containing the text;
// the first tier with a match answers.
func (s *Store) match(ctx context.Context, what, sel, key, text string, limit int) ([]reports.Named, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if limit <= 0 || limit > reports.MaxRows {
		limit = reports.MaxRows
	}
	tiers := []struct {
		where string
		args  []any
	}{
		{key + ` IN (?, ?)`, []any{text, strings.ToUpper(text)}},
		{`lower(name) = lower(?) OR ` + s.e.strpos(`'|' || lower(aliases) || '|'`, `'|' || lower(?) || '|'`) + ` > 0`, []any{text, text}},
		{s.e.strpos(`lower(name)`, `lower(?)`) + ` > 0`, []any{text}},
	}
	var out []reports.Named
	err := s.reportEach(ctx, what, func(ctx context.Context, q querier) error {
		for _, tier := range tiers {
			rows, err := q.QueryContext(ctx, sel+` WHERE `+tier.where+` ORDER BY name, `+key+limitOffset(reports.Page{Limit: limit}), tier.args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var n reports.Named
				if err := rows.Scan(&n.ID, &n.Name); err != nil {
					rows.Close()
					return err
				}
				out = append(out, n)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			if len(out) > 0 {
				return nil
			}
		}
		return nil
	})
	return out, err
}
