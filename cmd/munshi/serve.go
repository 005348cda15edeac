package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/munshi/munshi/internal/config"
)

// loadConfig reads and validates the environment, printing every problem.
func loadConfig(env environment) (config.Config, error) {
	cfg := config.FromEnv(env.getenv)
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(env.stderr, "munshi: the configuration has problems:\n  %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return cfg, errUsage
	}
	return cfg, nil
}

// commandVars are the environment variables each command reads, for its
// --help; a command not listed here (serve, chat, digest) wires the whole
// of Munshi and reads every one.
var commandVars = map[string][]string{
	"route":  {"MUNSHI_DB", "GEMINI_API_KEY", "GEMINI_MODEL", "GEMINI_BASE_URL"},
	"eval":   {"MUNSHI_DB", "GEMINI_API_KEY", "GEMINI_MODEL", "GEMINI_BASE_URL"},
	"import": {"MUNSHI_DB", "MUNSHI_TZ", "MUNSHI_LOG_LEVEL", "MUNSHI_SHEETS_ID", "GOOGLE_APPLICATION_CREDENTIALS", "SHEETS_API_URL"},
	"forget": {"REDIS_URL", "MUNSHI_REDIS_PREFIX"},
	"mcp":    {"MUNSHI_DB", "MUNSHI_TZ", "MUNSHI_LOG_LEVEL"},
	// connect reads only its source, and Gemini for suggestions.
	"connect": {"GEMINI_API_KEY", "GEMINI_MODEL", "GEMINI_BASE_URL"},
}

func newFlags(name, help string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags:\n", help)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\n%s", config.Usage(commandVars[name]...))
	}
	return fs
}

// parseFlags parses args, turning -h and bad flags into errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return errUsage
		}
		return errUsage
	}
	return nil
}

func cmdServe(ctx context.Context, env environment, args []string) error {
	fs := newFlags("serve", "usage: munshi serve [--demo]\n\nRuns the HTTP server Twilio calls (POST /webhook/twilio).", env.stderr)
	demoMode := fs.Bool("demo", false, "seed an empty database with the demo distributor and its sales history")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return err
	}
	tuneCollector(env.getenv)
	m := NewMain(cfg, *demoMode, env.stderr)
	if err := m.Run(ctx); err != nil {
		m.Close()
		return err
	}
	<-ctx.Done()
	m.Logger.Info("shutting down")
	return m.Close()
}

// The Go collector's settings for a server, where GOGC and GOMEMLIMIT do
// not say otherwise. A message allocates about 100 KB that is garbage
// once it is answered, over a live heap of tens of megabytes, so at Go's
// default (GOGC=100) the collector ran every few dozen messages of a
// burst (its background marking alone 6% of the CPU); at 400 it runs
// about a quarter as often. The soft limit keeps a large catalog's heap
// (the peak of a 100,000-SKU reload is about 740 MB) from growing 400%
// past its live size: near the limit the collector runs sooner.
const (
	serveGCPercent   = 400
	serveMemoryLimit = 1 << 30
)

// tuneCollector sets the collector for serving unless the environment
// sets it.
func tuneCollector(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}
