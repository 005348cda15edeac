package erpconnect

import (
	"fmt"
	"math"
	"strings"

	"github.com/munshi/munshi/internal/erpsync"
)

// scoreColumn scores column c for field f of placement pl, with the
// evidence for the score.
func (d *discovery) scoreColumn(pl *placement, f *fieldDef, c *column) cand {
	cd := cand{col: c}
	n, nwhy := nameMatch(c.words, c.tab.words, f.hints, f.neg)
	if nwhy != "" {
		cd.evidence = append(cd.evidence, fmt.Sprintf("name %q", nwhy))
	} else if n == 0 && strings.HasPrefix(nwhy, "name says") {
		cd.evidence = append(cd.evidence, nwhy)
	}
	v, vwhy := valueFit(f, c)
	if vwhy != "" {
		cd.evidence = append(cd.evidence, vwhy)
	}
	if v < minValues {
		cd.score = 0
		return cd
	}
	t := typeFit(f.kind, c)
	r, rwhy := d.relation(pl, f, c)
	cd.evidence = append(cd.evidence, rwhy...)
	if n == 0 && r <= 0 && !distinctive(f.kind) {
		cd.score = 0 // numbers and codes are everywhere: without a name or a tie saying so, no candidate
		return cd
	}
	cd.score = wName*n + wValue*v + wType*t + r
	if c.tab != pl.base {
		cd.score -= 0.03 // a join costs more than a column of the table itself
	}
	cd.score = math.Round(cd.score*1000) / 1000
	return cd
}

// valueFit is how well the sampled values look like the field's kind.
func valueFit(f *fieldDef, c *column) (float64, string) {
	p := c.p
	if p.n == 0 {
		return minValues, "no values sampled"
	}
	switch f.kind {
	case kindCode:
		s := p.share(p.code) - p.share(p.twoDP+p.moreDP) - 0.5*p.share(p.phone) - p.share(p.date)
		why := fmt.Sprintf("%s codes", pct(p.share(p.code)))
		if f.ref == erpsync.Products {
			s = 0.6*s + 0.4*p.share(p.sku)
			why = fmt.Sprintf("%s SKU-like", pct(p.share(p.sku)))
		}
		if f.key {
			if p.unique {
				why += ", unique"
			} else {
				s *= 0.3
				why += fmt.Sprintf(", repeats (%d distinct of %d)", p.distinct, p.n)
			}
		}
		return clamp01(s), why
	case kindName:
		s := p.share(p.name) * (0.6 + 0.4*float64(p.distinct)/float64(p.n))
		if p.avgLen < 4 {
			s *= 0.5
		}
		return s, fmt.Sprintf("%s names, %d distinct of %d", pct(p.share(p.name)), p.distinct, p.n)
	case kindText:
		return 0.7 * p.share(p.text), ""
	case kindMoney:
		s := p.share(p.num)
		if s < 0.9 {
			return s * 0.5, fmt.Sprintf("%s numbers", pct(s))
		}
		dec := float64(p.twoDP+p.decimalText) / float64(max(p.num, 1))
		big := math.Min(1, p.maxNum/1000)
		fit := 0.6 + 0.4*math.Max(math.Min(dec, 1), big)
		why := fmt.Sprintf("amounts up to %s", short(p.maxNum))
		if dec >= 0.3 {
			why = fmt.Sprintf("%s with paise, up to %s", pct(math.Min(dec, 1)), short(p.maxNum))
		}
		if p.share(p.slabs) > 0.9 && p.maxNum <= 28 {
			fit *= 0.5
			why = "values are GST rates"
		}
		if p.minNum < 0 && f.name != "outstanding" && f.name != "balance" {
			fit *= 0.8
		}
		return s * fit, why
	case kindQty:
		s := p.share(p.num)
		if s < 0.9 {
			return s * 0.5, fmt.Sprintf("%s numbers", pct(s))
		}
		w := float64(p.whole) / float64(max(p.num, 1))
		why := fmt.Sprintf("%s whole numbers", pct(w))
		if p.decimalText > p.num/2 && w < 0.5 {
			w *= 0.5 // two decimals and fractions: money, not a count
		}
		return s * (0.4 + 0.6*w), why
	case kindPercent:
		s := p.share(p.num)
		if s < 0.9 || p.minNum < 0 || p.maxNum > 100 {
			return 0, "not percentages"
		}
		if sl := p.share(p.slabs); sl >= 0.9 {
			return s, fmt.Sprintf("%s GST rates", pct(sl))
		}
		return 0.4 * s, "percentages, not all GST rates"
	case kindDate:
		s := p.share(p.date)
		return s, fmt.Sprintf("%s dates", pct(s))
	case kindPhone:
		s := p.share(p.phone)
		return s, fmt.Sprintf("%s phone-like", pct(s))
	case kindMode, kindModes:
		s := p.share(p.mode)
		return s, fmt.Sprintf("%s payment modes (%s)", pct(s), topValues(p, 5))
	case kindStatus:
		if p.distinct > 8 || p.maxLen > 12 || p.unique && p.n > 1 {
			return 0, ""
		}
		if p.text == 0 {
			if p.num == p.n && p.whole == p.num && p.minNum >= 0 && p.maxNum < 100 {
				return 0.6, fmt.Sprintf("%d numeric codes (%s)", p.distinct, topValues(p, 6))
			}
			return 0, ""
		}
		known := 0
		for _, vc := range p.top {
			if statusWord(vc.v) != "" {
				known += vc.n
			}
		}
		return 0.5 + 0.5*p.share(known), fmt.Sprintf("%d codes (%s)", p.distinct, topValues(p, 5))
	case kindLine:
		if p.num != p.n || p.whole != p.num || p.minNum < 0 || p.maxNum > 9999 {
			return 0, ""
		}
		return 1, "small whole numbers"
	case kindUnit:
		if p.distinct > 30 || p.text == 0 {
			return 0, ""
		}
		return 0.4 + 0.6*p.share(p.unit), fmt.Sprintf("%s units of measure", pct(p.share(p.unit)))
	case kindGroup:
		if p.text == 0 || p.distinct < 2 || p.distinct > 25 || p.unique || p.num > 0 {
			return 0, ""
		}
		s := 0.8 - p.share(p.mode+p.unit+p.phone)
		return s, fmt.Sprintf("%d labels (%s)", p.distinct, topValues(p, 4))
	}
	return 0, ""
}

