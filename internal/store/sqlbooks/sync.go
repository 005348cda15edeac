package sqlbooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
)

// The books as an ERP keeps them (migration 0015). Each Sync* call is one
// writing transaction: the rows, the entity's state, the figures the rows
// set (stock, dues) marked as the ERP's, and the settling of the
// provisional entries (provisional.go) the rows show; a bad row (an
// unknown customer, a key twice in the batch) refuses it all, and the
// entity keeps its previous state.
//
// A field the ERP gives empty (aliases, pack sizes, phone, segment,
// payment modes, a zero credit limit) keeps what the books hold: a
// mapping need not name it, and the chat's vocabulary and credit rules
// depend on it.

var _ erpsync.Books = (*Store)(nil)

// Where an order of the ERP's came from, in orders.erp_entity.
const (
	erpSales      = "sales"
	erpOpenOrders = "open_orders"
)

// syncWrite runs one write of a sync in a transaction: fn's rows, then the
// figures in owns marked as the ERP's as of the batch, then the entity's
// state.
func (s *Store) syncWrite(ctx context.Context, what string, b erpsync.Batch, owns []erpsync.Figure, fn func(tx *dbTx) error) error {
	entity := b.Entity
	if entity == "" {
		entity = b.State.Entity
	}
	if entity == "" {
		return domain.Errorf(domain.EINVALID, "sqlbooks: %s: the batch names no entity", what)
	}
	err := s.inTx(ctx, func(tx *dbTx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if err := s.ownFigures(ctx, tx, owns, b.State); err != nil {
			return err
		}
		return putState(ctx, tx, entity, b.State)
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: %s: %w", what, err)
	}
	return nil
}

// ownFigures marks figures as the ERP's, as of the batch's state.
func (s *Store) ownFigures(ctx context.Context, tx *dbTx, figures []erpsync.Figure, st erpsync.State) error {
	now := s.Now()
	asOf := st.LastGood
	if asOf.IsZero() {
		asOf = st.LastRun
	}
	if asOf.IsZero() {
		asOf = now
	}
	for _, f := range figures {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sync_figures (figure, owned_since, synced_at) VALUES (?, ?, ?)
			ON CONFLICT(figure) DO UPDATE SET synced_at = excluded.synced_at`, string(f), formatTime(now), formatTime(asOf)); err != nil {
			return fmt.Errorf("figure %s: %w", f, err)
		}
	}
	return nil
}

func putState(ctx context.Context, tx *dbTx, e erpsync.Entity, st erpsync.State) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO sync_states (entity, watermark, last_run, last_good, rows, last_error, failures)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(entity) DO UPDATE SET watermark = excluded.watermark, last_run = excluded.last_run,
			last_good = excluded.last_good, rows = excluded.rows, last_error = excluded.last_error, failures = excluded.failures`,
		string(e), st.Watermark, nullTime(st.LastRun), nullTime(st.LastGood), st.Rows, st.LastError, st.Failures)
	if err != nil {
		return fmt.Errorf("state of %s: %w", e, err)
	}
	return nil
}

// figuresFor is the figure among owns that an entity's rows may set.
func figuresFor(owns []erpsync.Figure, f erpsync.Figure) []erpsync.Figure {
	if slices.Contains(owns, f) {
		return []erpsync.Figure{f}
	}
	return nil
}

// distinct refuses a batch with an empty key or a key twice.
func distinct(what string, keys []string) error {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		switch {
		case k == "":
			return domain.Errorf(domain.EINVALID, "a %s without its key", what)
		case seen[k]:
			return domain.Errorf(domain.EINVALID, "%s %s is in the batch twice", what, k)
		}
		seen[k] = true
	}
	return nil
}

// jsonList is keys as the JSON array engine.jsonStrings reads.
func jsonList(keys []string) string {
	if keys == nil {
		keys = []string{}
	}
	b, _ := json.Marshal(keys)
	return string(b)
}

