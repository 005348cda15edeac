package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// The stock questions: what is ready, in production and committed to
// open orders, for some products or the whole catalog. Inactive products
// (the ERP no longer lists them) are in no stock answer.

// heldCTE sums the base units on committed (undelivered) orders by SKU
// (imported history holds none: the catalog's stock is its snapshot). The
// CROSS JOIN makes SQLite start from the committed orders (few: the ones
// waiting for delivery) and read their lines from a covering index.
const heldCTE = `held AS MATERIALIZED (SELECT l.sku AS sku, SUM(l.qty) AS qty
	FROM orders o CROSS JOIN order_lines l ON l.order_id = o.id
	WHERE o.status = 'committed' AND o.source <> 'import' GROUP BY l.sku)`

const stockColumns = `p.sku, p.name, p.unit, p.pack_sizes, p.price_paise, p.stock_ready, p.stock_wip`

func scanStockLine(rows *sql.Rows, extra ...any) (reports.StockLine, error) {
	var l reports.StockLine
	var packs string
	var price int64
	dest := append([]any{&l.SKU, &l.Name, &l.Unit, &packs, &price, &l.Ready, &l.WIP}, extra...)
	if err := rows.Scan(dest...); err != nil {
		return l, err
	}
	l.Packs, l.Price = parsePacks(packs), domain.Paise(price)
	return l, nil
}

// StockOf returns the stock of those SKUs, ordered by name.
func (s *Store) StockOf(ctx context.Context, skus []string) ([]reports.StockLine, error) {
	if len(skus) == 0 {
		return nil, nil
	}
	if len(skus) > reports.MaxRows {
		skus = skus[:reports.MaxRows]
	}
	var out []reports.StockLine
	err := s.report(ctx, "stock", func(ctx context.Context, q querier) error {
		var err error
		out, err = stockLines(ctx, q, `SELECT `+stockColumns+` FROM products p WHERE p.active AND p.sku IN (`+placeholders(len(skus))+`)
			ORDER BY p.name, p.sku`, anys(skus)...)
		if err != nil {
			return err
		}
		if _, err := addSyncedStock(ctx, q, out); err != nil {
			return err
		}
		return addCommitted(ctx, q, out)
	})
	return out, err
}

