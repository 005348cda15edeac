package domain

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// OrderStatus is where an order is in its life.
type OrderStatus string

const (
	OrderPendingApproval OrderStatus = "pending_approval" // waiting for an owner
	OrderCommitted       OrderStatus = "committed"        // in the books, stock committed
	OrderDelivered       OrderStatus = "delivered"
	OrderRejected        OrderStatus = "rejected"
	OrderCancelled       OrderStatus = "cancelled"
)

// Order is a customer's order as it is kept in the books.
type Order struct {
	ID          string
	CustomerID  string
	PlacedBy    string // the salesperson's phone
	Payment     PaymentMode
	Status      OrderStatus
	Lines       []OrderLine
	Subtotal    Paise
	GST         Paise
	Total       Paise
	Fingerprint string
	CreatedAt   time.Time
	CommittedAt time.Time
	DeliveredAt time.Time
}

// OrderLine is one SKU of an order. Qty is in base units; SaidQty and
// SaidUnit keep what the person wrote ("5 carton").
type OrderLine struct {
	SKU      string
	Qty      int64 // as ordered, kept when the delivery falls short
	SaidQty  int64
	SaidUnit string
	// Short is what of Qty did not reach the customer, once the order is
	// delivered: a short delivery is history, not an edit of the order.
	Short     int64 `json:",omitempty"`
	Price     Paise // per base unit
	GSTRate   GSTRate
	Amount    Paise // Delivered() × Price, before GST: what is billed
	GSTAmount Paise
}

// Delivered is the base units of the line that reached the customer: all
// of them until a delivery says otherwise.
func (l OrderLine) Delivered() int64 { return l.Qty - l.Short }

// PriceLine fills Amount and GSTAmount of a line from what is delivered of
// it, its price and rate. GST is computed per line and rounded half up to
// the paisa, the way a tax invoice shows it.
func PriceLine(l OrderLine) OrderLine {
	l.Amount = Paise(l.Delivered()) * l.Price
	l.GSTAmount = LineGST(l.Amount, l.GSTRate)
	return l
}

// LineGST is the GST on an amount at a rate, rounded half up to the paisa.
func LineGST(amount Paise, rate GSTRate) Paise {
	n := int64(amount) * int64(rate)
	if n >= 0 {
		return Paise((n + 5000) / 10000)
	}
	return -Paise((-n + 5000) / 10000)
}

// Payment is money received from a customer.
type Payment struct {
	CustomerID string
	Amount     Paise
	Mode       PaymentMode
	ReceivedAt time.Time
	Reference  string
}

// orderNumber is how people write Munshi's order numbers: ORD-1042,
// "ord 1042", "order #1042", ORDER-1042 (as the router reads it) or 1042.
var orderNumber = regexp.MustCompile(`(?i)^(?:(?:ord|order|ordr|odr)\s*[-#_ ]?\s*#?\s*)?#?(\d{1,12})$`)

// draftNumber is how people write a draft's reference: D-57, "d 57",
// "draft #57", DRAFT-57 (as the router reads it). A bare number is never
// a draft: it stays an order number.
var draftNumber = regexp.MustCompile(`(?i)^(?:d|drf|draft)\s*[-#_ ]?\s*#?\s*(\d{1,12})$`)

// DraftPrefix begins every draft's reference (D-57): a draft shown to a
// salesperson is not an order yet, and takes its ORD number only when it
// is placed, so the books' numbers have no gaps.
const DraftPrefix = "D-"

// DraftRef is the reference of draft number n: D-57.
func DraftRef(n int64) string { return DraftPrefix + strconv.FormatInt(n, 10) }

// IsDraftRef reports whether s, as OrderRef writes it, names a draft
// rather than an order.
func IsDraftRef(s string) bool {
	n, ok := strings.CutPrefix(s, DraftPrefix)
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// OrderRef writes an order reference as Munshi does: D-57 for any spelling
// of a draft's reference, PRP-12 for a proposal's, ORD-1042 for any
// spelling of an order number, else the reference upper-cased (an
// imported bill number such as T-5531).
func OrderRef(s string) string {
	s = strings.TrimSpace(s)
	if m := draftNumber.FindStringSubmatch(s); m != nil {
		return DraftPrefix + m[1]
	}
	if m := proposalNumber.FindStringSubmatch(s); m != nil {
		return ProposalPrefix + m[1]
	}
	if m := orderNumber.FindStringSubmatch(s); m != nil {
		return "ORD-" + m[1]
	}
	return strings.ToUpper(s)
}
