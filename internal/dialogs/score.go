package dialogs

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Turn is one message of a conversation, Munshi's reply to it, and the
// books after it.
type Turn struct {
	Said  string
	Reply domain.Reply
	After Snapshot
}

// Changes are what a conversation did to the books between two snapshots.
type Changes struct {
	// Placed are the new orders committed (or already delivered: that is
	// in Delivered too) and the new drafts sent to an owner for approval.
	Placed []Order
	// Delivered and Cancelled are orders that reached that state.
	Delivered []string
	Cancelled []string
	// Altered are other changes to orders already in the books.
	Altered []string
	// Payments are the new payments. One the audit log does not describe
	// has an empty Mode.
	Payments []Payment
	// Stock names the products whose stock was received or moved out of
	// work in progress (ready stock up, or WIP changed); deliveries only
	// take ready stock down, which is not counted apart.
	Stock []string
}

// Count is the number of entries the changes made.
func (c Changes) Count() int {
	return len(c.Placed) + len(c.Delivered) + len(c.Cancelled) + len(c.Altered) + len(c.Payments) + len(c.Stock)
}

// String describes the changes, for people.
func (c Changes) String() string {
	var parts []string
	for _, o := range c.Placed {
		what := "order"
		if o.State == StateAwaitingApproval {
			what = "draft sent for approval"
		}
		parts = append(parts, fmt.Sprintf("%s %s for %s (%s): %s", what, o.ID, o.Customer, o.Payment, itemsText(o.Lines)))
	}
	for _, id := range c.Delivered {
		parts = append(parts, id+" delivered")
	}
	for _, id := range c.Cancelled {
		parts = append(parts, id+" cancelled")
	}
	parts = append(parts, c.Altered...)
	for _, p := range c.Payments {
		s := fmt.Sprintf("payment from %s of %s", p.Customer, p.Amount)
		if p.Mode != "" {
			s += " by " + string(p.Mode)
		}
		if p.Reference != "" {
			s += ", reference " + p.Reference
		}
		parts = append(parts, s)
	}
	for _, sku := range c.Stock {
		parts = append(parts, "stock of "+sku+" received")
	}
	if len(parts) == 0 {
		return "nothing placed or recorded"
	}
	return strings.Join(parts, "; ")
}

// Diff says what changed in the books from before to after.
func Diff(before, after Snapshot) Changes {
	var c Changes
	for _, id := range after.orderIDs() {
		o := after.Orders[id]
		was, existed := before.Orders[id]
		if !existed {
			switch o.State {
			case StateCommitted, StateAwaitingApproval:
				c.Placed = append(c.Placed, o)
			case StateDelivered: // placed, and delivered: two entries
				c.Placed = append(c.Placed, o)
				c.Delivered = append(c.Delivered, id)
			case StateCancelled:
				c.Cancelled = append(c.Cancelled, id)
			}
			// A draft refused by an owner left nothing in the books.
			continue
		}
		switch {
		case o.State == was.State && slices.Equal(o.Lines, was.Lines) && o.Payment == was.Payment && o.Customer == was.Customer:
		case o.State == StateDelivered && was.State != StateDelivered:
			c.Delivered = append(c.Delivered, id)
		case o.State == StateCancelled && was.State != StateCancelled:
			c.Cancelled = append(c.Cancelled, id)
		case o.State != was.State:
			c.Altered = append(c.Altered, fmt.Sprintf("%s now %s (was %s)", id, o.State, was.State))
		default:
			c.Altered = append(c.Altered, id+" changed")
		}
	}
	c.Payments = newPayments(before, after)
	for _, sku := range sortedKeys(after.Stock) {
		now, was := after.Stock[sku], before.Stock[sku]
		if now.Ready > was.Ready || now.WIP != was.WIP {
			c.Stock = append(c.Stock, sku)
		}
	}
	return c
}

