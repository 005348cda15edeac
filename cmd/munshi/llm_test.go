package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/gemini/geminitest"
)

// helpAfter answers a classification with intent help after delay.
func helpAfter(delay time.Duration) geminitest.Answer {
	a := geminitest.Response("STOP", geminitest.Usage{Prompt: 312, Response: 9}, geminitest.TextPart(`{"intent":"help","confidence":0.93}`))
	a.Delay = delay
	return a
}

// hangs is a Gemini that never answers.
var hangs = geminitest.Answer{Hang: true}

// needsLLM is a message the local tiers abstain on, picked by routing a few
// ambiguous ones without an LLM.
var needsLLM = func() string {
	products, customers, _, _ := demo.Data()
	r, err := intent.NewRouter(intent.Vocabulary{Products: products, Customers: customers}, intent.Options{})
	if err != nil {
		panic(err)
	}
	for _, text := range []string{"tum kya karte ho", "aapka kaam kya hai", "assalamualaikum", "samajh nahi aaya kaise use kare",
		"how much money is stuck in the market", "no thanks cancel it"} {
		if r.Route(context.Background(), text).Tier == intent.TierNone {
			return text
		}
	}
	panic("every candidate was resolved locally: add one the router abstains on")
}()

func startWithGemini(t testing.TB, g *geminitest.Server, budget string) *Main {
	return startMain(t, newFakeTwilio(t).URL, map[string]string{
		"GEMINI_API_KEY": geminitest.APIKey, "GEMINI_MODEL": geminitest.Model, "GEMINI_BASE_URL": g.URL, "MUNSHI_BUDGET": budget,
	})
}

func TestLLMTierAnswersWhatTheLocalTiersCannot(t *testing.T) {
	g := geminitest.Start(t, helpAfter(0))
	m := startWithGemini(t, g, "12s")
	reply := say(t, m, "SMllm1", demo.SalesPhone, needsLLM)
	if !strings.Contains(reply, "place an order") || g.Hits() != 1 {
		t.Fatalf("reply %q after %d calls", reply, g.Hits())
	}
	// A message the rules resolve never reaches the LLM.
	say(t, m, "SMllm2", demo.SalesPhone, "GC ka stock kitna hai?")
	if g.Hits() != 1 {
		t.Fatalf("%d LLM calls, want 1", g.Hits())
	}
	calls, _ := m.Store.AuditEntries(t.Context(), "llm_call")
	if len(calls) != 1 || calls[0].Detail["prompt_tokens"] != 312.0 || calls[0].Detail["outcome"] != "ok" {
		t.Fatalf("llm audit %+v", calls)
	}
	for _, e := range calls {
		if strings.Contains(fmt.Sprint(e.Detail), geminitest.APIKey) {
			t.Fatal("the API key reached the audit log")
		}
	}
}

func TestHangingLLMStillAnswersInsideTheBudget(t *testing.T) {
	g := geminitest.Start(t, hangs)
	m := startWithGemini(t, g, "3s")
	done := make(chan string, 1)
	go func() {
		_, got := send(t, m, "SMhang", demo.SalesPhone, needsLLM, false)
		done <- strings.Join(got, "\n")
	}()
	select {
	case reply := <-done:
		if !strings.Contains(reply, "didn't understand") && !strings.Contains(reply, "Working on it") {
			t.Fatalf("reply %q", reply)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no reply within Twilio's 15 s")
	}
}

// The replies a message that needs the LLM gets: the LLM's reading of it
// (help, from the fake), or the local tiers' when the LLM gives nothing.
var (
	llmAnswered = want{has: []string{"place an order"}, lacks: []string{"didn't understand"}}
	llmGaveUp   = want{has: []string{"didn't understand"}}
)

// BenchmarkLLMRoundTrip is a webhook whose message needs the LLM tier, with
// the fake Gemini answering in 800 ms.
func BenchmarkLLMRoundTrip(b *testing.B) {
	benchMessages(b, startWithGemini(b, geminitest.Start(b, helpAfter(800*time.Millisecond)), "12s"), demo.SalesPhone, needsLLM, llmAnswered)
}

// BenchmarkHangingLLMRoundTrip is the same message the first time Gemini
// does not answer: the breaker is closed, and the reply comes when the
// call's timeout (and its one retry) give up. Before each iteration, not
// timed, Gemini answers one message, which closes the breaker again.
func BenchmarkHangingLLMRoundTrip(b *testing.B) {
	g := geminitest.Start(b, helpAfter(0))
	m := startWithGemini(b, g, "12s")
	client := &http.Client{}
	var lat latencies
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		g.Script(helpAfter(0))
		_, reply := post(b, client, m, fmt.Sprintf("SMheal%09d", i), demo.SalesPhone, needsLLM)
		llmAnswered.check(b, needsLLM, reply)
		g.Script(hangs)
		calls := g.Hits()
		b.StartTimer()
		took, reply := post(b, client, m, fmt.Sprintf("SMhang%09d", i), demo.SalesPhone, needsLLM)
		lat = append(lat, took)
		llmGaveUp.check(b, needsLLM, reply)
		if g.Hits() == calls {
			b.Fatal("Gemini was not called: the breaker was open")
		}
	}
	lat.report(b)
}

// BenchmarkBreakerOpenLLMRoundTrip is the same message once Gemini has
// hung long enough for the circuit breaker to open (before the timer):
// no call is made and the local tiers answer at once.
func BenchmarkBreakerOpenLLMRoundTrip(b *testing.B) {
	g := geminitest.Start(b, hangs)
	m := startWithGemini(b, g, "12s")
	client := &http.Client{}
	for i := 0; !breakerOpen(b, m); i++ {
		if i == 20 {
			b.Fatalf("the breaker is still closed after %d messages to a hanging Gemini", i)
		}
		_, reply := post(b, client, m, fmt.Sprintf("SMopen%09d", i), demo.SalesPhone, needsLLM)
		llmGaveUp.check(b, needsLLM, reply)
	}
	calls := g.Hits()
	benchMessages(b, m, demo.SalesPhone, needsLLM, llmGaveUp)
	if n := g.Hits() - calls; n != 0 {
		b.Fatalf("%d calls reached Gemini with the breaker open: the cool-down ran out mid-benchmark", n)
	}
}

// breakerOpen reports whether an LLM call has been refused by the breaker.
func breakerOpen(b *testing.B, m *Main) bool {
	calls, err := m.Store.AuditEntries(context.Background(), "llm_call")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range calls {
		if c.Detail["outcome"] == "breaker_open" {
			return true
		}
	}
	return false
}

func TestEvalCountsLLMCalls(t *testing.T) {
	g := geminitest.Start(t, helpAfter(0))
	env := map[string]string{"MUNSHI_DB": t.TempDir() + "/none.db", "GEMINI_API_KEY": geminitest.APIKey,
		"GEMINI_MODEL": geminitest.Model, "GEMINI_BASE_URL": g.URL}
	out, _, err := cli(t, env, "", "eval", "../../intent/corpus/heldout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var calls, messages int
	var per100 float64
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "LLM calls:") {
			fmt.Sscanf(line, "LLM calls: %d for %d messages (%f per 100 messages)", &calls, &messages, &per100)
		}
	}
	if messages == 0 || calls != g.Hits() || calls == 0 {
		t.Fatalf("eval reported %d calls for %d messages; the fake saw %d\n%s", calls, messages, g.Hits(), out)
	}
	if !strings.Contains(out, "llm ") {
		t.Fatalf("no llm tier in the report:\n%s", out)
	}
	t.Logf("held-out: %d LLM calls for %d messages (%.1f per 100)", calls, messages, per100)
}
