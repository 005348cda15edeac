package erpsync

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
)

// source names the ERP in the refusals intake and csvimport make of its
// rows.
const source = "erp"

// maxKeyChars bounds a bill number or a reference.
const maxKeyChars = 64

// maxPrice (₹1 crore a base unit) is the catalog's bound on a price.
const maxPrice domain.Paise = 1_00_00_000_00

// layout is where a query's result puts the mapping's fields.
type layout struct {
	entity Entity
	spec   *EntitySpec
	def    entityDef
	loc    *time.Location
	cols   []string
	index  map[string]int // field → its column's position; absent: no column
	since  int            // the since column's position; -1 when not incremental
}

// newLayout finds each mapped column in the result, an exact match first,
// else the one that differs only in case.
func newLayout(e Entity, spec *EntitySpec, loc *time.Location, cols []string) (*layout, []Problem) {
	l := &layout{entity: e, spec: spec, def: entityDefs[e], loc: loc, cols: cols, index: map[string]int{}, since: -1}
	var out []Problem
	find := func(field, col string) int {
		if i := slices.Index(cols, col); i >= 0 {
			return i
		}
		found := -1
		for i, c := range cols {
			if strings.EqualFold(c, col) {
				if found >= 0 {
					out = append(out, Problem{Entity: e, Field: field, Column: col, Reason: fmt.Sprintf("the query returns both %s and %s; name one exactly", cols[found], c)})
					return -1
				}
				found = i
			}
		}
		if found < 0 {
			out = append(out, Problem{Entity: e, Field: field, Column: col,
				Reason: fmt.Sprintf("the query returns no such column (it returns %s)", shortList(cols, 12))})
		}
		return found
	}
	for _, f := range l.def.fields {
		fs := spec.Fields[f.name]
		if fs == nil || fs.Column == "" {
			continue
		}
		if i := find(f.name, fs.Column); i >= 0 {
			l.index[f.name] = i
		}
	}
	if spec.Incremental() {
		l.since = find("since", spec.Since.Column)
	}
	return l, out
}

func shortList(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(", … (%d in all)", len(xs))
}

// column names a field's column, for problems.
func (l *layout) column(field string) string {
	if field == "since" && l.spec.Since != nil {
		return l.spec.Since.Column
	}
	if fs := l.spec.Fields[field]; fs != nil {
		return fs.Column
	}
	return ""
}

// row reads one row's fields, noting what is wrong with them.
type row struct {
	l        *layout
	n        int
	vals     []any
	key      string
	problems []Problem
	shown    map[string]string // the fields as read, for --check's table; nil: not kept
}

func (r *row) bad(field, format string, args ...any) {
	r.problems = append(r.problems, Problem{Entity: r.l.entity, Row: r.n, Key: r.key, Field: field, Column: r.l.column(field),
		Reason: fmt.Sprintf(format, args...)})
}

func (r *row) show(field, s string) {
	if r.shown != nil {
		r.shown[field] = s
	}
}

// value is a field's value: its column's, with text transformed and
// mapped through values; the default when that is null or empty; nil
// when there is neither. ok is false when a problem was noted.
func (r *row) value(field string) (v any, ok bool) {
	fs := r.l.spec.Fields[field]
	if fs == nil {
		return nil, true
	}
	f, _ := r.l.def.field(field)
	if i, has := r.l.index[field]; has && i < len(r.vals) {
		v = r.vals[i]
	}
	_, isText := v.(string)
	_, isBytes := v.([]byte)
	if v != nil && (isText || isBytes || !f.kind.numeric() && f.kind != kindDate) {
		s, err := textOf(v)
		if err != nil {
			r.bad(field, "%v", err)
			return nil, false
		}
		s = transform(s, fs.Transform)
		if f.kind != kindModes {
			s = lookup(fs.Values, s)
		}
		v = s
	}
	if v == nil || v == "" {
		if fs.Default == "" {
			return nil, true
		}
		return fs.Default, true
	}
	return v, true
}

// lookup maps s through values: exactly, else whatever its case.
func lookup(values map[string]string, s string) string {
	if len(values) == 0 || s == "" {
		return s
	}
	if to, ok := values[s]; ok {
		return to
	}
	for from, to := range values {
		if strings.EqualFold(from, s) {
			return to
		}
	}
	return s
}

// empty notes a required field with nothing in it.
func (r *row) empty(field string) {
	if col := r.l.column(field); col != "" {
		r.bad(field, "is empty (the column is null or blank, and the field has no default)")
	} else {
		r.bad(field, "is empty")
	}
}

func (r *row) required(field string) bool {
	f, _ := r.l.def.field(field)
	return f.required
}

