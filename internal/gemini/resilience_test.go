package gemini

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/gemini/geminitest"
	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
)

var okIntent = geminitest.Text(`{"intent":"order","confidence":0.8}`)

func classify(c *Client, ctx context.Context) (domain.Intent, error) {
	in, _, err := c.Classify(ctx, "5 GC Rajesh", intent.Normalized{})
	return in, err
}

func TestTimeoutIsRetriedOnce(t *testing.T) {
	f := geminitest.Start(t, geminitest.Answer{Hang: true})
	c, rec := newClient(t, f, func(cfg *Config) { cfg.CallTimeout = 100 * time.Millisecond })
	var err error
	patience.Within(t, "a call against a hanging model", func() { _, err = classify(c, context.Background()) })
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	calls := rec.all()
	if f.Hits() != 2 || !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeTimeout, OutcomeTimeout}) || calls[0].Retry || !calls[1].Retry {
		t.Fatalf("hits %d calls %+v", f.Hits(), calls)
	}
}

func TestServerErrorIsRetriedOnce(t *testing.T) {
	f := geminitest.Start(t, geminitest.ServerError, okIntent)
	c, rec := newClient(t, f)
	if in, err := classify(c, context.Background()); err != nil || in != domain.IntentOrder {
		t.Fatalf("Classify = %q, %v", in, err)
	}
	calls := rec.all()
	if f.Hits() != 2 || !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeError, OutcomeOK}) ||
		calls[0].PromptTokens != 0 || calls[1].PromptTokens != 120 || !calls[1].Retry {
		t.Fatalf("hits %d calls %+v", f.Hits(), calls)
	}

	// Only one retry: a second failure is the answer.
	unavailable := geminitest.Error(503, "UNAVAILABLE", "The model is overloaded.")
	f.Script(unavailable, unavailable, okIntent)
	_, err := classify(c, context.Background())
	if !errors.Is(err, ErrFailed) || !strings.HasPrefix(err.Error(), "gemini: classify: request failed: ") || f.Hits() != 4 {
		t.Fatalf("err %v, hits %d", err, f.Hits())
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	for name, c := range map[string]struct {
		rep     geminitest.Answer
		kind    error
		outcome Outcome
	}{
		"quota":       {geminitest.Quota, ErrQuota, OutcomeQuota},
		"bad request": {geminitest.Error(400, "INVALID_ARGUMENT", "Invalid JSON payload."), ErrFailed, OutcomeError},
		"forbidden":   {geminitest.Error(403, "PERMISSION_DENIED", "Permission denied."), ErrFailed, OutcomeError},
	} {
		t.Run(name, func(t *testing.T) {
			f := geminitest.Start(t, c.rep, okIntent)
			cl, rec := newClient(t, f)
			_, err := classify(cl, context.Background())
			if !errors.Is(err, c.kind) || f.Hits() != 1 || !reflect.DeepEqual(rec.outcomes(), []Outcome{c.outcome}) {
				t.Fatalf("err %v hits %d outcomes %v", err, f.Hits(), rec.outcomes())
			}
		})
	}
}

// A request that hangs ends before the caller's deadline, leaving the
// reserve for the reply, and is not retried into it.
func TestCallerDeadlineIsRespected(t *testing.T) {
	f := geminitest.Start(t, geminitest.Answer{Hang: true})
	const reserve = time.Second
	sent := &deadlines{}
	c, rec := newClient(t, f, func(cfg *Config) {
		cfg.CallTimeout, cfg.Reserve, cfg.MinCallTime = time.Minute, reserve, 100*time.Millisecond
		cfg.HTTPClient = &http.Client{Transport: sent}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	due, _ := ctx.Deadline()
	var err error
	patience.Within(t, "a call against a hanging model", func() { _, err = classify(c, ctx) })
	if !errors.Is(err, ErrTimeout) || f.Hits() != 1 || !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeTimeout}) {
		t.Fatalf("err %v, hits %d, outcomes %v", err, f.Hits(), rec.outcomes())
	}
	// The request's own deadline keeps the reserve back from the caller's
	// (less the moment between reading the clock and setting it).
	got := sent.all()
	if len(got) != 1 || got[0].IsZero() || due.Sub(got[0]) < reserve/2 {
		t.Fatalf("request deadlines %v; the caller's is %v, the reserve %v", got, due, reserve)
	}
}