// SyncStates returns every entity's state, in run order.
func (s *Store) SyncStates(ctx context.Context) ([]erpsync.State, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT entity, watermark, last_run, last_good, rows, last_error, failures FROM sync_states`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: sync states: %w", err)
	}
	defer rows.Close()
	var out []erpsync.State
	for rows.Next() {
		var st erpsync.State
		var entity string
		var run, good sql.NullString
		if err := rows.Scan(&entity, &st.Watermark, &run, &good, &st.Rows, &st.LastError, &st.Failures); err != nil {
			return nil, fmt.Errorf("sqlbooks: sync states: %w", err)
		}
		st.Entity, st.LastRun, st.LastGood = erpsync.Entity(entity), parseTime(run.String), parseTime(good.String)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlbooks: sync states: %w", err)
	}
	rank := func(e erpsync.Entity) int {
		if i := slices.Index(erpsync.Entities, e); i >= 0 {
			return i
		}
		return len(erpsync.Entities)
	}
	slices.SortFunc(out, func(a, b erpsync.State) int {
		if d := rank(a.Entity) - rank(b.Entity); d != 0 {
			return d
		}
		return strings.Compare(string(a.Entity), string(b.Entity))
	})
	return out, nil
}

// RecordSyncFailure notes a failed run and writes nothing else: the
// watermark, the last good run and its rows stay.
func (s *Store) RecordSyncFailure(ctx context.Context, e erpsync.Entity, at time.Time, reason string) error {
	err := s.inTx(ctx, func(tx *dbTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sync_states (entity, last_run, last_error, failures) VALUES (?, ?, ?, 1)
			ON CONFLICT(entity) DO UPDATE SET last_run = excluded.last_run, last_error = excluded.last_error,
				failures = sync_states.failures + 1`, string(e), formatTime(at), reason)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: record sync failure of %s: %w", e, err)
	}
	return nil
}

