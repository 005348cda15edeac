package erpconnect

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/munshi/munshi/internal/erpsync"
)

// Scoring weights: a column's score is mostly its name and its values,
// a little its declared type, plus what its relations to other tables say.
const (
	wName  = 0.5
	wValue = 0.4
	wType  = 0.1

	minField   = 0.4  // below this a column is no candidate at all
	minValues  = 0.3  // a column whose values contradict the field is none either
	clearAhead = 0.1  // a choice this far ahead of the next needs no review
	weak       = 0.55 // a choice scoring less than this needs review anyway
	minEntity  = 0.3  // an entity's table must score this
)

// cand is a column considered for a field.
type cand struct {
	col      *column
	via      *fk // col is a master's, read through a join on via (ItmId → ItemMaster)
	score    float64
	evidence []string
}

func (c cand) name() string {
	if c.via != nil {
		return c.col.String() + " via " + c.via.from.String()
	}
	return c.col.String()
}

// assigned is the column chosen for a field, with the others considered.
type assigned struct {
	def   *fieldDef
	col   *column // nil: not placed
	via   *fk     // col is read through a join to its master
	score float64
	// values are the column's distinct values as the source holds them,
	// for the values map of a mode or a status
	values []string
	// line: the column is no key alone (a GRN number on each of its
	// lines): the query joins it with the line number
	line      *column
	cands     []cand // best first
	review    []string
	suggested bool
}

// placement is where an entity's rows come from.
type placement struct {
	def    *entityDef
	base   *table
	join   *fk // base column → header key, when fields come from the header
	fields []*assigned
	score  float64
	why    []string
	// tables ranked for this entity, best first (the chosen one among them)
	ranked []tableCand
	// statusOpen keeps the rows whose status is one of these (open orders
	// taken from the sales lines)
	statusOpen []string
	derived    string // how the placement was made other than by its own table
	sumStock   bool   // several rows per SKU (per godown): the query adds them up
}

type tableCand struct {
	t       *table
	score   float64
	missing []string
}

// place finds each entity's table and columns, masters first so that the
// others can be told by their references to them.
func (d *discovery) place() {
	d.placed = map[erpsync.Entity]*placement{}
	for i := range entityDefs {
		e := &entityDefs[i]
		var best *placement
		var ranked []tableCand
		for _, t := range d.tables {
			if t.sampled == 0 {
				continue
			}
			if e.entity == erpsync.OpenOrders && !set(t.words)["pending"] && !set(t.words)["open"] {
				continue // open orders are their own table only when it says so; else the sales lines' status tells
			}
			pl := d.placeOn(e, t)
			tc := tableCand{t: t, score: pl.score}
			for _, a := range pl.fields {
				if a.def.required && a.col == nil {
					tc.missing = append(tc.missing, a.def.name)
				}
			}
			ranked = append(ranked, tc)
			if len(tc.missing) == 0 && pl.score >= minEntity && (best == nil || pl.score > best.score) {
				best = pl
			}
		}
		sort.SliceStable(ranked, func(i, j int) bool {
			if (len(ranked[i].missing) == 0) != (len(ranked[j].missing) == 0) {
				return len(ranked[i].missing) == 0
			}
			return ranked[i].score > ranked[j].score
		})
		if len(ranked) > 3 {
			ranked = ranked[:3]
		}
		if best == nil && e.entity == erpsync.OpenOrders {
			best = d.openFromSales()
		}
		if best == nil {
			d.missing(e, ranked)
			continue
		}
		best.ranked = ranked
		d.placed[e.entity] = best
	}
}

// missing records why an entity was left out.
func (d *discovery) missing(e *entityDef, ranked []tableCand) {
	pl := &placement{def: e, ranked: ranked}
	d.unplaced = append(d.unplaced, pl)
}

