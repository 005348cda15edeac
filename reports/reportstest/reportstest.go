// Package reportstest builds Munshi databases with known or generated
// books, for tests and benchmarks of the owners' questions: Known's small
// books whose answers are worked out by hand, and a catalog of 10,000
// SKUs with a year of sales in 500,000 order lines, generated in seconds
// and cached between runs.
//
// It is for tests and benchmarks only. It writes through the store's
// interface (store.Open, the upserts, AddHistory, SaveDraft and
// MoveDraft), never SQL, so that what it builds is what Munshi itself
// would write, on any backend.
package reportstest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
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
const generator = "v2"

// historyBatch is how many orders go into the books in one AddHistory.
const historyBatch = 50000

// Build creates a database of that size at path (which must not exist):
// the demo catalog, customers and users first, then generated ones, a
// year of orders with skewed popularity (the demo products and customers
// are the busiest), the last OpenDays days still committed, and drafts
// waiting for approval.
func Build(ctx context.Context, path string, size Size) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("reportstest: %s already exists", path)
	}
	s, err := store.Open(ctx, path, store.WithClock(func() time.Time { return Now }))
	if err != nil {
		return err
	}
	if err := fill(ctx, s, size); err != nil {
		s.Close()
		return fmt.Errorf("reportstest: %w", err)
	}
	return s.Close()
}

// books is what Build writes to.
type books interface {
	store.Catalog
	store.History
	NewDraftID(ctx context.Context) (string, error)
	SaveDraft(ctx context.Context, d orders.Draft) error
	MoveDraft(ctx context.Context, m orders.DraftMove) (bool, error)
}

func fill(ctx context.Context, b books, size Size) error {
	rng := rand.New(rand.NewPCG(2026, 3))
	catalog, customers, err := generate(rng, size)
	if err != nil {
		return err
	}
	_, _, users, err := demo.Data()
	if err != nil {
		return err
	}
	if err := b.UpsertProducts(ctx, catalog); err != nil {
		return err
	}
	if err := b.UpsertCustomers(ctx, customers); err != nil {
		return err
	}
	if err := b.UpsertUsers(ctx, users); err != nil {
		return err
	}
	sales := []string{demo.SalesPhone, "+919900000004"}
	if err := addSales(ctx, b, rng, size, catalog, customers, sales); err != nil {
		return err
	}
	return addPendingDrafts(ctx, b, rng, catalog, customers, sales)
}

// generate makes the catalog and the customers: the demo ones first (with
// twenty times the demo stock), then made-up ones up to size.
func generate(rng *rand.Rand, size Size) ([]domain.Product, []domain.Customer, error) {
	products, customers, _, err := demo.Data()
	if err != nil {
		return nil, nil, err
	}
	var catalog []domain.Product
	for _, p := range products[:min(len(products), size.Products)] {
		p.StockReady, p.StockWIP = p.StockReady*20, p.StockWIP*20
		catalog = append(catalog, p)
	}
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
	for i := 0; len(catalog) < size.Products; i++ {
		b, k, sz := brands[i%len(brands)], kinds[(i/len(brands))%len(kinds)], sizes[(i/(len(brands)*len(kinds)))%len(sizes)]
		name := fmt.Sprintf("%s %s %s", b, strings.ReplaceAll(k, "-", " "), sz.name)
		if n := i / (len(brands) * len(kinds) * len(sizes)); n > 0 {
			name += fmt.Sprintf(" %d", n+1)
		}
		p := domain.Product{SKU: fmt.Sprintf("P%05d", i+1), Name: name, Unit: sz.unit, PackSizes: sz.packs, GSTPercent: 1800,
			Price: domain.Paise(500 + rng.IntN(50000))} // ₹5 to ₹505
		p.StockReady = int64(rng.IntN(6000))
		if rng.IntN(30) == 0 {
			p.StockReady = 0
		}
		if rng.IntN(4) == 0 {
			p.StockWIP = int64(rng.IntN(2000))
		}
		catalog = append(catalog, p)
	}
	buyers := customers[:min(len(customers), size.Customers)]
	towns := strings.Fields("Kanpur Lucknow Agra Meerut Varanasi Prayagraj Bareilly Aligarh Moradabad Gorakhpur Jhansi Mathura")
	shops := strings.Fields("Kirana General Provision Traders Supermart Medical Stores Enterprises Agency Bhandar")
	for i := 0; len(buyers) < size.Customers; i++ {
		c := domain.Customer{ID: fmt.Sprintf("K%05d", i+1), Phone: fmt.Sprintf("+9198%08d", i+1), Segment: "kirana",
			Name:         fmt.Sprintf("%s %s %s %d", towns[i%len(towns)], shops[(i/len(towns))%len(shops)], "Store", i+1),
			PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit, domain.PayUPI}}
		limit := int64(50000+rng.IntN(450000)) * 100
		c.CreditLimit = domain.Paise(limit)
		if rng.IntN(10) < 4 {
			c.Outstanding = domain.Paise(int64(rng.IntN(int(limit/100)*11/10)) * 100)
		}
		buyers = append(buyers, c)
	}
	return catalog, buyers, nil
}

