package orders

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/munshi/munshi/internal/domain"
)

// Outcome is what a rule says about a draft.
type Outcome string

const (
	Pass     Outcome = "pass"
	Escalate Outcome = "escalate" // needs an owner's approval (minimum, credit)
	Block    Outcome = "block"    // cannot be committed as it is (stock, payment mode)
)

// Rule names, in the order results are shown.
const (
	RuleMinimumOrder = "minimum_order"
	RuleCreditLimit  = "credit_limit"
	RuleInventory    = "inventory"
	RulePaymentMode  = "payment_mode"
	RuleGST          = "gst"
)

// RuleResult is one rule's verdict with its reason.
type RuleResult struct {
	Rule       string  `json:"rule"`
	Outcome    Outcome `json:"outcome"`
	Reason     string  `json:"reason"`
	Suggestion string  `json:"suggestion,omitempty"`
}

// Snapshot is the read-only state the rules judge a draft against.
type Snapshot struct {
	Customer     domain.Customer
	Products     map[string]domain.Product
	Committed    map[string]int64 // base units committed to open orders, by SKU
	MinimumOrder domain.Paise
}

type rule struct {
	name  string
	check func(Draft, Snapshot) RuleResult
}

var rules = []rule{
	{RuleMinimumOrder, minimumOrder},
	{RuleCreditLimit, creditLimit},
	{RuleInventory, inventory},
	{RulePaymentMode, paymentMode},
	{RuleGST, gst},
}

// CheckRules runs the five rules in parallel and returns their results in a
// fixed order. A rule that has not answered when ctx ends blocks the draft:
// an unchecked rule is never taken as passed.
func CheckRules(ctx context.Context, d Draft, s Snapshot) []RuleResult {
	results := make([]RuleResult, len(rules))
	done := make(chan int, len(rules))
	var mu sync.Mutex
	for i, r := range rules {
		go func() {
			res := r.check(d, s)
			res.Rule = r.name
			mu.Lock()
			results[i] = res
			mu.Unlock()
			done <- i
		}()
	}
	for n := 0; n < len(rules); n++ {
		select {
		case <-done:
		case <-ctx.Done():
			mu.Lock()
			defer mu.Unlock()
			out := make([]RuleResult, len(rules))
			for i, r := range rules {
				out[i] = results[i]
				if out[i].Rule == "" {
					out[i] = RuleResult{Rule: r.name, Outcome: Block, Reason: "could not be checked in time; please try again"}
				}
			}
			return out
		}
	}
	return results
}

func minimumOrder(d Draft, s Snapshot) RuleResult {
	if d.Total >= s.MinimumOrder {
		return RuleResult{Outcome: Pass, Reason: fmt.Sprintf("total %s meets the %s minimum", d.Total, s.MinimumOrder)}
	}
	return RuleResult{Outcome: Escalate,
		Reason:     fmt.Sprintf("total %s is below the %s minimum order value", d.Total, s.MinimumOrder),
		Suggestion: fmt.Sprintf("add %s more, or the owner must approve", s.MinimumOrder-d.Total)}
}

func creditLimit(d Draft, s Snapshot) RuleResult {
	c := s.Customer
	if d.Payment != domain.PayCredit {
		return RuleResult{Outcome: Pass, Reason: "not a credit order"}
	}
	after := c.Outstanding + d.Total
	sum := fmt.Sprintf("outstanding %s + this order = %s", c.Outstanding, after)
	if c.Outstanding < 0 {
		sum = fmt.Sprintf("advance %s against this order leaves %s owed", -c.Outstanding, domain.Dues(after))
	}
	if after <= c.CreditLimit {
		return RuleResult{Outcome: Pass, Reason: fmt.Sprintf("%s, within the %s limit", sum, c.CreditLimit)}
	}
	return RuleResult{Outcome: Escalate,
		Reason:     fmt.Sprintf("%s, over the %s credit limit by %s", sum, c.CreditLimit, after-c.CreditLimit),
		Suggestion: "collect payment first, change to cash, or the owner must approve"}
}

func inventory(d Draft, s Snapshot) RuleResult {
	var short []string
	var suggest []string
	for _, l := range d.Lines {
		p := s.Products[l.SKU]
		available := max(p.StockReady-s.Committed[l.SKU], 0)
		if l.Qty <= available {
			continue
		}
		short = append(short, fmt.Sprintf("%s: need %s, available %s", p.Name, domain.Units(l.Qty, p.Unit), domain.Units(available, p.Unit)))
		if available > 0 {
			suggest = append(suggest, fmt.Sprintf("%s of %s%s", Quantity(available, p), p.Name, fullPacks(available, p)))
		} else if p.StockWIP > 0 {
			suggest = append(suggest, fmt.Sprintf("%s is out of stock (%s in production)", p.Name, domain.Units(p.StockWIP, p.Unit)))
		} else {
			suggest = append(suggest, fmt.Sprintf("drop %s (out of stock)", p.Name))
		}
	}
	if len(short) == 0 {
		return RuleResult{Outcome: Pass, Reason: "all items in stock"}
	}
	return RuleResult{Outcome: Block, Reason: "not enough stock — " + strings.Join(short, "; "),
		Suggestion: "available now: " + strings.Join(suggest, ", ")}
}

func paymentMode(d Draft, s Snapshot) RuleResult {
	if s.Customer.Accepts(d.Payment) {
		return RuleResult{Outcome: Pass, Reason: fmt.Sprintf("%s allowed for %s", ModeName(d.Payment), s.Customer.Name)}
	}
	var allowed []string
	for _, m := range s.Customer.PaymentModes {
		allowed = append(allowed, ModeName(m))
	}
	return RuleResult{Outcome: Block,
		Reason:     fmt.Sprintf("%s is not allowed for %s", ModeName(d.Payment), s.Customer.Name),
		Suggestion: "use " + strings.Join(allowed, ", ")}
}

func gst(d Draft, s Snapshot) RuleResult {
	var sum domain.Paise
	rates := map[domain.GSTRate]bool{}
	for _, l := range d.Lines {
		if want := s.Products[l.SKU].GSTPercent; l.GSTRate != want {
			return RuleResult{Outcome: Block, Reason: fmt.Sprintf("GST on %s is %s, the catalog says %s", l.SKU, l.GSTRate, want)}
		}
		sum += l.GSTAmount
		rates[l.GSTRate] = true
	}
	if sum != d.GST {
		return RuleResult{Outcome: Block, Reason: "GST lines do not add up to the order's GST"}
	}
	var rs []string
	for r := range rates {
		rs = append(rs, r.String())
	}
	return RuleResult{Outcome: Pass, Reason: fmt.Sprintf("GST %s at %s", d.GST, strings.Join(sortStrings(rs), ", "))}
}

// ModeName is how a payment mode is written to people.
func ModeName(m domain.PaymentMode) string {
	switch m {
	case domain.PayCOD:
		return "cash on delivery"
	case domain.PayCredit:
		return "credit"
	case domain.PayUPI:
		return "UPI"
	case domain.PayCheque:
		return "cheque"
	case domain.PayBankTransfer:
		return "bank transfer"
	}
	return string(m)
}

// fullPacks says how many whole packs of the largest size fit in qty, when
// qty is not itself a whole number of packs: " (83 full cartons)".
func fullPacks(qty int64, p domain.Product) string {
	var best domain.PackSize
	for _, ps := range p.PackSizes {
		if ps.Units > best.Units {
			best = ps
		}
	}
	if best.Units <= 1 || qty < best.Units || qty%best.Units == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d full %s)", qty/best.Units, domain.Plural(best.Name, qty/best.Units))
}
