package orders

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// A delivery is often reported by its customer, not its order: "Rajesh ka
// maal de diya". The customer's open orders decide what that means: one is
// the order, as if its number had been given; several are asked about,
// newest first; none is said plainly, with what became of their last one.

// DeliveryBooks is what a delivery named by its customer or its number
// reads.
type DeliveryBooks interface {
	// OrdersToDeliver returns a customer's placed orders not yet
	// delivered nor cancelled, Munshi's and imported history's alike,
	// newest first and at most limit of them, with how many there are
	// and their latest other order.
	OrdersToDeliver(ctx context.Context, customerID string, limit int) (OrdersToDeliver, error)
	// OrdersNumbered returns the numbers of the orders (at most a few)
	// whose number is number or ends with it after a "-" or a "/": the
	// books' T-6002 for "6002", as ORD-6002 is Munshi's.
	OrdersNumbered(ctx context.Context, number string) ([]string, error)
}

// OrdersToDeliver is what a customer's delivery can be about.
type OrdersToDeliver struct {
	Open  []domain.Order // newest first, each line with its product and quantity alone
	Count int            // all the open ones, listed or not
	// Last is the customer's latest order that is not open (delivered or
	// cancelled), nil when there is none.
	Last *domain.Order
}

// maxOrderChoices bounds the orders a question lists; an older one is
// answered with its number.
const maxOrderChoices = 8

// readDelivery reads a delivery message, and, when it names a customer
// instead of an order (or a question chose one), finds the order among
// the customer's open ones.
func (s *Service) readDelivery(ctx context.Context, p *Parser, f Frame) noteRead {
	return s.readDeliveryOf(ctx, p, f, nil)
}

// readDeliveryOf is readDelivery with the goods of the order meant, when
// known: a name they settle ("phenyl", 1L or 5L) means the one it holds.
func (s *Service) readDeliveryOf(ctx context.Context, p *Parser, f Frame, its []string) noteRead {
	n := p.deliveryFor(f.Text, f.Customer, its)
	id := s.numbered(ctx, s.placedAs(ctx, n.OrderID))
	nr := noteRead{prop: Proposal{Subject: id, OrderID: id, Short: n.Short, Only: n.Only, Units: n.Units}, unresolved: n.Unresolved,
		said: n.Said}
	if id != "" {
		return nr
	}
	if n.CustomerID == "" {
		if len(n.Candidates) > 0 {
			nr.ask = Ask{Slot: SlotCustomer, Options: n.Candidates}
		}
		return nr
	}
	open, err := s.Books.OrdersToDeliver(ctx, n.CustomerID, maxOrderChoices)
	if err != nil {
		nr.err = fmt.Errorf("orders: open orders of %s: %w", n.CustomerID, err)
		return nr
	}
	name := p.customerName(n.CustomerID)
	ids := make([]string, len(open.Open))
	goods := make(map[string][]string, len(open.Open))
	days := make(map[string]int, len(open.Open))
	for i, o := range open.Open {
		ids[i] = o.ID
		days[o.ID] = o.CreatedAt.In(s.location()).Day()
		for _, l := range o.Lines {
			goods[o.ID] = append(goods[o.ID], l.SKU)
		}
	}
	said := p.norm.Normalize(f.Text)
	one := p.withGoods(said, ids, goods)
	switch {
	case len(open.Open) == 0:
		nr.prop.Subject = n.CustomerID
		nr.refusal = s.nothingToDeliver(name, open)
		return nr
	case open.Count == 1:
		nr.prop.Subject, nr.prop.OrderID = open.Open[0].ID, open.Open[0].ID
		switch {
		case one == open.Open[0].ID && !said.Has(intent.EntityNumber):
			nr.unresolved = nil // its goods named, without a quantity: all of it
		default:
			nr.wholeLinesOf(open.Open[0])
		}
		return nr
	case one != "" && !said.Has(intent.EntityNumber):
		// "Agarwal ka pocha wala order deliver ho gaya": the one open
		// order with the goods named, delivered in full.
		nr.prop.Subject, nr.prop.OrderID, nr.unresolved = one, one, nil
		return nr
	case one != "":
		// "Sharma ji ko 10 carton phenyl pahuncha diya": that order, read
		// again with its number for how much of it went.
		f.Text += " " + one
		if again := s.readDeliveryOf(ctx, p, f, goods[one]); again.prop.OrderID == one {
			again.wholeLinesOf(open.Open[slices.Index(ids, one)])
			return again
		}
	}
	nr.unresolved = append([]string{s.whichOrder(name, open)}, nr.unresolved...)
	nr.ask = Ask{Slot: SlotOrder, Options: ids, Goods: goods, Days: days}
	return nr
}

