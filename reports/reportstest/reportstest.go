// Package reportstest builds large Munshi databases for benchmarks of the
// owners' questions: a catalog of 10,000 SKUs and a year of sales with
// 500,000 order lines, generated in seconds and cached between runs.
//
// It is for tests and benchmarks only; it writes SQL directly, in one
// transaction with prepared statements, into a database whose schema
// sqlite.Open created.
package reportstest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store/sqlite"
)

// Size is how big a generated database is.
type Size struct {
	Products  int // SKUs, the demo catalog's first
	Customers int // the demo customers first
	Lines     int // order lines, about four an order
	Days      int // days of sales history up to Now
}

// Large is the size the benchmarks quote: 10,000 SKUs and 500,000 order
// lines over a year.
var Large = Size{Products: 10000, Customers: 2000, Lines: 500000, Days: 365}

// Now is the clock of generated databases: 14 March 2026, 09:30 in
// Kolkata. Tools over them should use it, so periods are stable.
var Now = time.Date(2026, 3, 14, 4, 0, 0, 0, time.UTC)

// OpenDays is how many recent days of orders are still committed (not yet
// delivered), holding stock.
const OpenDays = 3

// PendingDrafts is how many drafts wait for an owner's approval.
const PendingDrafts = 25

// generator is bumped whenever the generated data changes.
const generator = "v1"

// timeFormat is how the store writes times (UTC, fixed width, so text
// order is time order). TestTimeFormat in this package's tests keeps it in
// step with the store.
const timeFormat = "2006-01-02T15:04:05.000000Z"

