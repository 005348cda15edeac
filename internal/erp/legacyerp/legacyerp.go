package legacyerp

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The dialects the ERP is built on, spelt as internal/erp names them.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
	MySQL    = "mysql" // MySQL and MariaDB
)

// Dialects lists every dialect Build knows.
var Dialects = []string{Postgres, SQLite, MySQL}

// The company the reviewed mapping syncs, as CompanyMaster writes it; the
// item master writes it in capitals.
const (
	CompanyCode = 3
	CompanyName = "Apple Lifestyle Industries Limited"
)

// Zone is the ERP's wall clock: every date and time in it is Indian
// Standard Time without a zone, as the mapping's timezone says.
var Zone = time.FixedZone("IST", 5*3600+30*60)

//go:embed schema_postgres.sql schema_sqlite.sql schema_mysql.sql
//go:embed mapping_postgres.yaml mapping_sqlite.yaml mapping_mysql.yaml
var files embed.FS

// Schema is the vendor's script that creates the ERP's tables in dialect.
func Schema(dialect string) ([]byte, error) { return file("schema_", dialect, ".sql") }

// Mapping is the reviewed sync mapping for the company CompanyCode, its
// queries in dialect's own SQL, with source.dsn ${ERP_DSN}.
func Mapping(dialect string) ([]byte, error) { return file("mapping_", dialect, ".yaml") }

func file(prefix, dialect, ext string) ([]byte, error) {
	if err := known(dialect); err != nil {
		return nil, err
	}
	return files.ReadFile(prefix + dialect + ext)
}

func known(dialect string) error {
	for _, d := range Dialects {
		if d == dialect {
			return nil
		}
	}
	return fmt.Errorf("legacyerp: unknown dialect %q (want postgres, sqlite or mysql)", dialect)
}

// Options shape the ERP Build makes. Items, SalesLines and Customers are
// the mapped company's; the four others get a quarter of the items and a
// twentieth of the sales lines each, and share the customers.
type Options struct {
	Seed       int64     // the same seed builds the same ERP, row for row
	Items      int       // items of the mapped company; default 400
	SalesLines int       // sales order lines of the mapped company; default 100000
	Customers  int       // parties in the shared party master; default 300
	Now        time.Time // the caller's clock, fixed: the history ends here; required
}

func (o Options) withDefaults() (Options, error) {
	if o.Items == 0 {
		o.Items = 400
	}
	if o.SalesLines == 0 {
		o.SalesLines = 100000
	}
	if o.Customers == 0 {
		o.Customers = 300
	}
	switch {
	case o.Now.IsZero():
		return o, errors.New("legacyerp: Options.Now is required (the caller's fixed clock)")
	case o.Items < 1 || o.SalesLines < 1:
		return o, errors.New("legacyerp: Options.Items and SalesLines must be positive")
	case o.Customers < 10:
		return o, errors.New("legacyerp: Options.Customers must be at least 10")
	}
	return o, nil
}

// Facts is what the built ERP holds for the mapped company: what a test
// compares a sync's counts with.
type Facts struct {
	Dialect     string
	CompanyCode int
	Company     string    // as CompanyMaster writes it
	Items       int       // products the mapping reads
	SKUs        []string  // their SKUs as the mapping makes them (trimmed, upper case), in item order
	Customers   int       // parties the company deals with (its PartyBal rows)
	CustomerIDs []string  // their codes, sorted
	Orders      int       // sales order headers
	SalesLines  int       // sales order lines
	UnpaidBills int       // bills the bills entity reads (not cancelled, balance left)
	Payments    int       // rows of Receipts (money received)
	GoodsIn     int       // goods received lines with an accepted quantity
	FirstDay    time.Time // the first order date, midnight in Zone
	LastDay     time.Time // the last order date, midnight in Zone
	// LastModified is the greatest SalesOrdHdr.ModifiedOn, in Zone: where
	// an incremental sales sync's watermark ends after a full read.
	LastModified time.Time
}

// Build creates the ERP's tables in db, which must be empty, and fills
// them, in one transaction. The ERP is a function of o alone.
func Build(ctx context.Context, db *sql.DB, dialect string, o Options) (Facts, error) {
	if err := known(dialect); err != nil {
		return Facts{}, err
	}
	o, err := o.withDefaults()
	if err != nil {
		return Facts{}, err
	}
	script, err := Schema(dialect)
	if err != nil {
		return Facts{}, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Facts{}, fmt.Errorf("legacyerp: %w", err)
	}
	defer tx.Rollback()
	// The tables first and their indexes after the rows, as a bulk load
	// does: an index built once is cheaper than one kept up row by row.
	var tables, indexes []string
	for _, stmt := range Statements(string(script)) {
		if strings.HasPrefix(stmt, "CREATE INDEX") {
			indexes = append(indexes, stmt)
		} else {
			tables = append(tables, stmt)
		}
	}
	for _, stmt := range tables {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return Facts{}, fmt.Errorf("legacyerp: schema: %w", err)
		}
	}
	facts, err := fill(ctx, tx, sqlText{dialect}, o)
	if err != nil {
		return Facts{}, err
	}
	for _, stmt := range indexes {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return Facts{}, fmt.Errorf("legacyerp: schema: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Facts{}, fmt.Errorf("legacyerp: %w", err)
	}
	facts.Dialect = dialect
	return facts, nil
}

// Statements splits a script into its statements: comment lines dropped,
// split at each semicolon that ends a line.
func Statements(script string) []string {
	var out []string
	var b strings.Builder
	for _, line := range strings.Split(script, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(b.String()), ";"))
			b.Reset()
		}
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		out = append(out, s)
	}
	return out
}
