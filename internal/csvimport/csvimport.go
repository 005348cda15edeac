package csvimport

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/intake"
)

// Limits that keep a hostile or mistaken file from exhausting memory.
const (
	MaxFileBytes  = 32 << 20
	MaxRows       = 200_000
	MaxFieldBytes = 2048
)

// Problem is one bad row.
type Problem = intake.Problem

// Error lists the problems of a file that was refused as a whole: its
// Source is "csvimport".
type Error = intake.Refusal

// source is how a refusal names this package.
const source = "csvimport"

// row gives a parser the fields of one line by column name.
type row struct {
	line   int
	fields map[string]string
}

func (r row) get(col string) string { return strings.TrimSpace(r.fields[col]) }

// reader walks a CSV file whose header must hold exactly the given columns.
type reader struct {
	file    string
	columns []string
	refused intake.Refusals
	// unread, when set, takes the rows that cannot be read at all (more
	// counts those past intake.MaxProblems), for intake to report among
	// the rows it checks; otherwise they are problems of the file.
	unread *[]intake.Problem
	more   *int
	// table is set when the rows come from a Table, not a CSV file.
	table *Table
}

func (rd *reader) fail(line int, format string, args ...any) {
	rd.refused.Add(line, format, args...)
}

// unreadable notes a row that cannot be read at all.
func (rd *reader) unreadable(line int, format string, args ...any) {
	if rd.unread == nil {
		rd.fail(line, format, args...)
		return
	}
	if len(*rd.unread) >= intake.MaxProblems {
		*rd.more++
		return
	}
	*rd.unread = append(*rd.unread, intake.Problem{Line: line, Reason: fmt.Sprintf(format, args...)})
}

func (rd *reader) err() error {
	err := rd.refused.Err(source, rd.file)
	var r *intake.Refusal
	if rd.table != nil && errors.As(err, &r) {
		r.Source, r.Container, r.Unit = rd.table.Source, fmt.Sprintf("tab %q", rd.table.Name), "row"
	}
	return err
}

// rows reads the whole input and calls each for every data row. Rows that
// cannot be read at all are reported and skipped.
func (rd *reader) rows(in io.Reader, each func(row)) error {
	data, err := io.ReadAll(io.LimitReader(in, MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("csvimport: read %s: %w", rd.file, err)
	}
	if len(data) > MaxFileBytes {
		rd.fail(0, "file is larger than %d MiB", MaxFileBytes>>20)
		return rd.err()
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if line := firstBadUTF8Line(data); line > 0 {
		rd.fail(line, "not valid UTF-8 text (save the file as CSV UTF-8)")
		return rd.err()
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		rd.fail(1, "empty file: a header row is required (%s)", strings.Join(rd.columns, ","))
		return rd.err()
	} else if err != nil {
		rd.fail(1, "unreadable header: %v", csvReason(err))
		return rd.err()
	}
	index, ok := rd.header(header)
	if !ok {
		return rd.err()
	}
	n := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// FieldPos must not be asked here: after a parse error in the
			// first field it has no position and panics.
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			rd.unreadable(line, "unreadable row: %v", csvReason(err))
			if pe == nil || pe.Err != csv.ErrFieldCount {
				return rd.err()
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		if n++; n > MaxRows {
			rd.unreadable(line, "more than %d rows", MaxRows)
			return rd.err()
		}
		rd.record(line, rec, len(header), index, each)
	}
	return nil
}

// record checks one data row's fields and, when each can be read, gives
// the row to each.
func (rd *reader) record(line int, rec []string, width int, index map[string]int, each func(row)) {
	if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" || len(rec) == 0 {
		return // a blank line
	}
	if len(rec) != width {
		rd.unreadable(line, "has %d fields, the header has %d", len(rec), width)
		return
	}
	r := row{line: line, fields: make(map[string]string, len(rec))}
	unfit := false // a field no parser should read
	for _, col := range rd.columns {
		i := index[col]
		if len(rec[i]) > MaxFieldBytes {
			rd.unreadable(line, "%s is longer than %d bytes", col, MaxFieldBytes)
			unfit = true
		} else if why := textProblem(strings.TrimSpace(rec[i])); why != "" {
			rd.unreadable(line, "%s %s", col, why)
			unfit = true
		}
		r.fields[col] = rec[i]
	}
	if !unfit {
		each(r)
	}
}

// header maps column names to positions, reporting missing, unknown and
// repeated columns.
func (rd *reader) header(header []string) (map[string]int, bool) {
	index := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, dup := index[h]; dup {
			rd.fail(1, "column %q appears twice", h)
			continue
		}
		index[h] = i
	}
	for _, c := range rd.columns {
		if _, ok := index[c]; !ok {
			rd.fail(1, "missing column %q (the header must be %s)", c, strings.Join(rd.columns, ","))
		}
	}
	var names []string
	for h := range index {
		names = append(names, h)
	}
	sort.Strings(names) // a stable report
	for _, h := range names {
		if !contains(rd.columns, h) {
			rd.fail(1, "unknown column %q (the header must be %s)", h, strings.Join(rd.columns, ","))
		}
	}
	return index, rd.refused.Empty()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func csvReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func firstBadUTF8Line(data []byte) int {
	if utf8.Valid(data) {
		return 0
	}
	for i, l := range bytes.Split(data, []byte("\n")) {
		if !utf8.Valid(l) {
			return i + 1
		}
	}
	return 1
}

// keys catches a key used by two rows of one file.
type keys map[string]int

func (k keys) seen(rd *reader, line int, col, key string) bool {
	norm := strings.ToLower(key)
	if first, ok := k[norm]; ok {
		rd.fail(line, "duplicate %s %q (first on line %d)", col, key, first)
		return true
	}
	k[norm] = line
	return false
}

// list splits a '|'-separated value, dropping empty parts.
func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func wholeNumber(s string, min int64) (int64, error) {
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if n < min {
		return 0, fmt.Errorf("%d is below %d", n, min)
	}
	return n, nil
}
