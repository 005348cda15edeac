package erpconnect

import (
	"context"
	"strings"
	"unicode"
)

// maxSuggestCalls bounds how often one discovery asks the model.
const maxSuggestCalls = 40

// suggest asks Options.Suggest about the columns of placed tables that no
// field took, for the fields still empty; a field it names is taken only
// when the column's values do not contradict it, and is marked suggested.
func (d *discovery) suggest(ctx context.Context) {
	if d.o.Suggest == nil {
		return
	}
	calls := 0
	for _, e := range entityDefsInRunOrder() {
		pl := d.placed[e.entity]
		if pl == nil || pl.derived != "" {
			continue
		}
		open := map[string]*assigned{}
		used := map[*column]bool{}
		for _, a := range pl.fields {
			if a.col == nil {
				open[a.def.name] = a
			} else {
				used[a.col] = true
			}
		}
		if len(open) == 0 {
			continue
		}
		for _, c := range d.columnsFor(pl) {
			if used[c] || c.p.n == 0 || c == c.tab.key || len(open) == 0 {
				continue
			}
			if calls == maxSuggestCalls || ctx.Err() != nil {
				return
			}
			calls++
			field, ok := d.o.Suggest(ctx, c.String(), maskedSamples(c, 5))
			a := open[strings.TrimSpace(field)]
			if !ok || a == nil {
				continue
			}
			if v, _ := valueFit(a.def, c); v < minValues {
				d.notes = append(d.notes, "the model named "+c.String()+" as "+string(e.entity)+"."+a.def.name+", but its values do not fit")
				continue
			}
			a.col, a.suggested = c, true
			used[c] = true
			delete(open, a.def.name)
		}
	}
}

// FieldNames are the names of the fields discovery places, each once, in
// the order of the entities: the answers Options.Suggest may give. A name
// is taken only for a column of a table placed as an entity that has the
// field, and only when that field is still open.
func FieldNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range entityDefs {
		for _, f := range e.fields {
			if !seen[f.name] {
				seen[f.name] = true
				out = append(out, f.name)
			}
		}
	}
	return out
}

func entityDefsInRunOrder() []*entityDef {
	var out []*entityDef
	for i := range entityDefs {
		out = append(out, &entityDefs[i])
	}
	return out
}

// maskedSamples is up to n distinct sampled values of c with every digit
// written as 9: the model sees the shape of a phone or an amount, never one.
func maskedSamples(c *column, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range c.vals {
		s, _ := text(v)
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		m := mask(s)
		if seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, m)
		if len(out) == n {
			break
		}
	}
	return out
}

func mask(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '9'
		}
		return r
	}, s)
}
