package gemini

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/gemini/geminitest"
	"github.com/munshi/munshi/internal/llmbudget"
)

func breakerClient(t *testing.T, f *geminitest.Server, tune ...func(*Config)) (*Client, *recorder, *clocktest.Clock) {
	clk := clocktest.At(time.Date(2025, 7, 1, 10, 0, 0, 0, time.UTC))
	c, rec := newClient(t, f, append([]func(*Config){func(cfg *Config) { cfg.Now = clk.Now }}, tune...)...)
	return c, rec, clk
}

func TestBreakerOpensThenHalfOpens(t *testing.T) {
	f := geminitest.Start(t, geminitest.ServerError)
	c, rec, clk := breakerClient(t, f)
	ctx := context.Background()
	// Each call is a request and its retry: five failed requests open the
	// breaker (default), and the third call's retry is not made.
	for range 3 {
		if _, err := classify(c, ctx); !errors.Is(err, ErrFailed) {
			t.Fatal(err)
		}
	}
	if f.Hits() != 5 {
		t.Fatalf("hits %d, want 5", f.Hits())
	}
	_, err := classify(c, ctx)
	if !errors.Is(err, ErrBreakerOpen) || f.Hits() != 5 || rec.outcomes()[5] != OutcomeBreakerOpen {
		t.Fatalf("open: err %v hits %d outcomes %v", err, f.Hits(), rec.outcomes())
	}
	clk.Advance(DefaultBreakerCoolDown - time.Second)
	if _, err := classify(c, ctx); !errors.Is(err, ErrBreakerOpen) || f.Hits() != 5 {
		t.Fatalf("cooling down: err %v hits %d", err, f.Hits())
	}

	// After the cool-down one probe goes through; its success closes it.
	clk.Advance(time.Second)
	f.Script(okIntent)
	if _, err := classify(c, ctx); err != nil || f.Hits() != 6 {
		t.Fatalf("probe: err %v hits %d", err, f.Hits())
	}
	if _, err := classify(c, ctx); err != nil || f.Hits() != 7 {
		t.Fatalf("closed: err %v hits %d", err, f.Hits())
	}
}

func TestBreakerFailedProbeReopens(t *testing.T) {
	f := geminitest.Start(t, geminitest.ServerError)
	c, _, clk := breakerClient(t, f, func(cfg *Config) { cfg.BreakerFailures, cfg.BreakerCoolDown = 2, time.Minute })
	ctx := llmbudget.WithCallBudget(context.Background(), 10)
	classify(c, ctx) // a request and its retry: open
	clk.Advance(time.Minute)
	if _, err := classify(c, ctx); !errors.Is(err, ErrFailed) || f.Hits() != 3 {
		t.Fatalf("probe: err %v hits %d (a failed probe is not retried)", err, f.Hits())
	}
	if _, err := classify(c, ctx); !errors.Is(err, ErrBreakerOpen) || f.Hits() != 3 {
		t.Fatalf("reopened: err %v hits %d", err, f.Hits())
	}
	// A refused call leaves the message's budget alone: 10 - 3 requests.
	if n, _ := llmbudget.Left(ctx); n != 7 {
		t.Fatalf("budget left %d, want 7", n)
	}
	clk.Advance(time.Minute)
	f.Script(okIntent)
	if _, err := classify(c, ctx); err != nil {
		t.Fatal(err)
	}
}

func TestBreakerLetsOneProbeThrough(t *testing.T) {
	f := geminitest.Start(t, geminitest.Quota)
	c, rec, clk := breakerClient(t, f, func(cfg *Config) { cfg.BreakerFailures = 1 })
	ctx := context.Background()
	classify(c, ctx) // geminitest.Quota counts as a failure
	clk.Advance(DefaultBreakerCoolDown)

	f.Script(geminitest.Answer{Hang: true, Body: okIntent.Body})
	f.ForgetArrivals()
	probe := make(chan error)
	go func() { _, err := classify(c, ctx); probe <- err }()
	<-f.Arrived()
	if _, err := classify(c, ctx); !errors.Is(err, ErrBreakerOpen) {
		t.Fatalf("while probing: %v", err)
	}
	f.Release()
	if err := <-probe; err != nil {
		t.Fatalf("probe: %v", err)
	}
	f.Script(okIntent)
	if _, err := classify(c, ctx); err != nil {
		t.Fatalf("closed: %v", err)
	}
	want := []Outcome{OutcomeQuota, OutcomeBreakerOpen, OutcomeOK, OutcomeOK}
	if got := rec.outcomes(); !slices.Equal(got, want) {
		t.Fatalf("outcomes %v", got)
	}
}

// Malformed output is a working service: it never opens the breaker.
func TestMalformedDoesNotOpenTheBreaker(t *testing.T) {
	f := geminitest.Start(t, geminitest.Text("no"))
	c, _, _ := breakerClient(t, f, func(cfg *Config) { cfg.BreakerFailures = 1 })
	for range 3 {
		if _, err := classify(c, context.Background()); !errors.Is(err, ErrMalformed) {
			t.Fatal(err)
		}
	}
	if f.Hits() != 3 {
		t.Fatalf("hits %d", f.Hits())
	}
}
