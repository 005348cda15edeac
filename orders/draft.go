package orders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// DraftStatus is where a draft is in its life.
type DraftStatus string

const (
	DraftOpen            DraftStatus = "open"             // shown, waiting for ok/cancel
	DraftPendingApproval DraftStatus = "pending_approval" // sent to the owners
	DraftCommitted       DraftStatus = "committed"
	DraftCancelled       DraftStatus = "cancelled"
	DraftReplaced        DraftStatus = "replaced" // a newer order message replaced it
	DraftRejected        DraftStatus = "rejected" // an owner said no
	// DraftSuperseded is a draft an owner's approval came too late for: the
	// books changed since they were asked, so it was closed unplaced.
	DraftSuperseded DraftStatus = "superseded"
)

// ApprovalWindow is how long a shown draft can be approved with "ok".
const ApprovalWindow = 30 * time.Minute

// Draft is a priced order waiting for approval, exactly as it was shown.
// ID is its own reference (D-57); OrderID the order number it was placed
// under, once committed. Drafts shown before drafts had references of
// their own were numbered ORD-… when shown, and keep that number.
type Draft struct {
	ID          string             `json:"id"`
	OrderID     string             `json:"order_id,omitempty"`
	PlacedBy    string             `json:"placed_by"`
	Customer    domain.Customer    `json:"customer"`
	Payment     domain.PaymentMode `json:"payment"`
	Lines       []domain.OrderLine `json:"lines"`
	Subtotal    domain.Paise       `json:"subtotal"`
	GST         domain.Paise       `json:"gst"`
	Total       domain.Paise       `json:"total"`
	Results     []RuleResult       `json:"results"`
	Basis       Basis              `json:"basis"`
	Fingerprint string             `json:"fingerprint"`
	Status      DraftStatus        `json:"status"`
	CreatedAt   time.Time          `json:"created_at"`
	// Instructions are what else the salesperson asked of whoever fills
	// the order, as written; no rule reads them.
	Instructions string `json:"instructions,omitempty"`
}

// Basis is what the rules judged a draft against, beside the draft itself:
// the customer's dues and limit and the minimum order of that moment.
type Basis struct {
	Outstanding  domain.Paise `json:"outstanding"`
	CreditLimit  domain.Paise `json:"credit_limit"`
	MinimumOrder domain.Paise `json:"minimum_order"`
}

// Item is one product and quantity of a parsed order.
type Item struct {
	SKU      string `json:"sku"`
	Qty      int64  `json:"qty"` // base units
	SaidQty  int64  `json:"-"`
	SaidUnit string `json:"-"`
}

// Price builds the draft's lines and totals from items at catalog prices.
// An item whose SKU is missing from products is an error: the parser only
// produces catalog SKUs.
func Price(customer domain.Customer, payment domain.PaymentMode, items []Item, products map[string]domain.Product) (Draft, error) {
	d := Draft{Customer: customer, Payment: payment}
	for _, it := range items {
		p, ok := products[it.SKU]
		if !ok {
			return d, fmt.Errorf("orders: %s is not in the catalog", it.SKU)
		}
		if it.Qty <= 0 {
			return d, fmt.Errorf("orders: quantity of %s must be positive", it.SKU)
		}
		l := domain.PriceLine(domain.OrderLine{SKU: p.SKU, Qty: it.Qty, SaidQty: it.SaidQty, SaidUnit: it.SaidUnit,
			Price: p.Price, GSTRate: p.GSTPercent})
		d.Lines = append(d.Lines, l)
		d.Subtotal += l.Amount
		d.GST += l.GSTAmount
	}
	d.Total = d.Subtotal + d.GST
	d.Fingerprint = Fingerprint(d)
	return d, nil
}

