package csvimport

import "strings"

// Table is rows of cells with the columns of one of the contract's files
// from a source other than a CSV file (a Google Sheet's tab), read by
// the same rules as the file: its header row first, then each row with
// its number in the source, which is how a problem is reported.
type Table struct {
	Source string // who read it, as refusals name it: "sheets"
	Name   string // the tab's name
	Header []string
	// HeaderLine is the header's number in the source; the rows follow.
	HeaderLine int
	Rows       []TableRow
}

// TableRow is one row of a Table. Cells may stop short of the header's
// width (a sheet leaves out the empty cells at the end of a row); they
// are read as empty.
type TableRow struct {
	Line  int
	Cells []string
}

// tableRows checks a table's header and gives each row that can be read
// to each, as rows does for a file.
func (rd *reader) tableRows(t Table, each func(row)) error {
	line := max(t.HeaderLine, 1)
	if len(t.Header) == 0 {
		rd.fail(line, "empty tab: a header row is required (%s)", strings.Join(rd.columns, ","))
		return rd.err()
	}
	index, ok := rd.header(t.Header)
	if !ok {
		return rd.err()
	}
	if len(t.Rows) > MaxRows {
		rd.fail(0, "more than %d rows", MaxRows)
		return rd.err()
	}
	width := len(t.Header)
	for _, r := range t.Rows {
		cells := r.Cells
		for len(cells) > width && strings.TrimSpace(cells[len(cells)-1]) == "" {
			cells = cells[:len(cells)-1]
		}
		if blank(cells) {
			continue
		}
		if len(cells) < width {
			cells = append(append([]string(nil), cells...), make([]string, width-len(cells))...)
		}
		rd.record(r.Line, cells, width, index, each)
	}
	return nil
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