// placeOn places entity e on table t: the best column for each field, a
// column used once, and the table's score.
func (d *discovery) placeOn(e *entityDef, t *table) *placement {
	pl := &placement{def: e, base: t}
	if e.join {
		pl.join = d.header(t)
	}
	pool := d.columnsFor(pl)

	// every candidate of every field, then greedily the best pairs
	type pair struct {
		f int
		c cand
	}
	var pairs []pair
	for fi := range e.fields {
		f := &e.fields[fi]
		a := &assigned{def: f}
		for _, c := range pool {
			cd := d.scoreColumn(pl, f, c)
			if cd.score >= minField {
				a.cands = append(a.cands, cd)
			}
		}
		for _, cd := range d.lookups(pl, f, pool) {
			if cd.score >= minField {
				a.cands = append(a.cands, cd)
			}
		}
		sortCands(a.cands)
		pl.fields = append(pl.fields, a)
		for _, cd := range a.cands {
			pairs = append(pairs, pair{fi, cd})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		if pairs[i].c.score != pairs[j].c.score {
			return pairs[i].c.score > pairs[j].c.score
		}
		if pairs[i].f != pairs[j].f {
			return pairs[i].f < pairs[j].f
		}
		return pairs[i].c.name() < pairs[j].c.name()
	})
	used := map[*column]string{}
	for _, p := range pairs {
		a := pl.fields[p.f]
		if a.col != nil || used[p.c.col] != "" || p.c.via != nil && used[p.c.via.from] != "" {
			continue
		}
		a.col, a.via, a.score = p.c.col, p.c.via, p.c.score
		used[p.c.col] = a.def.name
		if p.c.via != nil {
			used[p.c.via.from] = a.def.name
		}
	}
	pl.lineRefs()
	// a sales line's own columns are preferred; the header is joined only
	// when a field needs it
	if pl.join != nil && !pl.usesHeader() {
		pl.join = nil
	}

	tn, twhy := tableMatch(t.words, e.tableHint, e.tableNeg)
	if pl.join != nil {
		hn, hwhy := tableMatch(pl.join.to.tab.words, e.tableHint, e.tableNeg)
		if 0.9*hn > tn {
			tn, twhy = 0.9*hn, hwhy+" (its header)"
		}
	}
	if twhy != "" {
		pl.why = append(pl.why, fmt.Sprintf("name %q", twhy))
	}
	var req, opt float64
	nreq, nopt := 0, 0
	for _, a := range pl.fields {
		if a.def.required {
			nreq++
			req += a.score
		} else {
			nopt++
			opt += a.score
		}
	}
	score := 0.35*tn + 0.5*req/float64(max(nreq, 1)) + 0.15*opt/float64(max(nopt, 1))
	if e.entity == erpsync.Products || e.entity == erpsync.Customers {
		n := referringTables(t)
		if n > 0 {
			score += 0.05 * float64(min(n, 3))
			pl.why = append(pl.why, fmt.Sprintf("its key is referred to by %d tables", n))
		}
	}
	if set(t.words)["log"] {
		score -= 0.5
	}
	pl.score = score
	if e.entity == erpsync.Stock {
		pl.sumStock = d.stockPerGodown(pl)
	}
	return pl
}

func (pl *placement) usesHeader() bool {
	if pl.join == nil {
		return false
	}
	h := pl.join.to.tab
	for _, a := range pl.fields {
		if a.col == nil {
			continue
		}
		if a.via == nil && a.col.tab == h || a.via != nil && a.via.from.tab == h {
			return true
		}
	}
	return false
}

// lookups are the candidates for a reference field read through a join
// to its master: a line that holds ItemMaster's row id (ItmId) gives the
// item's code (ItmCd) as its SKU.
func (d *discovery) lookups(pl *placement, f *fieldDef, pool []*column) []cand {
	m := d.placed[f.ref]
	if f.ref == "" || m == nil || m.base == pl.base || m.base.key == nil {
		return nil
	}
	s := m.refColumn()
	if s == nil || s == m.base.key {
		return nil
	}
	var out []cand
	for _, c := range pool {
		for _, x := range c.refs {
			if x.to != m.base.key {
				continue
			}
			cd := cand{col: s, via: x}
			n1, w1 := nameMatch(c.words, c.tab.words, f.hints, f.neg)
			n2, w2 := nameMatch(s.words, s.tab.words, f.hints, f.neg)
			n, why := n1, w1
			if n2 > n1 {
				n, why = n2, w2
			}
			if why != "" {
				cd.evidence = append(cd.evidence, fmt.Sprintf("name %q", why))
			}
			v, vwhy := valueFit(f, s)
			if vwhy != "" {
				cd.evidence = append(cd.evidence, vwhy+" in "+s.tab.t.Name)
			}
			cd.evidence = append(cd.evidence, fmt.Sprintf("%s holds keys of %s (%d/%d): its %s through a join", c, m.base.t.Name, x.hit, x.of, s.name))
			cd.score = wName*n + wValue*v + wType*typeFit(f.kind, s) + 0.3 - 0.05
			if c.tab != pl.base {
				cd.score -= 0.03
			}
			cd.score = math.Round(cd.score*1000) / 1000
			out = append(out, cd)
		}
	}
	return out
}

