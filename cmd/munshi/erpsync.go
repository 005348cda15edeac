package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/munshi/munshi/internal/alert"
	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/health"
	"github.com/munshi/munshi/internal/metrics"
)

// maxMappingBytes bounds a mapping file: a long one is a few hundred lines.
const maxMappingBytes = 1 << 20

// loadMapping reads and checks a sync mapping file.
func loadMapping(path string, getenv func(string) string) (*erpsync.Mapping, error) {
	data, err := readInput(path, maxMappingBytes)
	if err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	m, err := erpsync.Parse(data, getenv)
	if err != nil {
		return nil, fmt.Errorf("sync: %s: %w", path, err)
	}
	return m, nil
}

// openSource connects to the mapping's ERP with its settings.
// later, for serve, does not wait for the ERP to answer.
func openSource(ctx context.Context, mp *erpsync.Mapping, later bool) (*erp.Source, error) {
	s := mp.Source
	return erp.Open(ctx, s.ExpandedDSN, erp.Options{ConnectTimeout: time.Duration(s.ConnectTimeout),
		QueryTimeout: time.Duration(s.QueryTimeout), MaxConns: s.MaxConns, Parallel: s.Parallel, Later: later})
}

// newSyncer wires a Syncer over the books of m.
func (m *Main) newSyncer(mp *erpsync.Mapping, src *erp.Source) *erpsync.Syncer {
	owners := &alert.Owners{Books: m.Store, Audit: m.Audit, Kind: erpsync.AlertKind, Logger: m.Logger}
	if m.Dispatcher != nil {
		owners.Nudge = m.Dispatcher.Nudge
	}
	return &erpsync.Syncer{Mapping: mp, Source: src, Books: m.Store, Audit: m.Audit, Owners: owners,
		Clock: mainClock{m}, Logger: m.Logger, Exclusive: m.Store.Exclusive}
}

type mainClock struct{ m *Main }

func (c mainClock) Now() time.Time { return c.m.now() }

// openSync wires MUNSHI_SYNC_CONFIG for serve: its entities run on their
// tiers (schedule), /readyz and /metrics show their age. A source that
// does not answer at start does not stop Munshi: it answers from the
// books as last synced, and the runs try again.
func (m *Main) openSync(ctx context.Context) error {
	if m.Config.SyncConfig == "" {
		return nil
	}
	mp, err := loadMapping(m.Config.SyncConfig, os.Getenv)
	if err != nil {
		return err
	}
	src, err := openSource(ctx, mp, true)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	m.Source = src
	m.Sync = m.newSyncer(mp, src)
	m.Metrics.WatchSync(func() []metrics.SyncEntity {
		st, err := m.Sync.Status(context.Background())
		if err != nil {
			return nil
		}
		out := make([]metrics.SyncEntity, 0, len(st))
		for _, e := range st {
			age := e.Age
			if e.LastGood.IsZero() {
				age = -1
			}
			out = append(out, metrics.SyncEntity{Entity: string(e.Entity), Age: age, Failures: e.Failures, Stale: e.Stale})
		}
		return out
	})
	return nil
}

// syncCheck is /readyz's view of the ERP copy: degraded, never down,
// while an entity is stale or failing, since answers still come from the
// last good data and say as of when.
func (m *Main) syncCheck() []health.Check {
	if m.Sync == nil {
		return nil
	}
	return []health.Check{{Name: "erp", Degraded: true, Probe: func(ctx context.Context) error {
		st, err := m.Sync.Status(ctx)
		if err != nil {
			return err
		}
		var bad []string
		for _, e := range st {
			switch {
			case e.LastError != "":
				bad = append(bad, fmt.Sprintf("%s: %s (data %s old)", e.Entity, e.LastError, roundAge(e)))
			case e.Stale:
				bad = append(bad, fmt.Sprintf("%s: data %s old", e.Entity, roundAge(e)))
			}
		}
		if len(bad) > 0 {
			return errors.New(strings.Join(bad, "; "))
		}
		return nil
	}}}
}

func roundAge(e erpsync.EntityStatus) string {
	if e.LastGood.IsZero() {
		return "never synced"
	}
	return e.Age.Round(time.Second).String()
}

func cmdSync(ctx context.Context, env environment, args []string) error {
	fs := newFlags("sync", "usage: munshi sync --config FILE.yaml --check | --once\n\n"+
		"Syncs the books from the ERP the mapping file names (written by munshi connect).\n"+
		"--check runs each entity's query with a small limit, checks every mapped column and\n"+
		"value, shows five mapped rows per entity and every problem by row, and writes nothing.\n"+
		"--once runs every entity once, masters first; a bad row refuses its entity, which keeps\n"+
		"its last good data. munshi serve runs the entities on their tiers with MUNSHI_SYNC_CONFIG.", env.stderr)
	path := fs.String("config", "", "the sync mapping file")
	check := fs.Bool("check", false, "validate the mapping against the live source; write nothing")
	once := fs.Bool("once", false, "run every entity once")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *path == "" || *check == *once || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	mp, err := loadMapping(*path, env.getenv)
	if err != nil {
		return err
	}
	src, err := openSource(ctx, mp, false)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer src.Close()
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	m := NewMain(cfg, false, env.stderr)
	if err := m.Open(ctx); err != nil {
		return err
	}
	defer m.Close()
	s := m.newSyncer(mp, src)
	s.Actor = "cli"
	if *check {
		rep, err := s.Check(ctx, env.stdout)
		if err != nil {
			return fmt.Errorf("sync: %w", err)
		}
		if !rep.OK() {
			return fmt.Errorf("sync: the mapping has %d problems: nothing was written", rep.Problems)
		}
		fmt.Fprintln(env.stdout, "The mapping reads cleanly. Run munshi sync --once, or set MUNSHI_SYNC_CONFIG for munshi serve.")
		return nil
	}
	results, err := s.Once(ctx)
	printResults(env, results)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	// What the runs queued (owners' alerts, accounts told of unsettled
	// entries) is sent before the command ends.
	m.Dispatcher.Drain(ctx)
	return nil
}

// printResults shows what each entity's run did.
func printResults(env environment, rs []erpsync.Result) {
	if len(rs) == 0 {
		return
	}
	w := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "entity\trows\tadded\tupdated\tunchanged\tinactive\tsettled\tqueries\ttook\t")
	for _, r := range rs {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", r.Entity, r.Rows, r.Written.Added, r.Written.Updated,
			r.Written.Unchanged, r.Deactivated, r.Settled, r.Queries, r.Took.Round(time.Millisecond))
	}
	w.Flush()
}
