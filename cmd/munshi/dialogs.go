package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/dialogs"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/intake"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/webhook"
)

// The store is what a dialog's snapshots read.
var _ dialogs.Books = store.Store(nil)

// dialogStart is when every scripted conversation begins, in MUNSHI_TZ;
// each turn is a minute after the one before.
var dialogStart = struct{ year, month, day, hour int }{2026, 11, 16, 11}

// evalEnv are the variables a scripted conversation reads from the
// environment; every other one has its default, so a score does not
// depend on where it runs (and no message leaves, no Redis is touched).
var evalEnv = map[string]bool{
	"GEMINI_API_KEY": true, "GEMINI_MODEL": true, "GEMINI_BASE_URL": true, "MUNSHI_TZ": true, "MUNSHI_LOG_LEVEL": true,
}

// seedFile is one CSV file a dialog file's books start from.
type seedFile struct {
	kind string // catalog, customers, users, orders, payments
	name string // as the import's audit entry and errors name it
	data []byte
}

// evalDialogs runs each conversation of a dialog file on its own
// throw-away books, seeded from CSV files, through the pipeline the
// webhook uses, and prints the report.
func evalDialogs(ctx context.Context, env environment, file, seedDir string, asJSON bool) error {
	began := time.Now()
	data, err := readInput(file, dialogs.MaxBytes)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	ds, err := dialogs.Read(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("eval: %s:\n%w", file, err)
	}
	if len(ds) == 0 {
		return fmt.Errorf("eval: %s has no dialogs (one JSON object a line; see internal/dialogs/FORMAT.md)", file)
	}
	files, from, err := dialogSeed(file, seedDir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "munshi-eval-")
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(tmp)
	cfg, err := dialogConfig(env, filepath.Join(tmp, "seed.db"))
	if err != nil {
		return err
	}
	start := time.Date(dialogStart.year, time.Month(dialogStart.month), dialogStart.day, dialogStart.hour, 0, 0, 0, cfg.Location)
	logger := NewMain(cfg, false, env.stderr).Logger
	seeded, seed, base, err := seedBooks(ctx, cfg, start, files, logger)
	if err != nil {
		return err
	}
	defer seeded.Close()
	if err := seed.Check(ds); err != nil {
		return fmt.Errorf("eval: %s does not fit its seed (%s):\n%w", file, from, err)
	}
	var report dialogs.Report
	report.LLMCounted = true // with no LLM configured, none is called
	setUp := time.Now()
	for i, d := range ds {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		phone, _ := seed.Phone(d.As) // checked above
		db := filepath.Join(tmp, fmt.Sprintf("dialog-%04d", i+1), "munshi.db")
		if err := os.MkdirAll(filepath.Dir(db), 0o700); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		if err := seeded.Backup(ctx, db); err != nil {
			return fmt.Errorf("eval: copying the seeded books: %w", err)
		}
		c := cfg
		c.DB = db
		res, calls, err := runDialog(ctx, env, c, start, i+1, d, phone, base)
		if err != nil {
			return fmt.Errorf("eval: dialog %q (line %d): %w", d.ID, d.Line, err)
		}
		report.Add(res)
		report.LLMCalls += calls
		if cfg.GeminiAPIKey != "" {
			// With the LLM a conversation takes seconds: say how far it is.
			fmt.Fprintf(env.stderr, "eval: %d/%d %s: %s\n", i+1, len(ds), d.ID, map[bool]string{true: "ok", false: "FAIL"}[res.Succeeded])
		}
		os.RemoveAll(filepath.Dir(db))
	}
	if asJSON {
		err = report.WriteJSON(env.stdout)
	} else {
		err = report.Write(env.stdout)
	}
	ran := time.Since(setUp)
	fmt.Fprintf(env.stderr, "eval: %d conversations on %s in %s (seeding %s, %s a conversation)\n", len(ds), from,
		time.Since(began).Round(time.Millisecond), setUp.Sub(began).Round(time.Millisecond), (ran / time.Duration(len(ds))).Round(time.Millisecond))
	return err
}

