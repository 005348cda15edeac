package erpconnect

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/munshi/munshi/internal/erpsync"
)

// Draft is a mapping discovery wrote, with what it chose and why.
type Draft struct {
	Dialect  string
	Tables   int              // tables read
	Mapping  *erpsync.Mapping // runs as it stands; uncertain fields carry review notes
	Entities []EntityChoice   // placed, in run order
	Missing  []MissingEntity  // left out of the mapping, in run order
	Notes    []string         // about the source as a whole
	// Columns are what the values say of columns beyond their names:
	// header totals, line amounts, joins that need UPPER(), names in
	// several casings. Sorted by column.
	Columns []ColumnEvidence
}

// ColumnEvidence is what discovery learnt of one column from its values.
type ColumnEvidence struct {
	Column   string // Table.Column
	Evidence []string
}

// EntityChoice is where an entity was placed.
type EntityChoice struct {
	Entity   erpsync.Entity
	Table    string // the table whose rows are the entity's
	Header   string // the table joined for some fields, or ""
	Score    float64
	Evidence []string
	Tables   []TableCandidate // the tables considered, best first (at most 3)
	Fields   []FieldChoice    // in the entity's field order
	Since    string           // the change-tracking column, when read incrementally
	Filters  []string         // what the query keeps, in words
}

// TableCandidate is a table considered for an entity.
type TableCandidate struct {
	Table   string
	Score   float64
	Missing []string // required fields it has no column for
}

// FieldChoice is a field and the columns considered for it.
type FieldChoice struct {
	Field      string
	Required   bool
	Column     string // Table.Column chosen; "" when not placed
	Score      float64
	Review     string      // why the choice needs a person's look, "" when clear
	Suggested  bool        // named by Options.Suggest
	Candidates []Candidate // best first, at most 3
}

// Candidate is a column considered for a field, with its evidence
// ("values sum to SalesOrderHdr.AMT for 48/50 orders", "93% phone-like").
type Candidate struct {
	Column   string // Table.Column
	Score    float64
	Evidence []string
}

// MissingEntity is an entity the draft leaves out, and why.
type MissingEntity struct {
	Entity  erpsync.Entity
	Reason  string
	Nearest []TableCandidate
}

// Discover reads src's catalog and a sample of every table, and drafts a
// sync mapping: for each Munshi entity it can place, the table and columns
// that hold it, a query in src's dialect, and review notes on every choice
// that is not clearly ahead. The same database gives the same draft. When
// the source has no tables, or none that looks like any entity, the error
// is ErrNothingToMap (with the draft, for its report, in the second case).
func Discover(ctx context.Context, src Catalog, o Options) (*Draft, error) {
	if o.DSN == "" {
		o.DSN = DefaultDSN
	}
	if o.SampleRows <= 0 {
		o.SampleRows = defaultSampleRows
	}
	d := &discovery{src: src, o: o}
	if err := d.read(ctx); err != nil {
		return nil, err
	}
	if len(d.tables) == 0 {
		return nil, fmt.Errorf("%w: the source has no tables", ErrNothingToMap)
	}
	if err := d.relate(ctx); err != nil {
		return nil, err
	}
	d.place()
	d.review()
	d.suggest(ctx)
	if err := d.readValues(ctx); err != nil {
		return nil, err
	}
	draft := d.draft()
	if len(draft.Entities) == 0 {
		var names []string
		for _, t := range d.tables {
			names = append(names, t.t.Name)
		}
		return draft, fmt.Errorf("%w: none of the %d tables (%s) looks like products, customers, sales or any other entity",
			ErrNothingToMap, len(d.tables), strings.Join(firstN(names, 8), ", "))
	}
	return draft, nil
}

