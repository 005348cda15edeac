package erpconnect

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/erpsync"
)

// sinceOverlap is how far back of the watermark an incremental read
// starts, for rows written in the same second as the last one read.
const sinceOverlap = 10 * time.Minute

// maxDistinct is how many distinct values of a mode or status column are
// read to write its values map; more is not a code list.
const maxDistinct = 200

// build writes the mapping of every placed entity.
func (d *discovery) build() *erpsync.Mapping {
	m := &erpsync.Mapping{
		Source: erpsync.SourceSpec{
			DSN:            d.o.DSN,
			ConnectTimeout: erpsync.Duration(10 * time.Second),
			QueryTimeout:   erpsync.Duration(60 * time.Second),
			MaxConns:       2,
			Parallel:       1,
		},
		SettleDays: 7,
		Entities:   map[erpsync.Entity]*erpsync.EntitySpec{},
	}
	for _, e := range erpsync.Entities {
		if pl := d.placed[e]; pl != nil {
			m.Entities[e] = d.entitySpec(pl)
		}
	}
	return m
}

// readValues reads every distinct value of the columns whose values a
// mapping lists (modes, statuses, units), so that no value the sample
// missed turns up in a sync as a row it cannot read.
func (d *discovery) readValues(ctx context.Context) error {
	for _, e := range erpsync.Entities {
		pl := d.placed[e]
		if pl == nil {
			continue
		}
		for _, a := range pl.fields {
			if a.col == nil || a.values != nil {
				continue
			}
			switch a.def.kind {
			case kindMode, kindModes, kindStatus, kindUnit:
			default:
				continue
			}
			c := d.src.QuoteIdent(a.col.name)
			q := fmt.Sprintf("SELECT DISTINCT %s FROM %s", c, d.ref(a.col.tab))
			seen := map[string]bool{}
			err := d.src.Query(ctx, q, nil, maxDistinct+1, func(_ []string, vals []any) error {
				if s, _ := text(vals[0]); strings.TrimSpace(s) != "" {
					seen[strings.TrimSpace(s)] = true
				}
				return nil
			})
			if err != nil {
				if err := d.soft(ctx, err, "read every value of "+a.col.String()+"; its values map holds the sampled ones"); err != nil {
					return err
				}
				continue
			}
			a.values = sortedKeys(seen)
			if a.values == nil {
				a.values = []string{}
			}
			for _, other := range d.placed {
				for _, b := range other.fields {
					if b.col == a.col && b.def.kind == a.def.kind && b.values == nil {
						b.values = a.values
					}
				}
			}
		}
	}
	return nil
}

