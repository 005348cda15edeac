package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpconnect"
	"github.com/munshi/munshi/internal/gemini"
)

func cmdConnect(ctx context.Context, env environment, args []string) error {
	fs := newFlags("connect", "usage: munshi connect --source DSN [--out FILE.yaml]\n\n"+
		"Reads the ERP database's catalog and samples its values, places each of Munshi's\n"+
		"fields on a column with the evidence for it, and writes a draft sync mapping for a\n"+
		"person to review (standard output without --out). Uncertain choices carry a review:\n"+
		"note; the draft runs as it stands (munshi sync --config FILE --check). The draft's\n"+
		"source is ${ERP_DSN}: set it to the same address, so no password sits in the file.\n"+
		"With GEMINI_API_KEY set, Gemini is asked to suggest the field of a column discovery\n"+
		"could not place, from the column's name and at most five of its values with every\n"+
		"digit masked; a field it names is marked suggested: true for the review. Without\n"+
		"the key nothing leaves the machine and the same database gives the same draft.", env.stderr)
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
	var opts erpconnect.Options
	var sg *suggester
	if cfg := config.FromEnv(env.getenv); cfg.GeminiAPIKey != "" {
		llm, err := gemini.New(gemini.Config{APIKey: cfg.GeminiAPIKey, Model: cfg.GeminiModel, BaseURL: cfg.GeminiBaseURL})
		if err != nil {
			return fmt.Errorf("connect: %w", err)
		}
		sg = &suggester{llm: llm, fields: erpconnect.FieldNames()}
		opts.Suggest = sg.suggest
	}
	draft, err := erpconnect.Discover(ctx, src, opts)
	if draft != nil {
		draft.Report(env.stderr)
	}
	if sg != nil {
		sg.report(env.stderr)
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

// suggestTimeout bounds one suggestion: a Gemini request and its one retry.
const suggestTimeout = 10 * time.Second

// suggester asks Gemini to name the field of a column discovery could not
// place, and keeps count for the report. A failed call is no suggestion.
// Discovery asks one column at a time.
type suggester struct {
	llm                  *gemini.Client
	fields               []string
	asked, named, failed int
	firstErr             error
}

func (s *suggester) suggest(ctx context.Context, column string, samples []string) (string, bool) {
	s.asked++
	ctx, cancel := context.WithTimeout(ctx, suggestTimeout)
	defer cancel()
	field, ok, err := s.llm.SuggestField(ctx, column, samples, s.fields)
	if err != nil {
		s.failed++
		if s.firstErr == nil {
			s.firstErr = err
		}
		return "", false
	}
	if ok {
		s.named++
	}
	return field, ok
}

// report says that suggestions were asked, how many, and what came of them.
func (s *suggester) report(w io.Writer) {
	fmt.Fprintf(w, "\nSuggestions: asked %s to name the field of each column discovery could not place (its name and at most 5 values, digits masked): %d asked, %d named, %d failed",
		s.llm.Model(), s.asked, s.named, s.failed)
	if s.firstErr != nil {
		fmt.Fprintf(w, " (first: %v)", s.firstErr)
	}
	fmt.Fprintln(w, ". A field taken from an answer is marked suggested: true: review it.")
}
