package erpconnect

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// Links between tables: which columns refer to which keys (by their values,
// sampled and probed), the product table, and the lines whose amounts sum
// to a header's total.

// findLinks finds, for a master without a company column, a table that
// lists which of its rows each company uses (PartyBal: a row per company
// and party), so the master's query keeps the company's rows.
func (d *discovery) findLinks() {
	if d.company == nil {
		return
	}
	for _, t := range d.tables {
		if t.company != nil || t.companyName != nil || t.key == nil || junk(t) {
			continue
		}
		for _, f := range t.referredBy {
			l := f.from.tab
			if f.to != t.key || l.company == nil || junk(l) || f.fold {
				continue
			}
			pk := 0
			inKey := true
			for _, c := range l.cols {
				if c.pk {
					pk++
					if c != l.company && c != f.from {
						inKey = false
					}
				}
			}
			if pk == 2 && inKey && (t.link == nil || l.t.Name < t.link.from.tab.t.Name) {
				t.link = f
			}
		}
	}
}

// countValues counts a few-valued column's rows per value: by the engine
// when the table is of a size it counts quickly, else from the sample.
func (d *discovery) countValues(ctx context.Context, c *column) ([]valueRows, error) {
	if c.tab.rows <= int64(c.tab.sampled) || c.tab.rows > 5_000_000 {
		var out []valueRows
		for _, vc := range c.p.top {
			out = append(out, valueRows{firstRaw(c, vc.v), int64(vc.n)})
		}
		return out, nil
	}
	q := fmt.Sprintf("SELECT %s, COUNT(*) FROM %s GROUP BY %s", d.src.QuoteIdent(c.name), d.ref(c.tab), d.src.QuoteIdent(c.name))
	var out []valueRows
	err := d.src.Query(ctx, q, nil, 50, func(_ []string, vals []any) error {
		if len(vals) < 2 || vals[0] == nil {
			return nil
		}
		n, _, _ := number(vals[1])
		out = append(out, valueRows{vals[0], int64(n)})
		return nil
	})
	if err != nil {
		if err := d.soft(ctx, err, "count the rows of each company in "+c.tab.t.Name); err != nil {
			return nil, err
		}
		out = nil
		for _, vc := range c.p.top {
			out = append(out, valueRows{firstRaw(c, vc.v), int64(vc.n)})
		}
	}
	return out, nil
}

// firstRaw is the sampled value (with its type) that reads as s.
func firstRaw(c *column, s string) any {
	for _, v := range c.vals {
		if t, _ := text(v); strings.TrimSpace(t) == s {
			return v
		}
	}
	return s
}

// findRefs finds the tables whose key column holds every value of c:
// exactly, or only when case is ignored (a join that needs UPPER()).
func (d *discovery) findRefs(ctx context.Context, c *column) error {
	if c.p.n == 0 || c.p.distinct < 2 || c == c.tab.company || c == c.tab.changed {
		return nil
	}
	if c.p.share(c.p.code) < 0.95 || c.p.twoDP > 0 || c.p.moreDP > 0 || c.p.share(c.p.date) > 0 {
		return nil
	}
	values := distinctText(c)
	digitsOnly := true
	for _, v := range values {
		if !isASCIIDigits(strings.TrimPrefix(v, "-")) {
			digitsOnly = false
			break
		}
	}
	if junk(c.tab) {
		return nil
	}
	for _, k := range d.tables {
		if k == c.tab || junk(k) {
			continue
		}
		for _, kc := range k.cols {
			if !kc.keyish || kc == k.company {
				continue
			}
			if digitsOnly && !relatedNames(c, kc) {
				continue // small numbers are keys of every table with an id; the name must say which
			}
			f, err := d.subset(ctx, c, kc, values)
			if err != nil {
				return err
			}
			if f != nil {
				c.refs = append(c.refs, f)
				kc.tab.referredBy = append(kc.tab.referredBy, f)
			}
		}
	}
	return nil
}

// relatedNames says whether two columns' names share a word that is not
// just "code" or "id", or are the same name.
func relatedNames(a, b *column) bool {
	if strings.EqualFold(a.name, b.name) {
		return true
	}
	generic := map[string]bool{"id": true, "code": true, "number": true, "master": true, "serial": true}
	other := set(append(append([]string(nil), b.words...), b.tab.words...))
	for _, w := range a.words {
		if !generic[w] && other[w] {
			return true
		}
	}
	return false
}