func (d *discovery) entitySpec(pl *placement) *erpsync.EntitySpec {
	qb := &query{d: d, pl: pl, taken: map[string]bool{}, lookup: map[erpsync.Entity]string{}}
	if pl.join != nil {
		h := pl.join.to.tab
		on := fmt.Sprintf("h.%s = t.%s", qb.q(pl.join.to.name), qb.q(pl.join.from.name))
		if pl.join.fold {
			on = fmt.Sprintf("UPPER(h.%s) = UPPER(t.%s)", qb.q(pl.join.to.name), qb.q(pl.join.from.name))
		}
		if pl.base.company != nil && h.company != nil {
			on += fmt.Sprintf(" AND h.%s = t.%s", qb.q(h.company.name), qb.q(pl.base.company.name))
		}
		qb.joins = append(qb.joins, "JOIN "+d.ref(h)+" h ON "+on)
	}

	spec := &erpsync.EntitySpec{Tier: erpsync.Duration(pl.def.tier), Fields: map[string]*erpsync.FieldSpec{}}
	for _, a := range pl.fields {
		if a.col == nil {
			continue
		}
		fs := d.fieldSpec(pl, a)
		switch {
		case a.line != nil:
			expr := d.concat(qb.col(a.col, nil), "'/'", qb.col(a.line, nil))
			fs.Column = qb.addExpr(expr, "Reference")
		case a.def.name == "outstanding" && a.col.p.minNum < 0 && !pl.sumStock:
			// an advance is no dues: the books want 0, not a negative
			c := qb.col(a.col, a.via)
			fs.Column = qb.addExpr(fmt.Sprintf("CASE WHEN %s < 0 THEN 0 ELSE %s END", c, c), a.col.name)
		default:
			agg := pl.sumStock && (a.def.name == "stock_ready" || a.def.name == "stock_wip")
			fs.Column = qb.add(a.col, a.via, agg)
		}
		spec.Fields[a.def.name] = fs
		switch a.def.name {
		case "qty":
			if pl.def.entity != erpsync.Stock {
				qb.where = append(qb.where, qb.col(a.col, a.via)+" > 0") // returns and zero lines are not sales
			}
		case "balance":
			if pl.def.entity == erpsync.Bills {
				qb.where = append(qb.where, qb.col(a.col, a.via)+" > 0") // a bill with nothing left is paid
			}
		}
	}

	qb.where = append(d.companyWhere(qb), qb.where...)
	for _, t := range pl.tables() {
		if f := t.flag; f != nil {
			qb.where = append(qb.where, qb.flagWhere(f))
		}
	}
	if pl.def.history {
		if c := pl.changeColumn(); c != nil {
			out := qb.add(c, nil, false)
			qb.where = append(qb.where, qb.col(c, nil)+" > "+d.sinceParam(c))
			spec.Since = &erpsync.SinceSpec{Column: out, Overlap: erpsync.Duration(sinceOverlap)}
		}
	}
	if len(pl.statusOpen) > 0 {
		var status *assigned
		for _, a := range pl.fields {
			if a.def.name == "status" {
				status = a
			}
		}
		var lits []string
		for _, v := range pl.statusOpen {
			if l, ok := literal(v); ok {
				lits = append(lits, l)
			}
		}
		qb.where = append(qb.where, fmt.Sprintf("UPPER(LTRIM(RTRIM(%s))) IN (%s)", qb.col(status.col, status.via), strings.Join(lits, ", ")))
	}
	spec.Query = qb.text()
	return spec
}

// tables are the placement's own table and its header.
func (pl *placement) tables() []*table {
	ts := []*table{pl.base}
	if pl.join != nil {
		ts = append(ts, pl.join.to.tab)
	}
	return ts
}

// companyWhere keeps the company's rows: by its code, by its name, or
// through the table that lists which rows each company uses.
func (d *discovery) companyWhere(qb *query) []string {
	if d.company == nil {
		return nil
	}
	pl := qb.pl
	lit, _ := literal(d.company.value)
	for _, t := range pl.tables() {
		switch {
		case t.company != nil:
			return []string{qb.col(t.company, nil) + " = " + lit}
		case t.companyName != nil:
			name, ok := literal(t.companyNameValue)
			if ok {
				return []string{fmt.Sprintf("UPPER(%s) = UPPER(%s)", qb.col(t.companyName, nil), name)}
			}
		case t.link != nil:
			l := t.link.from.tab
			return []string{fmt.Sprintf("%s IN (SELECT x.%s FROM %s x WHERE x.%s = %s)",
				qb.col(t.key, nil), qb.q(t.link.from.name), d.ref(l), qb.q(l.company.name), lit)}
		}
	}
	return nil
}

// companyFilter says in words which company a placement keeps, and how.
func (d *discovery) companyText(pl *placement) string {
	if d.company == nil {
		return ""
	}
	lit, _ := literal(d.company.value)
	for _, t := range pl.tables() {
		switch {
		case t.company != nil:
			return fmt.Sprintf("%s = %s", t.company, lit)
		case t.companyName != nil:
			return fmt.Sprintf("%s is %q (company %s) in any case", t.companyName, t.companyNameValue, lit)
		case t.link != nil:
			return fmt.Sprintf("the %s rows %s lists for company %s", t.t.Name, t.link.from.tab.t.Name, lit)
		}
	}
	return ""
}

