package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// The owners' questions: read-only queries behind the reports tools. Each
// method reads inside one transaction of the reader pool, so that a page and
// its totals agree; each runs under ReportTimeout and returns at most
// reports.MaxRows rows.

// ReportTimeout bounds every report query; SQLite is interrupted when it
// passes.
const ReportTimeout = 2 * time.Second

var _ reports.Books = (*Store)(nil)

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// report runs fn in a read transaction of the reader pool (a deferred
// BEGIN: a shared WAL snapshot, never the write lock) under ReportTimeout.
func (s *Store) report(ctx context.Context, what string, fn func(ctx context.Context, q querier) error) error {
	ctx, cancel := context.WithTimeout(ctx, ReportTimeout)
	defer cancel()
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	defer tx.Rollback()
	if err := fn(ctx, tx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("sqlite: %s took longer than %s: %w", what, ReportTimeout, ctx.Err())
		}
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	return nil
}

// heldCTE sums the base units on committed (undelivered) orders by SKU. The
// CROSS JOIN makes SQLite start from the committed orders (few: the ones
// waiting for delivery) and read their lines from a covering index.
const heldCTE = `held AS MATERIALIZED (SELECT l.sku AS sku, SUM(l.qty) AS qty
	FROM orders o CROSS JOIN order_lines l ON l.order_id = o.id
	WHERE o.status = 'committed' GROUP BY l.sku)`

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
		out, err = stockLines(ctx, q, `SELECT `+stockColumns+` FROM products p WHERE p.sku IN (`+placeholders(len(skus))+`)
			ORDER BY p.name, p.sku`, anys(skus)...)
		if err != nil {
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
		WHERE o.status = 'committed' AND l.sku IN (`+placeholders(len(skus))+`) GROUP BY l.sku`, skus...)
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
		out, err = stockLines(ctx, q, `SELECT `+stockColumns+` FROM products p ORDER BY p.name, p.sku LIMIT ? OFFSET ?`, p.Limit, p.Offset)
		for i := range out {
			out[i].Committed = cat.held.qty[out[i].SKU]
		}
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
			WHERE p.sku IN (SELECT sku FROM products WHERE stock_ready <= 0 UNION ALL SELECT value FROM json_each(?))
			ORDER BY p.name, p.sku LIMIT ? OFFSET ?`, string(taken), p.Limit, p.Offset)
		for i := range out {
			out[i].Committed = cat.held.qty[out[i].SKU]
		}
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
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(stock_ready * price_paise), 0), COALESCE(SUM(stock_ready <= 0), 0),
		COALESCE(MAX(updated_at), ''), TOTAL(stock_ready * (rowid % 1021 + 1)), TOTAL(stock_ready * (rowid % 1019 + 1)) FROM products`).Scan(
		&c.products, &value, &c.empty, &key.updated, &key.stock1, &key.stock2); err != nil {
		return c, err
	}
	c.value, key.products = domain.Paise(value), c.products
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(rowid), 0), COALESCE(MIN(rowid), 0), COALESCE(MAX(rowid), 0),
		TOTAL(total_paise) FROM orders WHERE status = 'committed'`).Scan(
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
		SELECT h.sku, h.qty, p.stock_ready FROM held h JOIN products p ON p.sku = h.sku ORDER BY h.sku`)
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
			COALESCE(SUM(c.outstanding_paise > c.credit_limit_paise), 0) FROM customers c WHERE `+where, args...).Scan(
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
func oldestUnpaid(ctx context.Context, q querier, d *reports.Due) error {
	if d.Outstanding <= 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT id, total_paise, created_at FROM orders
		WHERE customer_id = ? AND payment_mode = 'credit' AND status IN ('committed', 'delivered')
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

// OpenOrders returns orders waiting for approval, then for delivery, each
// oldest first.
func (s *Store) OpenOrders(ctx context.Context, oq reports.OpenOrdersQuery) (reports.OpenOrdersTotals, []reports.OpenOrder, error) {
	p := oq.Page.Clamp()
	var t reports.OpenOrdersTotals
	var out []reports.OpenOrder
	draftWhere, orderWhere, args := `d.status = 'pending_approval'`, `o.status = 'committed'`, []any{}
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
			(SELECT COALESCE(SUM(json_extract(d.payload, '$.total')), 0) FROM drafts d WHERE `+draftWhere+`),
			(SELECT COUNT(*) FROM orders o WHERE `+orderWhere+`),
			(SELECT COALESCE(SUM(o.total_paise), 0) FROM orders o WHERE `+orderWhere+`)`,
			append(append([]any{}, both...), both...)...).Scan(&t.AwaitingApproval, &awaitingValue, &t.ToDeliver, &deliverValue); err != nil {
			return err
		}
		t.AwaitingApprovalValue, t.ToDeliverValue = domain.Paise(awaitingValue), domain.Paise(deliverValue)
		rows, err := q.QueryContext(ctx, `SELECT x.kind, x.id, x.customer_id, COALESCE(c.name, x.customer_id), x.placed_by,
				x.total, x.lines, x.created_at
			FROM (
				SELECT 0 AS kind, d.id AS id, d.customer_id AS customer_id, d.placed_by AS placed_by,
					COALESCE(json_extract(d.payload, '$.total'), 0) AS total,
					COALESCE(json_array_length(d.payload, '$.lines'), 0) AS lines, d.created_at AS created_at
				FROM drafts d WHERE `+draftWhere+`
				UNION ALL
				SELECT 1, o.id, o.customer_id, o.placed_by, o.total_paise,
					(SELECT COUNT(*) FROM order_lines l WHERE l.order_id = o.id), o.created_at
				FROM orders o WHERE `+orderWhere+`
			) x LEFT JOIN customers c ON c.id = x.customer_id
			ORDER BY x.kind, x.created_at, x.id LIMIT ? OFFSET ?`, append(both, p.Limit, p.Offset)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o reports.OpenOrder
			var kind int
			var total int64
			var at string
			if err := rows.Scan(&kind, &o.ID, &o.CustomerID, &o.CustomerName, &o.PlacedBy, &total, &o.Lines, &at); err != nil {
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

// SalesSummary sums the lines of committed and delivered orders created in
// [From, To), grouped as asked. Lines are summed first and names joined to
// the groups after; the totals come from the same pass (window functions
// over the groups), except the count of orders by product, which needs its
// own pass over the orders (an order spans several products).
func (s *Store) SalesSummary(ctx context.Context, sq reports.SalesQuery) (reports.SalesTotals, []reports.SalesLine, error) {
	p := sq.Page.Clamp()
	var t reports.SalesTotals
	var out []reports.SalesLine
	where := `o.status IN ('committed', 'delivered') AND o.created_at >= ? AND o.created_at < ?`
	args := []any{formatTime(sq.From), formatTime(sq.To)}
	orderWhere, orderArgs := where, append([]any{}, args...) // the same orders, without reading lines
	if n := len(sq.SKUs); n > 0 {
		where += ` AND l.sku IN (` + placeholders(n) + `)`
		orderWhere += ` AND o.id IN (SELECT order_id FROM order_lines WHERE sku IN (` + placeholders(n) + `))`
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
	// Day groups: the UTC text moved to local time. SQLite reads the first
	// 19 characters as a time; the modifier shifts it by the zone's offset.
	day := fmt.Sprintf(`date(substr(o.created_at, 1, 19), '%+d seconds')`, sq.UTCOffset)
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
	inner := `SELECT ` + key + ` AS k, SUM(l.qty) AS qty, SUM(l.amount_paise) AS amount, SUM(l.gst_paise) AS gst,
			COUNT(DISTINCT o.id) AS orders
		FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE ` + where + ` GROUP BY k`
	switch {
	case ordersOnly:
		inner = `SELECT ` + key + ` AS k, 0 AS qty, SUM(o.subtotal_paise) AS amount, SUM(o.gst_paise) AS gst, COUNT(*) AS orders
			FROM orders o WHERE ` + orderWhere + ` GROUP BY k`
		args = orderArgs
	case !ordersAddUp:
		inner = `SELECT ` + key + ` AS k, SUM(l.qty) AS qty, SUM(l.amount_paise) AS amount, SUM(l.gst_paise) AS gst, 0 AS orders
			FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE ` + where + ` GROUP BY k`
	}
	query := `SELECT g.k, ` + label + `, ` + unit + `, ` + packs + `, g.qty, g.amount, g.gst, g.orders,
			COUNT(*) OVER (), SUM(g.qty) OVER (), SUM(g.amount) OVER (), SUM(g.gst) OVER (), SUM(g.orders) OVER ()
		FROM (` + inner + `) g` + join + `
		ORDER BY ` + order + ` LIMIT ? OFFSET ?`
	err := s.report(ctx, "sales summary", func(ctx context.Context, q querier) error {
		page := func(limit, offset int) error {
			rows, err := q.QueryContext(ctx, query, append(append(append([]any{}, args...), joinArgs...), limit, offset)...)
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
		{`lower(name) = lower(?) OR instr('|' || lower(aliases) || '|', '|' || lower(?) || '|') > 0`, []any{text, text}},
		{`instr(lower(name), lower(?)) > 0`, []any{text}},
	}
	var out []reports.Named
	err := s.report(ctx, what, func(ctx context.Context, q querier) error {
		for _, tier := range tiers {
			rows, err := q.QueryContext(ctx, sel+` WHERE `+tier.where+` ORDER BY name, `+key+` LIMIT ?`, append(tier.args, limit)...)
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

func anys(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