func distinctText(c *column) []string {
	seen := map[string]bool{}
	for _, v := range c.vals {
		if s, _ := text(v); strings.TrimSpace(s) != "" {
			seen[strings.TrimSpace(s)] = true
		}
	}
	return sortedKeys(seen)
}

// subset checks c's values against key column k: in k's sample first, and
// for what the sample lacks when k's table is larger than its sample, by
// asking the source. Nine in ten of c's values must be keys (old rows
// refer to deleted masters).
func (d *discovery) subset(ctx context.Context, c, k *column, values []string) (*fk, error) {
	exact, folded := map[string]bool{}, map[string]bool{}
	for _, v := range k.keys {
		exact[v] = true
		folded[strings.ToUpper(v)] = true
	}
	hit, foldHit := 0, 0
	var missing, foldMissing []string
	for _, v := range values {
		if exact[v] {
			hit++
		} else {
			missing = append(missing, v)
		}
		if folded[strings.ToUpper(v)] {
			foldHit++
		} else {
			foldMissing = append(foldMissing, v)
		}
	}
	full := k.tab.rows <= int64(k.tab.sampled) && len(k.keys) > 0
	if foldHit == 0 && (full || !relatedNames(c, k)) {
		return nil, nil
	}
	if !full && len(foldMissing) > 0 {
		n, err := d.probe(ctx, k, foldMissing, true)
		if err != nil {
			return nil, err
		}
		foldHit += n
		if len(missing) > 0 && (hit > 0 || len(foldMissing) == len(values)) {
			n, err := d.probe(ctx, k, missing, false)
			if err != nil {
				return nil, err
			}
			hit += n
		}
	}
	of := len(values)
	switch {
	case hit*10 >= of*9:
		return &fk{from: c, to: k, hit: hit, of: of}, nil
	case foldHit*10 >= of*9:
		return &fk{from: c, to: k, fold: true, hit: foldHit, of: of}, nil
	}
	return nil, nil
}

// probe counts how many of values are in column k, asking the source for
// at most 200 of them.
func (d *discovery) probe(ctx context.Context, k *column, values []string, fold bool) (int, error) {
	var lits []string
	numeric := k.p.num == k.p.n && k.p.text == 0
	for _, v := range values {
		if len(lits) == 200 {
			break
		}
		if numeric {
			if !isASCIIDigits(strings.TrimPrefix(v, "-")) {
				continue
			}
			lits = append(lits, v)
			continue
		}
		if fold {
			v = strings.ToUpper(v)
		}
		if l, ok := literal(v); ok {
			lits = append(lits, l)
		}
	}
	if len(lits) == 0 {
		return 0, nil
	}
	col := d.src.QuoteIdent(k.name)
	if fold && !numeric {
		col = "UPPER(" + col + ")"
	}
	q := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IN (%s)", col, d.ref(k.tab), col, strings.Join(lits, ", "))
	n := 0
	err := d.src.Query(ctx, q, nil, len(lits)+1, func(_ []string, _ []any) error {
		n++
		return nil
	})
	if err != nil {
		return 0, d.soft(ctx, err, "look up values in "+k.String())
	}
	return n, nil
}

// findProducts finds, row by row in the sample, a column that is two
// others multiplied: Amt = Qty × Rt says Rt is a unit price and Amt a line
// amount.
func findProducts(t *table) {
	var nums []int
	for i, c := range t.cols {
		if c.p.n >= 5 && c.p.num == c.p.n && c != t.key && c != t.company && !c.pk {
			nums = append(nums, i)
		}
	}
	if len(nums) < 3 || len(nums) > 12 {
		return
	}
	for _, m := range nums {
		for ai, a := range nums {
			for _, b := range nums[ai+1:] {
				if a == m || b == m {
					continue
				}
				hit, of := 0, 0
				for _, row := range t.sample {
					x, _, ok1 := number(row[a])
					y, _, ok2 := number(row[b])
					z, _, ok3 := number(row[m])
					if !ok1 || !ok2 || !ok3 || z == 0 {
						continue
					}
					of++
					if math.Abs(x*y-z) <= 0.01+0.0005*math.Abs(z) {
						hit++
					}
				}
				if of >= 5 && hit*10 >= of*9 {
					ca, cb, cm := t.cols[a], t.cols[b], t.cols[m]
					why := fmt.Sprintf("%s × %s = %s in %d/%d rows", ca.name, cb.name, cm.name, hit, of)
					ca.factorOf = append(ca.factorOf, why)
					cb.factorOf = append(cb.factorOf, why)
					cm.product = append(cm.product, why)
				}
			}
		}
	}
}

