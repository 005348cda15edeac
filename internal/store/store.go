package store

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/handoff"
	"github.com/munshi/munshi/internal/intake"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/webhook"
)

// Store is everything Munshi keeps: the books, the inbound record, the
// outbox and the audit log. Each part is the interface its consumer
// declares, so a backend that satisfies Store satisfies all of them.
type Store interface {
	orders.Books
	reports.Books
	reports.Synced
	digest.Books
	webhook.Inbox
	webhook.StatusRecorder
	outbox.Store
	outbox.Enqueuer
	audit.Appender
	conversation.Refusals
	demo.Books
	briefing.Sends
	// erpsync.Books is what a sync from an ERP writes through.
	erpsync.Books
	// handoff.Store keeps the conversations handed over to the office.
	handoff.Store
	Catalog
	History
	Retention
	Listings
	// Exclusive runs fn while no other caller of Exclusive with the same
	// name runs, in any instance sharing the database.
	Exclusive(ctx context.Context, name string, fn func(context.Context) error) error
	// Ping checks that the database answers, for readiness probes.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}

// Catalog is what imports and catalog reloads use: the catalog, the
// customers and the users, upserted by key, each call all or nothing.
type Catalog interface {
	UpsertProducts(ctx context.Context, ps []domain.Product) error
	UpsertCustomers(ctx context.Context, cs []domain.Customer) error
	UpsertUsers(ctx context.Context, us []domain.User) error
	// UpsertProductsKeepingStock and UpsertCustomersKeepingDues upsert
	// the same way, but what the books already hold keeps its stock, or
	// its outstanding: a scheduled pull of a sheet (intake.Sync).
	intake.SyncBooks
	// Products and Customers return everything, in key order byte by
	// byte, inactive ones too (Inactive set).
	Products(ctx context.Context) ([]domain.Product, error)
	Customers(ctx context.Context) ([]domain.Customer, error)
	// CatalogVersion changes whenever a product or a customer is written,
	// so that a running server notices an import.
	CatalogVersion(ctx context.Context) (string, error)
	// IsEmpty reports whether there is no catalog, customer or user yet.
	IsEmpty(ctx context.Context) (bool, error)
}

// History is how past orders and payments (imports, the demo, generated
// books) get into the books.
type History interface {
	// AddHistory writes orders (with their lines) and payments as they
	// are, all or nothing, without touching stock or dues; numbered orders
	// (ORD-1042, or D-40) keep the numbers Munshi takes past them.
	AddHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) error
	// ImportHistory writes orders and payments from history files, marked
	// as imported, all or nothing and idempotently: orders upserted by id
	// (lines replaced when they changed), payments by customer and
	// reference (without one, by customer, date, amount and mode, as often
	// as the import repeats it), rows already as given left untouched. It
	// moves neither stock nor dues, and imported orders hold no stock. An
	// order id Munshi made (or holds as a draft), or a reference Munshi
	// recorded with another amount or mode, refuses it all with a
	// *domain.HistoryClash. Numbered orders keep the counters past them,
	// as AddHistory does.
	ImportHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) (domain.HistoryImport, error)
}

// Retention deletes what is past its time.
type Retention interface {
	// SweepInbound deletes the answered or closed inbound records received
	// before cutoff (unanswered ones are the recovery job's) and returns
	// how many went.
	SweepInbound(ctx context.Context, cutoff time.Time) (int64, error)
	// SweepAudit deletes the audit entries written before cutoff.
	SweepAudit(ctx context.Context, cutoff time.Time) (int64, error)
}

// Listings are what operators and tests read back.
type Listings interface {
	// Order reads a committed order with its lines.
	Order(ctx context.Context, id string) (domain.Order, bool, error)
	// Committed returns the base units open orders hold, by SKU.
	Committed(ctx context.Context, skus ...string) (map[string]int64, error)
	// SavedReply returns the reply recorded for a MessageSid, if any.
	SavedReply(ctx context.Context, sid string) (bool, domain.Reply, error)
	// OutboxDepth counts the effects not yet carried out.
	OutboxDepth(ctx context.Context) (int, error)
	// OutboxMessages lists every outbox message, oldest first.
	OutboxMessages(ctx context.Context) ([]outbox.Status, error)
	// AuditEntries returns the entries of a kind ("" for all), oldest
	// first.
	AuditEntries(ctx context.Context, kind string) ([]audit.Entry, error)
	// Schema names the schema the database is at (its backend and the
	// migrations applied), so that a cache of built databases notices a
	// new migration.
	Schema(ctx context.Context) (string, error)
	// Backup writes a consistent copy of the whole database to dst, which
	// Open opens as it opens this one and which must not exist yet (for
	// SQLite, a file path), so that a database built once can be copied
	// for each test without knowing how the engine keeps its files.
	Backup(ctx context.Context, dst string) error
}