// newPayments are the payments after has and before had not: those the
// audit log describes, and any more the books count beside them.
func newPayments(before, after Snapshot) []Payment {
	var out []Payment
	if len(after.Payments) > len(before.Payments) {
		out = append(out, after.Payments[len(before.Payments):]...)
	}
	described := map[string]Paid{}
	for _, p := range out {
		d := described[p.Customer]
		d.Count++
		d.Amount += p.Amount
		described[p.Customer] = d
	}
	for _, customer := range sortedKeys(after.Paid) {
		n := after.Paid[customer].Count - before.Paid[customer].Count - described[customer].Count
		if n <= 0 {
			continue
		}
		amount := after.Paid[customer].Amount - before.Paid[customer].Amount - described[customer].Amount
		for i := range n {
			p := Payment{Customer: customer}
			if i == 0 {
				p.Amount = amount // the rest of the sum, on the first unseen one
			}
			out = append(out, p)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Verdict is how one state of a conversation meets its expectation.
type Verdict struct {
	OK bool
	// Wrong: the books hold an entry that is not the expected one (an
	// order with other lines, a second order, a payment nobody asked for).
	Wrong bool
	// Found says what the conversation left, for people.
	Found string
}

// Judge says whether the books after (and the reply that ended there)
// meet the expectation, against the books before the conversation.
func Judge(e Expect, before, after Snapshot, last domain.Reply) Verdict {
	c := Diff(before, after)
	v := Verdict{Found: c.String()}
	matched := 0 // the entries that are the expected one
	switch {
	case e.Order != nil:
		for _, o := range c.Placed {
			if orderMatches(*e.Order, o) {
				matched = 1
				break
			}
		}
	case e.Payment != nil:
		for _, p := range c.Payments {
			if paymentMatches(*e.Payment, p) {
				matched = 1
				break
			}
		}
	case e.Delivery != nil:
		for _, id := range c.Delivered {
			if strings.EqualFold(id, e.Delivery.Order) {
				matched = 1
				break
			}
		}
		if matched == 0 && !hasFold(after.Orders, e.Delivery.Order) {
			v.Found += fmt.Sprintf(" (there is no order %s in the books)", e.Delivery.Order)
		}
	case e.Reply != nil:
		missing := replyMisses(*e.Reply, last)
		if len(missing) > 0 {
			v.Found += "; last reply " + strings.Join(missing, ", ") + ": " + strconv.Quote(Shorten(last.Text, 160))
		} else if c.Count() == 0 {
			v.OK = true
		}
		v.Wrong = c.Count() > 0
		return v
	}
	v.Wrong = c.Count() > matched
	switch {
	case e.Nothing:
		v.OK = c.Count() == 0
	default:
		v.OK = matched == 1 && c.Count() == 1
	}
	return v
}

func hasFold(m map[string]Order, id string) bool {
	for k := range m {
		if strings.EqualFold(k, id) {
			return true
		}
	}
	return false
}

// orderMatches: the customer, the payment mode and exactly the lines (a
// multiset of SKU and quantity: order does not matter, repeats do).
func orderMatches(e OrderExpect, o Order) bool {
	if !strings.EqualFold(e.Customer, o.Customer) || e.Payment != o.Payment || len(e.Items) != len(o.Lines) {
		return false
	}
	norm := func(items []Item) []Item {
		out := make([]Item, len(items))
		for i, it := range items {
			out[i] = Item{SKU: strings.ToUpper(it.SKU), Qty: it.Qty}
		}
		slices.SortFunc(out, func(a, b Item) int {
			if c := strings.Compare(a.SKU, b.SKU); c != 0 {
				return c
			}
			return int(a.Qty - b.Qty)
		})
		return out
	}
	return slices.Equal(norm(e.Items), norm(o.Lines))
}

func paymentMatches(e PaymentExpect, p Payment) bool {
	return strings.EqualFold(e.Customer, p.Customer) && e.Amount == p.Amount && e.Mode == p.Mode &&
		(e.Reference == "" || strings.EqualFold(e.Reference, p.Reference))
}

// replyMisses says what the reply lacks: each string it does not contain,
// and the file it does not carry.
func replyMisses(e ReplyExpect, r domain.Reply) []string {
	var missing []string
	text := foldText(r.Text)
	for _, want := range e.Contains {
		if !strings.Contains(text, foldText(want)) {
			missing = append(missing, "lacks "+strconv.Quote(want))
		}
	}
	if e.File != "" && !slices.ContainsFunc(r.MediaURLs, func(u string) bool { return FileKind(u) == e.File }) {
		kinds := make([]string, 0, len(r.MediaURLs))
		for _, u := range r.MediaURLs {
			if k := FileKind(u); k != "" {
				kinds = append(kinds, k)
			} else {
				kinds = append(kinds, "unknown")
			}
		}
		if len(kinds) == 0 {
			missing = append(missing, "carries no file (want "+e.File+")")
		} else {
			missing = append(missing, "carries "+strings.Join(kinds, ", ")+" (want "+e.File+")")
		}
	}
	return missing
}

// foldText makes text comparable the way FORMAT.md says: without regard
// to case, and with the commas that group digits dropped, so "210000"
// matches "₹2,10,000". Runs of spaces count as one.
func foldText(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	space := false
	for i, r := range rs {
		if r == ',' && i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) {
			continue
		}
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// FileKind says what kind of file a media link is by how its path ends:
// .xlsx is excel, .png or .html is chart, anything else "".
func FileKind(link string) string {
	p := link
	if u, err := url.Parse(link); err == nil {
		p = u.Path
	}
	p = strings.ToLower(p)
	switch {
	case strings.HasSuffix(p, ".xlsx"):
		return FileExcel
	case strings.HasSuffix(p, ".png"), strings.HasSuffix(p, ".html"):
		return FileChart
	}
	return ""
}

// Shorten puts text on one line and cuts it to at most n characters.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:max(n-1, 0)]) + "…"
}

// Score judges one conversation: its success by the state after its last
// turn, and the turns it took (the first turn after which the expected
// end state held).
func Score(d Dialog, before Snapshot, turns []Turn) Result {
	r := Result{ID: d.ID, Line: d.Line, As: d.As, Kind: d.Expect.Kind(), Expected: d.Expect.String()}
	for _, t := range turns {
		r.Turns = append(r.Turns, Exchange{Said: t.Said, Reply: t.Reply.Text, Media: t.Reply.MediaURLs})
	}
	if len(turns) == 0 {
		r.Found = "no turn was sent"
		return r
	}
	last := turns[len(turns)-1]
	v := Judge(d.Expect, before, last.After, last.Reply)
	r.Succeeded, r.WrongEntry, r.Found = v.OK, v.Wrong, v.Found
	if !v.OK {
		return r
	}
	for i, t := range turns {
		if Judge(d.Expect, before, t.After, t.Reply).OK {
			r.TurnsToSuccess = i + 1
			break
		}
	}
	return r
}