// refColumn is the master's column other tables' references resolve to:
// the SKU of products, the id of customers.
func (pl *placement) refColumn() *column {
	for _, a := range pl.fields {
		if a.def.key {
			return a.col
		}
	}
	return nil
}

// lineRefs: a receipt's reference that repeats on the lines of one
// document is joined with the line number, so each line is its own.
func (pl *placement) lineRefs() {
	if pl.def.entity != erpsync.Receipts {
		return
	}
	for _, a := range pl.fields {
		if a.def.name != "reference" || a.col == nil || a.col.tab != pl.base || a.col.p.unique {
			continue
		}
		for _, c := range pl.base.cols {
			if c != a.col && c.pk && c != pl.base.company && lineLike(c) {
				a.line = c
			}
		}
	}
}

// lineLike is a line number: small whole numbers, named so.
func lineLike(c *column) bool {
	ws := set(c.words)
	return (ws["line"] || ws["serial"]) && c.p.n > 0 && c.p.num == c.p.n && c.p.whole == c.p.num && c.p.maxNum < 10000
}

func referringTables(t *table) int {
	seen := map[*table]bool{}
	for _, f := range t.referredBy {
		if f.to == t.key {
			seen[f.from.tab] = true
		}
	}
	return len(seen)
}

func sortCands(cs []cand) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return cs[i].col.String() < cs[j].col.String()
	})
}

// header is the table a detail table's rows belong to: one its non-unique
// column refers to, which is not a master (products, customers).
func (d *discovery) header(t *table) *fk {
	var best *fk
	for _, c := range t.cols {
		if c.p.unique {
			continue
		}
		for _, f := range c.refs {
			if d.isMaster(f.to.tab) || f.to != f.to.tab.key || junk(f.to.tab) || !headerOf(f) {
				continue
			}
			if best == nil || f.hit*best.of > best.hit*f.of || f.hit*best.of == best.hit*f.of && f.to.pk && !best.to.pk {
				best = f
			}
		}
	}
	return best
}

// headerOf says a reference is a detail line's to its document: the
// column is part of the line table's key (OrdId of (OrdId, SrNo)), or the
// two tables are named alike (SalesOrdDtl, SalesOrdHdr).
func headerOf(f *fk) bool {
	if f.from.pk {
		return true
	}
	generic := map[string]bool{"detail": true, "header": true, "master": true, "main": true, "line": true, "transaction": true, "register": true}
	h := set(f.to.tab.words)
	for _, w := range f.from.tab.words {
		if !generic[w] && h[w] {
			return true
		}
	}
	return false
}

func (d *discovery) isMaster(t *table) bool {
	for _, e := range []erpsync.Entity{erpsync.Products, erpsync.Customers} {
		if pl := d.placed[e]; pl != nil && pl.base == t {
			return true
		}
	}
	return false
}

// columnsFor lists the columns a placement may map: its table's and its
// header's, less the company and change columns, which filter rather than
// say anything.
func (d *discovery) columnsFor(pl *placement) []*column {
	var out []*column
	add := func(t *table) {
		for _, c := range t.cols {
			if c == t.company || c == t.changed || c == t.companyName || c == t.flag {
				continue
			}
			out = append(out, c)
		}
	}
	add(pl.base)
	if pl.join != nil {
		add(pl.join.to.tab)
	}
	return out
}

// stockPerGodown says the stock table holds several rows per SKU (one per
// godown or batch), so the query must add them up.
func (d *discovery) stockPerGodown(pl *placement) bool {
	for _, a := range pl.fields {
		if a.def.name == "sku" && a.col != nil {
			if a.via != nil {
				return !a.via.from.p.unique
			}
			return !a.col.p.unique && !d.isMaster(pl.base)
		}
	}
	return false
}

