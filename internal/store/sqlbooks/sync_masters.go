package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
)

// The ERP's masters and the figures it owns: products and customers,
// upserted and deactivated, and the stock and dues set from it plus what
// is still provisional.

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