// Build creates a database of that size at path (which must not exist):
// the demo catalog, customers and users first, then generated ones, a
// year of orders with skewed popularity (the demo products and customers
// are the busiest), the last OpenDays days still committed, and drafts
// waiting for approval.
func Build(ctx context.Context, path string, size Size) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("reportstest: %s already exists", path)
	}
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	if err := store.Close(); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=off&_synchronous=OFF&_journal_mode=WAL&_cache_size=-262144")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fill(ctx, tx, size); err != nil {
		return fmt.Errorf("reportstest: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

type catalogItem struct {
	sku   string
	price int64
	gst   int64
	packs []domain.PackSize
}

func fill(ctx context.Context, tx *sql.Tx, size Size) error {
	rng := rand.New(rand.NewPCG(2026, 3))
	stamp := Now.UTC().Format(timeFormat)
	products, customers, users, err := demo.Data()
	if err != nil {
		return err
	}
	prep := func(q string) (*sql.Stmt, error) { return tx.PrepareContext(ctx, q) }

	insProduct, err := prep(`INSERT INTO products (sku, name, aliases, unit, pack_sizes, price_paise, gst_bp, stock_ready, stock_wip, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	var catalog []catalogItem
	brands := strings.Fields("Surya Chandra Ganga Kaveri Himalaya Vindhya Sagar Prabhat Kamal Nilgiri Tulsi Shakti Amrit Jyoti Kiran Moti Roshni Sona Vijay Anmol")
	kinds := strings.Fields("Floor-Cleaner Glass-Cleaner Toilet-Cleaner Phenyl Dishwash-Liquid Dishwash-Bar Detergent Handwash Soap Shampoo Toothpaste Hair-Oil Agarbatti Naphthalene Air-Freshener Broom Mop Scrubber Garbage-Bags Tissue Napkins Sanitiser Bleach Starch Polish")
	sizes := []struct {
		name, unit string
		packs      []domain.PackSize
	}{
		{"100ml", "bottle", []domain.PackSize{{Name: "carton", Units: 48}}},
		{"200ml", "bottle", []domain.PackSize{{Name: "carton", Units: 48}, {Name: "box", Units: 12}}},
		{"500ml", "bottle", []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}}},
		{"1L", "bottle", []domain.PackSize{{Name: "carton", Units: 12}}},
		{"5L", "can", []domain.PackSize{{Name: "carton", Units: 4}}},
		{"75g", "bar", []domain.PackSize{{Name: "carton", Units: 144}, {Name: "dozen", Units: 12}}},
		{"200g", "pack", []domain.PackSize{{Name: "carton", Units: 60}}},
		{"1kg", "pack", []domain.PackSize{{Name: "bag", Units: 20}}},
		{"Large", "piece", []domain.PackSize{{Name: "dozen", Units: 12}}},
		{"Value Pack", "pack", []domain.PackSize{{Name: "carton", Units: 24}}},
	}
	for _, p := range products {
		if len(catalog) == size.Products {
			break
		}
		if _, err := insProduct.ExecContext(ctx, p.SKU, p.Name, strings.Join(p.Aliases, "|"), p.Unit, packText(p.PackSizes),
			int64(p.Price), int64(p.GSTPercent), p.StockReady*20, p.StockWIP*20, stamp); err != nil {
			return err
		}
		catalog = append(catalog, catalogItem{p.SKU, int64(p.Price), int64(p.GSTPercent), p.PackSizes})
	}
	for i := 0; len(catalog) < size.Products; i++ {
		b, k, sz := brands[i%len(brands)], kinds[(i/len(brands))%len(kinds)], sizes[(i/(len(brands)*len(kinds)))%len(sizes)]
		sku := fmt.Sprintf("P%05d", i+1)
		name := fmt.Sprintf("%s %s %s", b, strings.ReplaceAll(k, "-", " "), sz.name)
		if n := i / (len(brands) * len(kinds) * len(sizes)); n > 0 {
			name += fmt.Sprintf(" %d", n+1)
		}
		price := int64(500 + rng.IntN(50000)) // ₹5 to ₹505
		ready := int64(rng.IntN(6000))
		if rng.IntN(30) == 0 {
			ready = 0
		}
		wip := int64(0)
		if rng.IntN(4) == 0 {
			wip = int64(rng.IntN(2000))
		}
		if _, err := insProduct.ExecContext(ctx, sku, name, "", sz.unit, packText(sz.packs), price, 1800, ready, wip, stamp); err != nil {
			return err
		}
		catalog = append(catalog, catalogItem{sku, price, 1800, sz.packs})
	}

	insCustomer, err := prep(`INSERT INTO customers (id, name, aliases, phone, segment, credit_limit_paise, outstanding_paise, payment_modes, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	var custIDs []string
	for _, c := range customers {
		if len(custIDs) == size.Customers {
			break
		}
		modes := make([]string, len(c.PaymentModes))
		for i, m := range c.PaymentModes {
			modes[i] = string(m)
		}
		if _, err := insCustomer.ExecContext(ctx, c.ID, c.Name, strings.Join(c.Aliases, "|"), c.Phone, c.Segment,
			int64(c.CreditLimit), int64(c.Outstanding), strings.Join(modes, "|"), stamp); err != nil {
			return err
		}
		custIDs = append(custIDs, c.ID)
	}
	towns := strings.Fields("Kanpur Lucknow Agra Meerut Varanasi Prayagraj Bareilly Aligarh Moradabad Gorakhpur Jhansi Mathura")
	shops := strings.Fields("Kirana General Provision Traders Supermart Medical Stores Enterprises Agency Bhandar")
	for i := 0; len(custIDs) < size.Customers; i++ {
		id := fmt.Sprintf("K%05d", i+1)
		name := fmt.Sprintf("%s %s %s %d", towns[i%len(towns)], shops[(i/len(towns))%len(shops)], "Store", i+1)
		limit := int64(50000+rng.IntN(450000)) * 100
		var due int64
		if rng.IntN(10) < 4 {
			due = int64(rng.IntN(int(limit/100)*11/10)) * 100
		}
		if _, err := insCustomer.ExecContext(ctx, id, name, "", fmt.Sprintf("+9198%08d", i+1), "kirana", limit, due, "cod|credit|upi", stamp); err != nil {
			return err
		}
		custIDs = append(custIDs, id)
	}
	for _, u := range users {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (phone, name, role, updated_at) VALUES (?, ?, ?, ?)`, u.Phone, u.Name, string(u.Role), stamp); err != nil {
			return err
		}
	}

	insOrder, err := prep(`INSERT INTO orders (id, customer_id, placed_by, payment_mode, status, subtotal_paise, gst_paise, total_paise,
		fingerprint, created_at, committed_at, delivered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?)`)
	if err != nil {
		return err
	}
	insLine, err := prep(`INSERT INTO order_lines (order_id, line_no, sku, qty, said_qty, said_unit, price_paise, gst_bp, amount_paise, gst_paise)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	sales := []string{demo.SalesPhone, "+919900000004"}
	start := Now.Add(-time.Duration(size.Days) * 24 * time.Hour)
	span := Now.Sub(start)
	lines, seq := 0, 1000
	for lines < size.Lines {
		// Orders come evenly through the year; popularity is skewed: u³
		// puts the demo products and customers at the head of the lists.
		at := start.Add(time.Duration(float64(span) * float64(lines) / float64(size.Lines))).Add(time.Duration(rng.IntN(600)) * time.Second)
		if at.After(Now) {
			at = Now.Add(-time.Minute)
		}
		u := rng.Float64()
		cust := custIDs[int(float64(len(custIDs))*u*u*u)]
		seq++
		id := fmt.Sprintf("ORD-%d", seq)
		mode := []string{"credit", "credit", "cod", "upi", "cheque"}[rng.IntN(5)]
		status, delivered := "delivered", any(at.Add(30*time.Hour).UTC().Format(timeFormat))
		if Now.Sub(at) < OpenDays*24*time.Hour {
			status, delivered = "committed", nil
		}
		n := 1 + rng.IntN(7) // 1..7 lines, four on average
		var sub, gst int64
		used := map[int]bool{}
		lineNo := 0
		for j := 0; j < n && lines < size.Lines; j++ {
			v := rng.Float64()
			pi := int(float64(len(catalog)) * v * v * v)
			if used[pi] {
				continue
			}
			used[pi] = true
			p := catalog[pi]
			saidQty, saidUnit, qty := int64(1+rng.IntN(5)), "piece", int64(0)
			if len(p.packs) > 0 {
				saidUnit, qty = p.packs[0].Name, saidQty*p.packs[0].Units
			} else {
				saidQty *= 10
				qty = saidQty
			}
			amount := qty * p.price
			lineGST := int64(domain.LineGST(domain.Paise(amount), domain.GSTRate(p.gst)))
			lineNo++
			if _, err := insLine.ExecContext(ctx, id, lineNo, p.sku, qty, saidQty, saidUnit, p.price, p.gst, amount, lineGST); err != nil {
				return err
			}
			sub += amount
			gst += lineGST
			lines++
		}
		if lineNo == 0 {
			seq--
			continue
		}
		created := at.UTC().Format(timeFormat)
		if _, err := insOrder.ExecContext(ctx, id, cust, sales[rng.IntN(len(sales))], mode, status, sub, gst, sub+gst,
			created, at.Add(10*time.Minute).UTC().Format(timeFormat), delivered); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE counters SET value = ? WHERE name = 'order'`, seq); err != nil {
		return err
	}
	for i := 0; i < PendingDrafts; i++ {
		seq++
		total := int64(100000 + rng.IntN(5000000))
		payload, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("ORD-%d", seq), "total": total,
			"lines": []map[string]any{{"sku": catalog[rng.IntN(len(catalog))].sku, "qty": 24}}})
		at := Now.Add(-time.Duration(rng.IntN(48*60)) * time.Minute).UTC().Format(timeFormat)
		if _, err := tx.ExecContext(ctx, `INSERT INTO drafts (id, placed_by, customer_id, status, fingerprint, payload, created_at)
			VALUES (?, ?, ?, 'pending_approval', '', ?, ?)`, fmt.Sprintf("ORD-%d", seq), sales[i%len(sales)],
			custIDs[rng.IntN(len(custIDs))], string(payload), at); err != nil {
			return err
		}
	}
	return nil
}

func packText(ps []domain.PackSize) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%s=%d", p.Name, p.Units)
	}
	return strings.Join(parts, "|")
}

// Cached returns the path of a database of that size, built once and
// kept in os.TempDir, keyed by the size, this generator and the store's
// schema (its migrations), so a new migration builds a new file. The file
// is shared: copy it (CopyTo) before writing to it.
func Cached(ctx context.Context, size Size) (string, error) {
	schema, err := schemaKey(ctx)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%s|%+v|%s", generator, size, schema)))
	path := filepath.Join(os.TempDir(), "munshi-reports-"+hex.EncodeToString(h[:6])+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, err := os.MkdirTemp("", "munshi-reports-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	built := filepath.Join(tmp, "munshi.db")
	if err := Build(ctx, built, size); err != nil {
		return "", err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(built + suffix)
	}
	if err := os.Rename(built, path); err != nil {
		return "", err
	}
	return path, nil
}

// schemaKey names the migrations a fresh database gets.
func schemaKey(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "munshi-schema-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "schema.db")
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		return "", err
	}
	store.Close()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var names sql.NullString
	if err := db.QueryRowContext(ctx, `SELECT group_concat(name, ',') FROM (SELECT name FROM schema_migrations ORDER BY name)`).Scan(&names); err != nil {
		return "", err
	}
	var ddl sql.NullString
	if err := db.QueryRowContext(ctx, `SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name)`).Scan(&ddl); err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(names.String + "|" + ddl.String))
	return hex.EncodeToString(h[:8]), nil
}

// CopyTo copies the database file at src to dst, for a benchmark that
// writes (the audit log) without touching the shared file.
func CopyTo(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