func (pl *placement) changeColumn() *column {
	if pl.base.changed != nil {
		return pl.base.changed
	}
	if pl.join != nil {
		return pl.join.to.tab.changed
	}
	return nil
}

// sinceParam is how the source's dialect names the watermark parameter,
// which is bound as text: PostgreSQL is told it is a time of c's type.
func (d *discovery) sinceParam(c *column) string {
	switch string(d.src.Dialect()) {
	case "sqlserver":
		return "@since"
	case "postgres":
		t := "timestamp"
		switch {
		case strings.Contains(c.typ, "with time zone"):
			t = "timestamptz"
		case c.typ == "date":
			t = "date"
		}
		return "CAST($1 AS " + t + ")"
	case "mysql":
		return "?"
	}
	return ":since"
}

// fieldSpec is how a placed field is read: transforms for text, money in
// rupees, values for modes, statuses and units, and the review notes.
func (d *discovery) fieldSpec(pl *placement, a *assigned) *erpsync.FieldSpec {
	fs := &erpsync.FieldSpec{Suggested: a.suggested}
	c := a.col
	isText := c.p.text > 0 || (c.p.n == 0 && typeFit(kindName, c) == 1) || a.line != nil
	review := append([]string(nil), a.review...)
	values := a.values
	if values == nil {
		for _, vc := range c.p.top {
			values = append(values, vc.v)
		}
	}
	switch a.def.kind {
	case kindCode:
		if isText {
			fs.Transform = []string{"trim"}
			if d.upper(a) {
				fs.Transform = append(fs.Transform, "upper")
			}
		}
	case kindName:
		if isText {
			fs.Transform = []string{"trim", "collapse"}
		}
	case kindText, kindGroup:
		if isText {
			fs.Transform = []string{"trim"}
		}
	case kindPhone:
		if isText {
			fs.Transform = []string{"trim"}
		}
	case kindUnit:
		if isText {
			fs.Transform = []string{"trim", "lower"}
		}
		fs.Default = "piece"
		fs.Values, _ = valueMap(values, unitWord)
	case kindMoney:
		fs.Money = "rupees"
	case kindMode, kindModes:
		if isText {
			fs.Transform = []string{"trim", "lower"}
		}
		var unknown []string
		fs.Values, unknown = valueMap(values, modeWord)
		if len(unknown) > 0 {
			review = append(review, "modes not recognised (a row with one is refused): "+strings.Join(firstN(unknown, 8), ", "))
		}
		if len(values) > maxDistinct {
			review = append(review, "too many different modes to map; list them under values")
		}
	case kindStatus:
		if isText {
			fs.Transform = []string{"trim", "lower"}
			var unknown []string
			fs.Values, unknown = valueMap(values, statusWord)
			var guessed []string
			for _, k := range sortedKeys(fs.Values) {
				if len([]rune(k)) == 1 {
					guessed = append(guessed, k+" → "+fs.Values[k])
				}
			}
			if len(guessed) > 0 {
				review = append(review, "one-letter status codes guessed: "+strings.Join(guessed, ", "))
			}
			if len(unknown) > 0 {
				review = append(review, "statuses not recognised (a row with one is refused): "+strings.Join(unknown, ", "))
			}
		} else {
			fs.Values = numericStatuses(c, values)
			var guessed []string
			for _, k := range sortedNumeric(fs.Values) {
				guessed = append(guessed, k+" → "+fs.Values[k])
			}
			review = append(review, "numeric status codes guessed from their order and how often each is used: "+strings.Join(guessed, ", "))
		}
	}
	if a.via != nil {
		review = append(review, fmt.Sprintf("read through %s: rows whose %s is not in %s are left out", a.via.from, a.via.from.name, a.via.to.tab.t.Name))
	}
	if a.line != nil {
		review = append(review, fmt.Sprintf("%s repeats on a document's lines: the reference is %s/%s", a.col.name, a.col.name, a.line.name))
	}
	if a == pl.keyField() {
		if t := d.companyText(pl); t != "" {
			review = append(review, d.companyNote(t, false))
		}
		if pl.sumStock {
			review = append(review, fmt.Sprintf("%s has several rows per SKU (one per godown or batch): the query adds them up; leave out any that is not ready stock", pl.base.t.Name))
		}
	}
	if a.suggested {
		review = append(review, "named by the model from the column's name and masked values: check it")
	}
	fs.Review = strings.Join(review, "; ")
	return fs
}