// wholeLinesOf drops the question whether the quantities named were
// short or all that went when each is the whole of one of o's lines:
// "Sharma ji ko 10 carton phenyl pahuncha diya" of an order of 10 cartons
// of phenyl and some harpic names the order by its goods and falls short
// of nothing, so it is the order delivered (its summary shows every line
// before the ok).
func (nr *noteRead) wholeLinesOf(o domain.Order) {
	if len(nr.said) == 0 {
		return
	}
	for _, it := range nr.said {
		if !slices.ContainsFunc(o.Lines, func(l domain.OrderLine) bool { return l.SKU == it.SKU && l.Qty == it.Qty }) {
			return
		}
	}
	nr.unresolved = slices.DeleteFunc(nr.unresolved, func(q string) bool { return q == shortOrAll })
}

// whichOrder asks which of a customer's open orders was delivered.
func (s *Service) whichOrder(name string, open OrdersToDeliver) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s has %d open orders. Which one was delivered?\n", name, open.Count)
	for i, o := range open.Open {
		fmt.Fprintf(&b, "%d. %s · %s · %s\n", i+1, o.ID, s.day(o.CreatedAt), o.Total)
	}
	if more := open.Count - len(open.Open); more > 0 {
		fmt.Fprintf(&b, "…and %d older, not listed.\n", more)
	}
	b.WriteString("Reply 1, 2… or the order number.")
	return b.String()
}

// nothingToDeliver says a customer has no open order, and what became of
// their last one.
func (s *Service) nothingToDeliver(name string, open OrdersToDeliver) string {
	head := name + " has no open order to deliver."
	o := open.Last
	switch {
	case o == nil:
		return head + " There is no order of theirs in the books yet."
	case o.Status == domain.OrderDelivered && !o.DeliveredAt.IsZero():
		return fmt.Sprintf("%s Their last order %s was delivered on %s.", head, o.ID, s.day(o.DeliveredAt))
	case o.Status == domain.OrderDelivered:
		return fmt.Sprintf("%s Their last order %s was delivered.", head, o.ID)
	case o.Status == domain.OrderCancelled:
		return fmt.Sprintf("%s Their last order %s (%s) was cancelled.", head, o.ID, s.day(o.CreatedAt))
	}
	return head
}

// day is a date as people here read it: "28 Nov" in the business's time
// zone, with the year when it is not this one.
func (s *Service) day(t time.Time) string {
	loc := s.location()
	t = t.In(loc)
	if t.Year() != s.now().In(loc).Year() {
		return t.Format("2 Jan 2006")
	}
	return t.Format("2 Jan")
}

func (s *Service) location() *time.Location {
	if s.Location == nil {
		return domain.DefaultLocation()
	}
	return s.Location
}

// pickOrder reads which order an answer chooses: by its place in the list
// ("2", "dusra", "last") or by its number in any of its forms ("ORD-1042",
// "1042 wala", "१०४२"); "" when it chooses none.
func (p *Parser) pickOrder(text string, n intent.Normalized, a Ask) string {
	options, goods := a.Options, a.Goods
	cs := make([]choice, len(options))
	for i, id := range options {
		cs[i] = choice{id: id}
	}
	if id, ok := choose(n, cs); ok {
		return id
	}
	if id := unhyphenated(n, options); id != "" {
		return id
	}
	if ms := orderMentions(newReading(text, n)); distinctOrders(ms) == 1 {
		return ms[0].ref
	}
	if id := byDay(n, options, a.Days); id != "" {
		return id
	}
	return p.withGoods(n, options, goods) // "handwash aur sabun wala"
}

// unhyphenated is the one of options an answer writes without its
// hyphen ("KB5102" of KB-5102), as people copy a number off a bill.
func unhyphenated(n intent.Normalized, options []string) string {
	for _, t := range n.Tokens {
		for _, id := range options {
			if strings.Contains(id, "-") && strings.EqualFold(strings.ReplaceAll(id, "-", ""), t.Text) {
				return id
			}
		}
	}
	return ""
}

// dayWords say that the number before them is a day of the month.
var dayWords = words("tareekh")

