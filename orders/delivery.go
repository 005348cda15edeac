package orders

import (
	"fmt"
	"sort"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// A delivery message is read one of two ways, and the summary says which.
// A shortfall ("GC 5 carton kam") delivers everything else on the order
// in full. "Only" ("sirf 3 carton GC gaya") delivers what it names and
// nothing else: the other lines were not delivered. Either way the order
// keeps its lines as ordered, each with what of it did not go, so a short
// delivery stays history rather than an edit; the order's value, a credit
// order's dues and the stock follow what was delivered.
//
// Figures are shown in the unit the person used: what was ordered in the
// order's unit, what was short or delivered in the delivery message's.
// A line's figures share one unit, never a pack chosen for each number on
// its own: 258 bottles are 43 boxes and 288 are 12 cartons, and "43 boxes
// of 12 cartons" compares nothing.

func buildDelivery(p Proposal, l Ledger, by domain.User) (built, error) {
	o, err := placedOrder(p, l, "record its delivery")
	if err != nil {
		return built{}, err
	}
	products := l.Products
	ordered := map[string]int64{}
	for _, ln := range o.Lines {
		ordered[ln.SKU] += ln.Qty
	}
	short, only := sumBySKU(p.Short), sumBySKU(p.Only)
	onlyNamed := len(only) > 0
	named, said := short, "short"
	if onlyNamed {
		named, said = only, "delivered"
	}
	for _, sku := range skusOf(p.Short, p.Only) {
		if ordered[sku] == 0 {
			return built{}, refusal{fmt.Sprintf("%s has no %s. Its lines: %s.", o.ID, productName(products, sku), lineList(o.Lines, products))}
		}
	}
	packings := map[string]packing{}
	for _, ln := range o.Lines {
		if _, ok := packings[ln.SKU]; !ok {
			packings[ln.SKU] = packingOf(products[ln.SKU])
		}
	}
	// Judged by product in base units, however many lines it is on.
	for _, sku := range skusOf(p.Short, p.Only) {
		if q := named[sku]; q > ordered[sku] {
			pk := packings[sku]
			return built{}, refusal{fmt.Sprintf("%s of %s %s is more than the %s ordered on %s. Please check the quantity.",
				pk.say(q, p.Units[sku]), productName(products, sku), said, pk.ordered(ordered[sku], p.Units[sku], firstUnit(o.Lines, sku, pk)), o.ID)}
		}
	}
	// What of each product went, taken from its lines in their order.
	left := map[string]int64{}
	for sku, q := range ordered {
		if onlyNamed {
			left[sku] = only[sku]
		} else {
			left[sku] = q - short[sku]
		}
	}

	var b built
	var sum strings.Builder
	fmt.Fprintf(&sum, "🚚 *Delivered: %s* for %s\n", o.ID, customerName(l, o.CustomerID))
	switch {
	case onlyNamed:
		sum.WriteString("Only what you named was delivered; nothing else on the order went.\n")
	case len(short) > 0:
		sum.WriteString("Everything not said to be short was delivered in full.\n")
	}
	var lines []domain.OrderLine
	var shorts, nones []string
	delivered := false
	for _, ln := range o.Lines {
		pk, name := packings[ln.SKU], productName(products, ln.SKU)
		got := min(left[ln.SKU], ln.Qty)
		left[ln.SKU] -= got
		nl := ln
		nl.Short = ln.Qty - got
		lines = append(lines, domain.PriceLine(nl))
		unit, mentioned := p.Units[ln.SKU]
		if !mentioned {
			unit = pk.orderUnit(ln)
		}
		f := lineFigures(ln, pk, unit, got)
		switch {
		case got == ln.Qty:
			fmt.Fprintf(&sum, "• %s: all %s delivered\n", name, f.ordered)
		case got == 0:
			fmt.Fprintf(&sum, "• %s: not delivered, 0 of %s\n", name, f.ordered)
			nones = append(nones, name)
		default:
			fmt.Fprintf(&sum, "• %s: %s of %s delivered, %s short\n", name, f.got, f.ordered, f.short)
			shorts = append(shorts, name+" "+f.short)
		}
		if got > 0 {
			delivered = true
			b.changes = append(b.changes, Change{Kind: ChangeStock, SKU: ln.SKU, Ready: -got})
		}
	}
	if !delivered {
		return built{}, refusal{fmt.Sprintf("Nothing of %s would be delivered. If the customer took nothing, an owner can cancel it: *cancel %s* with the reason.", o.ID, o.ID)}
	}
	var sub, gst domain.Paise
	for _, ln := range lines {
		sub += ln.Amount
		gst += ln.GSTAmount
	}
	total := sub + gst
	b.changes = append([]Change{{Kind: ChangeDeliver, OrderID: o.ID, Lines: lines, Subtotal: sub, GST: gst, Total: total}}, b.changes...)
	if total != o.Total {
		fmt.Fprintf(&sum, "Order total: %s → %s (re-priced for what was delivered)\n", o.Total, total)
	} else {
		fmt.Fprintf(&sum, "Order total: %s\n", o.Total)
	}
	if o.Payment == domain.PayCredit && total != o.Total && l.Customer != nil {
		delta := total - o.Total
		fmt.Fprintf(&sum, "Outstanding of %s: %s → %s\n", l.Customer.Name, domain.Dues(l.Customer.Outstanding), domain.Dues(l.Customer.Outstanding+delta))
		b.changes = append(b.changes, Change{Kind: ChangeDue, CustomerID: o.CustomerID, Amount: delta})
	}
	if len(shorts)+len(nones) > 0 {
		sum.WriteString("What was delivered leaves the godown; what was not is released for other orders.")
	} else {
		sum.WriteString("Its stock leaves the godown.")
	}
	b.summary = sum.String()
	what := "delivered"
	var missing []string
	if len(shorts) > 0 {
		missing = append(missing, "short: "+strings.Join(shorts, ", "))
	}
	if len(nones) > 0 {
		missing = append(missing, "not delivered: "+strings.Join(nones, ", "))
	}
	if len(missing) > 0 {
		what += ", " + strings.Join(missing, "; ")
	}
	b.done = fmt.Sprintf("✅ %s recorded as %s. Stock and dues are updated.", o.ID, what)
	b.tellPlacer(o, by, fmt.Sprintf("🚚 Your order %s for %s was %s.", o.ID, customerName(l, o.CustomerID), what))
	b.detail = map[string]any{"order": o.ID, "total_before": int64(o.Total), "total_after": int64(total), "short": shorts,
		"not_delivered": nones, "only_named": onlyNamed}
	after := *o
	after.Status, after.Lines, after.Subtotal, after.GST, after.Total = domain.OrderDelivered, lines, sub, gst, total
	b.after = &after
	return b, nil
}

// figures are a line's quantities as the summary writes them: got is a
// number of the unit ordered is written in.
type figures struct{ ordered, got, short string }

// lineFigures writes what was ordered, delivered and short of a line in
// one unit, so "3 of 10 cartons" compares like with like: the unit said
// (or the order's, for a line the message did not name) when every figure
// is a whole number of it, else the base unit. What was ordered is also
// given in the order's unit when that is another one, and the shortfall in
// the unit said when it was said in another.
func lineFigures(ln domain.OrderLine, pk packing, said string, got int64) figures {
	missing := ln.Qty - got
	unit := said
	if !pk.whole(unit, ln.Qty, got, missing) {
		unit = ""
	}
	n, _ := pk.size(unit)
	f := figures{ordered: pk.say(ln.Qty, unit), got: domain.GroupIndian(got / n), short: pk.say(missing, unit)}
	if o := pk.say(ln.Qty, pk.orderUnit(ln)); o != f.ordered {
		f.ordered += " (" + o + ")"
	}
	if s := pk.say(missing, said); s != f.short {
		f.short = s + " (" + f.short + ")"
	}
	return f
}

// packing is a product's units, to write its quantities in the one a
// person used.
type packing struct {
	prod  domain.Product
	units map[string]int64 // base units in one, by canonical name
}

func packingOf(prod domain.Product) packing { return packing{prod, productUnits(prod)} }

// size is how many base units one of unit holds; "" is the base unit.
func (pk packing) size(unit string) (int64, bool) {
	if unit == "" || strings.EqualFold(unit, pk.prod.Unit) {
		return 1, true
	}
	n, ok := perUnit(pk.prod, &quantity{unit: unit}, pk.units)
	return n, ok && n > 0
}

// whole reports whether every quantity is a whole number of unit.
func (pk packing) whole(unit string, qtys ...int64) bool {
	n, ok := pk.size(unit)
	if !ok {
		return false
	}
	for _, q := range qtys {
		if q%n != 0 {
			return false
		}
	}
	return true
}

// say writes base units in unit when they are a whole number of it, else
// in the base unit.
func (pk packing) say(qty int64, unit string) string {
	if n, ok := pk.size(unit); ok && n > 1 && qty%n == 0 {
		return domain.Units(qty/n, unit)
	}
	return domain.Units(qty, pk.prod.Unit)
}

// ordered is what was ordered of the product, in the unit said when it is
// a whole number of them, else in base units, and in the order's unit too
// when that is another.
func (pk packing) ordered(qty int64, said, orderUnit string) string {
	unit := said
	if !pk.whole(unit, qty) {
		unit = ""
	}
	s := pk.say(qty, unit)
	if o := pk.say(qty, orderUnit); o != s {
		s += " (" + o + ")"
	}
	return s
}

// orderUnit is the unit a line was ordered in: as the person said it when
// that accounts for the whole line, else the largest pack it fills evenly,
// as the order's summary showed it.
func (pk packing) orderUnit(ln domain.OrderLine) string {
	if ln.SaidUnit != "" && ln.SaidQty > 0 {
		if n, ok := pk.size(ln.SaidUnit); ok && n*ln.SaidQty == ln.Qty {
			return ln.SaidUnit
		}
	}
	packs := append([]domain.PackSize(nil), pk.prod.PackSizes...)
	sort.Slice(packs, func(i, j int) bool { return packs[i].Units > packs[j].Units })
	for _, ps := range packs {
		if ps.Units > 1 && ln.Qty >= ps.Units && ln.Qty%ps.Units == 0 {
			return ps.Name
		}
	}
	return ""
}

// firstUnit is the unit a product was ordered in, from its first line.
func firstUnit(lines []domain.OrderLine, sku string, pk packing) string {
	for _, ln := range lines {
		if ln.SKU == sku {
			return pk.orderUnit(ln)
		}
	}
	return ""
}

// saidUnits is the unit each product's quantity was said in ("" for one
// said in several units, which is shown in base units).
func saidUnits(items []Item) map[string]string {
	if len(items) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, it := range items {
		if u, seen := out[it.SKU]; seen && u != it.SaidUnit {
			out[it.SKU] = ""
			continue
		}
		out[it.SKU] = it.SaidUnit
	}
	return out
}

func sumBySKU(items []Item) map[string]int64 {
	out := map[string]int64{}
	for _, it := range items {
		out[it.SKU] += it.Qty
	}
	return out
}

// skusOf lists the products items name, once each, in the order named.
func skusOf(lists ...[]Item) []string {
	var out []string
	seen := map[string]bool{}
	for _, items := range lists {
		for _, it := range items {
			if !seen[it.SKU] {
				seen[it.SKU] = true
				out = append(out, it.SKU)
			}
		}
	}
	return out
}