// text reads a text field: one line of visible text.
func (r *row) text(field string) string {
	v, ok := r.value(field)
	if !ok {
		return ""
	}
	s, _ := v.(string)
	s = strings.TrimSpace(s)
	if s == "" {
		if r.required(field) {
			r.empty(field)
		}
		return ""
	}
	for _, c := range s {
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' || unicode.Is(unicode.Cf, c) && c != '\u200d' && c != '\u200c' {
			r.bad(field, "%q holds the invisible or control character %U", s, c)
			return ""
		}
	}
	if len(s) > csvimport.MaxFieldBytes {
		r.bad(field, "is longer than %d bytes", csvimport.MaxFieldBytes)
		return ""
	}
	r.show(field, s)
	return s
}

// keyText reads a bill number or a reference: at most 64 characters.
func (r *row) keyText(field string) string {
	s := r.text(field)
	if utf8.RuneCountInString(s) > maxKeyChars {
		r.bad(field, "%q is longer than %d characters", s, maxKeyChars)
		return ""
	}
	return s
}

func (r *row) list(field string) []string {
	return splitList(r.text(field))
}

// readField reads field with conv and shows it as show writes it; has is
// false when the field is empty or bad. An empty required field is a
// problem when asks says so.
func readField[T any](r *row, field string, asks bool, conv func(any) (T, error), show func(T) string) (x T, has bool) {
	v, ok := r.value(field)
	if !ok {
		return x, false
	}
	if v == nil {
		if asks && r.required(field) {
			r.empty(field)
		}
		return x, false
	}
	x, err := conv(v)
	if err != nil {
		r.bad(field, "%v", err)
		return x, false
	}
	r.show(field, show(x))
	return x, true
}

// money reads an amount; has is false when the field is empty.
func (r *row) money(field string) (domain.Paise, bool) {
	return readField(r, field, true, func(v any) (domain.Paise, error) { return readMoney(v, r.l.spec.Fields[field].Money) },
		domain.Paise.String)
}

// qty reads a quantity in base units.
func (r *row) qty(field string) (int64, bool) {
	return readField(r, field, true, func(v any) (int64, error) { return readQty(v, r.l.spec.Fields[field].Factor) },
		func(q int64) string { return strconv.FormatInt(q, 10) })
}

// percent reads a GST rate; an empty one is left to the default.
func (r *row) percent(field string) (domain.GSTRate, bool) {
	return readField(r, field, false, readPercent, domain.GSTRate.String)
}

func (r *row) date(field string) time.Time {
	t, _ := readField(r, field, true, func(v any) (time.Time, error) { return readDate(v, r.l.loc) },
		func(t time.Time) string { return t.Format("2006-01-02 15:04") })
	return t
}

func (r *row) phone(field string) string {
	s := r.text(field)
	if s == "" {
		return ""
	}
	p, err := readPhone(s)
	if err != nil {
		r.bad(field, "%v", err)
		return ""
	}
	r.show(field, p)
	return p
}

func (r *row) mode(field string) domain.PaymentMode {
	s := r.text(field)
	if s == "" {
		return ""
	}
	m, err := domain.ParsePaymentMode(s)
	if err != nil {
		r.bad(field, "%q is not a payment mode: cod, credit, upi, cheque or bank_transfer (map the ERP's under values)", s)
		return ""
	}
	return m
}

// modes reads a list of payment modes, each mapped through values.
func (r *row) modes(field string) []domain.PaymentMode {
	fs := r.l.spec.Fields[field]
	if fs == nil {
		return nil
	}
	s := r.text(field)
	var out []domain.PaymentMode
	for _, part := range splitModes(lookup(fs.Values, s)) {
		for _, m := range splitModes(lookup(fs.Values, part)) {
			mode, err := domain.ParsePaymentMode(m)
			if err != nil {
				r.bad(field, "%q is not a payment mode: cod, credit, upi, cheque or bank_transfer (map the ERP's under values)", m)
				return nil
			}
			if !slices.Contains(out, mode) {
				out = append(out, mode)
			}
		}
	}
	if len(out) > 0 {
		names := make([]string, len(out))
		for i, m := range out {
			names[i] = string(m)
		}
		r.show(field, strings.Join(names, "|"))
	}
	return out
}

func (r *row) status(field string) domain.OrderStatus {
	s := r.text(field)
	if s == "" {
		return ""
	}
	st, err := parseStatus(s)
	if err != nil {
		r.bad(field, "%v", err)
		return ""
	}
	r.show(field, string(st))
	return st
}

// changed reads the since column: when the row last changed.
func (r *row) changed() (time.Time, bool) {
	if r.l.since < 0 || r.l.since >= len(r.vals) || r.vals[r.l.since] == nil {
		return time.Time{}, false
	}
	v := r.vals[r.l.since]
	if s, ok := v.(string); ok && strings.TrimSpace(s) == "" {
		return time.Time{}, false
	}
	t, err := readDate(v, r.l.loc)
	if err != nil {
		r.bad("since", "%v", err)
		return time.Time{}, false
	}
	return t, true
}
