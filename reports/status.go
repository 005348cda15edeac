package reports

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// orderStatus answers where orders stand: one order by its number, or the
// list (of a customer, of a period), newest first. Sales staff see the
// orders they placed; asked about someone else's order by number, they are
// told politely that it is not theirs, and the call is a refusal.
func (t *Tools) orderStatus(ctx context.Context, user domain.User, args map[string]any, page Page, understood map[string]any, c clock) (Report, map[string]any, error) {
	r := &OrderStatus{Offset: page.Offset}
	q := OrderStatusQuery{Page: page}
	if v, _ := args["order"].(string); strings.TrimSpace(v) != "" {
		r.Order = orderRef(v)
		q.OrderIDs = orderSpellings(v)
		understood["order"] = r.Order
	}
	customers, err := t.resolve(ctx, customerKind, args["customer"], understood)
	if err != nil {
		return nil, understood, err
	}
	q.CustomerIDs, r.Customers = ids(customers), names(customers)
	if v, _ := args["period"].(string); strings.TrimSpace(v) != "" {
		name := canonicalPeriod(v)
		if name == "" {
			return nil, understood, domain.Errorf(domain.EINVALID, "I don't know the period %q. Try today, yesterday, this week, last week, this month, last month or last 30 days.", clip(v, 40))
		}
		p, err := MakePeriod(name, c.now, c.loc)
		if err != nil {
			return nil, understood, err
		}
		q.From, q.To, r.Period = p.From, p.To, &p
		understood["period"] = name
	}
	if user.Role == domain.RoleSales {
		r.Mine = true
		if r.Order == "" {
			q.PlacedBy = user.Phone // whatever they ask, their own orders
		}
	}
	if r.Totals, r.Orders, err = t.Books.OrderStatuses(ctx, q); err != nil {
		return nil, understood, err
	}
	if id, ok := t.numberedOtherwise(ctx, r.Order, len(r.Orders)); ok {
		// "7302 wala order": the one order the books number 7302 their
		// own way (G-7302, imported).
		r.Order, q.OrderIDs = id, []string{id}
		understood["order"] = id
		if r.Totals, r.Orders, err = t.Books.OrderStatuses(ctx, q); err != nil {
			return nil, understood, err
		}
	}
	if latest, _ := args["latest"].(bool); latest && r.Order == "" {
		// "Rajesh ka last order": the newest of the list, as one order.
		understood["latest"] = true
		if len(r.Orders) > 0 && page.Offset == 0 {
			r.Order, r.Orders = r.Orders[0].ID, r.Orders[:1]
		}
	}
	if r.Mine && r.Order != "" {
		for _, o := range r.Orders {
			if o.PlacedBy != user.Phone {
				return nil, understood, domain.Errorf(domain.EUNAUTHORIZED,
					"Sorry %s, %s is not one of your orders, so I can't share where it stands. The owners or the accounts team can tell you. 🙏",
					firstName(user), r.Order)
			}
		}
	}
	return r, understood, nil
}

// numbered finds the orders the books number some way of their own: a
// store's OrdersNumbered.
type numbered interface {
	OrdersNumbered(ctx context.Context, number string) ([]string, error)
}

// numberedOtherwise is the one order the books hold under another prefix
// when an order asked about as ORD-n, found none, has a number only.
func (t *Tools) numberedOtherwise(ctx context.Context, ref string, found int) (string, bool) {
	digits, ok := strings.CutPrefix(ref, "ORD-")
	nb, can := t.Books.(numbered)
	if found > 0 || !ok || !can || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", false
	}
	ids, err := nb.OrdersNumbered(ctx, digits)
	if err != nil || len(ids) != 1 || ids[0] == ref {
		return "", false
	}
	return ids[0], true
}

func firstName(u domain.User) string {
	if f := strings.Fields(u.Name); len(f) > 0 {
		return f[0]
	}
	return "there"
}

// orderRef is the order asked about, as Munshi writes it.
func orderRef(s string) string { return domain.OrderRef(clip(strings.TrimSpace(s), 40)) }

// orderSpellings are the ids an order asked about may have in the books:
// Munshi's ORD-n, or an imported bill number as written or upper-cased.
func orderSpellings(s string) []string {
	s = clip(strings.TrimSpace(s), 40)
	out := []string{orderRef(s)}
	for _, v := range []string{s, strings.ToLower(s)} {
		if v != out[0] && (len(out) < 2 || v != out[1]) {
			out = append(out, v)
		}
	}
	return out
}

// OrderStatus is where orders stand: one asked about by number, or a list
// newest first.
type OrderStatus struct {
	Order     string // the order asked about; "" for a list
	Mine      bool   // only the asker's own orders
	Customers []string
	Period    *Period
	Totals    OrderStatusTotals
	Orders    []OrderState
	Offset    int
}

func (s *OrderStatus) Rows() int { return len(s.Orders) }

// stateWords says where an order stands, with its mark.
func stateWords(state string, imported bool) (mark, words string) {
	switch state {
	case StateAwaitingApproval:
		mark, words = "⏳", "waiting for the owner's approval"
	case StateRejected:
		mark, words = "🚫", "not approved by the owner"
	case StateCommitted:
		mark, words = "🚚", "committed, to deliver"
	case StateDelivered:
		mark, words = "✅", "delivered"
	case StateCancelled:
		mark, words = "❌", "cancelled"
	default:
		mark, words = "•", state
	}
	if imported {
		words += " (imported history)"
	}
	return mark, words
}