// dialogConfig is the configuration every conversation runs with: the
// defaults, the LLM only when GEMINI_API_KEY is set, and the books at db.
func dialogConfig(env environment, db string) (config.Config, error) {
	cfg := config.FromEnv(func(k string) string {
		switch {
		case k == "MUNSHI_DB":
			return db
		case k == "MUNSHI_LOG_LEVEL" && env.getenv(k) == "":
			return "error" // keep stderr for the report's own problems
		case evalEnv[k]:
			return env.getenv(k)
		}
		return ""
	})
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(env.stderr, "munshi: the configuration has problems:\n  %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return cfg, errUsage
	}
	return cfg, nil
}

// seedKinds are the seed's files in the order they are imported: the
// history names customers and SKUs.
var seedKinds = []string{"catalog", "customers", "users", "orders", "payments"}

// dialogSeed finds the CSV files the books start from: seedDir when given,
// else the dialog file's directory when it holds catalog.csv, else the
// demo's catalog, customers and users. It says where they came from.
func dialogSeed(file, seedDir string) ([]seedFile, string, error) {
	dir := seedDir
	if dir != "" {
		if st, err := os.Stat(dir); err != nil {
			return nil, "", fmt.Errorf("eval: --seed: %w", err)
		} else if !st.IsDir() {
			return nil, "", fmt.Errorf("eval: --seed %s is not a directory (it holds the seed's CSV files)", dir)
		}
	}
	if dir == "" {
		dir = filepath.Dir(file)
		if _, err := os.Stat(filepath.Join(dir, "catalog.csv")); errors.Is(err, fs.ErrNotExist) {
			return []seedFile{
				{kind: "catalog", name: "demo catalog.csv", data: demo.CatalogCSV},
				{kind: "customers", name: "demo customers.csv", data: demo.CustomersCSV},
				{kind: "users", name: "demo users.csv", data: demo.UsersCSV},
			}, "the demo's catalog, customers and users", nil
		}
	}
	var files []seedFile
	var missing []string
	for _, kind := range seedKinds {
		path := filepath.Join(dir, kind+".csv")
		data, err := readInput(path, csvimport.MaxFileBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist) && (kind == "orders" || kind == "payments"):
			continue // history is optional
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, kind+".csv")
			continue
		case err != nil:
			return nil, "", fmt.Errorf("eval: seed: %w", err)
		}
		files = append(files, seedFile{kind: kind, name: path, data: data})
	}
	if len(missing) > 0 {
		return nil, "", fmt.Errorf("eval: the seed %s has no %s (a seed holds catalog.csv, customers.csv and users.csv, and may hold orders.csv and payments.csv)",
			dir, strings.Join(missing, " or "))
	}
	return files, dir, nil
}

// seedBooks builds the books every conversation starts from, once: the
// seed's files imported as `munshi import` imports them. It returns them
// open (each conversation runs on a copy), what the dialogs may name, and
// their snapshot.
func seedBooks(ctx context.Context, cfg config.Config, start time.Time, files []seedFile, logger *slog.Logger) (store.Store, dialogs.Seed, dialogs.Snapshot, error) {
	var seed dialogs.Seed
	books, err := store.Open(ctx, cfg.DB, store.WithClock(func() time.Time { return start }), store.WithPoolSize(cfg.DBPool))
	if err != nil {
		return nil, seed, dialogs.Snapshot{}, err
	}
	fail := func(err error) (store.Store, dialogs.Seed, dialogs.Snapshot, error) {
		books.Close()
		return nil, seed, dialogs.Snapshot{}, fmt.Errorf("eval: seed: %w", err)
	}
	in := intake.Intake{Books: books, Actor: "eval", Audit: audit.New(books, cfg.Secrets(), logger)}
	for _, f := range files {
		var take func(intake.Intake) (intake.Taken, error)
		switch f.kind {
		case "orders", "payments":
			take = readHistory(ctx, cfg, f.kind, f.name, f.data)
		default:
			if take, err = readRecords(ctx, f.kind, f.name, f.data); err != nil {
				return fail(err)
			}
		}
		if _, err := take(in); err != nil {
			return fail(err)
		}
		if f.kind == "users" {
			// Roles mean the first user of that role in the file.
			if seed.Users, err = csvimport.ReadUsers(bytes.NewReader(f.data)); err != nil {
				return fail(err)
			}
		}
	}
	products, err := books.Products(ctx)
	if err != nil {
		return fail(err)
	}
	for _, p := range products {
		seed.SKUs = append(seed.SKUs, p.SKU)
	}
	customers, err := books.Customers(ctx)
	if err != nil {
		return fail(err)
	}
	for _, c := range customers {
		seed.Customers = append(seed.Customers, c.ID)
	}
	base, err := dialogs.Take(ctx, books, nil)
	if err != nil {
		return fail(err)
	}
	for id, o := range base.Orders {
		if o.State != dialogs.StateAwaitingApproval && o.State != dialogs.StateRejected {
			seed.Orders = append(seed.Orders, id)
		}
	}
	return books, seed, base, nil
}

