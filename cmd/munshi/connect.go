package main

import (
	"context"
	"fmt"
	"os"

	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpconnect"
)

func cmdConnect(ctx context.Context, env environment, args []string) error {
	fs := newFlags("connect", "usage: munshi connect --source DSN [--out FILE.yaml]\n\n"+
		"Reads the ERP database's catalog and samples its values, places each of Munshi's\n"+
		"fields on a column with the evidence for it, and writes a draft sync mapping for a\n"+
		"person to review (standard output without --out). Uncertain choices carry a review:\n"+
		"note; the draft runs as it stands (munshi sync --config FILE --check). The draft's\n"+
		"source is ${ERP_DSN}: set it to the same address, so no password sits in the file.", env.stderr)
	source := fs.String("source", "", "the ERP database: sqlserver://, postgres://, mysql:// or sqlite:")
	out := fs.String("out", "", "write the draft mapping here instead of standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *source == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *out != "" {
		if _, err := os.Stat(*out); err == nil {
			return fmt.Errorf("connect: %s exists: a reviewed mapping is never overwritten; name another file", *out)
		}
	}
	src, err := erp.Open(ctx, *source, erp.Options{})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer src.Close()
	draft, err := erpconnect.Discover(ctx, src, erpconnect.Options{})
	if draft != nil {
		draft.Report(env.stderr)
	}
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	data, err := draft.YAML()
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if *out == "" {
		_, err = env.stdout.Write(data)
		return err
	}
	if err := os.WriteFile(*out, data, 0o600); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	fmt.Fprintf(env.stdout, "wrote the draft mapping to %s: review it, then run munshi sync --config %s --check\n", *out, *out)
	return nil
}