func (s *OrderStatus) title() string {
	title := "Orders"
	if s.Mine {
		title = "Your orders"
	}
	if len(s.Customers) > 0 {
		title += " for " + strings.Join(s.Customers, " / ")
	}
	if s.Period != nil {
		title += ", " + s.Period.Label()
	}
	return title
}

// Table of order states: the page shown, and the count in each state.
func (s *OrderStatus) Table(now time.Time, loc *time.Location) Table {
	t := Table{Title: s.title(), Period: s.Period, Offset: s.Offset, Count: s.Totals.Count(), Columns: []Column{
		{"order", "Order", ColText}, {"status", "Status", ColText}, {"customer_id", "Customer ID", ColText},
		{"customer", "Customer", ColText}, {"total_with_gst", "Total with GST", ColMoney}, {"items", "Items", ColCount},
		{"placed_by", "Placed by", ColText}, {"date", "Placed on", ColDate}, {"since", "Status since", ColDate},
	}}
	if s.Order != "" {
		t.Title = "Order " + s.Order
	}
	for _, o := range s.Orders {
		_, words := stateWords(o.State, o.Imported)
		by := o.PlacedByName
		if by == "" {
			by = o.PlacedBy
		}
		t.Rows = append(t.Rows, []Cell{textCell(o.ID), textCell(words), textCell(o.CustomerID), textCell(o.CustomerName),
			moneyCell(o.Total), countCell(o.Lines), textCell(by), dateCell(o.CreatedAt, loc), dateCell(o.ChangedAt, loc)})
	}
	tot := s.Totals
	t.Totals = []Total{
		{Column{"orders", "Orders", ColCount}, countCell(tot.Count())},
		{Column{"waiting_for_approval", "Waiting for approval", ColCount}, countCell(tot.AwaitingApproval)},
		{Column{"committed", "Committed, to deliver", ColCount}, countCell(tot.Committed)},
		{Column{"delivered", "Delivered", ColCount}, countCell(tot.Delivered)},
		{Column{"cancelled", "Cancelled", ColCount}, countCell(tot.Cancelled)},
		{Column{"not_approved", "Not approved", ColCount}, countCell(tot.Rejected)},
	}
	return t
}

func (s *OrderStatus) view(c clock) ([]string, []string, int, int) {
	if s.Order != "" {
		return s.one(c), nil, 0, 0
	}
	tot := s.Totals
	if tot.Count() == 0 {
		return []string{"*" + s.title() + "*: none."}, nil, 0, 0
	}
	head := []string{fmt.Sprintf("*%s*: %s", s.title(), count(tot.Count()))}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{tot.AwaitingApproval, "⏳ %s waiting for approval"}, {tot.Committed, "🚚 %s to deliver"}, {tot.Delivered, "✅ %s delivered"},
		{tot.Cancelled, "❌ %s cancelled"}, {tot.Rejected, "🚫 %s not approved"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf(p.what, count(p.n)))
		}
	}
	head = append(head, strings.Join(parts, ", "), "")
	var rows []string
	for i, row := range s.Table(c.now, c.loc).Rows {
		o := s.Orders[i]
		mark, _ := stateWords(o.State, o.Imported)
		r := fmt.Sprintf("%s %s %s: %s, %s, %s", mark, row[0].Text, row[3].Text, row[4].Money, row[1].Text, ageText(c.age(o.CreatedAt)))
		if !s.Mine && row[6].Text != "" {
			r += ", by " + row[6].Text
		}
		rows = append(rows, r)
	}
	return head, rows, s.Offset, tot.Count()
}

// one is the answer about one order: where it stands and since when.
func (s *OrderStatus) one(c clock) []string {
	if len(s.Orders) == 0 {
		return []string{fmt.Sprintf("I can't find an order %s. Please check the number (it looks like ORD-1042).", s.Order)}
	}
	var out []string
	for i, o := range s.Orders {
		if i > 0 {
			out = append(out, "")
		}
		mark, words := stateWords(o.State, o.Imported)
		out = append(out, fmt.Sprintf("*%s* for %s", o.ID, o.CustomerName),
			fmt.Sprintf("%s %s", mark, strings.ToUpper(words[:1])+words[1:]))
		if o.State != StateAwaitingApproval && dateText(o.ChangedAt, c.loc) != dateText(o.CreatedAt, c.loc) {
			out[len(out)-1] += " since " + dateText(o.ChangedAt, c.loc)
		}
		placed := fmt.Sprintf("%s with GST, %d %s, placed on %s (%s)", o.Total, o.Lines, domain.Plural("item", int64(o.Lines)),
			dateText(o.CreatedAt, c.loc), ageText(c.age(o.CreatedAt)))
		if by := o.PlacedByName; by != "" && !s.Mine {
			placed += " by " + by
		}
		out = append(out, placed)
	}
	return out
}

func (s *OrderStatus) table(c clock) ([]string, [][]any, map[string]any) {
	cols := []string{"order", "status", "imported", "customer_id", "customer", "total_with_gst", "items", "placed_by", "date", "status_since"}
	rows := make([][]any, len(s.Orders))
	for i, o := range s.Orders {
		rows[i] = []any{o.ID, o.State, o.Imported, o.CustomerID, o.CustomerName, o.Total.String(), o.Lines, o.PlacedByName,
			o.CreatedAt.In(c.loc).Format("2006-01-02"), o.ChangedAt.In(c.loc).Format("2006-01-02")}
	}
	t := s.Totals
	return cols, rows, map[string]any{
		"orders": t.Count(), "waiting_for_approval": t.AwaitingApproval, "committed": t.Committed,
		"delivered": t.Delivered, "cancelled": t.Cancelled, "not_approved": t.Rejected,
	}
}