// dialogClock is a conversation's clock: fixed, moved a minute a turn.
type dialogClock struct {
	at  atomic.Int64 // Unix nanoseconds
	loc *time.Location
}

func (c *dialogClock) set(t time.Time) { c.at.Store(t.UnixNano()) }
func (c *dialogClock) now() time.Time  { return time.Unix(0, c.at.Load()).In(c.loc) }

// runDialog wires Munshi as serve does on the books at cfg.DB, sends each
// turn through the webhook's pipeline as phone, and scores the
// conversation. It returns the LLM calls it made. An error is the books'
// or the wiring's, not the conversation's: a failing turn is a failed
// conversation, recorded in the result.
func runDialog(ctx context.Context, env environment, cfg config.Config, start time.Time, n int, d dialogs.Dialog, phone string, base dialogs.Snapshot) (dialogs.Result, int64, error) {
	clock := &dialogClock{loc: start.Location()}
	clock.set(start)
	m := NewMain(cfg, false, env.stderr)
	m.Now = clock.now
	closed := false
	defer func() {
		if !closed {
			m.Close()
		}
	}()
	if err := m.Open(ctx); err != nil {
		return dialogs.Result{}, 0, err
	}
	before, err := dialogs.Take(ctx, m.Store, &base)
	if err != nil {
		return dialogs.Result{}, 0, err
	}
	var turns []dialogs.Turn
	var failed error
	prev := before
	for i, text := range d.Turns {
		clock.set(start.Add(time.Duration(i) * time.Minute))
		sid := fmt.Sprintf("EVAL%04dT%02d", n, i+1)
		reply, outcome, err := m.Pipeline.Handle(ctx, domain.Inbound{SID: sid, From: phone, Body: text, Received: clock.now()})
		if err != nil {
			failed = fmt.Errorf("turn %d: %w", i+1, err)
			break
		}
		if outcome == webhook.OutcomeLate {
			// The person would read the answer that follows, not the
			// holding reply: wait for it, as they would.
			if err := m.Pipeline.Wait(ctx); err != nil {
				return dialogs.Result{}, 0, err
			}
			if ok, saved, err := m.Store.SavedReply(ctx, sid); err == nil && ok {
				reply = saved
			}
		}
		after, err := dialogs.Take(ctx, m.Store, &prev)
		if err != nil {
			return dialogs.Result{}, 0, err
		}
		turns = append(turns, dialogs.Turn{Said: text, Reply: reply, After: after})
		prev = after
	}
	res := dialogs.Score(d, before, turns)
	if failed != nil {
		res.Succeeded, res.TurnsToSuccess, res.Error = false, 0, failed.Error()
	}
	calls, err := countLLMCalls(ctx, m.Store)
	if err != nil {
		return dialogs.Result{}, 0, err
	}
	closed = true
	return res, calls, m.Close()
}

// countLLMCalls counts the calls that reached the LLM, as recordLLM
// audits them: a call the breaker or the budget stopped is not one.
func countLLMCalls(ctx context.Context, books store.Store) (int64, error) {
	entries, err := books.AuditEntries(ctx, audit.KindLLM)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, e := range entries {
		switch outcome, _ := e.Detail["outcome"].(string); gemini.Outcome(outcome) {
		case gemini.OutcomeBreakerOpen, gemini.OutcomeNoBudget:
		default:
			n++
		}
	}
	return n, nil
}