// byDay is the one order of options placed on the day of the month an
// answer names ("12 tareekh wala", "the one from 8th", "9 Nov wala");
// "" when it names none, or several orders share the day.
func byDay(n intent.Normalized, options []string, days map[string]int) string {
	day := 0
	for i, t := range n.Tokens {
		w := t.Text
		next := ""
		if i+1 < len(n.Tokens) {
			next = n.Tokens[i+1].Text
		}
		if d, err := strconv.Atoi(w); err == nil && (dayWords[next] || monthWord(next)) {
			day = d
		} else if d, ok := ordinalDay(w); ok {
			day = d
		}
	}
	if day < 1 || day > 31 {
		return ""
	}
	var on []string
	for _, id := range options {
		if days[id] == day {
			on = append(on, id)
		}
	}
	if len(on) != 1 {
		return ""
	}
	return on[0]
}

// monthWord reports a month's name or its first three letters.
func monthWord(w string) bool {
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		if w == name || w == name[:3] {
			return true
		}
	}
	return false
}

// ordinalDay reads "8th", "1st", "22nd", "3rd".
func ordinalDay(w string) (int, bool) {
	for _, suffix := range []string{"st", "nd", "rd", "th"} {
		if digits, ok := strings.CutSuffix(w, suffix); ok {
			if d, err := strconv.Atoi(digits); err == nil {
				return d, true
			}
		}
	}
	return 0, false
}

// withGoods is the one order of ids whose goods hold every product the
// message names; "" when none or several do. When none does, a product's
// kin stand for it (kin.go): "tel wala order" is the order of the oil
// tin, where "tel" names the pouch. (A number that names an order or a
// place in the list is read before it; one left is a quantity, which says
// how much of that order went.)
func (p *Parser) withGoods(n intent.Normalized, ids []string, goods map[string][]string) string {
	// Each product named, as the SKUs its name may mean ("phenyl": 1L or
	// 5L); an order fits when it holds one of them for every name.
	named := keptNames(n)
	if len(named) == 0 {
		return p.byNameWord(n, ids, goods)
	}
	fit := fitting(named, ids, goods)
	if len(fit) == 0 {
		kin := make([][]string, len(named))
		for i, skus := range named {
			kin[i] = p.kinOf(skus)
		}
		fit = fitting(kin, ids, goods)
	}
	if len(fit) != 1 {
		return ""
	}
	return fit[0]
}

// byNameWord is the one order of ids whose goods' names hold a word the
// answer says and no other order's goods' names do, when it names no
// product: "jar wala" for the order of the Aquafina Water Jar; "" when no
// word picks one order.
func (p *Parser) byNameWord(n intent.Normalized, ids []string, goods map[string][]string) string {
	words := make(map[string][]string, len(ids)) // each order's goods' names' words, read once
	for _, id := range ids {
		for _, sku := range goods[id] {
			words[id] = append(words[id], productWords(p.products[sku].Name)...)
		}
	}
	r := newReading("", n)
	pick := ""
	for i, t := range n.Tokens {
		if !r.plain(i) || len([]rune(t.Text)) < 3 {
			continue
		}
		var fit []string
		for _, id := range ids {
			if slices.Contains(words[id], t.Text) {
				fit = append(fit, id)
			}
		}
		if len(fit) != 1 || pick != "" && pick != fit[0] {
			if len(fit) == 1 {
				return "" // two words pick two orders
			}
			continue
		}
		pick = fit[0]
	}
	return pick
}

// fitting are the orders of ids holding one of each name's SKUs.
func fitting(named [][]string, ids []string, goods map[string][]string) []string {
	var fit []string
	for _, id := range ids {
		holds := func(skus []string) bool {
			return slices.ContainsFunc(skus, func(sku string) bool { return slices.Contains(goods[id], sku) })
		}
		if !slices.ContainsFunc(named, func(skus []string) bool { return !holds(skus) }) {
			fit = append(fit, id)
		}
	}
	return fit
}

// numbered is the order a number names: "ORD-6002" when the books hold
// it, else the one order the books numbered 6002 some other way
// ("T-6002", imported); the number as read otherwise, for the books to
// refuse plainly.
func (s *Service) numbered(ctx context.Context, id string) string {
	digits, ok := strings.CutPrefix(id, "ORD-")
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return id
	}
	ids, err := s.Books.OrdersNumbered(ctx, digits)
	if err != nil {
		s.Logger.Warn("orders: orders numbered not read", "number", digits, "err", err)
		return id
	}
	if slices.Contains(ids, id) || len(ids) != 1 {
		return id
	}
	return ids[0]
}
