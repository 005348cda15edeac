package erpconnect

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Companies: the column that tells one company's rows from another's (in
// any casing), the company the books are for, and the tables to keep to it.

// findCompany finds the column that says which company a row is of: one
// named so, or one with the same name in most tables, few values each.
// When the source keeps several companies, the draft keeps the one with
// the most rows. Tables that name the company instead of coding it
// (ItemMaster.Company = 'APPLE LIFESTYLE…') are found through the company
// master's names.
func (d *discovery) findCompany(ctx context.Context) error {
	byName := map[string][]*column{}
	for _, t := range d.tables {
		if junk(t) {
			continue
		}
		for _, c := range t.cols {
			if c.p.n == 0 || c.p.distinct > 5 || (c.p.unique && c.p.n > 1) || t.key == c {
				continue
			}
			if c.p.share(c.p.date) > 0 || c.p.twoDP > 0 || c.p.moreDP > 0 || c.p.share(c.p.code) < 1 {
				continue
			}
			byName[strings.ToLower(c.name)] = append(byName[strings.ToLower(c.name)], c)
		}
	}
	best := ""
	for _, n := range sortedKeys(byName) {
		cs := byName[n]
		ws := set(cs[0].words)
		named := ws["company"] || ws["tenant"] || ws["branch"]
		many := len(cs) >= 3 && 2*len(cs) >= len(d.tables)
		if !named && !many {
			continue
		}
		if best == "" || len(cs) > len(byName[best]) {
			best = n
		}
	}
	if best == "" {
		return nil
	}
	counts := map[string]*valueRows{}
	for _, c := range byName[best] {
		c.tab.company = c
		got, err := d.countValues(ctx, c)
		if err != nil {
			return err
		}
		for _, vr := range got {
			k, _ := text(vr.v)
			if counts[k] == nil {
				counts[k] = &valueRows{v: vr.v}
			}
			counts[k].rows += vr.rows
		}
	}
	f := &companyFilter{name: byName[best][0].name}
	var all []valueRows
	for _, k := range sortedKeys(counts) {
		all = append(all, *counts[k])
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].rows > all[j].rows })
	if len(all) == 0 {
		return nil
	}
	f.value, f.rows, f.others = all[0].v, all[0].rows, all[1:]
	if _, ok := literal(f.value); !ok {
		for _, c := range byName[best] {
			c.tab.company = nil
		}
		d.notes = append(d.notes, fmt.Sprintf("%s looks like a company column but its values cannot be written into a query; no company filter", f.name))
		return nil
	}
	d.company = f
	d.companyNames()
	return nil
}

// companyNames finds the company master (the table keyed by the company
// column) and, in the tables without the company column, a column that
// holds the company's name as the master writes it, whatever its case.
func (d *discovery) companyNames() {
	var master *table
	for _, t := range d.tables {
		if t.key != nil && strings.EqualFold(t.key.name, d.company.name) && !junk(t) {
			master = t
			break
		}
	}
	if master == nil {
		return
	}
	d.company.master = master
	kept, _ := text(d.company.value)
	for _, nc := range master.cols {
		if !set(nc.words)["name"] || nc.p.text == 0 {
			continue
		}
		names := map[string]bool{}
		var keptName string
		for r, row := range master.sample {
			k, _ := text(row[indexOf(master, master.key)])
			v, _ := text(master.sample[r][indexOf(master, nc)])
			v = strings.TrimSpace(v)
			names[strings.ToUpper(v)] = true
			if k == kept {
				keptName = v
			}
		}
		if keptName == "" {
			continue
		}
		for _, t := range d.tables {
			if t == master || t.company != nil || junk(t) {
				continue
			}
			for _, c := range t.cols {
				if c.p.text == 0 || c.p.folded > 2*len(names) || t.companyName != nil {
					continue
				}
				all := true
				for _, v := range distinctText(c) {
					if !names[strings.ToUpper(v)] {
						all = false
						break
					}
				}
				if all {
					t.companyName, t.companyNameValue = c, keptName
				}
			}
		}
	}
}

// keepCompany narrows a table's sample to the company kept, so that keys
// unique within a company (order numbers restart in each) read as keys.
// A sample that holds none of the company's rows is kept whole.
func (d *discovery) keepCompany(t *table) {
	if d.company == nil {
		return
	}
	var at int
	var want string
	fold := false
	switch {
	case t.company != nil:
		at = indexOf(t, t.company)
		want, _ = text(d.company.value)
	case t.companyName != nil:
		at, want, fold = indexOf(t, t.companyName), strings.ToUpper(t.companyNameValue), true
	default:
		return
	}
	var keep [][]any
	for _, row := range t.sample {
		v, _ := text(row[at])
		v = strings.TrimSpace(v)
		if fold {
			v = strings.ToUpper(v)
		}
		if v == want {
			keep = append(keep, row)
		}
	}
	if len(keep) < 10 || len(keep) == len(t.sample) {
		return
	}
	t.sample = keep
	for i, c := range t.cols {
		c.vals = make([]any, len(keep))
		for r, row := range keep {
			c.vals[r] = row[i]
		}
		c.p = profileValues(c.vals)
	}
}
