package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

func cmdImport(ctx context.Context, env environment, args []string) error {
	fs := newFlags("import", "usage: munshi import catalog|customers|users|orders|payments FILE.csv\n\n"+
		"Upserts the file's rows by key in one transaction: a bad row refuses the whole file.\n"+
		"Orders and payments are history: importing the same file twice changes nothing, and\n"+
		"they move neither stock nor outstanding (import the catalog and customers first).", env.stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errUsage
	}
	kind, path := fs.Arg(0), fs.Arg(1)
	switch kind {
	case "catalog", "customers", "users", "orders", "payments":
	default:
		fmt.Fprintf(env.stderr, "munshi import: unknown file kind %q (want catalog, customers, users, orders or payments)\n", kind)
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	if kind == "orders" || kind == "payments" {
		return importHistory(ctx, env, cfg, kind, path)
	}
	// The whole file is read and checked before the database is opened,
	// so that a refused file leaves no trace, not even a new database.
	n, upsert, err := readImport(kind, path)
	if err != nil {
		return err
	}
	books, err := store.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer books.Close()
	if err := upsert(ctx, books); err != nil {
		return err
	}
	log := audit.New(books, cfg.Secrets(), NewMain(cfg, false, env.stderr).Logger)
	log.Record(ctx, "cli", audit.KindImport, kind, map[string]any{"file": path, "rows": n})
	fmt.Fprintf(env.stdout, "imported %d %s rows from %s\n", n, kind, path)
	return nil
}

// readImport reads and checks a file of that kind, returning how many rows
// it holds and how to upsert them.
func readImport(kind, path string) (int, func(context.Context, store.Catalog) error, error) {
	data, err := readInput(path, csvimport.MaxFileBytes)
	if err != nil {
		return 0, nil, fmt.Errorf("import: %w", err)
	}
	f := bytes.NewReader(data)
	switch kind {
	case "catalog":
		ps, err := csvimport.ReadCatalog(f)
		return len(ps), func(ctx context.Context, s store.Catalog) error { return s.UpsertProducts(ctx, ps) }, err
	case "customers":
		cs, err := csvimport.ReadCustomers(f)
		return len(cs), func(ctx context.Context, s store.Catalog) error { return s.UpsertCustomers(ctx, cs) }, err
	default:
		us, err := csvimport.ReadUsers(f)
		return len(us), func(ctx context.Context, s store.Catalog) error { return s.UpsertUsers(ctx, us) }, err
	}
}

// importHistory imports an orders or payments history file: read whole,
// checked against the books' customers and SKUs, then written in one
// transaction that leaves rows already as given untouched.
func importHistory(ctx context.Context, env environment, cfg config.Config, kind, path string) error {
	data, err := readInput(path, csvimport.MaxFileBytes)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if missingFile(cfg.DB) {
		return fmt.Errorf("import: there are no books at %s yet: import the catalog and customers first, then the %s", cfg.DB, kind)
	}
	books, err := store.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer books.Close()
	known, err := historyBooks(ctx, books)
	if err != nil {
		return err
	}
	var sum domain.HistoryImport
	rows := 0
	switch kind {
	case "orders":
		h, err := csvimport.ReadOrders(bytes.NewReader(data), known, cfg.Location)
		if err != nil {
			return err
		}
		for _, o := range h.Orders {
			rows += len(o.Lines)
		}
		if sum, err = books.ImportHistory(ctx, h.Orders, nil); err != nil {
			return h.Refused(err)
		}
	default:
		h, err := csvimport.ReadPayments(bytes.NewReader(data), known, cfg.Location)
		if err != nil {
			return err
		}
		rows = len(h.Payments)
		if sum, err = books.ImportHistory(ctx, nil, h.Payments); err != nil {
			return h.Refused(err)
		}
	}
	tally := sum.Orders
	if kind == "payments" {
		tally = sum.Payments
	}
	log := audit.New(books, cfg.Secrets(), NewMain(cfg, false, env.stderr).Logger)
	log.Record(ctx, "cli", audit.KindImport, kind, map[string]any{"file": path, "rows": rows,
		"added": tally.Added, "updated": tally.Updated, "unchanged": tally.Unchanged})
	fmt.Fprintf(env.stdout, "imported %d %s rows from %s: %d %s added, %d updated, %d unchanged\n",
		rows, kind, path, tally.Added, kind, tally.Updated, tally.Unchanged)
	return nil
}

// historyBooks are the customer ids and SKUs history rows may name.
func historyBooks(ctx context.Context, books store.Catalog) (csvimport.Books, error) {
	var known csvimport.Books
	ps, err := books.Products(ctx)
	if err != nil {
		return known, err
	}
	cs, err := books.Customers(ctx)
	if err != nil {
		return known, err
	}
	for _, p := range ps {
		known.SKUs = append(known.SKUs, p.SKU)
	}
	for _, c := range cs {
		known.Customers = append(known.Customers, c.ID)
	}
	return known, nil
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