func (d *discovery) draft() *Draft {
	dr := &Draft{Dialect: string(d.src.Dialect()), Tables: len(d.tables), Mapping: d.build(), Notes: d.notes}
	if d.company != nil {
		lit, _ := literal(d.company.value)
		dr.Notes = append(dr.Notes, "company: "+d.companyNote(d.company.name+" = "+lit, true))
	}
	for _, e := range erpsync.Entities {
		pl := d.placed[e]
		if pl == nil {
			continue
		}
		ec := EntityChoice{Entity: e, Table: pl.base.t.Name, Score: round(pl.score), Evidence: pl.why}
		if pl.join != nil {
			ec.Header = pl.join.to.tab.t.Name
		}
		ec.Tables = tableCands(pl.ranked)
		spec := dr.Mapping.Entities[e]
		if spec.Since != nil {
			ec.Since = pl.changeColumn().String()
		}
		if t := d.companyText(pl); t != "" {
			ec.Filters = append(ec.Filters, t)
		}
		if pl.derived != "" {
			ec.Filters = append(ec.Filters, pl.derived)
		}
		for _, a := range pl.fields {
			fc := FieldChoice{Field: a.def.name, Required: a.def.required, Suggested: a.suggested}
			if a.col != nil {
				fc.Column = cand{col: a.col, via: a.via}.name()
				fc.Score = round(a.score)
				fc.Review = spec.Fields[a.def.name].Review
			}
			for i, c := range a.cands {
				if i == 3 {
					break
				}
				fc.Candidates = append(fc.Candidates, Candidate{Column: c.name(), Score: round(c.score), Evidence: c.evidence})
			}
			ec.Fields = append(ec.Fields, fc)
		}
		dr.Entities = append(dr.Entities, ec)
	}
	dr.Columns = d.columnEvidence()
	for _, e := range erpsync.Entities {
		for _, pl := range d.unplaced {
			if pl.def.entity != e {
				continue
			}
			m := MissingEntity{Entity: e, Nearest: tableCands(pl.ranked)}
			m.Reason = missingReason(pl)
			dr.Missing = append(dr.Missing, m)
		}
	}
	return dr
}

// columnEvidence lists, column by column, what their values showed.
func (d *discovery) columnEvidence() []ColumnEvidence {
	var out []ColumnEvidence
	for _, t := range d.tables {
		if junk(t) {
			continue
		}
		for _, c := range t.cols {
			var ev []string
			for _, m := range c.sumOf {
				ev = append(ev, fmt.Sprintf("a header total: the sum of %s for %d/%d %s", m.detailText(), m.hit, m.of, headerNoun(t)))
			}
			for _, m := range c.sumsTo {
				with := ""
				if len(m.detail) > 1 {
					with = " (" + m.detailText() + ")"
				}
				ev = append(ev, fmt.Sprintf("a line amount: values sum to %s%s for %d/%d %s", m.header, with, m.hit, m.of, headerNoun(m.header.tab)))
			}
			ev = append(ev, c.product...)
			for _, f := range c.refs {
				if f.fold {
					ev = append(ev, fmt.Sprintf("matches %s only when case is ignored: a join needs UPPER() on both sides", f.to))
				}
			}
			if len(c.p.collisions) > 0 && c.p.text > 0 && c.p.folded > few/2 {
				ev = append(ev, "the same value in several casings: "+strings.Join(firstN(c.p.collisions, 3), ", "))
			}
			if c == t.company {
				ev = append(ev, "the company column")
			}
			if c == t.companyName {
				ev = append(ev, "names the company")
			}
			if c == t.changed {
				ev = append(ev, "says when a row last changed")
			}
			if c.p.n > 0 && c.p.share(c.p.phone) >= 0.8 && !d.mapped(c) {
				ev = append(ev, fmt.Sprintf("%s phone-like, but %s is not a customer table", pct(c.p.share(c.p.phone)), t.t.Name))
			}
			if len(ev) > 0 {
				out = append(out, ColumnEvidence{Column: c.String(), Evidence: ev})
			}
		}
	}
	return out
}

// mapped says some placed field reads c.
func (d *discovery) mapped(c *column) bool {
	for _, pl := range d.placed {
		for _, a := range pl.fields {
			if a.col == c || a.via != nil && a.via.from == c {
				return true
			}
		}
	}
	return false
}

func missingReason(pl *placement) string {
	var req []string
	for _, f := range pl.def.fields {
		if f.required {
			req = append(req, f.name)
		}
	}
	if pl.def.entity == erpsync.OpenOrders && len(pl.ranked) == 0 {
		return "no table is named for open or pending orders, and the sales lines have no status that says which are open"
	}
	if len(pl.ranked) == 0 {
		return "no table has rows"
	}
	best := pl.ranked[0]
	if len(best.missing) > 0 {
		return fmt.Sprintf("no table has columns for all of %s; nearest %s lacks %s",
			strings.Join(req, ", "), best.t.t.Name, strings.Join(best.missing, ", "))
	}
	return fmt.Sprintf("no table scores high enough (best %s %.2f)", best.t.t.Name, best.score)
}