// upper says a code field is upper-cased: SKUs always, and customer ids
// when some table writes them in another case than the customer master.
func (d *discovery) upper(a *assigned) bool {
	switch a.def.ref {
	case erpsync.Products:
		return true
	case erpsync.Customers:
	default:
		return a.def.name == "bill_no" || a.def.name == "reference" || a.def.name == "order_id"
	}
	master := d.placed[erpsync.Customers]
	if master == nil || master.base.key == nil {
		return false
	}
	if a.col.p.collisions != nil || a.col.p.upperCode < a.col.p.code {
		return true
	}
	for _, f := range master.base.referredBy {
		if f.to == master.base.key && f.fold {
			return true
		}
	}
	return false
}

// companyNote says which company a query keeps and which others the
// source holds; rows says how many each has.
func (d *discovery) companyNote(kept string, rows bool) string {
	var others []string
	for _, o := range d.company.others {
		l, _ := text(o.v)
		if rows {
			l = fmt.Sprintf("%s (%d rows)", l, o.rows)
		}
		others = append(others, l)
	}
	if len(others) == 0 {
		return "keeps " + kept + ", the only company seen"
	}
	if rows {
		return fmt.Sprintf("keeps %s, the company with the most rows (%d); the source also holds %s", kept, d.company.rows, strings.Join(others, ", "))
	}
	return fmt.Sprintf("keeps %s, the company with the most rows; also in the source: %s", kept, strings.Join(others, ", "))
}

// valueMap maps values (as trim and lower leave them) to Munshi's, and
// lists the ones it does not know.
func valueMap(values []string, read func(string) string) (map[string]string, []string) {
	m := map[string]string{}
	var unknown []string
	for _, v := range values {
		k := strings.ToLower(strings.TrimSpace(v))
		if w := read(v); w != "" {
			m[k] = w
		} else {
			unknown = append(unknown, v)
		}
	}
	sort.Strings(unknown)
	if len(m) == 0 {
		return nil, unknown
	}
	return m, unknown
}

// numericStatuses guesses what an ERP's numeric order statuses mean: the
// code most orders have is delivered, the ones before it committed (an
// order moves up the codes), the ones after it delivered, and a code set
// well apart at the top (9 after 3) cancelled.
func numericStatuses(c *column, values []string) map[string]string {
	var codes []int
	for _, v := range values {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			codes = append(codes, n)
		}
	}
	for _, vc := range c.p.top {
		if n, err := strconv.Atoi(vc.v); err == nil && !containsInt(codes, n) {
			codes = append(codes, n)
		}
	}
	sort.Ints(codes)
	if len(codes) == 0 {
		return nil
	}
	most, mostN := codes[len(codes)-1], -1
	for _, vc := range c.p.top {
		if n, err := strconv.Atoi(vc.v); err == nil && vc.n > mostN {
			most, mostN = n, vc.n
		}
	}
	m := map[string]string{}
	for i, n := range codes {
		k := strconv.Itoa(n)
		switch {
		case n < most:
			m[k] = "committed"
		case n == most:
			m[k] = "delivered"
		case i == len(codes)-1 && i > 0 && n-codes[i-1] >= 3:
			m[k] = "cancelled"
		default:
			m[k] = "delivered"
		}
	}
	return m
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sortedNumeric(m map[string]string) []string {
	ks := sortedKeys(m)
	sort.SliceStable(ks, func(i, j int) bool {
		a, _ := strconv.Atoi(ks[i])
		b, _ := strconv.Atoi(ks[j])
		return a < b
	})
	return ks
}