// sumLines asks the source, for up to 50 sampled header keys, what each
// numeric detail column (and each two money columns together: a line's
// amount and its tax) adds up to per key, and compares that with each
// numeric header column: the header total its lines sum to.
func (d *discovery) sumLines(ctx context.Context, f *fk) error {
	det, hdr := f.from.tab, f.to.tab
	type sum struct {
		cols []*column
		expr string
	}
	var sums []sum
	var money []*column
	for _, c := range det.cols {
		if c == f.from || c.p.n == 0 || c.p.num != c.p.n || c == det.company || c.keyish || c.pk || len(sums) >= 8 {
			continue
		}
		sums = append(sums, sum{[]*column{c}, "SUM(t." + d.src.QuoteIdent(c.name) + ")"})
		if c.p.whole < c.p.num && len(money) < 5 {
			money = append(money, c)
		}
	}
	for i, a := range money {
		for _, b := range money[i+1:] {
			sums = append(sums, sum{[]*column{a, b}, "SUM(t." + d.src.QuoteIdent(a.name) + " + t." + d.src.QuoteIdent(b.name) + ")"})
		}
	}
	var ys []*column
	for _, c := range hdr.cols {
		if c != f.to && c.p.n > 0 && c.p.num == c.p.n && c != hdr.company && !c.keyish && c.p.maxNum > 0 {
			ys = append(ys, c)
		}
	}
	if len(sums) == 0 || len(ys) == 0 {
		return nil
	}
	keyAt := indexOf(hdr, f.to)
	var keys, lits []string
	rowsBy := map[string][]any{}
	for _, row := range hdr.sample {
		if len(lits) == 50 {
			break
		}
		k, _ := text(row[keyAt])
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		raw := row[keyAt]
		if f.fold {
			k = strings.ToUpper(k)
			if s, ok := raw.(string); ok {
				raw = strings.ToUpper(strings.TrimSpace(s))
			}
		}
		if _, dup := rowsBy[k]; dup {
			continue
		}
		l, ok := literal(raw)
		if !ok {
			continue
		}
		keys = append(keys, k)
		lits = append(lits, l)
		rowsBy[k] = row
	}
	if len(lits) < 3 {
		return nil
	}
	col := "t." + d.src.QuoteIdent(f.from.name)
	if f.fold {
		col = "UPPER(" + col + ")"
	}
	exprs := []string{col}
	for _, s := range sums {
		exprs = append(exprs, s.expr)
	}
	where := fmt.Sprintf("%s IN (%s)", col, strings.Join(lits, ", "))
	if det.company != nil && hdr.company != nil && d.company != nil {
		lit, _ := literal(d.company.value)
		where += " AND t." + d.src.QuoteIdent(det.company.name) + " = " + lit
	}
	q := fmt.Sprintf("SELECT %s FROM %s t WHERE %s GROUP BY %s", strings.Join(exprs, ", "), d.ref(det), where, col)
	got := map[string][]float64{}
	err := d.src.Query(ctx, q, nil, len(lits)+1, func(_ []string, vals []any) error {
		k, _ := text(vals[0])
		k = strings.TrimSpace(k)
		if f.fold {
			k = strings.ToUpper(k)
		}
		s := make([]float64, len(sums))
		for i := range sums {
			s[i], _, _ = number(vals[i+1])
		}
		got[k] = s
		return nil
	})
	if err != nil {
		return d.soft(ctx, err, fmt.Sprintf("add up %s by %s", det.t.Name, f.from.name))
	}
	for si, s := range sums {
		for _, y := range ys {
			yi := indexOf(hdr, y)
			hit, of := 0, 0
			for _, k := range keys {
				g, ok := got[k]
				if !ok {
					continue
				}
				want, _, ok := number(rowsBy[k][yi])
				if !ok {
					continue
				}
				of++
				tol := 0.01
				if math.Abs(want) >= 100 {
					tol = 1 // headers round off to the rupee
				}
				if math.Abs(g[si]-want) <= tol {
					hit++
				}
			}
			if of >= 3 && hit*10 >= of*8 {
				m := &sumMatch{detail: s.cols, header: y, hit: hit, of: of}
				for _, x := range s.cols {
					x.sumsTo = append(x.sumsTo, m)
				}
				y.sumOf = append(y.sumOf, m)
			}
		}
	}
	return nil
}

func indexOf(t *table, c *column) int {
	for i, x := range t.cols {
		if x == c {
			return i
		}
	}
	return -1
}