func tableCands(r []tableCand) []TableCandidate {
	var out []TableCandidate
	for _, t := range r {
		if t.score <= 0 {
			continue
		}
		out = append(out, TableCandidate{Table: t.t.t.Name, Score: round(t.score), Missing: t.missing})
	}
	return out
}

func round(x float64) float64 {
	return float64(int64(x*1000+0.5*sign(x))) / 1000
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// Entity returns the choice for entity e, or nil when it was not placed.
func (dr *Draft) Entity(e erpsync.Entity) *EntityChoice {
	for i := range dr.Entities {
		if dr.Entities[i].Entity == e {
			return &dr.Entities[i]
		}
	}
	return nil
}

// Field returns the choice for one field of the entity, or nil.
func (ec *EntityChoice) Field(name string) *FieldChoice {
	if ec == nil {
		return nil
	}
	for i := range ec.Fields {
		if ec.Fields[i].Field == name {
			return &ec.Fields[i]
		}
	}
	return nil
}

// Report writes what was placed where and why, what is uncertain and what
// is missing, for the person who reviews the draft.
func (dr *Draft) Report(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Draft mapping of a %s source: %d tables read, %d entities placed, %d left out.\n",
		dr.Dialect, dr.Tables, len(dr.Entities), len(dr.Missing))
	for _, n := range dr.Notes {
		fmt.Fprintf(&b, "  %s\n", n)
	}
	uncertain := 0
	for _, ec := range dr.Entities {
		fmt.Fprintf(&b, "\n%s ← %s", ec.Entity, ec.Table)
		if ec.Header != "" {
			fmt.Fprintf(&b, " joined to %s", ec.Header)
		}
		fmt.Fprintf(&b, " (%.2f", ec.Score)
		if len(ec.Evidence) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(ec.Evidence, "; "))
		}
		b.WriteString(")\n")
		for _, t := range ec.Tables {
			if t.Table != ec.Table {
				fmt.Fprintf(&b, "  also considered %s (%.2f%s)\n", t.Table, t.Score, missingText(t.Missing))
			}
		}
		for _, f := range ec.Filters {
			fmt.Fprintf(&b, "  keeps %s\n", f)
		}
		if ec.Since != "" {
			fmt.Fprintf(&b, "  incremental on %s\n", ec.Since)
		}
		for _, f := range ec.Fields {
			mark := " "
			if f.Review != "" {
				mark = "?"
				uncertain++
			}
			if f.Column == "" {
				if f.Required {
					mark = "!"
				}
				fmt.Fprintf(&b, "  %s %-13s —\n", mark, f.Field)
				continue
			}
			var ev []string
			for _, c := range f.Candidates {
				if c.Column == f.Column {
					ev = c.Evidence
				}
			}
			fmt.Fprintf(&b, "  %s %-13s %-28s %.2f  %s\n", mark, f.Field, f.Column, f.Score, strings.Join(ev, "; "))
			if f.Suggested {
				fmt.Fprintf(&b, "      suggested by the model\n")
			}
			if f.Review != "" {
				fmt.Fprintf(&b, "      review: %s\n", f.Review)
				for _, c := range f.Candidates {
					if c.Column != f.Column {
						fmt.Fprintf(&b, "      or %s %.2f: %s\n", c.Column, c.Score, strings.Join(c.Evidence, "; "))
					}
				}
			}
		}
	}
	if len(dr.Columns) > 0 {
		b.WriteString("\nWhat the values say:\n")
		for _, c := range dr.Columns {
			fmt.Fprintf(&b, "  %s: %s\n", c.Column, strings.Join(c.Evidence, "; "))
		}
	}
	if len(dr.Missing) > 0 {
		b.WriteString("\nLeft out:\n")
		for _, m := range dr.Missing {
			fmt.Fprintf(&b, "  %s: %s\n", m.Entity, m.Reason)
		}
	}
	fmt.Fprintf(&b, "\n%d fields need review (marked ?).\n", uncertain)
	_, err := io.WriteString(w, b.String())
	return err
}

func missingText(m []string) string {
	if len(m) == 0 {
		return ""
	}
	return ", lacks " + strings.Join(m, ", ")
}

// YAML is the draft mapping as a file, as erpsync writes one.
func (dr *Draft) YAML() ([]byte, error) {
	b, err := dr.Mapping.Marshal()
	if err != nil {
		return nil, fmt.Errorf("erpconnect: writing the mapping: %w", err)
	}
	return b, nil
}
