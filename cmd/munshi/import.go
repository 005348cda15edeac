package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/intake"
	"github.com/munshi/munshi/internal/store"
)

func cmdImport(ctx context.Context, env environment, args []string) error {
	fs := newFlags("import", "usage: munshi import catalog|customers|users|orders|payments FILE.csv\n"+
		"       munshi import catalog|customers --sheet TAB\n\n"+
		"Upserts the file's rows by key in one transaction: a bad row refuses the whole file.\n"+
		"Orders and payments are history: importing the same file twice changes nothing, and\n"+
		"they move neither stock nor outstanding (import the catalog and customers first).\n"+
		"With --sheet the rows come from that tab of the Google Sheet MUNSHI_SHEETS_ID, with the\n"+
		"file's columns and rules; a bad row is named by its row number.", env.stderr)
	sheet := fs.String("sheet", "", "read the catalog or customers from this tab of MUNSHI_SHEETS_ID instead of a file")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	want := 2
	if *sheet != "" {
		want = 1
	}
	if len(positional) != want {
		fs.Usage()
		return errUsage
	}
	kind := positional[0]
	switch kind {
	case "catalog", "customers", "users", "orders", "payments":
	default:
		fmt.Fprintf(env.stderr, "munshi import: unknown file kind %q (want catalog, customers, users, orders or payments)\n", kind)
		return errUsage
	}
	if *sheet != "" && kind != "catalog" && kind != "customers" {
		fmt.Fprintf(env.stderr, "munshi import: --sheet reads a catalog or customers tab, not %s\n", kind)
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	if *sheet != "" {
		return importSheet(ctx, env, cfg, kind, *sheet)
	}
	path := positional[1]
	data, err := readInput(path, csvimport.MaxFileBytes)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	history := kind == "orders" || kind == "payments"
	var take func(intake.Intake) (intake.Taken, error)
	if history {
		if missingFile(cfg.DB) {
			return fmt.Errorf("import: there are no books at %s yet: import the catalog and customers first, then the %s", store.Redacted(cfg.DB), kind)
		}
		take = readHistory(ctx, cfg, kind, path, data)
	} else if take, err = readRecords(ctx, kind, path, data); err != nil {
		// The whole file is read and checked before the database is
		// opened, so that a refused file leaves no trace, not even a new
		// database.
		return err
	}
	taken, err := takeInto(ctx, env, cfg, take)
	if err != nil {
		return err
	}
	if !history {
		fmt.Fprintf(env.stdout, "imported %d %s rows from %s\n", taken.Rows, kind, path)
		return nil
	}
	fmt.Fprintf(env.stdout, "imported %d %s rows from %s: %d %s added, %d updated, %d unchanged\n",
		taken.Rows, kind, path, taken.Added, kind, taken.Updated, taken.Unchanged)
	return nil
}

// parseInterleaved parses flags that may come before or after the
// arguments ("import catalog --sheet Catalog") and returns the arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// importSheet takes a catalog or customers tab of the Google Sheet into the
// books as a file of the same columns is taken: read and checked whole
// before the database is opened, then upserted in one transaction.
func importSheet(ctx context.Context, env environment, cfg config.Config, kind, tab string) error {
	if cfg.SheetsID == "" {
		return fmt.Errorf("import: --sheet needs MUNSHI_SHEETS_ID, the Google Sheet to read (and GOOGLE_APPLICATION_CREDENTIALS, its service account's key)")
	}
	client, err := newSheetsClient(ctx, &Main{Config: cfg})
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	from := "sheet tab " + tab
	var take func(intake.Intake) (intake.Taken, error)
	if kind == "catalog" {
		ps, err := client.Catalog(ctx, tab)
		if err != nil {
			return err
		}
		take = func(in intake.Intake) (intake.Taken, error) { return in.Catalog(ctx, from, ps) }
	} else {
		cs, err := client.Customers(ctx, tab)
		if err != nil {
			return err
		}
		take = func(in intake.Intake) (intake.Taken, error) { return in.Customers(ctx, from, cs) }
	}
	taken, err := takeInto(ctx, env, cfg, take)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "imported %d %s rows from the sheet's tab %q\n", taken.Rows, kind, tab)
	return nil
}

// takeInto opens the books and takes rows already read and checked into
// them, audited as the command line's.
func takeInto(ctx context.Context, env environment, cfg config.Config, take func(intake.Intake) (intake.Taken, error)) (intake.Taken, error) {
	books, err := store.Open(ctx, cfg.DB, store.WithPoolSize(cfg.DBPool))
	if err != nil {
		return intake.Taken{}, err
	}
	defer books.Close()
	return take(intake.Intake{Books: books, Actor: "cli",
		Audit: audit.New(books, cfg.Secrets(), NewMain(cfg, false, env.stderr).Logger)})
}

// readRecords reads a catalog, customers or users file, and says how to
// take it into the books.
func readRecords(ctx context.Context, kind, path string, data []byte) (func(intake.Intake) (intake.Taken, error), error) {
	f := bytes.NewReader(data)
	switch kind {
	case "catalog":
		ps, err := csvimport.ReadCatalog(f)
		return func(in intake.Intake) (intake.Taken, error) { return in.Catalog(ctx, path, ps) }, err
	case "customers":
		cs, err := csvimport.ReadCustomers(f)
		return func(in intake.Intake) (intake.Taken, error) { return in.Customers(ctx, path, cs) }, err
	default:
		us, err := csvimport.ReadUsers(f)
		return func(in intake.Intake) (intake.Taken, error) { return in.Users(ctx, path, us) }, err
	}
}

// readHistory says how to take an orders or payments file into the books:
// read, checked against the books' customers and SKUs, then written in one
// transaction that leaves rows already as given untouched.
func readHistory(ctx context.Context, cfg config.Config, kind, path string, data []byte) func(intake.Intake) (intake.Taken, error) {
	return func(in intake.Intake) (intake.Taken, error) {
		if kind == "orders" {
			rows, err := csvimport.ReadOrders(bytes.NewReader(data), cfg.Location)
			if err != nil {
				return intake.Taken{}, err
			}
			return in.Orders(ctx, path, rows)
		}
		rows, err := csvimport.ReadPayments(bytes.NewReader(data), cfg.Location)
		if err != nil {
			return intake.Taken{}, err
		}
		return in.Payments(ctx, path, rows)
	}
}

// missingFile reports whether db names a plain database file that does not
// exist: history needs books to be imported into, and a refused import
// must not leave a new, empty database behind.
func missingFile(db string) bool {
	if strings.Contains(db, ":") {
		return false // file:, sqlite:, postgres:// — store.Open says what is wrong
	}
	_, err := os.Stat(db)
	return errors.Is(err, os.ErrNotExist)
}
