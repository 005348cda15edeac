package main

import (
	"context"
	"fmt"
	"os"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/store/sqlite"
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
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	store, err := sqlite.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer store.Close()
	n, err := importFile(ctx, store, kind, f)
	if err != nil {
		return err
	}
	log := audit.New(store, cfg.Secrets(), NewMain(cfg, false, env.stderr).Logger)
	log.Record(ctx, "cli", audit.KindImport, kind, map[string]any{"file": path, "rows": n})
	fmt.Fprintf(env.stdout, "imported %d %s rows from %s\n", n, kind, path)
	return nil
}

func importFile(ctx context.Context, store *sqlite.Store, kind string, f *os.File) (int, error) {
	switch kind {
	case "catalog":
		ps, err := csvimport.ReadCatalog(f)
		if err != nil {
			return 0, err
		}
		return len(ps), store.UpsertProducts(ctx, ps)
	case "customers":
		cs, err := csvimport.ReadCustomers(f)
		if err != nil {
			return 0, err
		}
		return len(cs), store.UpsertCustomers(ctx, cs)
	default:
		us, err := csvimport.ReadUsers(f)
		if err != nil {
			return 0, err
		}
		return len(us), store.UpsertUsers(ctx, us)
	}
}
