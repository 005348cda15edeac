package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

func cmdMigrate(ctx context.Context, env environment, args []string) error {
	fs := newFlags("migrate", "usage: munshi migrate --from FILE.db --to postgres://user:pass@host:5432/db\n\n"+
		"Copies a SQLite database into an empty PostgreSQL one, in one transaction, and\n"+
		"verifies each table's row count and money total in both. The SQLite file is\n"+
		"brought to the current schema first; nothing else in it changes. Stop every\n"+
		"munshi serve that writes to the file before copying it.", env.stderr)
	from := fs.String("from", "", "the SQLite database to copy")
	to := fs.String("to", "", "the empty PostgreSQL database to copy it into (postgres://…)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" || *to == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if store.IsPostgres(*from) {
		return errors.New("migrate: --from must be a SQLite file: copying between PostgreSQL databases is the server's own job (pg_dump)")
	}
	if !store.IsPostgres(*to) {
		return errors.New("migrate: --to must be a PostgreSQL address, postgres://user:pass@host:5432/db")
	}
	if missingFile(*from) {
		return fmt.Errorf("migrate: there is no SQLite database at %s", *from)
	} else if fi, err := os.Stat(*from); err == nil && fi.IsDir() {
		return fmt.Errorf("migrate: %s is a directory, not a SQLite database", *from)
	}
	src, err := store.Open(ctx, *from)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer src.Close()
	dst, err := store.Open(ctx, *to, store.WithPoolSize(2))
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer dst.Close()
	tables, err := store.Copy(ctx, src, dst)
	printCopy(env, tables)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	fmt.Fprintln(env.stdout, "Every table holds the same rows and money in both. Set MUNSHI_DB to the PostgreSQL address and start munshi serve.")
	return nil
}

// printCopy shows each table's rows and money in the source and the copy.
func printCopy(env environment, tables []store.TableCopy) {
	if len(tables) == 0 {
		return
	}
	w := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "table\trows\tcopied\tmoney\tcopied\t")
	for _, t := range tables {
		fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%s\t\n", t.Table, t.Rows, t.Kept, domain.Paise(t.Money), domain.Paise(t.KeptMoney))
	}
	w.Flush()
}