// openFromSales takes open orders from the sales lines whose status says
// open, when the sales lines carry a status.
func (d *discovery) openFromSales() *placement {
	s := d.placed[erpsync.Sales]
	if s == nil {
		return nil
	}
	var status *assigned
	for _, a := range s.fields {
		if a.def.name == "status" && a.col != nil {
			status = a
		}
	}
	if status == nil {
		return nil
	}
	var open []string
	for _, vc := range status.col.p.top {
		if statusWord(vc.v) == "committed" {
			open = append(open, strings.ToUpper(vc.v))
		}
	}
	if len(open) == 0 {
		return nil
	}
	sort.Strings(open)
	e := defOf(erpsync.OpenOrders)
	pl := &placement{def: e, base: s.base, join: s.join, score: s.score, statusOpen: dedupe(open)}
	for _, a := range s.fields {
		cp := *a
		cp.def = fieldOf(e, a.def.name)
		cp.review = append([]string(nil), a.review...)
		pl.fields = append(pl.fields, &cp)
	}
	pl.derived = fmt.Sprintf("the sales lines whose %s is %s", status.col.name, strings.Join(open, " or "))
	pl.why = append(pl.why, pl.derived)
	return pl
}

func fieldOf(e *entityDef, name string) *fieldDef {
	for i := range e.fields {
		if e.fields[i].name == name {
			return &e.fields[i]
		}
	}
	return nil
}

func dedupe(ss []string) []string {
	var out []string
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// review notes, on every placed field, why its choice is not certain: a
// close second, a weak match, names that collide in case.
func (d *discovery) review() {
	for _, e := range erpsync.Entities {
		pl := d.placed[e]
		if pl == nil {
			continue
		}
		used := map[*column]string{}
		for _, a := range pl.fields {
			if a.col != nil {
				used[a.col] = a.def.name
			}
		}
		for _, a := range pl.fields {
			if a.col == nil || a.suggested {
				continue
			}
			var second *cand
			for i := range a.cands {
				c := &a.cands[i]
				if pl.sameValues(a.col, c.col) {
					continue // the other side of the join: the same value, not another choice
				}
				if c.col != a.col && (used[c.col] == "" || used[c.col] == a.def.name) {
					second = c
					break
				}
			}
			if second != nil && a.score-second.score < clearAhead {
				a.review = append(a.review, fmt.Sprintf("close call: %s %.2f against %s %.2f (%s)",
					a.col.name, a.score, second.name(), second.score, strings.Join(second.evidence, "; ")))
			} else if a.score < weak {
				a.review = append(a.review, fmt.Sprintf("weak match (%.2f): %s", a.score, strings.Join(a.evidenceFor(), "; ")))
			}
			if (a.def.kind == kindName || a.def.kind == kindCode) && a.col.tab == pl.base && len(a.col.p.collisions) > 0 &&
				(a.def.key || a.def.kind == kindName) {
				a.review = append(a.review, fmt.Sprintf("the same %s in several casings: %s", a.def.name, strings.Join(firstN(a.col.p.collisions, 3), ", ")))
			}
		}
		if len(pl.ranked) > 1 && pl.derived == "" {
			r := pl.ranked
			other := r[0]
			if other.t == pl.base {
				other = r[1]
			}
			if len(other.missing) == 0 && pl.score-other.score < clearAhead {
				if k := pl.keyField(); k != nil {
					k.review = append(k.review, fmt.Sprintf("close call between tables: %s %.2f against %s %.2f",
						pl.base.t.Name, pl.score, other.t.t.Name, other.score))
				}
			}
		}
	}
}

// sameValues says two columns are the two sides of the placement's join.
func (pl *placement) sameValues(a, b *column) bool {
	j := pl.join
	return j != nil && (a == j.from && b == j.to || a == j.to && b == j.from)
}

// keyField is the field a note about the whole entity is written on: the
// first required one.
func (pl *placement) keyField() *assigned {
	for _, a := range pl.fields {
		if a.def.required && a.col != nil {
			return a
		}
	}
	return nil
}

func (a *assigned) evidenceFor() []string {
	for _, c := range a.cands {
		if c.col == a.col {
			return c.evidence
		}
	}
	return nil
}

func firstN(ss []string, n int) []string {
	if len(ss) > n {
		return append(ss[:n:n], fmt.Sprintf("and %d more", len(ss)-n))
	}
	return ss
}
