package intake

import (
	"fmt"
	"strings"
)

// MaxProblems is how many problems a Refusal lists; the rest are counted.
const MaxProblems = 50

// Problem is one bad row: its line in the source (0 for the whole file)
// and why it was refused.
type Problem struct {
	Line   int
	Reason string
}

// Refusal refuses a batch of rows as a whole: nothing of it was written.
type Refusal struct {
	Source   string // who read the rows: "csvimport", a Sheet, an ERP
	File     string // catalog, customers, users, orders or payments
	Problems []Problem
	More     int // problems not listed
	// Container is what held the rows, "file" when empty (`tab "Catalog"`
	// for a Sheet); Unit what a Problem's Line counts, "line" when empty
	// ("row" for a Sheet).
	Container, Unit string
}

func (e *Refusal) Error() string {
	var b strings.Builder
	source, container, unit := e.Source, e.Container, e.Unit
	if source == "" {
		source = "intake"
	}
	if container == "" {
		container = "file"
	}
	if unit == "" {
		unit = "line"
	}
	fmt.Fprintf(&b, "%s: %s %s refused, nothing imported:", source, e.File, container)
	for _, p := range e.Problems {
		if p.Line > 0 {
			fmt.Fprintf(&b, "\n  %s %d: %s", unit, p.Line, p.Reason)
		} else {
			fmt.Fprintf(&b, "\n  %s", p.Reason)
		}
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", e.More)
	}
	return b.String()
}

// Refusals gathers the problems of one batch, in the order they are found.
// The zero value is empty and ready.
type Refusals struct {
	problems []Problem
	more     int
}

// Add notes a problem on a line.
func (r *Refusals) Add(line int, format string, args ...any) {
	if len(r.problems) >= MaxProblems {
		r.more++
		return
	}
	r.problems = append(r.problems, Problem{Line: line, Reason: fmt.Sprintf(format, args...)})
}

// Empty reports whether no problem was noted.
func (r *Refusals) Empty() bool { return len(r.problems) == 0 }

// Err is the *Refusal of the batch of file read by source, or nil when no
// problem was noted.
func (r *Refusals) Err(source, file string) error {
	if r.Empty() {
		return nil
	}
	return &Refusal{Source: source, File: file, Problems: r.problems, More: r.more}
}
