package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `Munshi — the WhatsApp office clerk for distributors.

Usage:
  munshi serve [--demo]                              run the HTTP server Twilio calls
  munshi chat --as PHONE [--demo]                    talk to Munshi in the terminal as that user
  munshi route [--json] [TEXT...]                    show how messages are routed (stdin lines if no TEXT)
  munshi eval FILE.jsonl                             score routing and parsing on labelled messages
  munshi eval --dialogs FILE.jsonl [--seed DIR] [--json]
                                                     run scripted conversations and score the end state each leaves
  munshi import catalog|customers|users FILE.csv     upsert a CSV file into the database
  munshi import orders|payments FILE.csv             bring in order or payment history, idempotently
  munshi import catalog|customers --sheet TAB        the same from a tab of the Google Sheet (MUNSHI_SHEETS_ID)
  munshi digest [--date YYYY-MM-DD] [--send] [--demo]
                                                     print the daily digest (yesterday's), and send it with --send
  munshi forget PHONE                                delete a person's conversation memory
  munshi mcp                                         serve the read-only business tools over MCP (stdio)
  munshi migrate --from FILE.db --to postgres://…    copy a SQLite database into an empty PostgreSQL one
  munshi connect --source DSN [--out FILE.yaml]      read an ERP database and write a draft sync mapping
  munshi sync --config FILE.yaml --check|--once      check an ERP sync mapping against its source, or sync once

Run "munshi COMMAND --help" for its flags and the environment variables it reads.
`

// errUsage marks a command-line mistake: exit status 2, no stack of context.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "munshi:", err)
		}
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run dispatches a subcommand; tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	env := environment{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	switch args[0] {
	case "serve":
		return cmdServe(ctx, env, args[1:])
	case "chat":
		return cmdChat(ctx, env, args[1:])
	case "route":
		return cmdRoute(ctx, env, args[1:])
	case "eval":
		return cmdEval(ctx, env, args[1:])
	case "import":
		return cmdImport(ctx, env, args[1:])
	case "digest":
		return cmdDigest(ctx, env, args[1:])
	case "forget":
		return cmdForget(ctx, env, args[1:])
	case "mcp":
		return cmdMCP(ctx, env, args[1:])
	case "connect":
		return cmdConnect(ctx, env, args[1:])
	case "sync":
		return cmdSync(ctx, env, args[1:])
	case "migrate":
		return cmdMigrate(ctx, env, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "munshi: unknown command %q\n\n%s", args[0], usage)
	return errUsage
}

type environment struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}
