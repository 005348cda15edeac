package erpconnect

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/erpsync"
)

// The SELECT a draft entity runs: its tables joined through the links
// found, each column under the name the mapping gives it, and the flag
// that filters its rows, in the source's own quoting.

// selected is one column of an entity's query.
type selected struct {
	expr string // t."Col", SUM(t."Col"), a CASE…
	out  string // the name the query returns it as
	agg  bool
	bare bool // expr is the column itself, returned under its own name
}

// query builds an entity's SQL, column by column.
type query struct {
	d      *discovery
	pl     *placement
	sel    []selected
	taken  map[string]bool
	where  []string
	joins  []string
	lookup map[erpsync.Entity]string // alias of each master joined for a reference
}

func (qb *query) q(s string) string { return qb.d.src.QuoteIdent(s) }

// alias is the table alias a column is read through.
func (qb *query) alias(c *column, via *fk) string {
	switch {
	case via != nil:
		return qb.lookupAlias(via)
	case c.tab == qb.pl.base:
		return "t"
	}
	return "h"
}

func (qb *query) col(c *column, via *fk) string { return qb.alias(c, via) + "." + qb.q(c.name) }

// lookupAlias joins the master a reference is read from, once.
func (qb *query) lookupAlias(via *fk) string {
	m := via.to.tab
	var e erpsync.Entity = erpsync.Customers
	alias := "c"
	if pl := qb.d.placed[erpsync.Products]; pl != nil && pl.base == m {
		e, alias = erpsync.Products, "i"
	}
	if a, ok := qb.lookup[e]; ok {
		return a
	}
	qb.lookup[e] = alias
	from := qb.alias(via.from, nil)
	qb.joins = append(qb.joins, fmt.Sprintf("JOIN %s %s ON %s.%s = %s.%s", qb.d.ref(m), alias, alias, qb.q(via.to.name), from, qb.q(via.from.name)))
	return alias
}

func (qb *query) outName(c *column) string {
	n := c.name
	if qb.taken[strings.ToLower(n)] {
		n = c.tab.t.Name + "_" + c.name
	}
	for i := 2; qb.taken[strings.ToLower(n)]; i++ {
		n = fmt.Sprintf("%s_%s_%d", c.tab.t.Name, c.name, i)
	}
	qb.taken[strings.ToLower(n)] = true
	return n
}

func (qb *query) add(c *column, via *fk, agg bool) string {
	s := selected{expr: qb.col(c, via), out: qb.outName(c), agg: agg}
	s.bare = !agg && s.out == c.name
	if agg {
		s.expr = "SUM(" + s.expr + ")"
	}
	qb.sel = append(qb.sel, s)
	return s.out
}

func (qb *query) addExpr(expr, name string) string {
	out := name
	for i := 2; qb.taken[strings.ToLower(out)]; i++ {
		out = fmt.Sprintf("%s%d", name, i)
	}
	qb.taken[strings.ToLower(out)] = true
	qb.sel = append(qb.sel, selected{expr: expr, out: out})
	return out
}

// concat joins texts in the source's dialect.
func (d *discovery) concat(parts ...string) string {
	switch string(d.src.Dialect()) {
	case "mysql", "sqlserver":
		return "CONCAT(" + strings.Join(parts, ", ") + ")"
	}
	return strings.Join(parts, " || ")
}

func (qb *query) text() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	var group []string
	for i, s := range qb.sel {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.expr)
		if !s.bare {
			b.WriteString(" AS " + qb.q(s.out))
		}
		if !s.agg {
			group = append(group, s.expr)
		}
	}
	b.WriteString("\nFROM " + qb.d.ref(qb.pl.base) + " t")
	for _, j := range qb.joins {
		b.WriteString("\n" + j)
	}
	for i, w := range qb.where {
		if i == 0 {
			b.WriteString("\nWHERE " + w)
		} else {
			b.WriteString("\n  AND " + w)
		}
	}
	if qb.pl.sumStock {
		b.WriteString("\nGROUP BY " + strings.Join(group, ", "))
	}
	b.WriteString("\n")
	return b.String()
}

// flagWhere keeps the rows a yes/no column does not rule out: not
// cancelled, or active.
func (qb *query) flagWhere(f *column) string {
	c := qb.col(f, nil)
	active := set(f.words)["active"]
	if f.p.text == 0 {
		if active {
			return fmt.Sprintf("COALESCE(%s, 1) <> 0", c)
		}
		return fmt.Sprintf("COALESCE(%s, 0) = 0", c)
	}
	if active {
		return fmt.Sprintf("UPPER(COALESCE(%s, 'Y')) NOT IN ('N', 'NO', 'F', 'FALSE', '0')", c)
	}
	return fmt.Sprintf("UPPER(COALESCE(%s, 'N')) NOT IN ('Y', 'YES', 'T', 'TRUE', '1')", c)
}