func stockLines(ctx context.Context, q querier, query string, args ...any) ([]reports.StockLine, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []reports.StockLine
	for rows.Next() {
		l, err := scanStockLine(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// addCommitted fills Committed for the lines' SKUs.
func addCommitted(ctx context.Context, q querier, lines []reports.StockLine) error {
	if len(lines) == 0 {
		return nil
	}
	skus := make([]any, len(lines))
	for i, l := range lines {
		skus[i] = l.SKU
	}
	rows, err := q.QueryContext(ctx, `SELECT l.sku, SUM(l.qty) FROM orders o CROSS JOIN order_lines l ON l.order_id = o.id
		WHERE o.status = 'committed' AND o.source <> 'import' AND l.sku IN (`+placeholders(len(skus))+`) GROUP BY l.sku`, skus...)
	if err != nil {
		return err
	}
	defer rows.Close()
	held := map[string]int64{}
	for rows.Next() {
		var sku string
		var n int64
		if err := rows.Scan(&sku, &n); err != nil {
			return err
		}
		held[sku] = n
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range lines {
		lines[i].Committed = held[lines[i].SKU]
	}
	return nil
}

// StockCatalog returns the catalog's totals and one page of its products.
func (s *Store) StockCatalog(ctx context.Context, p reports.Page) (reports.StockTotals, []reports.StockLine, error) {
	p = p.Clamp()
	var t reports.StockTotals
	var out []reports.StockLine
	err := s.report(ctx, "stock catalog", func(ctx context.Context, q querier) error {
		cat, err := s.catalogState(ctx, q)
		if err != nil {
			return err
		}
		t = reports.StockTotals{Products: cat.products, ReadyValue: cat.value,
			OutOfStock: cat.empty + len(cat.held.taken), Oversold: cat.held.oversold}
		out, err = stockLines(ctx, q, `SELECT `+stockColumns+` FROM products p WHERE p.active ORDER BY p.name, p.sku`+limitOffset(p))
		if err != nil {
			return err
		}
		for i := range out {
			out[i].Committed = cat.held.qty[out[i].SKU]
		}
		t.AsOf, err = addSyncedStock(ctx, q, out)
		return err
	})
	return t, out, err
}

// StockOuts returns the products with nothing available: those with no
// stock ready (an index finds them) and those whose stock open orders take.
func (s *Store) StockOuts(ctx context.Context, p reports.Page) (int, []reports.StockLine, error) {
	p = p.Clamp()
	var total int
	var out []reports.StockLine
	err := s.report(ctx, "out of stock", func(ctx context.Context, q querier) error {
		cat, err := s.catalogState(ctx, q)
		if err != nil {
			return err
		}
		total = cat.empty + len(cat.held.taken)
		taken, _ := json.Marshal(cat.held.taken)
		out, err = stockLines(ctx, q, `SELECT `+stockColumns+` FROM products p
			WHERE p.active AND p.sku IN (SELECT sku FROM products WHERE stock_ready <= 0 UNION ALL `+s.e.jsonStrings()+`)
			ORDER BY p.name, p.sku`+limitOffset(p), string(taken))
		if err != nil {
			return err
		}
		for i := range out {
			out[i].Committed = cat.held.qty[out[i].SKU]
		}
		_, err = addSyncedStock(ctx, q, out)
		return err
	})
	return total, out, err
}

// catalog is what the catalog questions read: the catalog's totals and
// the stock committed to open orders.
type catalog struct {
	products int
	value    domain.Paise // Σ ready × price
	empty    int          // products with nothing ready
	held     *heldStock
}

// heldStock is the stock committed to open orders and what it takes from
// the products. Computing it reads every line of every open order (about
// 5 ms at 500,000 lines), so it is kept per store and reused while the
// books it came from are unchanged: the key fingerprints the committed
// orders and the products' stock, read in the same snapshot as the
// answer, so a reused value is exactly what a fresh one would be. It
// relies on order lines never changing once written (orders change only
// their status), which holds everywhere in Munshi.
type heldStock struct {
	key      heldKey
	qty      map[string]int64 // base units committed, by SKU
	taken    []string         // SKUs with stock ready that open orders take entirely
	oversold int              // SKUs with more committed than ready
}

type heldKey struct {
	orders, orderRowids, orderMin, orderMax int64
	orderTotals                             float64
	products                                int
	updated                                 string
	stock1, stock2                          float64
}

// heldCache maps a weak pointer to a store to its *atomic.Pointer[heldStock];
// the entry goes when the store does.
var heldCache sync.Map

func (s *Store) heldSlot() *atomic.Pointer[heldStock] {
	k := weak.Make(s)
	if v, ok := heldCache.Load(k); ok {
		return v.(*atomic.Pointer[heldStock])
	}
	v, loaded := heldCache.LoadOrStore(k, new(atomic.Pointer[heldStock]))
	if !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[Store]) { heldCache.Delete(k) }, k)
	}
	return v.(*atomic.Pointer[heldStock])
}

func (s *Store) catalogState(ctx context.Context, q querier) (catalog, error) {
	var c catalog
	var key heldKey
	var value int64
	// The weights make the stock fingerprint change with any product's
	// stock: two products share both weights only 1,040,399 rowids apart.
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(stock_ready * price_paise), 0), COALESCE(SUM(CASE WHEN stock_ready <= 0 THEN 1 ELSE 0 END), 0),
		COALESCE(MAX(updated_at), ''), COALESCE(SUM(stock_ready * (`+s.e.seq()+` % 1021 + 1)), 0),
		COALESCE(SUM(stock_ready * (`+s.e.seq()+` % 1019 + 1)), 0) FROM products WHERE active`).Scan(
		&c.products, &value, &c.empty, &key.updated, &key.stock1, &key.stock2); err != nil {
		return c, err
	}
	c.value, key.products = domain.Paise(value), c.products
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(`+s.e.seq()+`), 0), COALESCE(MIN(`+s.e.seq()+`), 0),
		COALESCE(MAX(`+s.e.seq()+`), 0), COALESCE(SUM(total_paise), 0) FROM orders WHERE status = 'committed' AND source <> 'import'`).Scan(
		&key.orders, &key.orderRowids, &key.orderMin, &key.orderMax, &key.orderTotals); err != nil {
		return c, err
	}
	slot := s.heldSlot()
	if h := slot.Load(); h != nil && h.key == key {
		c.held = h
		return c, nil
	}
	h := &heldStock{key: key, qty: map[string]int64{}}
	rows, err := q.QueryContext(ctx, `WITH `+heldCTE+`
		SELECT h.sku, h.qty, p.stock_ready FROM held h JOIN products p ON p.sku = h.sku WHERE p.active ORDER BY h.sku`)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	for rows.Next() {
		var sku string
		var qty, ready int64
		if err := rows.Scan(&sku, &qty, &ready); err != nil {
			return c, err
		}
		h.qty[sku] = qty
		if ready > 0 && ready <= qty {
			h.taken = append(h.taken, sku)
		}
		if qty > ready {
			h.oversold++
		}
	}
	if err := rows.Err(); err != nil {
		return c, err
	}
	if h.taken == nil {
		h.taken = []string{}
	}
	slot.Store(h)
	c.held = h
	return c, nil
}
