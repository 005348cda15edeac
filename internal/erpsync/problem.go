package erpsync

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with what a query returned: a bad row, or
// (Row 0) the result as a whole, such as a column it does not return.
type Problem struct {
	Entity Entity
	Row    int    // the row's number in the query's result, from 1
	Key    string // the row's key as far as it was read ("GC500", "T-5531 #2")
	Field  string // Munshi's field, when the problem is one field's
	Column string // the query's column the field is read from
	Reason string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(string(p.Entity))
	if p.Row > 0 {
		fmt.Fprintf(&b, " row %d", p.Row)
		if p.Key != "" {
			fmt.Fprintf(&b, " (%s)", p.Key)
		}
	}
	b.WriteString(": ")
	b.WriteString(p.where())
	b.WriteString(p.Reason)
	return b.String()
}

// where names the field and its column: "price (column Rate): ".
func (p Problem) where() string {
	switch {
	case p.Field != "" && p.Column != "":
		return fmt.Sprintf("%s (column %s): ", p.Field, p.Column)
	case p.Field != "":
		return p.Field + ": "
	case p.Column != "":
		return fmt.Sprintf("column %s: ", p.Column)
	}
	return ""
}

// maxKept is how many problems a run keeps to report; the rest are
// counted.
const maxKept = 200

// problems gathers the problems of one read, in the order found.
type problems struct {
	list  []Problem
	count int
}

func (ps *problems) add(p Problem) {
	ps.count++
	if len(ps.list) < maxKept {
		ps.list = append(ps.list, p)
	}
}

// summary lists the first n problems on one line each, for a failure's
// reason and the owners' message.
func summary(ps []Problem, count, n int) string {
	var b strings.Builder
	for i, p := range ps {
		if i == n {
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	if more := count - min(n, len(ps)); more > 0 {
		fmt.Fprintf(&b, "; … and %d more", more)
	}
	return b.String()
}