// SyncProducts upserts products by SKU, active. With stock among b.Owns
// the stock is the ERP's plus what is provisional for the SKU; otherwise
// a product already in the books keeps its stock. A change to what the
// catalog shows (not to stock alone) moves the catalog version.
func (s *Store) SyncProducts(ctx context.Context, b erpsync.Batch, ps []domain.Product) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.SKU
	}
	if err := distinct("product", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync products: %w", err)
	}
	owned := slices.Contains(b.Owns, erpsync.FigureStock)
	now := formatTime(s.Now())
	err := s.syncWrite(ctx, "sync products", b, figuresFor(b.Owns, erpsync.FigureStock), func(tx *dbTx) error {
		t = domain.Tally{}
		for _, p := range ps {
			if strings.TrimSpace(p.Name) == "" {
				return domain.Errorf(domain.EINVALID, "product %s has no name", p.SKU)
			}
			var name, aliases, unit, packs string
			var price, gst, ready, wip int64
			var active bool
			err := tx.QueryRowContext(ctx, `SELECT name, aliases, unit, pack_sizes, price_paise, gst_bp, stock_ready, stock_wip, active
				FROM products WHERE sku = ?`, p.SKU).Scan(&name, &aliases, &unit, &packs, &price, &gst, &ready, &wip, &active)
			found := err == nil
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			newReady, newWIP := p.StockReady, p.StockWIP
			if owned {
				pending, err := pendingQty(ctx, tx, p.SKU)
				if err != nil {
					return err
				}
				newReady += pending
			} else if found {
				newReady, newWIP = ready, wip
			}
			newAliases, newPacks := joinList(p.Aliases), formatPacks(p.PackSizes)
			if found && newAliases == "" {
				newAliases = aliases
			}
			if found && newPacks == "" {
				newPacks = packs
			}
			if !found {
				if _, err := tx.ExecContext(ctx, `INSERT INTO products (sku, name, aliases, unit, pack_sizes, price_paise, gst_bp,
					stock_ready, stock_wip, updated_at, active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE)`, p.SKU, p.Name, newAliases, p.Unit,
					newPacks, int64(p.Price), int64(p.GSTPercent), newReady, newWIP, now); err != nil {
					return fmt.Errorf("product %s: %w", p.SKU, err)
				}
				t.Added++
				continue
			}
			shown := name != p.Name || aliases != newAliases || unit != p.Unit || packs != newPacks || price != int64(p.Price) ||
				gst != int64(p.GSTPercent) || !active
			switch {
			case shown:
				if _, err := tx.ExecContext(ctx, `UPDATE products SET name = ?, aliases = ?, unit = ?, pack_sizes = ?, price_paise = ?,
					gst_bp = ?, stock_ready = ?, stock_wip = ?, active = TRUE, updated_at = ? WHERE sku = ?`, p.Name, newAliases, p.Unit, newPacks,
					int64(p.Price), int64(p.GSTPercent), newReady, newWIP, now, p.SKU); err != nil {
					return fmt.Errorf("product %s: %w", p.SKU, err)
				}
			case newReady != ready || newWIP != wip:
				if _, err := tx.ExecContext(ctx, `UPDATE products SET stock_ready = ?, stock_wip = ? WHERE sku = ?`, newReady, newWIP, p.SKU); err != nil {
					return fmt.Errorf("product %s: %w", p.SKU, err)
				}
			default:
				t.Unchanged++
				continue
			}
			t.Updated++
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// SyncCustomers upserts customers by id, active. With dues among b.Owns
// the outstanding is the ERP's plus what is provisional for the
// customer; otherwise a customer already in the books keeps theirs.
func (s *Store) SyncCustomers(ctx context.Context, b erpsync.Batch, cs []domain.Customer) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = c.ID
	}
	if err := distinct("customer", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync customers: %w", err)
	}
	owned := slices.Contains(b.Owns, erpsync.FigureDues)
	now := formatTime(s.Now())
	err := s.syncWrite(ctx, "sync customers", b, figuresFor(b.Owns, erpsync.FigureDues), func(tx *dbTx) error {
		t = domain.Tally{}
		for _, c := range cs {
			if strings.TrimSpace(c.Name) == "" {
				return domain.Errorf(domain.EINVALID, "customer %s has no name", c.ID)
			}
			var name, aliases, phone, segment, modes string
			var limit, due int64
			var active bool
			err := tx.QueryRowContext(ctx, `SELECT name, aliases, phone, segment, credit_limit_paise, outstanding_paise, payment_modes, active
				FROM customers WHERE id = ?`, c.ID).Scan(&name, &aliases, &phone, &segment, &limit, &due, &modes, &active)
			found := err == nil
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			newDue := c.Outstanding
			if owned {
				pending, err := pendingDues(ctx, tx, c.ID)
				if err != nil {
					return err
				}
				newDue += pending
			} else if found {
				newDue = domain.Paise(due)
			}
			n := struct {
				aliases, phone, segment, modes string
				limit                          int64
			}{joinList(c.Aliases), c.Phone, c.Segment, joinModes(c.PaymentModes), int64(c.CreditLimit)}
			if found {
				keep := func(v *string, was string) {
					if *v == "" {
						*v = was
					}
				}
				keep(&n.aliases, aliases)
				keep(&n.phone, phone)
				keep(&n.segment, segment)
				keep(&n.modes, modes)
				if n.limit == 0 {
					n.limit = limit
				}
			}
			if !found {
				if _, err := tx.ExecContext(ctx, `INSERT INTO customers (id, name, aliases, phone, segment, credit_limit_paise,
					outstanding_paise, payment_modes, updated_at, active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, TRUE)`, c.ID, c.Name, n.aliases,
					n.phone, n.segment, n.limit, int64(newDue), n.modes, now); err != nil {
					return fmt.Errorf("customer %s: %w", c.ID, err)
				}
				t.Added++
				continue
			}
			shown := name != c.Name || aliases != n.aliases || phone != n.phone || segment != n.segment || limit != n.limit ||
				modes != n.modes || !active
			switch {
			case shown:
				if _, err := tx.ExecContext(ctx, `UPDATE customers SET name = ?, aliases = ?, phone = ?, segment = ?, credit_limit_paise = ?,
					outstanding_paise = ?, payment_modes = ?, active = TRUE, updated_at = ? WHERE id = ?`, c.Name, n.aliases, n.phone, n.segment,
					n.limit, int64(newDue), n.modes, now, c.ID); err != nil {
					return fmt.Errorf("customer %s: %w", c.ID, err)
				}
			case int64(newDue) != due:
				if _, err := tx.ExecContext(ctx, `UPDATE customers SET outstanding_paise = ? WHERE id = ?`, int64(newDue), c.ID); err != nil {
					return fmt.Errorf("customer %s: %w", c.ID, err)
				}
			default:
				t.Unchanged++
				continue
			}
			t.Updated++
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// Deactivate marks every product (or customer) not in keep inactive and
// those in it active again, and returns how many it made inactive. An
// empty keep is refused: an ERP listing nothing is a query gone wrong,
// not a business closing down.
func (s *Store) Deactivate(ctx context.Context, e erpsync.Entity, keep []string, b erpsync.Batch) (int, error) {
	var table, key string
	switch e {
	case erpsync.Products:
		table, key = "products", "sku"
	case erpsync.Customers:
		table, key = "customers", "id"
	default:
		return 0, domain.Errorf(domain.EINVALID, "sqlbooks: deactivate: %s are not products or customers", e)
	}
	if len(keep) == 0 {
		return 0, domain.Errorf(domain.EINVALID, "sqlbooks: deactivate %s: the ERP listed none, so none is kept", e)
	}
	list, now := jsonList(keep), formatTime(s.Now())
	var n int64
	err := s.syncWrite(ctx, "deactivate "+string(e), b, nil, func(tx *dbTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET active = FALSE, updated_at = ?
			WHERE active AND `+key+` NOT IN (`+s.e.jsonStrings()+`)`, now, list)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.ExecContext(ctx, `UPDATE `+table+` SET active = TRUE, updated_at = ?
			WHERE NOT active AND `+key+` IN (`+s.e.jsonStrings()+`)`, now, list)
		return err
	})
	return int(n), err
}

// SyncStock sets products' stock from the ERP plus what is provisional
// for each SKU; WIP only when the mapping names it, less what the chat
// recorded as made from it.
func (s *Store) SyncStock(ctx context.Context, b erpsync.Batch, rows []erpsync.StockRow) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.SKU
	}
	if err := distinct("stock of product", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync stock: %w", err)
	}
	err := s.syncWrite(ctx, "sync stock", b, []erpsync.Figure{erpsync.FigureStock}, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, r := range rows {
			var ready, wip int64
			err := tx.QueryRowContext(ctx, `SELECT stock_ready, stock_wip FROM products WHERE sku = ?`, r.SKU).Scan(&ready, &wip)
			if errors.Is(err, sql.ErrNoRows) {
				return domain.Errorf(domain.EINVALID, "stock of %s, a product the books do not hold", r.SKU)
			} else if err != nil {
				return err
			}
			pending, err := pendingQty(ctx, tx, r.SKU)
			if err != nil {
				return err
			}
			newReady, newWIP := r.Ready+pending, wip
			if r.HasWIP {
				// Goods the chat recorded as made have left the ERP's WIP
				// too, until its receipt shows them.
				made, err := pendingWIP(ctx, tx, r.SKU)
				if err != nil {
					return err
				}
				newWIP = max(r.WIP+made, 0)
			}
			if newReady == ready && newWIP == wip {
				t.Unchanged++
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE products SET stock_ready = ?, stock_wip = ? WHERE sku = ?`, newReady, newWIP, r.SKU); err != nil {
				return fmt.Errorf("stock of %s: %w", r.SKU, err)
			}
			t.Updated++
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// SyncDues sets customers' outstanding from the ERP plus what is
// provisional for each, and the credit limit when the mapping names it.
func (s *Store) SyncDues(ctx context.Context, b erpsync.Batch, rows []erpsync.DuesRow) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.CustomerID
	}
	if err := distinct("dues of customer", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync dues: %w", err)
	}
	err := s.syncWrite(ctx, "sync dues", b, []erpsync.Figure{erpsync.FigureDues}, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, r := range rows {
			var due, limit int64
			err := tx.QueryRowContext(ctx, `SELECT outstanding_paise, credit_limit_paise FROM customers WHERE id = ?`, r.CustomerID).Scan(&due, &limit)
			if errors.Is(err, sql.ErrNoRows) {
				return domain.Errorf(domain.EINVALID, "dues of %s, a customer the books do not hold", r.CustomerID)
			} else if err != nil {
				return err
			}
			pending, err := pendingDues(ctx, tx, r.CustomerID)
			if err != nil {
				return err
			}
			newDue, newLimit := int64(r.Outstanding+pending), limit
			if r.HasLimit {
				newLimit = int64(r.CreditLimit)
			}
			if newDue == due && newLimit == limit {
				t.Unchanged++
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE customers SET outstanding_paise = ?, credit_limit_paise = ? WHERE id = ?`,
				newDue, newLimit, r.CustomerID); err != nil {
				return fmt.Errorf("dues of %s: %w", r.CustomerID, err)
			}
			t.Updated++
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// billSlack is how far a bill's amount may be from a credit order's and
// still be its bill: ₹1 of rounding.
const billSlack = 100

// SyncBills upserts bills by number and settles the provisional credit
// orders they match; full says the rows are every unpaid bill, so a bill
// not among them has nothing left to pay.
func (s *Store) SyncBills(ctx context.Context, b erpsync.Batch, bills []erpsync.Bill, full bool, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(bills))
	for i, bl := range bills {
		keys[i] = bl.Number
	}
	if err := distinct("bill", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync bills: %w", err)
	}
	at := s.settleTime(settle)
	now := formatTime(s.Now())
	err := s.syncWrite(ctx, "sync bills", b, nil, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, bl := range bills {
			if err := knownCustomer(ctx, tx, bl.CustomerID, "bill "+bl.Number); err != nil {
				return err
			}
			var customer, date string
			var amount, balance int64
			err := tx.QueryRowContext(ctx, `SELECT customer_id, date, amount_paise, balance_paise FROM bills WHERE number = ?`, bl.Number).Scan(
				&customer, &date, &amount, &balance)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `INSERT INTO bills (number, customer_id, date, amount_paise, balance_paise, synced_at)
					VALUES (?, ?, ?, ?, ?, ?)`, bl.Number, bl.CustomerID, formatTime(bl.Date), int64(bl.Amount), int64(bl.Balance), now); err != nil {
					return fmt.Errorf("bill %s: %w", bl.Number, err)
				}
				t.Added++
			case err != nil:
				return err
			case customer == bl.CustomerID && date == formatTime(bl.Date) && amount == int64(bl.Amount) && balance == int64(bl.Balance):
				t.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE bills SET customer_id = ?, date = ?, amount_paise = ?, balance_paise = ?, synced_at = ?
					WHERE number = ?`, bl.CustomerID, formatTime(bl.Date), int64(bl.Amount), int64(bl.Balance), now, bl.Number); err != nil {
					return fmt.Errorf("bill %s: %w", bl.Number, err)
				}
				t.Updated++
			}
			from, to := within(bl.Date, settle.Days)
			if _, err := settleMatch(ctx, tx, "bill:"+bl.Number, at, `figure = 'dues' AND kind = 'order' AND customer_id = ?
				AND amount_paise BETWEEN ? AND ? AND at >= ? AND at <= ?`,
				bl.CustomerID, int64(bl.Amount)-billSlack, int64(bl.Amount)+billSlack, from, to); err != nil {
				return err
			}
		}
		if !full {
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE bills SET balance_paise = 0, synced_at = ?
			WHERE balance_paise <> 0 AND number NOT IN (`+s.e.jsonStrings()+`)`, now, jsonList(keys))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		t.Updated += int(n)
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// settleTime is when a settlement happens: the run's time, else now.
func (s *Store) settleTime(st erpsync.Settle) time.Time {
	if st.Now.IsZero() {
		return s.Now()
	}
	return st.Now
}

func knownCustomer(ctx context.Context, tx *dbTx, id, what string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM customers WHERE id = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.EINVALID, "%s names customer %q, whom the books do not hold", what, id)
	}
	return nil
}

func knownProduct(ctx context.Context, tx *dbTx, sku, what string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM products WHERE sku = ?`, sku).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return domain.Errorf(domain.EINVALID, "%s names product %q, which the books do not hold", what, sku)
	}
	return nil
}

// importERPOrders imports orders as history (ImportHistory's rules) and
// notes which ERP entity wrote them.
func (s *Store) importERPOrders(ctx context.Context, tx *dbTx, entity string, orders []domain.Order, ids []string) (domain.Tally, error) {
	for _, o := range orders {
		if err := knownCustomer(ctx, tx, o.CustomerID, "order "+o.ID); err != nil {
			return domain.Tally{}, err
		}
		for _, l := range o.Lines {
			if err := knownProduct(ctx, tx, l.SKU, "order "+o.ID); err != nil {
				return domain.Tally{}, err
			}
		}
	}
	clash := &domain.HistoryClash{}
	t, err := importOrders(ctx, tx, orders, clash)
	if err != nil {
		return t, err
	}
	if len(clash.Orders) > 0 {
		return t, clash
	}
	_, err = tx.ExecContext(ctx, `UPDATE orders SET erp_entity = ? WHERE source = ? AND erp_entity <> ?
		AND id IN (`+s.e.jsonStrings()+`)`, entity, sourceImport, entity, jsonList(ids))
	return t, err
}

// SyncSales imports the ERP's sales as history, pairs the chat's orders
// the ERP shows as its own with them (twinChatOrders), and settles the
// provisional deliveries their lines show (same SKU, quantity delivered
// and customer, within settle.Days) and, while no bills are synced to
// settle them, the credit orders they show (same customer, total within
// ₹1, within settle.Days).
func (s *Store) SyncSales(ctx context.Context, b erpsync.Batch, orders []domain.Order, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	ids := orderIDs(orders)
	if err := distinct("order", ids); err != nil {
		return t, fmt.Errorf("sqlbooks: sync sales: %w", err)
	}
	at := s.settleTime(settle)
	err := s.syncWrite(ctx, "sync sales", b, nil, func(tx *dbTx) error {
		var err error
		if t, err = s.importERPOrders(ctx, tx, erpSales, orders, ids); err != nil {
			return err
		}
		if err := twinChatOrders(ctx, tx, orders, settle.Days); err != nil {
			return err
		}
		var bills int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sync_states WHERE entity = ?`, string(erpsync.Bills)).Scan(&bills); err != nil {
			return err
		}
		for _, o := range orders {
			if o.Status == domain.OrderCancelled {
				continue
			}
			when := o.DeliveredAt
			if when.IsZero() {
				when = o.CreatedAt
			}
			from, to := within(when, settle.Days)
			for i, l := range o.Lines {
				q := l.Qty - l.Short
				if q <= 0 {
					continue
				}
				if _, err := settleMatch(ctx, tx, "sale:"+o.ID+"#"+strconv.Itoa(i+1), at, `figure = 'stock' AND kind = 'delivery'
					AND sku = ? AND qty = ? AND customer_id = ? AND at >= ? AND at <= ?`, l.SKU, -q, o.CustomerID, from, to); err != nil {
					return err
				}
			}
			if bills > 0 {
				continue
			}
			from, to = within(o.CreatedAt, settle.Days)
			if _, err := settleMatch(ctx, tx, "sale:"+o.ID, at, `figure = 'dues' AND kind = 'order' AND customer_id = ?
				AND amount_paise BETWEEN ? AND ? AND at >= ? AND at <= ?`,
				o.CustomerID, int64(o.Total)-billSlack, int64(o.Total)+billSlack, from, to); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// closedInERP is the note on an ERP order that is no longer open there.
const closedInERP = "no longer open in the ERP"

// SyncOpenOrders imports the ERP's open orders as history; full says they
// are every one, so an open order an earlier run brought that is not
// among them is closed (cancelled, with a note: had it become a sale, the
// sales entity brings it back as one).
func (s *Store) SyncOpenOrders(ctx context.Context, b erpsync.Batch, orders []domain.Order, full bool, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	ids := orderIDs(orders)
	if err := distinct("order", ids); err != nil {
		return t, fmt.Errorf("sqlbooks: sync open orders: %w", err)
	}
	now := formatTime(s.Now())
	err := s.syncWrite(ctx, "sync open orders", b, nil, func(tx *dbTx) error {
		var err error
		if t, err = s.importERPOrders(ctx, tx, erpOpenOrders, orders, ids); err != nil {
			return err
		}
		if err := twinChatOrders(ctx, tx, orders, settle.Days); err != nil {
			return err
		}
		if !full {
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'cancelled', cancelled_at = ?, note = ?
			WHERE source = ? AND erp_entity = ? AND status = 'committed' AND id NOT IN (`+s.e.jsonStrings()+`)`,
			now, closedInERP, sourceImport, erpOpenOrders, jsonList(ids))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		t.Updated += int(n)
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

func orderIDs(orders []domain.Order) []string {
	ids := make([]string, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	return ids
}

// erpPaymentKey is how the ERP's payment is known on the next run: its
// reference whatever its case, or without one its date, amount and mode.
func erpPaymentKey(p domain.Payment) string {
	if p.Reference != "" {
		return "ref:" + strings.ToUpper(p.Reference)
	}
	return "at:" + formatTime(p.ReceivedAt) + "|" + strconv.FormatInt(int64(p.Amount), 10) + "|" + string(p.Mode)
}

// SyncPayments writes the ERP's payments, each once: a payment the books
// already hold as the ERP's (payments.source_key) is updated in place; one
// the chat recorded — the same reference, whatever its case, or the same
// amount within settle.Days where the references do not differ — becomes
// that one row: it keeps its time and who recorded it, takes the ERP's
// amount and mode and its key, and its provisional entry is settled; any
// other is added as imported history. So a chat payment and the ERP's
// count once in every sum of payments.
func (s *Store) SyncPayments(ctx context.Context, b erpsync.Batch, ps []domain.Payment, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.CustomerID + " " + erpPaymentKey(p)
	}
	if err := distinct("payment", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync payments: %w", err)
	}
	at := s.settleTime(settle)
	err := s.syncWrite(ctx, "sync payments", b, nil, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, p := range ps {
			if err := knownCustomer(ctx, tx, p.CustomerID, "a payment"); err != nil {
				return err
			}
			if p.Amount <= 0 {
				return domain.Errorf(domain.EINVALID, "a payment of %s of %s: want an amount above zero", p.CustomerID, p.Amount)
			}
			id, changed, err := s.syncPayment(ctx, tx, p, settle.Days)
			if err != nil {
				return fmt.Errorf("payment of %s: %w", p.CustomerID, err)
			}
			switch {
			case id == 0:
				t.Added++
				continue
			case changed:
				t.Updated++
			default:
				t.Unchanged++
			}
			if _, err := settleMatch(ctx, tx, "payment:"+p.CustomerID+":"+erpPaymentKey(p), at,
				`figure = 'dues' AND kind = 'payment' AND payment_id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// syncPayment writes one ERP payment and returns the row it found for it
// (0 when it added one) and whether that row changed.
func (s *Store) syncPayment(ctx context.Context, tx *dbTx, p domain.Payment, days int) (int64, bool, error) {
	key := erpPaymentKey(p)
	var id, amount int64
	var mode, receivedAt, ref, source string
	// The ERP's payment, from an earlier run.
	err := tx.QueryRowContext(ctx, `SELECT id, amount_paise, mode, received_at, reference, source FROM payments
		WHERE customer_id = ? AND source_key = ?`, p.CustomerID, key).Scan(&id, &amount, &mode, &receivedAt, &ref, &source)
	if err == nil {
		if source != sourceImport {
			// The chat's payment it became: its time and reference stay.
			receivedAt, ref = formatTime(p.ReceivedAt), p.Reference
		}
		if amount == int64(p.Amount) && mode == string(p.Mode) && receivedAt == formatTime(p.ReceivedAt) && ref == p.Reference {
			return id, false, nil
		}
		if source != sourceImport {
			_, err = tx.ExecContext(ctx, `UPDATE payments SET amount_paise = ?, mode = ? WHERE id = ?`, int64(p.Amount), string(p.Mode), id)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE payments SET amount_paise = ?, mode = ?, received_at = ?, reference = ? WHERE id = ?`,
				int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference, id)
		}
		return id, true, err
	} else if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, err
	}
	// A payment of the same reference: the chat's, or a history file's.
	if p.Reference != "" {
		err := tx.QueryRowContext(ctx, `SELECT id, amount_paise, mode FROM payments
			WHERE customer_id = ? AND reference <> '' AND upper(reference) = upper(?)`, p.CustomerID, p.Reference).Scan(&id, &amount, &mode)
		if err == nil {
			changed := amount != int64(p.Amount) || mode != string(p.Mode)
			_, err = tx.ExecContext(ctx, `UPDATE payments SET source_key = ?, amount_paise = ?, mode = ? WHERE id = ?`,
				key, int64(p.Amount), string(p.Mode), id)
			return id, changed, err
		} else if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
	}
	// The chat's payment of the same amount, near enough in time, whose
	// reference does not say it is another: the one still provisional
	// first, then the oldest.
	from, to := within(p.ReceivedAt, days)
	err = tx.QueryRowContext(ctx, `SELECT p.id FROM payments p
		WHERE p.customer_id = ? AND p.source = ? AND p.source_key = '' AND p.amount_paise = ?
			AND p.received_at >= ? AND p.received_at <= ? AND (? = '' OR p.reference = '')
		ORDER BY CASE WHEN EXISTS (SELECT 1 FROM provisional v WHERE v.payment_id = p.id AND v.settled_at IS NULL) THEN 0 ELSE 1 END,
			p.received_at, p.id LIMIT 1`, p.CustomerID, sourceMunshi, int64(p.Amount), from, to, p.Reference).Scan(&id)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE payments SET source_key = ?, mode = ?,
			reference = CASE WHEN reference = '' THEN ? ELSE reference END WHERE id = ?`, key, string(p.Mode), p.Reference, id)
		return id, false, err
	} else if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO payments (customer_id, amount_paise, mode, received_at, reference, source, source_key)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, p.CustomerID, int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference, sourceImport, key)
	return 0, false, err
}

// SyncReceipts records goods received by reference and settles the
// provisional receipts they match (same SKU and quantity within
// settle.Days). Stock itself comes from the stock figure.
func (s *Store) SyncReceipts(ctx context.Context, b erpsync.Batch, rs []erpsync.Receipt, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = r.Reference
	}
	if err := distinct("receipt", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync receipts: %w", err)
	}
	at := s.settleTime(settle)
	err := s.syncWrite(ctx, "sync receipts", b, nil, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, r := range rs {
			if err := knownProduct(ctx, tx, r.SKU, "receipt "+r.Reference); err != nil {
				return err
			}
			var sku, date string
			var qty int64
			err := tx.QueryRowContext(ctx, `SELECT sku, qty, date FROM receipts WHERE reference = ?`, r.Reference).Scan(&sku, &qty, &date)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `INSERT INTO receipts (reference, sku, qty, date) VALUES (?, ?, ?, ?)`,
					r.Reference, r.SKU, r.Qty, formatTime(r.Date)); err != nil {
					return fmt.Errorf("receipt %s: %w", r.Reference, err)
				}
				t.Added++
			case err != nil:
				return err
			case sku == r.SKU && qty == r.Qty && date == formatTime(r.Date):
				t.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE receipts SET sku = ?, qty = ?, date = ? WHERE reference = ?`,
					r.SKU, r.Qty, formatTime(r.Date), r.Reference); err != nil {
					return fmt.Errorf("receipt %s: %w", r.Reference, err)
				}
				t.Updated++
			}
			from, to := within(r.Date, settle.Days)
			if _, err := settleMatch(ctx, tx, "receipt:"+r.Reference, at, `figure = 'stock' AND kind = 'receipt'
				AND sku = ? AND qty = ? AND at >= ? AND at <= ?`, r.SKU, r.Qty, from, to); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// Owned reports the figures the ERP owns.
func (s *Store) Owned(ctx context.Context) ([]erpsync.Figure, error) {
	own, err := ownedFigures(ctx, s.read)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: %w", err)
	}
	var out []erpsync.Figure
	for f := range own {
		out = append(out, f)
	}
	slices.Sort(out)
	return out, nil
}

const provisionalColumns = `id, figure, kind, customer_id, sku, amount_paise, qty, reference, at, flagged_at`

func scanProvisional(rows *sql.Rows) (erpsync.Provisional, error) {
	var p erpsync.Provisional
	var figure, at string
	var amount int64
	var flagged sql.NullString
	if err := rows.Scan(&p.ID, &figure, &p.Kind, &p.CustomerID, &p.SKU, &amount, &p.Qty, &p.Reference, &at, &flagged); err != nil {
		return p, err
	}
	p.Figure, p.Amount, p.At, p.Flagged = erpsync.Figure(figure), domain.Paise(amount), parseTime(at), flagged.Valid
	return p, nil
}

func provisionalIn(ctx context.Context, q querier, where string, args ...any) ([]erpsync.Provisional, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+provisionalColumns+` FROM provisional WHERE settled_at IS NULL`+where+` ORDER BY at, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []erpsync.Provisional
	for rows.Next() {
		p, err := scanProvisional(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Unsettled returns the provisional entries not yet settled, oldest first.
func (s *Store) Unsettled(ctx context.Context) ([]erpsync.Provisional, error) {
	out, err := provisionalIn(ctx, s.read, "")
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: unsettled: %w", err)
	}
	return out, nil
}

// FlagUnsettled marks the unsettled entries made before cutoff and not yet
// flagged as flagged, with tell's effects in the outbox in the same
// transaction, and returns them: each is flagged once, whichever
// instance runs it.
func (s *Store) FlagUnsettled(ctx context.Context, cutoff time.Time, tell func([]erpsync.Provisional) []domain.Effect) ([]erpsync.Provisional, error) {
	var out []erpsync.Provisional
	err := s.inTx(ctx, func(tx *dbTx) error {
		var err error
		if out, err = provisionalIn(ctx, tx, ` AND flagged_at IS NULL AND at < ?`, formatTime(cutoff)); err != nil || len(out) == 0 {
			return err
		}
		now := formatTime(s.Now())
		for i := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE provisional SET flagged_at = ? WHERE id = ?`, now, out[i].ID); err != nil {
				return err
			}
			out[i].Flagged = true
		}
		if tell == nil {
			return nil
		}
		return s.enqueueTx(ctx, tx, tell(out)...)
	})
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: flag unsettled: %w", err)
	}
	return out, nil
}