func TestTooLittleTimeMakesNoRequest(t *testing.T) {
	f := geminitest.Start(t, okIntent)
	c, rec := newClient(t, f, func(cfg *Config) { cfg.Reserve = time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 900*time.Millisecond)
	defer cancel()
	_, err := classify(c, ctx)
	if !errors.Is(err, ErrNoBudget) || f.Hits() != 0 || !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeNoBudget}) {
		t.Fatalf("err %v hits %d outcomes %v", err, f.Hits(), rec.outcomes())
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := classify(c, done); !errors.Is(err, ErrNoBudget) || !errors.Is(err, context.Canceled) || f.Hits() != 0 {
		t.Fatalf("canceled: err %v hits %d", err, f.Hits())
	}
}

// A caller that gives up mid-request gets its answer at once; that says
// nothing about Gemini, so neither a retry nor the breaker follows.
func TestCallerCancelStopsTheRequest(t *testing.T) {
	f := geminitest.Start(t, geminitest.Answer{Hang: true})
	c, rec := newClient(t, f, func(cfg *Config) { cfg.BreakerFailures = 1 })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-f.Arrived(); cancel() }()
	var err error
	patience.Within(t, "a call whose caller gives up", func() { _, err = classify(c, ctx) })
	if !errors.Is(err, context.Canceled) || f.Hits() != 1 || !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeError}) {
		t.Fatalf("err %v hits %d outcomes %v", err, f.Hits(), rec.outcomes())
	}
	if !c.breaker.closed() {
		t.Fatal("a canceled call opened the breaker")
	}
}

func TestCallBudgetAcrossPurposes(t *testing.T) {
	f := geminitest.Start(t, okIntent, geminitest.Text(`{"customer":null,"payment":null,"items":[]}`), geminitest.Text("ok"))
	c, rec := newClient(t, f)
	ctx := llmbudget.WithCallBudget(context.Background(), 2)
	if _, err := classify(c, ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Extract(ctx, "5 GC", orders.Hints{}); err != nil {
		t.Fatal(err)
	}
	_, err := c.Step(ctx, []reports.AgentMessage{{Role: "user", Text: "sales?"}}, agentTools)
	if !errors.Is(err, ErrNoBudget) || f.Hits() != 2 {
		t.Fatalf("third call: err %v, hits %d", err, f.Hits())
	}
	if !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeOK, OutcomeOK, OutcomeNoBudget}) || rec.all()[2].Purpose != PurposeAgent {
		t.Fatalf("calls %+v", rec.all())
	}
	// Another message has its own budget.
	f.Script(okIntent)
	if _, err := classify(c, llmbudget.WithCallBudget(context.Background(), 2)); err != nil {
		t.Fatal(err)
	}
}

func TestRetrySpendsTheBudget(t *testing.T) {
	f := geminitest.Start(t, geminitest.ServerError, okIntent)
	c, rec := newClient(t, f)
	_, err := classify(c, llmbudget.WithCallBudget(context.Background(), 1))
	if !errors.Is(err, ErrFailed) || f.Hits() != 1 || !reflect.DeepEqual(rec.outcomes(), []Outcome{OutcomeError}) {
		t.Fatalf("err %v hits %d outcomes %v", err, f.Hits(), rec.outcomes())
	}
}

// One client serves every message at once; run with -race.
func TestConcurrentCalls(t *testing.T) {
	f := geminitest.Start(t, okIntent)
	c, rec := newClient(t, f)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := llmbudget.WithSummary(llmbudget.WithCallBudget(context.Background(), 2), "summary")
			if _, err := classify(c, ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if f.Hits() != 16 || len(rec.all()) != 16 {
		t.Fatalf("hits %d calls %d", f.Hits(), len(rec.all()))
	}
}
