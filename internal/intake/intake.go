package intake

import (
	"context"
	"fmt"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// Books is the part of the store seam intake writes through. Each write is
// one transaction: all of a batch or nothing.
type Books interface {
	Products(ctx context.Context) ([]domain.Product, error)
	Customers(ctx context.Context) ([]domain.Customer, error)
	UpsertProducts(ctx context.Context, ps []domain.Product) error
	UpsertCustomers(ctx context.Context, cs []domain.Customer) error
	UpsertUsers(ctx context.Context, us []domain.User) error
	// ImportHistory writes past orders and payments idempotently, and
	// refuses with a *domain.HistoryClash what would overwrite Munshi's
	// own records.
	ImportHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) (domain.HistoryImport, error)
}

// SyncBooks is what a scheduled pull (SyncCatalog, SyncCustomers) writes
// through, each call one transaction.
type SyncBooks interface {
	// UpsertProductsKeepingStock upserts products by SKU; one already in
	// the books keeps its stock.
	UpsertProductsKeepingStock(ctx context.Context, ps []domain.Product) error
	// UpsertCustomersKeepingDues upserts customers by id; one already in
	// the books keeps their outstanding.
	UpsertCustomersKeepingDues(ctx context.Context, cs []domain.Customer) error
}

// Auditor records each import in the audit log.
type Auditor interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Intake takes batches of outside records into the books.
type Intake struct {
	Books Books
	Audit Auditor // optional
	Actor string  // who imports, for the audit log: "cli", a sync job
}

// Taken is what one import did.
type Taken struct {
	Kind string // catalog, customers, users, orders or payments
	Rows int    // rows read
	// Orders and payments only: what the books did with them. A second
	// import of the same rows adds and updates nothing.
	domain.Tally
}

// Catalog upserts products by SKU.
func (in Intake) Catalog(ctx context.Context, from string, ps []domain.Product) (Taken, error) {
	return in.upsert(ctx, from, "catalog", len(ps), func() error { return in.Books.UpsertProducts(ctx, ps) })
}

// Customers upserts customers by id.
func (in Intake) Customers(ctx context.Context, from string, cs []domain.Customer) (Taken, error) {
	return in.upsert(ctx, from, "customers", len(cs), func() error { return in.Books.UpsertCustomers(ctx, cs) })
}

// SyncCatalog upserts products by SKU for a source pulled on a schedule
// (a Google Sheet): as Catalog, except that a product already in the
// books keeps its stock. Stock moves with Munshi's deliveries and goods
// received; a sheet typed last week would set it back at every pull.
// A new product takes the stock given. Books must be SyncBooks too.
func (in Intake) SyncCatalog(ctx context.Context, from string, ps []domain.Product) (Taken, error) {
	sb, ok := in.Books.(SyncBooks)
	if !ok {
		return Taken{}, fmt.Errorf("intake: the books cannot keep stock while syncing the catalog")
	}
	return in.upsert(ctx, from, "catalog", len(ps), func() error { return sb.UpsertProductsKeepingStock(ctx, ps) })
}

// SyncCustomers upserts customers by id for a source pulled on a
// schedule: as Customers, except that a customer already in the books
// keeps their outstanding, which orders and payments move.
func (in Intake) SyncCustomers(ctx context.Context, from string, cs []domain.Customer) (Taken, error) {
	sb, ok := in.Books.(SyncBooks)
	if !ok {
		return Taken{}, fmt.Errorf("intake: the books cannot keep dues while syncing the customers")
	}
	return in.upsert(ctx, from, "customers", len(cs), func() error { return sb.UpsertCustomersKeepingDues(ctx, cs) })
}

// Users upserts users by phone.
func (in Intake) Users(ctx context.Context, from string, us []domain.User) (Taken, error) {
	return in.upsert(ctx, from, "users", len(us), func() error { return in.Books.UpsertUsers(ctx, us) })
}

func (in Intake) upsert(ctx context.Context, from, kind string, rows int, write func() error) (Taken, error) {
	if err := write(); err != nil {
		return Taken{}, fmt.Errorf("intake: %s: %w", kind, err)
	}
	t := Taken{Kind: kind, Rows: rows}
	in.record(ctx, t, map[string]any{"file": from, "rows": rows})
	return t, nil
}

// Orders checks order rows against the books' customers and SKUs, builds
// the orders and imports them in one transaction. A bad row, or an order
// Munshi made itself under the same id, refuses them all with a *Refusal
// naming the rows; nothing is written then.
func (in Intake) Orders(ctx context.Context, from string, rows Rows[OrderRow]) (Taken, error) {
	k, err := in.known(ctx)
	if err != nil {
		return Taken{}, err
	}
	h, err := BuildOrders(rows, k)
	if err != nil {
		return Taken{}, err
	}
	sum, err := in.Books.ImportHistory(ctx, h.Orders, nil)
	if err != nil {
		return Taken{}, h.refused(rows.Source, err)
	}
	t := Taken{Kind: "orders", Tally: sum.Orders}
	for _, o := range h.Orders {
		t.Rows += len(o.Lines)
	}
	in.recordHistory(ctx, from, t)
	return t, nil
}

// Payments checks payment rows against the books' customers and imports
// them in one transaction. A bad row, or a reference Munshi recorded with
// another amount or mode, refuses them all with a *Refusal naming the
// rows; nothing is written then.
func (in Intake) Payments(ctx context.Context, from string, rows Rows[PaymentRow]) (Taken, error) {
	k, err := in.known(ctx)
	if err != nil {
		return Taken{}, err
	}
	h, err := BuildPayments(rows, k)
	if err != nil {
		return Taken{}, err
	}
	sum, err := in.Books.ImportHistory(ctx, nil, h.Payments)
	if err != nil {
		return Taken{}, h.refused(rows.Source, err)
	}
	t := Taken{Kind: "payments", Rows: len(h.Payments), Tally: sum.Payments}
	in.recordHistory(ctx, from, t)
	return t, nil
}

// known are the customer ids and SKUs history rows may name.
func (in Intake) known(ctx context.Context) (Known, error) {
	var k Known
	ps, err := in.Books.Products(ctx)
	if err != nil {
		return k, fmt.Errorf("intake: %w", err)
	}
	cs, err := in.Books.Customers(ctx)
	if err != nil {
		return k, fmt.Errorf("intake: %w", err)
	}
	for _, p := range ps {
		k.SKUs = append(k.SKUs, p.SKU)
	}
	for _, c := range cs {
		k.Customers = append(k.Customers, c.ID)
	}
	return k, nil
}

func (in Intake) recordHistory(ctx context.Context, from string, t Taken) {
	in.record(ctx, t, map[string]any{"file": from, "rows": t.Rows,
		"added": t.Added, "updated": t.Updated, "unchanged": t.Unchanged})
}

// record writes the import's audit entry; from names the file, tab or
// table the rows came from.
func (in Intake) record(ctx context.Context, t Taken, detail map[string]any) {
	if in.Audit != nil {
		in.Audit.Record(ctx, in.Actor, audit.KindImport, t.Kind, detail)
	}
}
