package reports

import (
	"context"
	"iter"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Books is the read-only part of the books the tools need. The SQLite store
// implements it; every method runs parameterized SQL under a row limit and a
// time limit, and none of them writes.
type Books interface {
	// StockOf returns the stock of those SKUs, ordered by name; unknown
	// SKUs are left out.
	StockOf(ctx context.Context, skus []string) ([]StockLine, error)
	// StockCatalog returns the whole catalog's totals and one page of its
	// products, ordered by name.
	StockCatalog(ctx context.Context, p Page) (StockTotals, []StockLine, error)
	// StockOuts returns how many products have nothing available (ready
	// minus committed at or below zero) and one page of them, by name.
	StockOuts(ctx context.Context, p Page) (int, []StockLine, error)
	// StockNeeds returns up to Limit (clamped to 1..MaxRows) products of
	// a stock answer, those that need attention first: out of stock
	// (available at or below zero), the better-selling first; then the
	// fewest days of sales the available stock covers (available over
	// sold, least first); then those that did not sell; ties by name and
	// SKU. Sold is the base units of committed and delivered orders
	// created in [From, To), as SaleLines streams them.
	StockNeeds(ctx context.Context, q StockNeedsQuery) ([]StockLine, error)
	// Dues returns the customers who owe money (or the named ones, owing or
	// not), largest due first, with the age of each one's oldest unpaid bill.
	Dues(ctx context.Context, q DuesQuery) (DuesTotals, []Due, error)
	// OpenOrders returns orders waiting for an owner's approval, then
	// committed orders waiting for delivery, oldest first.
	OpenOrders(ctx context.Context, q OpenOrdersQuery) (OpenOrdersTotals, []OpenOrder, error)
	// OrderStatuses returns orders with where each stands — waiting for an
	// owner's approval or refused by one (drafts), committed, delivered or
	// cancelled — newest first, with the count in each state.
	OrderStatuses(ctx context.Context, q OrderStatusQuery) (OrderStatusTotals, []OrderState, error)
	// SalesSummary sums order lines of committed and delivered orders
	// created in [From, To), grouped by product, customer or day.
	SalesSummary(ctx context.Context, q SalesQuery) (SalesTotals, []SalesLine, error)
	// SaleLines streams every line of the committed and delivered orders
	// created in [From, To), filtered by SKUs and CustomerIDs as
	// SalesSummary is (Page and By are not read), oldest order first. It
	// has no row limit and no time limit of its own: it feeds exports,
	// which stop it through ctx. An error ends the stream.
	SaleLines(ctx context.Context, q SalesQuery) iter.Seq2[SaleLine, error]
	// PaymentsReceived sums the payments received in [From, To), those
	// recorded through the chat and imported history alike, filtered by
	// customers and modes and grouped as asked (see PaymentsBy), with the
	// totals of every payment matched.
	PaymentsReceived(ctx context.Context, q PaymentsQuery) (PaymentsTotals, []PaymentLine, error)
	// MatchProducts and MatchCustomers find what a name means: an exact
	// SKU or id first, then an exact name or alias, then names containing
	// the text. At most limit matches.
	MatchProducts(ctx context.Context, text string, limit int) ([]Named, error)
	MatchCustomers(ctx context.Context, text string, limit int) ([]Named, error)
}

// Synced is what the books know of the figures an ERP keeps, for answers
// that say how fresh a figure is and what the chat recorded that the
// ERP's books do not show yet. Dues and the stock answers carry the same
// in their AsOf and Provisional fields.
type Synced interface {
	// SyncedAt returns, for each figure the ERP owns ("stock", "dues"),
	// when it was last written from the ERP; empty when it owns none.
	SyncedAt(ctx context.Context) (map[string]time.Time, error)
	// UnsettledPayments returns, per customer (all when none are named),
	// the payments recorded in the chat that the ERP has not shown yet.
	UnsettledPayments(ctx context.Context, customerIDs []string) (map[string]domain.Paise, error)
}

// MaxRows is the most rows any tool query returns at once.
const MaxRows = 200

// Page asks for Limit rows from Offset. Stores clamp Limit to 1..MaxRows.
type Page struct {
	Offset, Limit int
}

// Clamp returns the page with Offset ≥ 0 and Limit in 1..MaxRows.
func (p Page) Clamp() Page {
	if p.Offset < 0 {
		p.Offset = 0
	}
	if p.Limit <= 0 || p.Limit > MaxRows {
		p.Limit = MaxRows
	}
	return p
}

// Named is a product (ID is the SKU) or a customer found by name.
type Named struct {
	ID   string
	Name string
}

// StockLine is one product's stock in base units: Ready in the godown, WIP
// in production, Committed to open (committed, undelivered) orders.
type StockLine struct {
	SKU       string
	Name      string
	Unit      string
	Packs     []domain.PackSize
	Price     domain.Paise // per base unit
	Ready     int64
	WIP       int64
	Committed int64
	// AsOf is when the ERP's stock was last synced, zero when Munshi
	// keeps the stock itself; Provisional is what of Ready the chat
	// recorded since (received less delivered) that the ERP does not show
	// yet.
	AsOf        time.Time
	Provisional int64
}

// Available is what can still be promised: ready minus committed.
func (l StockLine) Available() int64 { return l.Ready - l.Committed }

// StockNeedsQuery asks for the products of a stock answer that need
// attention: the named SKUs' (a stock check), those out of stock
// (OutOnly), else the whole catalog's; sales in [From, To) rank them.
type StockNeedsQuery struct {
	SKUs     []string
	OutOnly  bool
	From, To time.Time
	Limit    int
}

// StockTotals sums up the catalog.
type StockTotals struct {
	Products   int          // SKUs in the catalog
	OutOfStock int          // SKUs with nothing available (available ≤ 0)
	Oversold   int          // SKUs with more committed than ready
	ReadyValue domain.Paise // Σ ready × price, at list price before GST
	AsOf       time.Time    // when the ERP's stock was last synced; zero when Munshi keeps it
}

// DuesQuery asks for the dues of some customers, or (CustomerIDs empty)
// of everyone who owes money.
type DuesQuery struct {
	CustomerIDs []string
	Page        Page
}

// Due is what one customer owes. Outstanding (customers.outstanding_paise)
// is the source of truth; the oldest unpaid bill is the oldest of the
// customer's bills synced from an ERP with something left to pay, when
// there are such, else it is derived first in, first out: payments settle
// the oldest bills first, so the unpaid bills are the newest credit orders
// (committed or delivered) whose totals add up to the outstanding amount,
// and the oldest of those is the oldest unpaid bill.
type Due struct {
	CustomerID  string
	Name        string
	Outstanding domain.Paise
	CreditLimit domain.Paise
	// OldestBill is the oldest unpaid bill's order number and OldestAt its
	// date; empty when nothing is owed or no credit order is on record.
	OldestBill string
	OldestAt   time.Time
	// UnpaidBills is how many credit orders the outstanding covers.
	UnpaidBills int
	// BeforeRecords is set when every credit order on record together is
	// less than the outstanding amount: part of the due (an opening
	// balance) is older than the oldest bill Munshi knows.
	BeforeRecords bool
	// AsOf is when the ERP's dues were last synced, zero when Munshi keeps
	// the dues itself. Provisional is what of the customer's payments the
	// chat recorded that the ERP's books do not show yet (already taken
	// off Outstanding).
	AsOf        time.Time
	Provisional domain.Paise
}

// Headroom is how much more credit the customer has: limit minus
// outstanding, negative when over the limit.
func (d Due) Headroom() domain.Paise { return d.CreditLimit - d.Outstanding }

// DuesTotals sums up the customers a dues query matched.
type DuesTotals struct {
	Customers   int
	Outstanding domain.Paise
	OverLimit   int
	AsOf        time.Time // when the ERP's dues were last synced; zero when Munshi keeps them
}

// OpenOrdersQuery filters open orders by customers and by who placed them
// ("" for anyone).
type OpenOrdersQuery struct {
	CustomerIDs []string
	PlacedBy    string
	Page        Page
}

// Kinds of open order.
const (
	AwaitingApproval = "pending_approval" // a draft sent to the owners
	ToDeliver        = "committed"        // in the books, not yet delivered
)

// OpenOrder is an order waiting for approval or for delivery.
type OpenOrder struct {
	ID           string
	Status       string // AwaitingApproval or ToDeliver
	CustomerID   string
	CustomerName string
	PlacedBy     string
	Total        domain.Paise // with GST
	Lines        int
	Items        string // "GC500 × 120, PH1L × 24": SKUs and base units, in line order
	CreatedAt    time.Time
}

// OpenOrdersTotals counts and values the open orders a query matched.
type OpenOrdersTotals struct {
	AwaitingApproval      int
	AwaitingApprovalValue domain.Paise
	ToDeliver             int
	ToDeliverValue        domain.Paise
}

// Count is every open order matched.
func (t OpenOrdersTotals) Count() int { return t.AwaitingApproval + t.ToDeliver }

// SalesBy is how a sales summary is grouped.
type SalesBy string

const (
	ByProduct  SalesBy = "product"
	ByCustomer SalesBy = "customer"
	ByDay      SalesBy = "day"
)

// SalesQuery asks for sales in [From, To). Day groups are local dates at
// UTCOffset seconds east of UTC. By product and by customer are ordered by
// amount, largest first; by day in date order.
type SalesQuery struct {
	From, To    time.Time
	By          SalesBy
	SKUs        []string
	CustomerIDs []string
	UTCOffset   int
	Page        Page
}

// SalesLine is one group of a sales summary. Amount is before GST.
type SalesLine struct {
	Key    string // SKU, customer id, or date (2006-01-02)
	Label  string // product or customer name, or the date
	Unit   string // the product's base unit, when one product is summed
	Packs  []domain.PackSize
	Qty    int64 // base units; meaningful only when Unit is set
	Amount domain.Paise
	GST    domain.Paise
	// Orders is how many orders the group holds; 0 by product unless one
	// product is summed (an order spans several products).
	Orders int
}

// SalesTotals sums a whole sales query, not only the page.
type SalesTotals struct {
	Groups int
	Orders int
	Qty    int64 // base units; meaningful only for one product
	Amount domain.Paise
	GST    domain.Paise
}

// OrderStatusQuery filters orders by id (any of the spellings given), by
// who placed them ("" for anyone), by customers, and by when they were
// placed: [From, To), zero for any time.
type OrderStatusQuery struct {
	OrderIDs    []string
	PlacedBy    string
	CustomerIDs []string
	From, To    time.Time
	Page        Page
}

// Where an order stands.
const (
	StateAwaitingApproval = "pending_approval" // a draft sent to the owners
	StateRejected         = "rejected"         // a draft an owner refused
	StateCommitted        = "committed"        // in the books, to deliver
	StateDelivered        = "delivered"
	StateCancelled        = "cancelled"
)

// OrderState is one order and where it stands. ChangedAt is when it got
// there (approval asked or refused, committed, delivered, cancelled), as
// far as the books know. Imported orders are history from another system:
// their state is that system's.
type OrderState struct {
	ID           string
	State        string
	CustomerID   string
	CustomerName string
	PlacedBy     string
	PlacedByName string // the user's name, "" when not a user
	Imported     bool
	Total        domain.Paise // with GST
	Lines        int
	CreatedAt    time.Time
	ChangedAt    time.Time
}

// OrderStatusTotals counts the orders a query matched, by state.
type OrderStatusTotals struct {
	AwaitingApproval, Rejected, Committed, Delivered, Cancelled int
}

// Count is every order matched.
func (t OrderStatusTotals) Count() int {
	return t.AwaitingApproval + t.Rejected + t.Committed + t.Delivered + t.Cancelled
}

// SaleLine is one line of a sale, as an export lists it. Amount is qty ×
// rate, before GST.
type SaleLine struct {
	OrderID    string
	At         time.Time // when the order was placed
	CustomerID string
	Customer   string
	SKU        string
	Product    string
	Unit       string
	Qty        int64        // base units
	Rate       domain.Paise // per base unit
	Amount     domain.Paise
	GSTRate    domain.GSTRate
	GST        domain.Paise
}

// PaymentsBy is how the payments received are grouped.
type PaymentsBy string

const (
	PaymentsByCustomer PaymentsBy = "customer" // largest amount first
	PaymentsByMode     PaymentsBy = "mode"     // largest amount first
	PaymentsByDay      PaymentsBy = "day"      // newest day first
	PaymentsByPayment  PaymentsBy = "payment"  // each payment, newest first
)

// PaymentsQuery asks for the payments received in [From, To), of some
// customers and modes (empty: all). Day groups are local dates at
// UTCOffset seconds east of UTC.
type PaymentsQuery struct {
	From, To    time.Time
	By          PaymentsBy
	CustomerIDs []string
	Modes       []domain.PaymentMode
	UTCOffset   int
	Page        Page
}

// PaymentLine is one line of the payments received: a customer's, a
// mode's or a day's payments, or one payment.
type PaymentLine struct {
	Key   string // customer id, mode, date (2006-01-02) or the payment's number
	Label string // customer name, mode or date
	// CustomerID and Customer are the payer, by customer and by payment.
	CustomerID string
	Customer   string
	// Mode is the mode of the group, by mode, or of the payment.
	Mode domain.PaymentMode
	// Modes are the modes a customer's or a day's payments came by, in
	// domain.PaymentModes order.
	Modes    []domain.PaymentMode
	Amount   domain.Paise
	Payments int
	// Customers is how many customers paid, by mode and by day.
	Customers int
	// Last is when the group's latest payment was received; by payment,
	// when the payment was.
	Last      time.Time
	Reference string // by payment
	Imported  bool   // by payment: from history files
}

// PaymentsTotals sums every payment a query matched, not only the page.
type PaymentsTotals struct {
	Groups    int
	Payments  int
	Customers int
	Amount    domain.Paise
}
