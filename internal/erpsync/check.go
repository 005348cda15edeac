package erpsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// DefaultCheckLimit is how many rows Check reads of an entity that is not
// a master.
const DefaultCheckLimit = 200

// checkShown is how many mapped rows Check prints of each entity.
const checkShown = 5

// Report is what Check found. Problems are what would make a run write
// nothing (a bad row, a missing column, a failing query): the command
// exits non-zero when there are any. Notes are the draft's review and
// suggested marks, to read before trusting the mapping.
type Report struct {
	Entities []EntityReport
	Problems int
	Notes    int
}

// OK reports whether every entity would sync.
func (r Report) OK() bool { return r.Problems == 0 }

// EntityReport is what Check found of one entity.
type EntityReport struct {
	Entity  Entity
	Rows    int  // rows read
	Limited bool // the read stopped at the limit
	Columns []string
	// Fields and Shown are the first mapped rows, by Munshi's fields.
	Fields   []string
	Shown    [][]string
	Problems []Problem // the first ones
	Count    int       // problems in all
	Notes    []string
	Err      error // the query failed
}

// Check runs each entity's query and checks what it returns as a run
// would, writing nothing: that every mapped column is in the result
// (whatever its case), that every value converts, keys are not repeated,
// stock and money are not negative, payment modes and statuses are known,
// and that what bills, sales, payments and the rest refer to is a customer
// or product of the books or of the mapping's own products and customers.
// The masters are read whole, since the others are checked against them;
// the others stop at CheckLimit rows. It prints five mapped rows of each
// entity, every problem by its row, and the draft's review and suggested
// notes.
func (s *Syncer) Check(ctx context.Context, w io.Writer) (Report, error) {
	return s.CheckLimit(ctx, w, DefaultCheckLimit)
}

// CheckLimit is Check reading at most limit rows of each entity that is
// not a master.
func (s *Syncer) CheckLimit(ctx context.Context, w io.Writer, limit int) (Report, error) {
	var rep Report
	k, err := s.known(ctx, Products, true)
	if err != nil {
		return rep, err
	}
	if _, err := fmt.Fprintf(w, "source: %s (%s), times in %s\n\n", s.sourceName(), s.Source.Dialect(), s.Mapping.Location()); err != nil {
		return rep, fmt.Errorf("erpsync: check: %w", err)
	}
	for _, e := range s.Mapping.Mapped() {
		spec := s.Mapping.Entities[e]
		n := limit
		if e == Products || e == Customers {
			n = 0
		}
		er := s.checkEntity(ctx, e, spec, k, n)
		rep.Entities = append(rep.Entities, er)
		rep.Problems += er.Count
		rep.Notes += len(er.Notes)
		if err := printEntity(w, er, n); err != nil {
			return rep, fmt.Errorf("erpsync: check: %w", err)
		}
	}
	if err := printVerdict(w, rep); err != nil {
		return rep, fmt.Errorf("erpsync: check: %w", err)
	}
	return rep, nil
}

func (s *Syncer) checkEntity(ctx context.Context, e Entity, spec *EntitySpec, k *known, limit int) EntityReport {
	er := EntityReport{Entity: e, Notes: notes(e, spec)}
	var since *string
	if spec.Incremental() {
		v := fullSince
		since = &v
	}
	rd := newReading(e, spec, s.Mapping.Location(), k, checkShown)
	err := s.Source.Query(ctx, spec.Query, since, limit, rd.add)
	if rd.layout != nil {
		er.Columns = rd.layout.cols
	}
	if err != nil && !errors.Is(err, errColumns) {
		er.Err = errors.New(s.redact(err.Error()))
		er.Count = 1
		er.Problems = []Problem{{Entity: e, Reason: "the query failed: " + clip(er.Err.Error(), 300)}}
		return er
	}
	_, ps := rd.finish()
	er.Rows = rd.rows
	er.Limited = limit > 0 && rd.rows >= limit
	er.Problems, er.Count = ps.list, ps.count
	for _, f := range entityDefs[e].fields {
		if spec.Maps(f.name) {
			er.Fields = append(er.Fields, f.name)
		}
	}
	for _, m := range rd.shown {
		line := make([]string, len(er.Fields))
		for i, f := range er.Fields {
			line[i] = m[f]
		}
		er.Shown = append(er.Shown, line)
	}
	// What the later entities may name: the masters' keys as read,
	// whether or not their rows are good.
	for _, key := range rd.keys {
		switch e {
		case Products:
			k.skus.add(key)
		case Customers:
			k.customers.add(key)
		}
	}
	return er
}

// notes are the draft's marks on the entity's fields.
func notes(e Entity, spec *EntitySpec) []string {
	var out []string
	for _, f := range entityDefs[e].fields {
		fs := spec.Fields[f.name]
		if fs == nil {
			continue
		}
		if fs.Suggested {
			out = append(out, fmt.Sprintf("%s: suggested (column %s was chosen by the model; confirm it)", f.name, fs.Column))
		}
		if r := strings.TrimSpace(fs.Review); r != "" {
			out = append(out, fmt.Sprintf("%s: review: %s", f.name, strings.Join(strings.Fields(r), " ")))
		}
	}
	return out
}

func printEntity(w io.Writer, er EntityReport, limit int) error {
	var b strings.Builder
	read := fmt.Sprintf("%d rows read", er.Rows)
	switch {
	case er.Err != nil:
		read = "query failed"
	case er.Limited:
		read += fmt.Sprintf(" (stopped at %d)", limit)
	}
	fmt.Fprintf(&b, "== %s: %s\n", er.Entity, read)
	if len(er.Columns) > 0 {
		fmt.Fprintf(&b, "columns: %s\n", strings.Join(er.Columns, ", "))
	}
	if len(er.Shown) > 0 {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  "+strings.Join(er.Fields, "\t"))
		for _, line := range er.Shown {
			cells := make([]string, len(line))
			for i, c := range line {
				cells[i] = clip(strings.ReplaceAll(c, "\t", " "), 40)
				if cells[i] == "" {
					cells[i] = "-"
				}
			}
			fmt.Fprintln(tw, "  "+strings.Join(cells, "\t"))
		}
		tw.Flush()
	}
	if er.Count > 0 {
		fmt.Fprintf(&b, "problems (%d):\n", er.Count)
		for _, p := range er.Problems {
			fmt.Fprintf(&b, "  %s\n", strings.TrimPrefix(p.String(), string(p.Entity)+": "))
		}
		if more := er.Count - len(er.Problems); more > 0 {
			fmt.Fprintf(&b, "  … and %d more\n", more)
		}
	}
	if len(er.Notes) > 0 {
		b.WriteString("notes:\n")
		for _, n := range er.Notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func printVerdict(w io.Writer, rep Report) error {
	var bad []string
	for _, er := range rep.Entities {
		if er.Count > 0 {
			bad = append(bad, string(er.Entity))
		}
	}
	var line string
	switch {
	case rep.Problems == 0 && rep.Notes == 0:
		line = "No problems: every entity would sync.\n"
	case rep.Problems == 0:
		line = fmt.Sprintf("No problems: every entity would sync. %d notes of the draft to read.\n", rep.Notes)
	default:
		line = fmt.Sprintf("%d problems (%s): a run of those entities would write nothing.\n", rep.Problems, strings.Join(bad, ", "))
	}
	_, err := io.WriteString(w, line)
	return err
}

// sourceName is what the source calls itself without its password.
func (s *Syncer) sourceName() string {
	if r, ok := s.Source.(redacted); ok {
		return s.redact(r.Redacted())
	}
	return "the ERP"
}
