package erpconnect

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpsync"
)

// Catalog is what discovery needs of a source: *erp.Source is one.
type Catalog interface {
	Dialect() erp.Dialect
	Tables(ctx context.Context) ([]erp.Table, error)
	Sample(ctx context.Context, t erp.Table, n int) ([]string, [][]any, error)
	QuoteIdent(name string) string
	Query(ctx context.Context, q string, since *string, limit int, each func(cols []string, vals []any) error) error
}

// Options change how Discover reads a source and what the draft says.
type Options struct {
	// DSN is written as the draft's source; default ${ERP_DSN}, so that no
	// password sits in the file.
	DSN string
	// SampleRows is how many rows of each table are read to judge their
	// values; default 500.
	SampleRows int
	// Suggest, when set, is asked to name the field of a column discovery
	// could not place. It gets "Table.Column" and at most five of the
	// column's sampled values, every digit masked as 9. What it names is
	// written with suggested: true and a review note, never silently.
	Suggest func(ctx context.Context, column string, samples []string) (field string, ok bool)
}

// ErrNothingToMap says the source holds nothing a draft could map: no
// tables, or none that looks like any of Munshi's entities.
var ErrNothingToMap = errors.New("erpconnect: nothing to map")

const defaultSampleRows = 500

// DefaultDSN is what a draft names as its source unless told otherwise.
const DefaultDSN = "${ERP_DSN}"

// table is one table of the source, read and profiled.
type table struct {
	t       erp.Table
	words   []string
	cols    []*column
	rows    int64 // the catalog's count, or what the sample saw when it has none
	sampled int
	sample  [][]any // rows as sampled, in the order of cols
	company *column // the tenant column, when the source keeps several companies
	// companyName: no company column, but one naming the company
	// (companyNameValue, as the company master writes it)
	companyName      *column
	companyNameValue string
	// link: no company at all, but another table lists this one's keys
	// per company (PartyBal for PartyMaster)
	link    *fk
	flag    *column // a yes/no column: cancelled, or active
	changed *column // the column that says when a row last changed
	// key is the column whose values identify a row: the primary key when
	// it is one column, else a column unique in the sample.
	key *column
	// referredBy are the columns of other tables whose values are keys of
	// this one.
	referredBy []*fk
}

// column is one column with its sampled values and what they say.
type column struct {
	tab   *table
	name  string
	typ   string
	pk    bool
	words []string
	vals  []any
	p     profile
	// keys are the column's distinct values in the whole sample, before it
	// is narrowed to one company: what other tables' references are
	// checked against.
	keys []string

	keyish bool  // unique, so other tables may refer to it
	refs   []*fk // keys of other tables this column's values are
	// sumOf: this header column is the sum of a detail column per key;
	// sumsTo: this detail column sums to a header column.
	sumOf, sumsTo []*sumMatch
	// factorOf: this column times another is a third, row by row (rate ×
	// quantity = amount); product: this column is such a product.
	factorOf, product []string
}

// fk says a column's values are keys of another table's column.
type fk struct {
	from, to *column
	fold     bool // only when case is ignored
	hit, of  int  // distinct values found of those checked
}

// sumMatch says detail lines sum to a header figure.
type sumMatch struct {
	detail  []*column // one column, or an amount and its tax
	header  *column
	hit, of int
}

// detailText names the detail columns summed: SalesOrdDtl.Amt, or
// SalesOrdDtl.Amt + TaxAmt.
func (m *sumMatch) detailText() string {
	var names []string
	for _, c := range m.detail {
		names = append(names, c.name)
	}
	return m.detail[0].tab.t.Name + "." + strings.Join(names, " + ")
}

func (c *column) String() string { return c.tab.t.Name + "." + c.name }

// discovery is one run of Discover.
type discovery struct {
	src      Catalog
	o        Options
	tables   []*table
	company  *companyFilter
	placed   map[erpsync.Entity]*placement
	unplaced []*placement
	notes    []string // what the report says about the source as a whole
}

// companyFilter keeps one company's rows of a source that holds several.
type companyFilter struct {
	name   string // the column's name, as most tables spell it
	value  any    // the company kept
	rows   int64
	others []valueRows
	master *table // the company master, keyed by the company column
}

type valueRows struct {
	v    any
	rows int64
}

// read lists the tables and samples each.
func (d *discovery) read(ctx context.Context) error {
	ts, err := d.src.Tables(ctx)
	if err != nil {
		return fmt.Errorf("erpconnect: reading the catalog: %w", err)
	}
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].Schema != ts[j].Schema {
			return ts[i].Schema < ts[j].Schema
		}
		return ts[i].Name < ts[j].Name
	})
	for _, t := range ts {
		if len(t.Columns) == 0 {
			continue
		}
		tb := &table{t: t, words: words(t.Name), rows: t.Rows}
		names, rows, err := d.src.Sample(ctx, t, d.o.SampleRows)
		if err != nil {
			if err := d.soft(ctx, err, "sample "+t.Name+", left out"); err != nil {
				return err
			}
			continue
		}
		if len(rows) > d.o.SampleRows {
			rows = rows[:d.o.SampleRows]
		}
		tb.sampled = len(rows)
		if tb.rows < int64(tb.sampled) {
			tb.rows = int64(tb.sampled)
		}
		at := sampleIndex(names)
		for _, c := range t.Columns {
			col := &column{tab: tb, name: c.Name, typ: strings.ToLower(c.Type), pk: c.Key, words: words(c.Name)}
			if i, ok := at(c.Name); ok {
				col.vals = make([]any, len(rows))
				for r, row := range rows {
					if i < len(row) {
						col.vals[r] = row[i]
					}
				}
			}
			col.p = profileValues(col.vals)
			tb.cols = append(tb.cols, col)
		}
		tb.sample = make([][]any, len(rows))
		for r := range rows {
			tb.sample[r] = make([]any, len(tb.cols))
			for i, c := range tb.cols {
				if c.vals != nil {
					tb.sample[r][i] = c.vals[r]
				}
			}
		}
		d.tables = append(d.tables, tb)
	}
	return nil
}

// sampleIndex finds a catalog column among the sample's column names:
// exactly, else ignoring case.
func sampleIndex(names []string) func(string) (int, bool) {
	return func(n string) (int, bool) {
		for i, s := range names {
			if s == n {
				return i, true
			}
		}
		for i, s := range names {
			if strings.EqualFold(s, n) {
				return i, true
			}
		}
		return 0, false
	}
}

// ref is the table as the source's SQL names it.
func (d *discovery) ref(t *table) string {
	if t.t.Schema == "" {
		return d.src.QuoteIdent(t.t.Name)
	}
	return d.src.QuoteIdent(t.t.Schema) + "." + d.src.QuoteIdent(t.t.Name)
}

// literal writes a sampled value into SQL, or says it cannot safely be:
// numbers as they are, text quoted with its quotes doubled; text with a
// backslash or a control character is left out, since engines disagree on
// what those mean inside quotes.
func literal(v any) (string, bool) {
	switch x := v.(type) {
	case int64:
		return fmt.Sprint(x), true
	case string:
		if len(x) > 100 {
			return "", false
		}
		for _, r := range x {
			if r == '\\' || r < 0x20 || r == 0x7f {
				return "", false
			}
		}
		return "'" + strings.ReplaceAll(x, "'", "''") + "'", true
	}
	return "", false
}
