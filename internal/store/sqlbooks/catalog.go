package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// UpsertProducts inserts or updates products by SKU, all in one transaction:
// either every product is written or none is.
func (s *Store) UpsertProducts(ctx context.Context, ps []domain.Product) error {
	return s.upsertProducts(ctx, ps, false)
}

// UpsertProductsKeepingStock upserts products as UpsertProducts does, but
// a product already in the books keeps its stock: a scheduled pull of a
// sheet must not set back what deliveries and receipts moved since.
func (s *Store) UpsertProductsKeepingStock(ctx context.Context, ps []domain.Product) error {
	return s.upsertProducts(ctx, ps, true)
}

func (s *Store) upsertProducts(ctx context.Context, ps []domain.Product, keepStock bool) error {
	now := formatTime(s.Now())
	stock := "stock_ready = excluded.stock_ready, stock_wip = excluded.stock_wip,"
	if keepStock {
		stock = ""
	}
	err := s.inTx(ctx, func(tx *dbTx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO products
			(sku, name, aliases, unit, pack_sizes, price_paise, gst_bp, stock_ready, stock_wip, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(sku) DO UPDATE SET name = excluded.name, aliases = excluded.aliases,
				unit = excluded.unit, pack_sizes = excluded.pack_sizes, price_paise = excluded.price_paise,
				gst_bp = excluded.gst_bp, `+stock+`
				updated_at = excluded.updated_at`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, p := range ps {
			if _, err := st.ExecContext(ctx, p.SKU, p.Name, joinList(p.Aliases), p.Unit, formatPacks(p.PackSizes),
				int64(p.Price), int64(p.GSTPercent), p.StockReady, p.StockWIP, now); err != nil {
				return fmt.Errorf("product %s: %w", p.SKU, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: upsert products: %w", err)
	}
	return nil
}

// Products returns the whole catalog ordered by SKU, inactive products
// too (Inactive set), so history keeps their names. The rows are read in
// the table's order and sorted here: following the SKU index would fetch
// each row from wherever it lies, eight times slower for a large catalog.
func (s *Store) Products(ctx context.Context) ([]domain.Product, error) {
	n, err := s.rowCount(ctx, `SELECT COUNT(*) FROM products`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: products: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+productColumns+` FROM products`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: products: %w", err)
	}
	defer rows.Close()
	var out []domain.Product
	if n > 0 {
		out = make([]domain.Product, 0, n)
	}
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlbooks: products: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlbooks: products: %w", err)
	}
	slices.SortFunc(out, func(a, b domain.Product) int { return strings.Compare(a.SKU, b.SKU) })
	return out, nil
}

// productColumns are what scanProduct reads.
const productColumns = `sku, name, aliases, unit, pack_sizes, price_paise, gst_bp, stock_ready, stock_wip, active`

// scanProduct reads productColumns.
func scanProduct(rows *sql.Rows) (domain.Product, error) {
	var p domain.Product
	var aliases, packs string
	var price, gst int64
	var active bool
	if err := rows.Scan(&p.SKU, &p.Name, &aliases, &p.Unit, &packs, &price, &gst, &p.StockReady, &p.StockWIP, &active); err != nil {
		return p, err
	}
	p.Aliases, p.PackSizes, p.Inactive = splitList(aliases), parsePacks(packs), !active
	p.Price, p.GSTPercent = domain.Paise(price), domain.GSTRate(gst)
	return p, nil
}

func formatPacks(ps []domain.PackSize) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Name + "=" + strconv.FormatInt(p.Units, 10)
	}
	return joinList(parts)
}

func parsePacks(s string) []domain.PackSize {
	var out []domain.PackSize
	for _, part := range splitList(s) {
		name, n, _ := strings.Cut(part, "=")
		units, err := strconv.ParseInt(n, 10, 64)
		if err == nil {
			out = append(out, domain.PackSize{Name: name, Units: units})
		}
	}
	return out
}

// UpsertCustomers inserts or updates customers by id in one transaction.
func (s *Store) UpsertCustomers(ctx context.Context, cs []domain.Customer) error {
	return s.upsertCustomers(ctx, cs, false)
}

// UpsertCustomersKeepingDues upserts customers as UpsertCustomers does,
// but a customer already in the books keeps their outstanding, which
// orders, deliveries and payments move.
func (s *Store) UpsertCustomersKeepingDues(ctx context.Context, cs []domain.Customer) error {
	return s.upsertCustomers(ctx, cs, true)
}

func (s *Store) upsertCustomers(ctx context.Context, cs []domain.Customer, keepDues bool) error {
	now := formatTime(s.Now())
	dues := "outstanding_paise = excluded.outstanding_paise,"
	if keepDues {
		dues = ""
	}
	err := s.inTx(ctx, func(tx *dbTx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO customers
			(id, name, aliases, phone, segment, credit_limit_paise, outstanding_paise, payment_modes, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(id) DO UPDATE SET name = excluded.name, aliases = excluded.aliases,
				phone = excluded.phone, segment = excluded.segment,
				credit_limit_paise = excluded.credit_limit_paise, `+dues+`
				payment_modes = excluded.payment_modes, updated_at = excluded.updated_at`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, c := range cs {
			if _, err := st.ExecContext(ctx, c.ID, c.Name, joinList(c.Aliases), c.Phone, c.Segment,
				int64(c.CreditLimit), int64(c.Outstanding), joinModes(c.PaymentModes), now); err != nil {
				return fmt.Errorf("customer %s: %w", c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: upsert customers: %w", err)
	}
	return nil
}

// Customers returns every customer ordered by id, inactive ones too,
// sorted here for the reason Products gives.
func (s *Store) Customers(ctx context.Context) ([]domain.Customer, error) {
	n, err := s.rowCount(ctx, `SELECT COUNT(*) FROM customers`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: customers: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id, name, aliases, phone, segment, credit_limit_paise,
		outstanding_paise, payment_modes, active FROM customers`)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: customers: %w", err)
	}
	defer rows.Close()
	var out []domain.Customer
	if n > 0 {
		out = make([]domain.Customer, 0, n)
	}
	for rows.Next() {
		var c domain.Customer
		var aliases, modes string
		var limit, outstanding int64
		var active bool
		if err := rows.Scan(&c.ID, &c.Name, &aliases, &c.Phone, &c.Segment, &limit, &outstanding, &modes, &active); err != nil {
			return nil, fmt.Errorf("sqlbooks: customers: %w", err)
		}
		c.Aliases, c.CreditLimit, c.Outstanding, c.Inactive = splitList(aliases), domain.Paise(limit), domain.Paise(outstanding), !active
		for _, m := range splitList(modes) {
			c.PaymentModes = append(c.PaymentModes, domain.PaymentMode(m))
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlbooks: customers: %w", err)
	}
	slices.SortFunc(out, func(a, b domain.Customer) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

func joinModes(ms []domain.PaymentMode) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = string(m)
	}
	return joinList(parts)
}

// rowCount runs a COUNT query, so that reading a large table allocates
// its slice once: appending 100,000 products one by one copies them over
// and over.
func (s *Store) rowCount(ctx context.Context, query string) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, query).Scan(&n); err != nil {
		return 0, err
	}
	return n, nil
}

// UpsertUsers inserts or updates users by phone in one transaction.
func (s *Store) UpsertUsers(ctx context.Context, us []domain.User) error {
	now := formatTime(s.Now())
	err := s.inTx(ctx, func(tx *dbTx) error {
		for _, u := range us {
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (phone, name, role, updated_at) VALUES (?, ?, ?, ?)
				ON CONFLICT(phone) DO UPDATE SET name = excluded.name, role = excluded.role, updated_at = excluded.updated_at`,
				u.Phone, u.Name, string(u.Role), now); err != nil {
				return fmt.Errorf("user %s: %w", u.Phone, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: upsert users: %w", err)
	}
	return nil
}

// UserByPhone finds the user with that E.164 phone. It returns a
// domain.ENOTFOUND error for a number Munshi does not know.
func (s *Store) UserByPhone(ctx context.Context, phone string) (domain.User, error) {
	var u domain.User
	var role string
	err := s.read.QueryRowContext(ctx, `SELECT phone, name, role FROM users WHERE phone = ?`, phone).Scan(&u.Phone, &u.Name, &role)
	if errors.Is(err, sql.ErrNoRows) {
		return u, domain.Errorf(domain.ENOTFOUND, "unknown user")
	} else if err != nil {
		return u, fmt.Errorf("sqlbooks: user by phone: %w", err)
	}
	u.Role = domain.Role(role)
	return u, nil
}

// UsersByRole lists the users with a role, ordered by phone.
func (s *Store) UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT phone, name, role FROM users WHERE role = ? ORDER BY phone`, string(role))
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: users by role: %w", err)
	}
	defer rows.Close()
	var out []domain.User
	for rows.Next() {
		var u domain.User
		var r string
		if err := rows.Scan(&u.Phone, &u.Name, &r); err != nil {
			return nil, fmt.Errorf("sqlbooks: users by role: %w", err)
		}
		u.Role = domain.Role(r)
		out = append(out, u)
	}
	return out, rows.Err()
}

// IsEmpty reports whether the database has no catalog, customers or users
// yet, so that the demo seeds only a fresh database.
func (s *Store) IsEmpty(ctx context.Context) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM products) + (SELECT COUNT(*) FROM customers)
		+ (SELECT COUNT(*) FROM users)`).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("sqlbooks: is empty: %w", err)
	}
	return n == 0, nil
}

// CatalogVersion changes whenever a product or a customer is added or
// updated, so that a running server can notice an import.
func (s *Store) CatalogVersion(ctx context.Context) (string, error) {
	var v string
	err := s.read.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) || '/' || COALESCE(MAX(updated_at), '') FROM products) || ' ' ||
		(SELECT COUNT(*) || '/' || COALESCE(MAX(updated_at), '') FROM customers)`).Scan(&v)
	if err != nil {
		return "", fmt.Errorf("sqlbooks: catalog version: %w", err)
	}
	return v, nil
}
