package erpconnect

import (
	"context"
	"fmt"
	"strings"
)

// relate finds what the tables say about each other: the company column
// and the company kept, keys, change-tracking columns, which columns hold
// another table's keys and which detail figures add up to a header's.
func (d *discovery) relate(ctx context.Context) error {
	for _, t := range d.tables {
		findKey(t)
		for _, c := range t.cols {
			c.keys = distinctText(c)
		}
	}
	if err := d.findCompany(ctx); err != nil {
		return err
	}
	for _, t := range d.tables {
		d.keepCompany(t)
		findKey(t)
		t.changed = changeColumn(t)
		t.flag = flagColumn(t)
	}
	for _, a := range d.tables {
		for _, c := range a.cols {
			if err := d.findRefs(ctx, c); err != nil {
				return err
			}
		}
	}
	for _, t := range d.tables {
		findProducts(t)
	}
	for _, t := range d.tables {
		for _, c := range t.cols {
			for _, f := range c.refs {
				if !c.p.unique && f.to == f.to.tab.key {
					if err := d.sumLines(ctx, f); err != nil {
						return err
					}
				}
			}
		}
	}
	d.findLinks()
	return nil
}

// soft notes a failed query that only gathers evidence (a count, a sum, a
// look-up) and lets discovery go on without it; a cancelled context still
// ends discovery.
func (d *discovery) soft(ctx context.Context, err error, what string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("erpconnect: %w", ctx.Err())
	}
	d.notes = append(d.notes, fmt.Sprintf("could not %s: %v", what, err))
	return nil
}

// findKey picks the column that identifies a table's rows: the primary
// key when it is one column, else the best unique code-like column (a
// part of a composite key may be one within the company kept).
func findKey(t *table) {
	var pks []*column
	for _, c := range t.cols {
		if c.pk {
			pks = append(pks, c)
		}
	}
	for _, c := range t.cols {
		c.keyish = c.p.unique && c.p.n >= 1 && c != t.company && c.p.share(c.p.code) >= 0.9 && c.p.twoDP == 0 && c.p.moreDP == 0 && c.p.date == 0
	}
	t.key = nil
	if len(pks) == 1 && pks[0].keyish {
		t.key = pks[0]
		return
	}
	var best *column
	bestScore := -1.0
	for _, c := range t.cols {
		if !c.keyish {
			continue
		}
		s, _ := nameMatch(c.words, nil, hints("code", 1.0, "id", 0.9, "number", 0.8), nil)
		if c.pk {
			s += 0.5
		}
		if s > bestScore {
			best, bestScore = c, s
		}
	}
	t.key = best
}

// junk says a table is not the business's data: a log, a backup, a
// temporary upload.
func junk(t *table) bool { return set(t.words)["log"] }

// changeColumn is the column that says when a row last changed, if the
// table has one: ModifiedOn, UpdatedAt, LastModified, EditDate…
func changeColumn(t *table) *column {
	for _, c := range t.cols {
		if !set(c.words)["modified"] {
			continue
		}
		dated := strings.Contains(c.typ, "date") || strings.Contains(c.typ, "time")
		if c.p.n > 0 && c.p.share(c.p.date) >= 0.9 || c.p.n == 0 && dated {
			return c
		}
	}
	return nil
}

// flagColumn is a yes/no column saying a row is cancelled (CancYN) or
// active (ActiveYN), which the entity's query filters on.
func flagColumn(t *table) *column {
	for _, c := range t.cols {
		ws := set(c.words)
		if !ws["cancelled"] && !ws["active"] {
			continue
		}
		if c.p.n == 0 || c.p.distinct > 2 {
			continue
		}
		ok := true
		for _, v := range distinctText(c) {
			if flagValue(v) == 0 {
				ok = false
			}
		}
		if ok {
			return c
		}
	}
	return nil
}

// flagValue reads a yes/no value: 1 yes, -1 no, 0 neither.
func flagValue(s string) int {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "Y", "YES", "T", "TRUE", "1":
		return 1
	case "N", "NO", "F", "FALSE", "0":
		return -1
	}
	return 0
}
