package legacyerp

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sqlText writes SQL for one dialect. Queries are written once with
// double-quoted identifiers (PostgreSQL must quote the vendor's mixed-case
// names; SQLite accepts the quotes) and take MySQL's backticks on the way.
// Values are written as literals: the generator's own text, escaped, so a
// batch of rows is one statement with no parameter limits.
type sqlText struct{ d string }

// q adapts a query written with "Ident" quoting, #INT (the integer cast
// type) and #DIV (integer division) to the dialect.
func (x sqlText) q(s string) string {
	intType, div := "BIGINT", "/"
	switch x.d {
	case SQLite:
		intType = "INTEGER"
	case MySQL:
		s = strings.ReplaceAll(s, `"`, "`")
		intType, div = "SIGNED", "DIV"
	}
	return strings.NewReplacer("#INT", intType, "#DIV", div).Replace(s)
}

func (x sqlText) ident(name string) string {
	if x.d == MySQL {
		return "`" + name + "`"
	}
	return `"` + name + `"`
}

// str is a string literal; MySQL also reads backslashes as escapes.
func (x sqlText) str(s string) string {
	s = strings.ReplaceAll(s, "'", "''")
	if x.d == MySQL {
		s = strings.ReplaceAll(s, `\`, `\\`)
	}
	return "'" + s + "'"
}

const null = "NULL"

// rupees writes paise as a decimal literal: 123450 is 1234.50.
func rupees(p int64) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s%d.%02d", sign, p/100, p%100)
}

// qty writes a whole quantity the way the vendor's NUMERIC(12,3) holds it.
func qty(n int64) string { return strconv.FormatInt(n, 10) + ".000" }

func num(n int64) string { return strconv.FormatInt(n, 10) }

// day and stamp are the ERP's wall clock: Zone, without a zone.
func day(t time.Time) string   { return "'" + t.In(Zone).Format("2006-01-02") + "'" }
func stamp(t time.Time) string { return "'" + t.In(Zone).Format("2006-01-02 15:04:05") + "'" }

// inserter writes rows of one table in batches: multi-row INSERTs, and
// on PostgreSQL an INSERT … SELECT FROM unnest of one array per column,
// which PostgreSQL parses many times faster than a long VALUES list.
type inserter struct {
	ctx    context.Context
	tx     *sql.Tx
	head   string
	batch  int
	n      int
	b      strings.Builder
	arrays []strings.Builder // PostgreSQL: each column's elements
	types  []string          // PostgreSQL: each column's type
	err    error
	table  string
}

func (x sqlText) inserter(ctx context.Context, tx *sql.Tx, table string, cols ...string) *inserter {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = x.ident(c)
	}
	in := &inserter{ctx: ctx, tx: tx, batch: 500, table: table,
		head: "INSERT INTO " + x.ident(table) + " (" + strings.Join(q, ", ") + ") "}
	if x.d == Postgres {
		in.batch = 5000
		in.arrays = make([]strings.Builder, len(cols))
		in.types = make([]string, len(cols))
		for i, c := range cols {
			in.types[i] = pgTypes()[table][c]
			if in.types[i] == "" {
				in.err = fmt.Errorf("legacyerp: schema_postgres.sql has no column %s.%s", table, c)
			}
		}
	}
	return in
}

// add queues one row of literals.
func (in *inserter) add(vals ...string) {
	if in.err != nil {
		return
	}
	if in.arrays != nil {
		for i, v := range vals {
			if in.n > 0 {
				in.arrays[i].WriteByte(',')
			}
			in.arrays[i].WriteString(element(v))
		}
	} else {
		if in.n == 0 {
			in.b.WriteString(in.head)
			in.b.WriteString("VALUES ")
		} else {
			in.b.WriteString(",\n")
		}
		in.b.WriteByte('(')
		in.b.WriteString(strings.Join(vals, ", "))
		in.b.WriteByte(')')
	}
	in.n++
	if in.n == in.batch {
		in.flush()
	}
}

// element is a literal as an element of a PostgreSQL array literal.
func element(lit string) string {
	if lit == null {
		return "NULL"
	}
	if !strings.HasPrefix(lit, "'") {
		return lit
	}
	s := strings.ReplaceAll(lit[1:len(lit)-1], "''", "'")
	return `"` + arrayEscape.Replace(s) + `"`
}

var arrayEscape = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func (in *inserter) flush() {
	if in.err != nil || in.n == 0 {
		return
	}
	q := in.b.String()
	if in.arrays != nil {
		var b strings.Builder
		b.WriteString(in.head)
		b.WriteString("SELECT * FROM unnest(")
		for i := range in.arrays {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("'{")
			b.WriteString(strings.ReplaceAll(in.arrays[i].String(), "'", "''"))
			b.WriteString("}'::" + in.types[i] + "[]")
			in.arrays[i].Reset()
		}
		b.WriteByte(')')
		q = b.String()
	}
	if _, err := in.tx.ExecContext(in.ctx, q); err != nil {
		in.err = fmt.Errorf("legacyerp: insert into %s: %w", in.table, err)
	}
	in.b.Reset()
	in.n = 0
}

// close writes what is queued and reports the first error.
func (in *inserter) close() error {
	in.flush()
	return in.err
}

// pgTypes is each column's type as schema_postgres.sql declares it.
var pgTypes = sync.OnceValue(func() map[string]map[string]string {
	script, err := files.ReadFile("schema_postgres.sql")
	if err != nil {
		panic(err)
	}
	out := map[string]map[string]string{}
	var table map[string]string
	for _, line := range strings.Split(string(script), "\n") {
		if m := createTable.FindStringSubmatch(line); m != nil {
			table = map[string]string{}
			out[m[1]] = table
		} else if m := columnDef.FindStringSubmatch(line); m != nil && table != nil {
			table[m[1]] = m[2]
		}
	}
	return out
})

var (
	createTable = regexp.MustCompile(`^CREATE TABLE "(\w+)"`)
	columnDef   = regexp.MustCompile(`^\s+"(\w+)"\s+([A-Z]+(?:\(\d+(?:,\d+)?\))?)`)
)