// typeFit is how well the declared type suits the field: 1 fits, 0.5
// says nothing (text, or SQLite's no type), less contradicts.
func typeFit(k kind, c *column) float64 {
	t := c.typ
	has := func(ss ...string) bool {
		for _, s := range ss {
			if strings.Contains(t, s) {
				return true
			}
		}
		return false
	}
	isNum := has("int", "dec", "num", "money", "float", "real", "double")
	isDate := has("date", "time")
	isText := has("char", "text", "string", "clob")
	switch k {
	case kindMoney, kindPercent:
		switch {
		case has("dec", "num", "money", "float", "real", "double"):
			return 1
		case isNum:
			return 0.8
		case isDate:
			return 0
		}
	case kindQty, kindLine:
		switch {
		case has("int"):
			return 1
		case isNum:
			return 0.8
		case isDate:
			return 0
		}
	case kindDate:
		switch {
		case isDate:
			return 1
		case isNum:
			return 0.2
		}
	case kindCode:
		switch {
		case isText || has("int"):
			return 1
		case isNum || isDate:
			return 0.2
		}
	case kindPhone:
		switch {
		case isText:
			return 1
		case has("int"):
			return 0.8
		}
	default:
		switch {
		case isText:
			return 1
		case isNum || isDate:
			return 0.2
		}
	}
	return 0.5
}

