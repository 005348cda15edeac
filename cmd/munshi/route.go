package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/catalog"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// routeResult is one line of `munshi route --json`, in the contract's shape.
type routeResult struct {
	Text       string  `json:"text"`
	Intent     string  `json:"intent"`
	Tier       string  `json:"tier"`
	Confidence float64 `json:"confidence"`
	LatencyUS  int64   `json:"latency_us"`
	// Reason is the rule that fired or why a tier abstained, as the audit
	// log keeps it.
	Reason string `json:"reason,omitempty"`
	// Format is how a question wants its answer (text, chart, excel);
	// only question intents carry it.
	Format string         `json:"format,omitempty"`
	Order  *orders.Parsed `json:"order,omitempty"`
	// What was read for the lifecycle intents.
	Payment  *orders.PaymentNote  `json:"payment,omitempty"`
	Delivery *orders.DeliveryNote `json:"delivery,omitempty"`
	Received *orders.ReceiptNote  `json:"received,omitempty"`
}

func cmdRoute(ctx context.Context, env environment, args []string) error {
	fs := newFlags("route", "usage: munshi route [--json] [TEXT...]\n\nRoutes each TEXT (or each line of standard input) and prints the decision.\nNothing is written anywhere. The catalog and customers come from MUNSHI_DB\nif it exists, else from the demo.", env.stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per message")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	router, parser, _, err := offlineRouter(ctx, env)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(env.stdout)
	enc.SetEscapeHTML(false)
	each := func(text string) error {
		d := router.Route(llmbudget.WithCallBudget(ctx, 2), text)
		res := routeResult{Text: text, Intent: string(d.Intent), Tier: string(d.Tier), Confidence: d.Confidence,
			LatencyUS: d.Latency.Microseconds(), Reason: d.Reason, Format: string(d.Format)}
		switch d.Intent {
		case domain.IntentOrder:
			parsed := parser.ParseRouted(d) // from the router's reading, as the webhook reads it
			res.Order = &parsed
		case domain.IntentPayment:
			note := parser.ReadPayment(text)
			res.Payment = &note
		case domain.IntentDelivery:
			note := parser.ReadDelivery(text)
			res.Delivery = &note
		case domain.IntentStockReceived:
			note := parser.ReadReceipt(text)
			res.Received = &note
		}
		if *asJSON {
			return enc.Encode(res)
		}
		intentText := res.Intent
		if res.Format != "" && res.Format != string(intent.FormatText) {
			intentText += "/" + res.Format
		}
		_, err := fmt.Fprintf(env.stdout, "%-15s %-6s %.2f %6dµs  %s\n", intentText, res.Tier, res.Confidence, res.LatencyUS, text)
		for name, read := range map[string]any{"order": res.Order, "payment": res.Payment, "delivery": res.Delivery, "received": res.Received} {
			if err != nil || reflect.ValueOf(read).IsNil() {
				continue
			}
			line, _ := json.Marshal(read)
			_, err = fmt.Fprintf(env.stdout, "%15s %s: %s\n", "", name, line)
		}
		return err
	}
	if fs.NArg() > 0 {
		for _, text := range fs.Args() {
			if err := each(text); err != nil {
				return err
			}
		}
		return nil
	}
	sc := bufio.NewScanner(env.stdin)
	sc.Buffer(make([]byte, 64<<10), maxRouteLine)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if err := each(sc.Text()); err != nil {
			return err
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("route: line %d of the input is longer than %d MiB: one message a line", line+1, maxRouteLine>>20)
	} else if err != nil {
		return fmt.Errorf("route: read: %w", err)
	}
	return nil
}

func cmdEval(ctx context.Context, env environment, args []string) error {
	fs := newFlags("eval", "usage: munshi eval FILE.jsonl\n       munshi eval --dialogs FILE.jsonl [--seed DIR] [--json]\n\n"+
		"The first form scores routing on labelled messages, one JSON object a line:\n{\"text\":…,\"intent\":…}. Prints precision, recall and F1 per intent, the\nconfusion matrix, the share resolved by each tier and the misrouted messages.\n\n"+
		"With --dialogs it runs scripted conversations (internal/dialogs/FORMAT.md), each on\nits own throw-away database seeded from DIR's CSV files (default: FILE's directory\nwhen it holds catalog.csv, else the demo's catalog, customers and users), through\nthe webhook's pipeline with a fixed clock, and scores each by the end state it\nleaves. Nothing is sent: outbound messages stay in the throw-away outbox.\nIt reads GEMINI_API_KEY, GEMINI_MODEL, GEMINI_BASE_URL, MUNSHI_TZ and\nMUNSHI_LOG_LEVEL (default error) from the environment, and no other variable.", env.stderr)
	dialogFile := fs.String("dialogs", "", "a file of scripted conversations to run and score")
	seedDir := fs.String("seed", "", "with --dialogs: the directory of the seed's CSV files")
	asJSON := fs.Bool("json", false, "with --dialogs: print the report as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dialogFile != "" {
		if fs.NArg() != 0 {
			fs.Usage()
			return errUsage
		}
		return evalDialogs(ctx, env, *dialogFile, *seedDir, *asJSON)
	}
	if *seedDir != "" || *asJSON {
		fmt.Fprintln(env.stderr, "munshi eval: --seed and --json go with --dialogs")
		return errUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	data, err := readInput(fs.Arg(0), maxEvalBytes)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	examples, err := intent.ReadExamples(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if len(examples) == 0 {
		return fmt.Errorf("eval: %s has no labelled messages (one JSON object a line: {\"text\":…,\"intent\":…})", fs.Arg(0))
	}
	labelled, err := orders.LabelledOrders(examples)
	if err != nil {
		return err
	}
	router, parser, llmCalls, err := offlineRouter(ctx, env)
	if err != nil {
		return err
	}
	report := intent.Evaluate(ctx, router, examples)
	if err := report.Write(env.stdout); err != nil {
		return err
	}
	calls := llmCalls.Load()
	fmt.Fprintf(env.stdout, "\nLLM calls: %d for %d messages (%.1f per 100 messages)\n", calls, len(examples), 100*float64(calls)/float64(max(len(examples), 1)))
	if len(labelled) > 0 {
		fmt.Fprintln(env.stdout)
		return orders.EvaluateParsing(parser, labelled).Write(env.stdout)
	}
	return nil
}

// offlineRouter builds a router and an order parser from MUNSHI_DB's
// catalog and customers when that file exists, else from the demo data,
// without writing anything. With GEMINI_API_KEY set the router has its LLM
// tier, and llmCalls counts the calls it makes.
func offlineRouter(ctx context.Context, env environment) (router *intent.Router, parser *orders.Parser, llmCalls *atomic.Int64, err error) {
	llmCalls = new(atomic.Int64)
	var v intent.Vocabulary
	path := env.getenv("MUNSHI_DB")
	if path == "" {
		path = "munshi.db"
	}
	if _, err := os.Stat(path); err == nil {
		books, err := store.Open(ctx, path)
		if err != nil {
			return nil, nil, nil, err
		}
		defer books.Close()
		if v, err = catalog.Vocabulary(ctx, books); err != nil {
			return nil, nil, nil, err
		}
	} else {
		var users []domain.User
		if v.Products, v.Customers, users, err = demo.Data(); err != nil {
			return nil, nil, nil, err
		}
		for _, u := range users {
			v.Staff = append(v.Staff, u.Name)
		}
	}
	var llm *gemini.Client
	if cfg := config.FromEnv(env.getenv); cfg.GeminiAPIKey != "" {
		llm, err = gemini.New(gemini.Config{APIKey: cfg.GeminiAPIKey, Model: cfg.GeminiModel, BaseURL: cfg.GeminiBaseURL,
			Recorder: func(c gemini.Call) {
				if c.Outcome != gemini.OutcomeBreakerOpen && c.Outcome != gemini.OutcomeNoBudget {
					llmCalls.Add(1)
				}
			}})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	r, err := intent.NewRouter(v, routerOptions(llm))
	if err != nil {
		return nil, nil, nil, err
	}
	return r, orders.NewParser(r, v.Products, v.Customers), llmCalls, nil
}
