package reports

import (
	"context"
	"strconv"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Call is one tool to run with its arguments.
type Call struct {
	Tool string
	Args map[string]any
	// Format is how the answer is sent: text (the zero value), a chart or
	// an Excel file (see Tools.Files).
	Format intent.Format
	// Rows is how many rows a chart draws ("top 10 customers chart"); 0
	// means as many as it holds.
	Rows int
}

// Plan maps a routed message to the tool that answers it, from the intent
// and the entities the router found: products and customers (by id),
// a quantity with its unit, and a period ("aaj", "is hafte", "last 30
// days"). It reports false for messages it cannot map; those go to the
// agent when one is configured.
//
//   - stock: a product → check_stock(product[, quantity, unit]); words of
//     running out soon ("khatam hone wala", "running low") →
//     out_of_stock(soon); of run out ("out of stock", "khatam") →
//     out_of_stock; else the catalog → check_stock().
//   - outstanding: outstanding([customer]).
//   - pending_orders: pending_orders([customer]).
//   - report: "digest", "kal ka summary", "daily report" → daily_digest;
//     "top customers" → top_customers(period); else
//     sales_summary(period, by, [product], [customer]).
//   - order_status: order_status([order], [customer], [period]), the
//     order as written ("ORD-1042", or a number of three digits or more
//     standing alone: "1042 kahan hai").
//   - payments_received: payments_received(period, [customer], [mode],
//     [by]), the modes read from the words ("UPI se", "cash mein",
//     "NEFT"); "mode wise", "alag alag" or two modes named group by mode,
//     "daily", "day wise" by day, "details", "each" list each payment.
//   - any other intent naming a product and a word of buying ("who bought
//     glass cleaner last week?") → sales_summary by customer.
func (t *Tools) Plan(d intent.Decision) (Call, bool) {
	call, ok := t.plan(d)
	if ok && (d.Format == intent.FormatChart || d.Format == intent.FormatExcel) {
		call.Format, call.Rows = d.Format, topRows(d.Normalized)
	}
	return call, ok
}

// topRows is N of "top N" ("top 10 customers chart"), or 0.
func topRows(n intent.Normalized) int {
	for _, tok := range n.Tokens {
		if tok.Text == "top" {
			if k, unit, ok := quantity(n); ok && unit == "" && k <= MaxRows {
				return int(k)
			}
		}
	}
	return 0
}

func (t *Tools) plan(d intent.Decision) (Call, bool) {
	n := d.Normalized
	words := map[string]bool{}
	for _, tok := range n.Tokens {
		words[tok.Text] = true
	}
	has := func(list string) bool {
		for _, w := range strings.Fields(list) {
			if words[w] {
				return true
			}
		}
		return false
	}
	products, customers := entityIDs(n, intent.EntityProduct), entityIDs(n, intent.EntityCustomer)
	args := map[string]any{}
	if len(products) > 0 {
		args["product"] = products
	}
	if len(customers) > 0 {
		args["customer"] = customers
	}
	period := PeriodName(n.Text)
	switch d.Intent {
	case domain.IntentStock:
		delete(args, "customer")
		if kin := entityKin(n); len(kin) > 0 {
			// "pepsi ka stock", where "pepsi" is one size's alias: every
			// size.
			products = append(products, kin...)
			args["product"] = products
		}
		if len(products) == 0 {
			// "kaunsa maal khatam hone wala hai", "running low": what runs
			// out first; "kya khatam ho gaya": what has.
			if has("low reorder") || has("out khatam finished finish over khali empty short") && has("wala wale wali hone jaldi soon almost about") {
				return Call{Tool: ToolOutOfStock, Args: map[string]any{"soon": true}}, true
			}
			if has("out khatam finished finish over zero nil khali empty short") {
				return Call{Tool: ToolOutOfStock, Args: map[string]any{}}, true
			}
			return Call{Tool: ToolCheckStock, Args: map[string]any{}}, true
		}
		if qty, unit, ok := quantity(n); ok {
			args["quantity"], args["unit"] = qty, unit
		}
		return Call{Tool: ToolCheckStock, Args: args}, true
	case domain.IntentOutstanding:
		delete(args, "product")
		return Call{Tool: ToolOutstanding, Args: args}, true
	case domain.IntentPendingOrders:
		delete(args, "product")
		return Call{Tool: ToolPendingOrders, Args: args}, true
	case domain.IntentOrderStatus:
		delete(args, "product")
		if ref := orderAskedAbout(d.Text, n); ref != "" {
			args["order"] = ref
		} else if period == "" && has("last latest pichla pichle pichhla previous recent akhri aakhri") && !has("orders") {
			// "Rajesh ka last order": one order, the newest; "pichle hafte
			// ke orders" is a period.
			args["latest"] = true
		}
		if period != "" {
			args["period"] = period
		}
		return Call{Tool: ToolOrderStatus, Args: args}, true
	case domain.IntentReport:
		if asksForDigest(has, period, len(products)+len(customers) > 0) {
			return Call{Tool: ToolDailyDigest, Args: digestArgs(has, period)}, true
		}
		if period != "" {
			args["period"] = period
		}
		top := has("top best highest sabse zyada biggest largest")
		if top && len(products) == 0 && len(customers) == 0 && !has("product products item items sku skus maal") {
			delete(args, "product")
			return Call{Tool: ToolTopCustomers, Args: args}, true
		}
		switch {
		case has("daily roz") || words["day"] && has("by per wise") || has("datewise daywise"):
			args["by"] = string(ByDay)
		case has("customer customers party parties who kisne kaun kis kiske buyer buyers"):
			args["by"] = string(ByCustomer)
		case has("product products item items sku skus maal"):
			args["by"] = string(ByProduct)
		}
		return Call{Tool: ToolSalesSummary, Args: args}, true
	case domain.IntentPaymentsReceived:
		return paymentsCall(n, args, period, has), true
	}
	if len(products) > 0 && has("bought buy buys purchased purchase kharida kharide kharidi kharidaa liya liye mangwaya mangaya") {
		if period != "" {
			args["period"] = period
		}
		delete(args, "customer")
		args["by"] = string(ByCustomer)
		return Call{Tool: ToolSalesSummary, Args: args}, true
	}
	return Call{}, false
}

// Answer replies to a routed question deterministically: Plan, then Call,
// then the WhatsApp rendering (with MORE when rows remain). A message Plan
// cannot map gets a short note of what can be asked.
func (t *Tools) Answer(ctx context.Context, user domain.User, d intent.Decision) domain.Reply {
	call, ok := t.Plan(d)
	if !ok {
		return domain.Reply{Text: HelpText}
	}
	return t.Reply(ctx, user, call)
}

// entityIDs returns the ids of the first entity of a kind: several when
// the name is shared ("Gupta").
func entityIDs(n intent.Normalized, kind intent.EntityKind) []string {
	for _, e := range n.Entities {
		if e.Kind != kind {
			continue
		}
		if len(e.IDs) > 0 {
			return append([]string(nil), e.IDs...)
		}
		return []string{e.ID}
	}
	return nil
}

// entityKin are the products a product's alias shortens from besides its
// own (intent.Entity.Kin).
func entityKin(n intent.Normalized) []string {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct {
			return e.Kin
		}
	}
	return nil
}