// Fingerprint binds an approval to exactly what was shown: the customer, the
// payment mode, every SKU with its quantity and price, the total, and what
// the rules judged it against — the minimum order and, for a credit order,
// the customer's outstanding and limit.
func Fingerprint(d Draft) string {
	basis := fmt.Sprintf("min=%d", d.Basis.MinimumOrder)
	if d.Payment == domain.PayCredit {
		basis += fmt.Sprintf(",due=%d,limit=%d", d.Basis.Outstanding, d.Basis.CreditLimit)
	}
	h := sha256.Sum256([]byte(identity(d) + "|" + basis))
	return hex.EncodeToString(h[:8])
}

// identity is the order itself, without what it was judged against: two
// drafts with one identity place the same goods at the same prices.
func identity(d Draft) string {
	lines := make([]string, len(d.Lines))
	for i, l := range d.Lines {
		lines[i] = fmt.Sprintf("%s:%d:%d:%d", l.SKU, l.Qty, l.Price, l.GSTRate)
	}
	sort.Strings(lines)
	return fmt.Sprintf("%s|%s|%s|%d", d.Customer.ID, d.Payment, strings.Join(lines, ","), d.Total)
}

// Judge runs the rules on a priced draft against a snapshot of the books
// and binds the draft to that judgement.
func Judge(ctx context.Context, d Draft, snap Snapshot) Draft {
	d.Results = CheckRules(ctx, d, snap)
	d.Basis = Basis{Outstanding: snap.Customer.Outstanding, CreditLimit: snap.Customer.CreditLimit, MinimumOrder: snap.MinimumOrder}
	d.Fingerprint = Fingerprint(d)
	return d
}

// covers reports whether every exception of fresh — each rule that now
// needs an owner — was shown, word for word and figure for figure, in
// shown: an approval covers what the approver read and nothing else.
func covers(shown, fresh Draft) bool {
	seen := map[string]bool{}
	for _, r := range shown.Results {
		if r.Outcome == Escalate {
			seen[r.Rule+"\x00"+r.Reason] = true
		}
	}
	for _, r := range fresh.Results {
		if r.Outcome == Escalate && !seen[r.Rule+"\x00"+r.Reason] {
			return false
		}
	}
	return true
}

// Verdict sums up the rule results: Block if any rule blocks, else Escalate
// if any escalates, else Pass.
func (d Draft) Verdict() Outcome {
	v := Pass
	for _, r := range d.Results {
		switch {
		case r.Outcome == Block:
			return Block
		case r.Outcome == Escalate:
			v = Escalate
		}
	}
	return v
}

// Number is the order number the draft is placed under: the one its
// commit took, or, for a draft numbered when it was shown, its own.
func (d Draft) Number() string {
	if d.OrderID == "" && !domain.IsDraftRef(d.ID) {
		return d.ID
	}
	return d.OrderID
}

// Order is the draft as it goes into the books, placed as order id.
func (d Draft) Order(id string, now time.Time) domain.Order {
	return domain.Order{
		ID: id, CustomerID: d.Customer.ID, PlacedBy: d.PlacedBy, Payment: d.Payment,
		Status: domain.OrderCommitted, Lines: d.Lines, Subtotal: d.Subtotal, GST: d.GST, Total: d.Total,
		Fingerprint: d.Fingerprint, CreatedAt: d.CreatedAt, CommittedAt: now,
	}
}

// Quantity writes base units in the product's largest whole pack where it
// divides evenly: 120 bottles of a 24-bottle carton is "5 carton".
func Quantity(qty int64, p domain.Product) string {
	packs := append([]domain.PackSize(nil), p.PackSizes...)
	sort.Slice(packs, func(i, j int) bool { return packs[i].Units > packs[j].Units })
	for _, ps := range packs {
		if ps.Units > 1 && qty >= ps.Units && qty%ps.Units == 0 {
			return fmt.Sprintf("%d %s", qty/ps.Units, domain.Plural(ps.Name, qty/ps.Units))
		}
	}
	return domain.Units(qty, p.Unit)
}

func sortStrings(xs []string) []string {
	sort.Strings(xs)
	return xs
}
