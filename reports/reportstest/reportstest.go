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
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/catalogtest"
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
const generator = "v4"

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
	catalog, customers, err := generate(size)
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
// twenty times the demo stock), then catalogtest's generated ones up to
// size, named the way distributors' catalogs are, less what would share
// a name with the demo's (see unlike).
func generate(size Size) ([]domain.Product, []domain.Customer, error) {
	products, customers, _, err := demo.Data()
	if err != nil {
		return nil, nil, err
	}
	var catalog []domain.Product
	for _, p := range products[:min(len(products), size.Products)] {
		p.StockReady, p.StockWIP = p.StockReady*20, p.StockWIP*20
		catalog = append(catalog, p)
	}
	buyers := customers[:min(len(customers), size.Customers)]
	want := catalogtest.Size{Products: size.Products - len(catalog), Customers: size.Customers - len(buyers)}
	for extra := want.Customers + 10; ; extra *= 2 {
		more := unlike(catalogtest.Generate(catalogtest.Size{Products: want.Products, Customers: want.Customers + extra}, 2026), products, customers)
		if len(more.Customers) >= want.Customers {
			return append(catalog, more.Products...), append(buyers, more.Customers[:want.Customers]...), nil
		}
	}
}

// unlike drops from generated books the aliases the demo's products and
// customers go by, and the customers named with a demo customer's one-word
// alias (another "Mehta"), so that the questions the benchmarks ask about
// the demo's books ("GC ka stock", "Mehta ji ka outstanding") mean one
// product and one customer, as they do in the demo.
func unlike(b catalogtest.Books, products []domain.Product, customers []domain.Customer) catalogtest.Books {
	taken, names := map[string]bool{}, map[string]bool{}
	for _, p := range products {
		for _, a := range p.Aliases {
			taken[strings.ToLower(a)] = true
		}
	}
	for _, c := range customers {
		for _, a := range c.Aliases {
			taken[strings.ToLower(a)] = true
			if !strings.Contains(a, " ") {
				names[strings.ToLower(a)] = true
			}
		}
	}
	b = b.Without(func(alias string) bool { return taken[strings.ToLower(alias)] })
	named := func(c domain.Customer) bool {
		for _, w := range strings.Fields(strings.ToLower(strings.Join(append([]string{c.Name}, c.Aliases...), " "))) {
			if names[strings.Trim(w, ",.")] {
				return true
			}
		}
		return false
	}
	var kept []domain.Customer
	for _, c := range b.Customers {
		if !named(c) {
			kept = append(kept, c)
		}
	}
	b.Customers = kept
	return b
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
	// The store writes the copy, so that what is cached is the books
	// whatever the engine keeps beside its main file; the finished copy
	// takes its place in the cache in one step, for other test processes
	// building the same size at once.
	done := filepath.Join(tmp, "copy.db")
	if err := CopyTo(built, done); err != nil {
		return "", err
	}
	if err := os.Rename(done, path); err != nil {
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

// CopyTo copies the database at src to dst, which must not exist,
// through the store (Backup), for a benchmark that writes (the audit log)
// without touching the shared database.
func CopyTo(src, dst string) error {
	ctx := context.Background()
	s, err := store.Open(ctx, src)
	if err != nil {
		return fmt.Errorf("reportstest: copy: %w", err)
	}
	if err := s.Backup(ctx, dst); err != nil {
		s.Close()
		return fmt.Errorf("reportstest: copy: %w", err)
	}
	return s.Close()
}

// PrivateCopy is a copy of the cached database of that size in tb's
// temporary directory, for a test or benchmark that writes (if only its
// audit log) without touching the shared file.
func PrivateCopy(tb testing.TB, size Size) string {
	tb.Helper()
	cached, err := Cached(context.Background(), size)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "munshi.db")
	if err := CopyTo(cached, path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// OpenCopy opens a PrivateCopy with the books' clock at Now, closed when
// tb ends, and says where it is.
func OpenCopy(tb testing.TB, size Size) (store.Store, string) {
	tb.Helper()
	path := PrivateCopy(tb, size)
	s, err := store.Open(context.Background(), path, store.WithClock(func() time.Time { return Now }))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s, path
}
