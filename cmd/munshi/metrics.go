package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/metrics"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/webhook"
)

// recordLLM audits and counts every LLM call, refused ones too.
func (m *Main) recordLLM(c gemini.Call) {
	m.Metrics.LLMCalls.WithLabelValues(string(c.Purpose), string(c.Outcome)).Inc()
	m.Metrics.LLMTokens.WithLabelValues(string(c.Purpose), "prompt").Add(float64(c.PromptTokens))
	m.Metrics.LLMTokens.WithLabelValues(string(c.Purpose), "response").Add(float64(c.ResponseTokens))
	detail := map[string]any{"purpose": string(c.Purpose), "model": c.Model, "latency_ms": c.Latency.Milliseconds(),
		"prompt_tokens": c.PromptTokens, "response_tokens": c.ResponseTokens, "outcome": string(c.Outcome), "retry": c.Retry}
	if c.Err != nil {
		detail["error"] = c.Err.Error()
	}
	m.Audit.Record(context.Background(), "system", audit.KindLLM, string(c.Purpose), detail)
}

func (m *Main) recordSend(a outbox.Attempt) {
	msg := a.Message
	detail := map[string]any{"outbox_id": msg.ID, "kind": msg.Kind, "to": msg.To, "attempt": msg.Attempts + 1,
		"outcome": string(a.Outcome)}
	if a.Error != "" {
		detail["error"] = a.Error
	}
	if a.ProviderID != "" {
		detail["provider_id"] = a.ProviderID
	}
	if msg.About != "" {
		detail["about"] = msg.About
	}
	m.Metrics.OutboxSends.WithLabelValues(msg.Kind, string(a.Outcome)).Inc()
	m.Audit.Record(context.Background(), "system", audit.KindOutbound, a.ProviderID, detail)
	if m.Digest != nil {
		m.Digest.Undelivered(context.Background(), a)
	}
}

type routingMetrics struct{ m *metrics.Metrics }

func (r routingMetrics) Routed(d intent.Decision) {
	r.m.Routing.WithLabelValues(string(d.Tier), string(d.Intent)).Inc()
	r.m.RoutingLatency.WithLabelValues(string(d.Tier)).Observe(d.Latency.Seconds())
}

type webhookMetrics struct{ m *metrics.Metrics }

func (w webhookMetrics) Observed(route string, code int, outcome webhook.Outcome, took time.Duration) {
	w.m.Requests.WithLabelValues(route, fmt.Sprint(code)).Inc()
	if route == "/webhook/twilio" && code == http.StatusOK {
		w.m.WebhookLatency.Observe(took.Seconds())
		w.m.Replies.WithLabelValues(string(outcome)).Inc()
	}
}
