package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/store"
)

func cmdImport(ctx context.Context, env environment, args []string) error {
	fs := newFlags("import", "usage: munshi import catalog|customers|users FILE.csv\n\nUpserts the file's rows by key in one transaction: a bad row refuses the whole file.", env.stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return errUsage
	}
	kind, path := fs.Arg(0), fs.Arg(1)
	if kind != "catalog" && kind != "customers" && kind != "users" {
		fmt.Fprintf(env.stderr, "munshi import: unknown file kind %q (want catalog, customers or users)\n", kind)
		return errUsage
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
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