// relation is what the column's ties to other tables say about the field.
func (d *discovery) relation(pl *placement, f *fieldDef, c *column) (float64, []string) {
	var r float64
	var why []string
	if f.ref != "" {
		if master := d.placed[f.ref]; master != nil {
			target := master.refColumn()
			found := false
			for _, x := range c.refs {
				if x.to != target {
					continue
				}
				found = true
				if x.fold {
					r += 0.25
					why = append(why, fmt.Sprintf("matches %s only when case is ignored (%d/%d)", x.to, x.hit, x.of))
				} else {
					r += 0.3
					why = append(why, fmt.Sprintf("values are %s of %s (%d/%d)", target.name, master.base.t.Name, x.hit, x.of))
				}
			}
			switch {
			case c == target:
				r += 0.3
				found = true
				why = append(why, "key of "+c.tab.t.Name)
			case found:
			case c.refsTo(master.base.key):
				r -= 0.2
				why = append(why, fmt.Sprintf("row ids of %s, not its %s (read through a join)", master.base.t.Name, target.name))
			default:
				other := ""
				for _, x := range c.refs {
					if x.to == x.to.tab.key && other == "" {
						other = x.to.tab.t.Name
					}
				}
				if other != "" {
					r -= 0.3
					why = append(why, "values are keys of "+other+", not of "+master.base.t.Name)
				} else {
					r -= 0.15
					why = append(why, "values are not keys of "+master.base.t.Name)
				}
			}
		}
	}
	if f.kind == kindCode && f.ref == "" && rowID(c) {
		r -= 0.15
		why = append(why, "a row number, not the number people use")
	}
	if f.kind == kindCode && f.key && f.ref != "" && rowID(c) {
		r -= 0.15
		why = append(why, "a row number, not a code people use")
	}
	if f.name == "reference" && pl.def.entity == erpsync.Payments && c.p.n > 0 {
		if c.p.unique {
			r += 0.1
			why = append(why, "unique")
		} else if c.p.nulls > 0 {
			r -= 0.1
			why = append(why, fmt.Sprintf("empty in %d of %d rows", c.p.nulls, c.p.n+c.p.nulls))
		}
	}
	if f.kind == kindLine && c.pk && !c.p.unique {
		r += 0.1
		why = append(why, "part of the key of "+c.tab.t.Name)
	}
	if f.key {
		switch {
		case c == c.tab.key && c.pk:
			r += 0.15
			why = append(why, "key of "+c.tab.t.Name)
		case c == c.tab.key:
			r += 0.1
			why = append(why, "identifies the rows of "+c.tab.t.Name)
		case !c.p.unique:
			r -= 0.3
		}
		if n := referringTables(c.tab); n > 0 && c == c.tab.key {
			r += 0.05
			why = append(why, fmt.Sprintf("referred to by %d tables", n))
		}
	}
	if f.kind == kindMoney || f.kind == kindQty {
		for _, m := range c.sumsTo {
			with := ""
			if len(m.detail) > 1 {
				with = " (" + m.detailText() + ")"
			}
			if f.kind == kindMoney {
				why = append(why, fmt.Sprintf("a line amount: values sum to %s%s for %d/%d %s", m.header, with, m.hit, m.of, headerNoun(m.header.tab)))
			} else {
				why = append(why, fmt.Sprintf("values sum to %s for %d/%d %s", m.header, m.hit, m.of, headerNoun(m.header.tab)))
			}
		}
		for _, m := range c.sumOf {
			why = append(why, fmt.Sprintf("a header total: the sum of %s for %d/%d %s", m.detailText(), m.hit, m.of, headerNoun(m.header.tab)))
		}
		for _, p := range c.product {
			why = append(why, p)
		}
		switch f.name {
		case "price":
			if len(c.sumsTo) > 0 || len(c.product) > 0 {
				r -= 0.35 // a line's amount is not a price per unit
			}
			if len(c.sumOf) > 0 {
				r -= 0.35 // nor is an order's total
			}
			if len(c.factorOf) > 0 && len(c.sumsTo) == 0 {
				r += 0.1
				why = append(why, c.factorOf[0])
			}
		case "amount":
			if len(c.sumsTo) > 0 {
				r -= 0.2 // a line of something, not a bill or a payment
			}
		case "qty":
			if len(c.factorOf) > 0 {
				r += 0.05
				why = append(why, c.factorOf[0])
			}
			if len(c.product) > 0 {
				r -= 0.3
			}
		}
	}
	return r, why
}

func topValues(p profile, n int) string {
	var vs []string
	for i, vc := range p.top {
		if i == n {
			vs = append(vs, "…")
			break
		}
		vs = append(vs, vc.v)
	}
	return strings.Join(vs, ", ")
}

// short writes a number the way a note can carry it: 1250, 1.2 lakh, 3.4 crore.
func short(x float64) string {
	switch {
	case math.Abs(x) >= 1e7:
		return fmt.Sprintf("%.1f crore", x/1e7)
	case math.Abs(x) >= 1e5:
		return fmt.Sprintf("%.1f lakh", x/1e5)
	case x == math.Trunc(x):
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// headerNoun is what a header table's rows are, for notes: orders, bills…
func headerNoun(t *table) string {
	ws := set(t.words)
	switch {
	case ws["order"]:
		return "orders"
	case ws["bill"]:
		return "bills"
	case ws["receipt"] || ws["grn"]:
		return "receipts"
	case ws["voucher"]:
		return "vouchers"
	}
	return "keys"
}

// rowID says a column holds the database's own row numbers (an identity
// ItmId or OrdId): digits only, named id.
func rowID(c *column) bool {
	return set(c.words)["id"] && c.p.n > 0 && c.p.num == c.p.n && c.p.text == 0
}

func (c *column) refsTo(k *column) bool {
	for _, x := range c.refs {
		if x.to == k {
			return true
		}
	}
	return false
}

// distinctive kinds are told by their values alone: a column of Indian
// mobiles, payment modes, GST rates or dates needs no name to say so.
func distinctive(k kind) bool {
	switch k {
	case kindPhone, kindMode, kindModes, kindPercent, kindDate, kindUnit:
		return true
	}
	return false
}
