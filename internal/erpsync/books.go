package erpsync

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Entity names one kind of record a mapping syncs.
type Entity string

// The entities a mapping may name, in the order a run takes them (masters
// before what refers to them).
const (
	Products   Entity = "products"    // catalog master; may carry stock
	Customers  Entity = "customers"   // customer master; may carry dues and limits
	Stock      Entity = "stock"       // ready and work-in-progress stock by SKU
	Dues       Entity = "dues"        // outstanding and credit limit by customer
	Bills      Entity = "bills"       // unpaid bills, for the oldest bill's age
	Sales      Entity = "sales"       // sales history, one row per line
	OpenOrders Entity = "open_orders" // orders the ERP holds open, one row per line
	Payments   Entity = "payments"    // payments received
	Receipts   Entity = "receipts"    // goods received into stock (purchases, production)
)

// Entities lists every entity in run order.
var Entities = []Entity{Products, Customers, Stock, Dues, Bills, Sales, OpenOrders, Payments, Receipts}

// Figure is a number the ERP may own: once a sync has written it, what
// people record in the chat against it is provisional until the ERP shows
// the same event.
type Figure string

const (
	FigureStock Figure = "stock" // products.stock_ready / stock_wip
	FigureDues  Figure = "dues"  // customers.outstanding
)

// Batch says what one write of a run is: every write carries the entity's
// state, stored in the same transaction as the rows.
type Batch struct {
	Entity Entity
	// Owns are the figures this entity's rows set (stock, dues): from the
	// first such write on, the books mark the figure as the ERP's.
	Owns []Figure
	// State is stored with the rows: the watermark reached, counts, when.
	State State
}

// State is what the books keep of an entity's sync between runs.
type State struct {
	Entity    Entity
	Watermark string    // the change column's greatest value read (incremental entities); "" before the first run
	LastRun   time.Time // when the last run ended, good or bad
	LastGood  time.Time // when the data was last written in full
	Rows      int       // rows the last good run read
	LastError string    // "" after a good run; never holds a secret
	Failures  int       // runs failed in a row
}

// StockRow sets a product's stock from the ERP (base units).
type StockRow struct {
	SKU        string
	Ready, WIP int64
	HasWIP     bool // the mapping names a WIP column; otherwise WIP is left as it is
}

// DuesRow sets a customer's outstanding and, when mapped, credit limit.
type DuesRow struct {
	CustomerID  string
	Outstanding domain.Paise
	CreditLimit domain.Paise
	HasLimit    bool
}

// Bill is one bill of a customer's as the ERP keeps it.
type Bill struct {
	Number     string // the ERP's bill number, unique per source
	CustomerID string
	Date       time.Time
	Amount     domain.Paise // the bill's total
	Balance    domain.Paise // what is unpaid of it; equal to Amount when the source has no balance
}

// Receipt is goods received into ready stock (a purchase or production).
type Receipt struct {
	Reference string // the ERP's document number (with the line, when several)
	SKU       string
	Qty       int64 // base units
	Date      time.Time
}

// Provisional is an event recorded in the chat against a figure the ERP
// owns, not yet seen in the ERP's data.
type Provisional struct {
	ID         int64
	Figure     Figure
	Kind       string // payment, order (a credit order's amount), receipt, delivery
	CustomerID string // dues, and deliveries
	SKU        string // stock
	Amount     domain.Paise
	Qty        int64 // stock, signed: a receipt adds, a delivery takes
	Reference  string
	At         time.Time
	Flagged    bool // accounts were told it is still unsettled
}

// Books is the part of the store seam a sync writes through. Every Sync*
// call is one transaction: its rows, the entity's State, the figures it
// owns and the settling of provisional entries it matches, or nothing.
type Books interface {
	// SyncStates returns every entity's state.
	SyncStates(ctx context.Context) ([]State, error)
	// RecordSyncFailure notes a failed run (LastRun, LastError, Failures)
	// and writes nothing else.
	RecordSyncFailure(ctx context.Context, e Entity, at time.Time, reason string) error

	// SyncProducts upserts products by SKU, active. With stock among
	// b.Owns it sets stock as the ERP gives it plus what is provisional
	// for the SKU; otherwise a product already in the books keeps its
	// stock.
	SyncProducts(ctx context.Context, b Batch, ps []domain.Product) (domain.Tally, error)
	// SyncCustomers upserts customers by id, active; with dues among
	// b.Owns likewise for the outstanding.
	SyncCustomers(ctx context.Context, b Batch, cs []domain.Customer) (domain.Tally, error)
	// Deactivate marks every product (or customer) whose key is not in
	// keep inactive and the ones in it active again, and returns how many
	// it made inactive. Nothing is deleted: history keeps its names.
	Deactivate(ctx context.Context, e Entity, keep []string, b Batch) (int, error)
	SyncStock(ctx context.Context, b Batch, rows []StockRow) (domain.Tally, error)
	SyncDues(ctx context.Context, b Batch, rows []DuesRow) (domain.Tally, error)
	// SyncBills replaces a customer's bills by number; full says the rows
	// are every unpaid bill, so a bill not among them is paid. It settles
	// the provisional credit orders they match (same customer, amount
	// within ₹1, within settle.Days).
	SyncBills(ctx context.Context, b Batch, bills []Bill, full bool, settle Settle) (domain.Tally, error)
	// SyncSales imports orders as history (ImportHistory's rules, upsert
	// by id) and settles the provisional deliveries and credit orders they
	// match (credit orders only while no bills are synced: bills settle
	// them otherwise).
	SyncSales(ctx context.Context, b Batch, orders []domain.Order, settle Settle) (domain.Tally, error)
	// SyncOpenOrders imports the ERP's open orders as history; full says
	// an ERP order not among them is no longer open. Like SyncSales, it
	// pairs an order taken in the chat with the ERP's copy of it (same
	// customer and lines within settle.Days), which sales then count
	// instead.
	SyncOpenOrders(ctx context.Context, b Batch, orders []domain.Order, full bool, settle Settle) (domain.Tally, error)
	// SyncPayments imports payments as history, upsert by customer and
	// reference, and settles the provisional payments they match: same
	// customer and reference (whatever its case), or same customer and
	// amount within settle.Days. A settled chat payment and the ERP's
	// payment count once.
	SyncPayments(ctx context.Context, b Batch, ps []domain.Payment, settle Settle) (domain.Tally, error)
	// SyncReceipts records goods received by reference (idempotent) and
	// settles the provisional receipts they match (same SKU and quantity
	// within settle.Days). It does not move stock: stock comes from the
	// stock figure.
	SyncReceipts(ctx context.Context, b Batch, rs []Receipt, settle Settle) (domain.Tally, error)

	// Owned reports the figures the ERP owns.
	Owned(ctx context.Context) ([]Figure, error)
	// Unsettled returns the provisional entries not yet settled, oldest
	// first.
	Unsettled(ctx context.Context) ([]Provisional, error)
	// FlagUnsettled marks the entries made before cutoff, unsettled and
	// not yet flagged, as flagged, with effects (telling accounts) in the
	// outbox in the same transaction, and returns them.
	FlagUnsettled(ctx context.Context, cutoff time.Time, tell func([]Provisional) []domain.Effect) ([]Provisional, error)
}

// Settle is how far apart a chat entry and the ERP's may be and still be
// one event.
type Settle struct {
	Days int
	Now  time.Time
}