// quantity finds the quantity asked about: a number with a unit next to it
// ("200 cartons", "carton 200"), or a number alone (base units).
func quantity(n intent.Normalized) (int64, string, bool) {
	ents := n.Entities
	for i, e := range ents {
		if e.Kind != intent.EntityNumber {
			continue
		}
		v, err := strconv.ParseFloat(e.ID, 64)
		if err != nil || v <= 0 || v != float64(int64(v)) {
			continue
		}
		unit := ""
		if i+1 < len(ents) && ents[i+1].Kind == intent.EntityUnit && ents[i+1].Start == e.End {
			unit = ents[i+1].ID
		} else if i > 0 && ents[i-1].Kind == intent.EntityUnit && ents[i-1].End == e.Start {
			unit = ents[i-1].ID
		}
		return int64(v), unit, true
	}
	return 0, "", false
}

// orderAskedAbout is the order a message names, as the person wrote it:
// an order reference ("ORD-1042", "order #1042"), else a number of three
// digits or more with no unit or span of days beside it ("1042 kahan
// hai"); "" when none.
func orderAskedAbout(text string, n intent.Normalized) string {
	written := func(e intent.Entity) string {
		if e.Start < 0 || e.End > len(n.Tokens) || e.Start >= e.End {
			return e.ID
		}
		from, to := n.Tokens[e.Start].Start, n.Tokens[e.End-1].End
		if from < 0 || to > len(text) || from >= to {
			return e.ID
		}
		return text[from:to]
	}
	for _, e := range n.Entities {
		if e.Kind == intent.EntityOrderRef {
			return written(e)
		}
	}
	ents := n.Entities
	for i, e := range ents {
		if e.Kind != intent.EntityNumber || len(e.ID) < 3 || strings.Trim(e.ID, "0123456789") != "" {
			continue
		}
		if i+1 < len(ents) && ents[i+1].Kind == intent.EntityUnit && ents[i+1].Start == e.End ||
			i > 0 && ents[i-1].Kind == intent.EntityUnit && ents[i-1].End == e.Start {
			continue
		}
		if e.End < len(n.Tokens) && spanWords[n.Tokens[e.End].Text] {
			continue
		}
		return e.ID
	}
	return ""
}

// spanWords after a number make it a span of time, not an order number.
var spanWords = map[string]bool{"day": true, "days": true, "din": true, "dino": true, "week": true, "weeks": true,
	"hafte": true, "month": true, "months": true, "mahine": true, "mahina": true}