// addSales writes size.Lines order lines of history, in batches. Orders
// come evenly through the year; popularity is skewed: u³ puts the demo
// products and customers at the head of the lists.
func addSales(ctx context.Context, b books, rng *rand.Rand, size Size, catalog []domain.Product, customers []domain.Customer, sales []string) error {
	start := Now.Add(-time.Duration(size.Days) * 24 * time.Hour)
	span := Now.Sub(start)
	modes := []domain.PaymentMode{domain.PayCredit, domain.PayCredit, domain.PayCOD, domain.PayUPI, domain.PayCheque}
	var batch []domain.Order
	lines, seq := 0, 1000
	for lines < size.Lines {
		at := start.Add(time.Duration(float64(span) * float64(lines) / float64(size.Lines))).Add(time.Duration(rng.IntN(600)) * time.Second)
		if at.After(Now) {
			at = Now.Add(-time.Minute)
		}
		u := rng.Float64()
		o := domain.Order{ID: fmt.Sprintf("ORD-%d", seq+1), CustomerID: customers[int(float64(len(customers))*u*u*u)].ID,
			Payment: modes[rng.IntN(len(modes))], Status: domain.OrderDelivered,
			CreatedAt: at, CommittedAt: at.Add(10 * time.Minute), DeliveredAt: at.Add(30 * time.Hour)}
		if Now.Sub(at) < OpenDays*24*time.Hour {
			o.Status, o.DeliveredAt = domain.OrderCommitted, time.Time{}
		}
		n := 1 + rng.IntN(7) // 1..7 lines, four on average
		used := map[int]bool{}
		for j := 0; j < n && lines < size.Lines; j++ {
			v := rng.Float64()
			pi := int(float64(len(catalog)) * v * v * v)
			if used[pi] {
				continue
			}
			used[pi] = true
			p := catalog[pi]
			l := domain.OrderLine{SKU: p.SKU, SaidQty: int64(1 + rng.IntN(5)), SaidUnit: "piece", Price: p.Price, GSTRate: p.GSTPercent}
			if len(p.PackSizes) > 0 {
				l.SaidUnit, l.Qty = p.PackSizes[0].Name, l.SaidQty*p.PackSizes[0].Units
			} else {
				l.SaidQty *= 10
				l.Qty = l.SaidQty
			}
			l = domain.PriceLine(l)
			o.Lines = append(o.Lines, l)
			o.Subtotal += l.Amount
			o.GST += l.GSTAmount
			lines++
		}
		if len(o.Lines) == 0 {
			continue
		}
		seq++
		o.Total = o.Subtotal + o.GST
		o.PlacedBy = sales[rng.IntN(len(sales))]
		if batch = append(batch, o); len(batch) == historyBatch {
			if err := b.AddHistory(ctx, batch, nil); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return b.AddHistory(ctx, batch, nil)
}

// addPendingDrafts shows PendingDrafts priced drafts, each of one
// product, and sends them to the owners, as a salesperson's "ok" over the
// credit limit would.
func addPendingDrafts(ctx context.Context, b books, rng *rand.Rand, catalog []domain.Product, customers []domain.Customer, sales []string) error {
	for i := range PendingDrafts {
		p, c := catalog[rng.IntN(len(catalog))], customers[rng.IntN(len(customers))]
		qty := int64(24)
		if len(p.PackSizes) > 0 {
			qty = p.PackSizes[0].Units * int64(1+rng.IntN(20))
		}
		d, err := orders.Price(c, domain.PayCredit, []orders.Item{{SKU: p.SKU, Qty: qty}}, map[string]domain.Product{p.SKU: p})
		if err != nil {
			return err
		}
		if d.ID, err = b.NewDraftID(ctx); err != nil {
			return err
		}
		d.PlacedBy, d.Status = sales[i%len(sales)], orders.DraftOpen
		d.CreatedAt = Now.Add(-time.Duration(rng.IntN(48*60)) * time.Minute)
		if err := b.SaveDraft(ctx, d); err != nil {
			return err
		}
		moved, err := b.MoveDraft(ctx, orders.DraftMove{ID: d.ID, From: []orders.DraftStatus{orders.DraftOpen},
			To: orders.DraftPendingApproval, By: d.PlacedBy})
		if err != nil {
			return err
		}
		if !moved {
			return fmt.Errorf("draft %s did not move to the owners", d.ID)
		}
	}
	return nil
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
	// Closing the store folds its write-ahead log into the file: a log
	// left behind would hold books the copy lacks.
	if _, err := os.Stat(built + "-wal"); err == nil {
		return "", fmt.Errorf("reportstest: %s kept a write-ahead log after closing", built)
	}
	if err := os.Rename(built, path); err != nil {
		return "", err
	}
	return path, nil
}

// schemaKey names the schema a fresh database gets.
func schemaKey(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "munshi-schema-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	s, err := store.Open(ctx, filepath.Join(dir, "schema.db"))
	if err != nil {
		return "", err
	}
	defer s.Close()
	return s.Schema(ctx)
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
