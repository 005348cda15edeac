package metrics

import (
	"time"

	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds every collector Munshi updates.
type Metrics struct {
	Registry *prometheus.Registry

	Requests       *prometheus.CounterVec   // HTTP requests by route and status code
	Replies        *prometheus.CounterVec   // replies by outcome (answered, duplicate, refused, timeout)
	WebhookLatency prometheus.Histogram     // seconds to answer a webhook
	Routing        *prometheus.CounterVec   // routing decisions by tier and intent
	RoutingLatency *prometheus.HistogramVec // seconds to route a message, by tier
	OutboxSends    *prometheus.CounterVec   // outbox attempts by kind and outcome
	LLMCalls       *prometheus.CounterVec   // LLM calls by purpose and outcome
	LLMTokens      *prometheus.CounterVec   // LLM tokens by purpose and direction (prompt, response)
	MemoryFailures *prometheus.CounterVec   // failed calls to the shared memory store, by operation
	Media          *prometheus.CounterVec   // inbound voice notes and photos by kind and outcome
	Handoffs       *prometheus.CounterVec   // conversations handed over to the office, by trigger
}

// New registers Munshi's metrics, and outboxDepth as a gauge read on scrape.
func New(outboxDepth func() float64) *Metrics {
	r := prometheus.NewRegistry()
	r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{
		Registry: r,
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		Replies: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_replies_total", Help: "Replies to inbound messages by outcome.",
		}, []string{"outcome"}),
		WebhookLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "munshi_webhook_seconds", Help: "Time to answer a Twilio webhook.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 4, 8, 12, 15},
		}),
		Routing: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_routing_decisions_total", Help: "Routing decisions by tier and intent.",
		}, []string{"tier", "intent"}),
		RoutingLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "munshi_routing_seconds", Help: "Time to route one message, by tier.",
			Buckets: []float64{.00001, .00005, .0001, .00025, .0005, .001, .01, .1, 1, 4},
		}, []string{"tier"}),
		OutboxSends: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_outbox_sends_total", Help: "Outbox delivery attempts by kind and outcome.",
		}, []string{"kind", "outcome"}),
		LLMCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_llm_calls_total", Help: "LLM calls by purpose and outcome (failures included).",
		}, []string{"purpose", "outcome"}),
		LLMTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_llm_tokens_total", Help: "LLM tokens by purpose and direction.",
		}, []string{"purpose", "direction"}),
		MemoryFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_memory_failures_total", Help: "Failed calls to the shared memory store (Redis), by operation.",
		}, []string{"op"}),
		Media: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_media_messages_total", Help: "Inbound media messages (voice notes, photos, other files) by kind and outcome.",
		}, []string{"kind", "outcome"}),
		Handoffs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "munshi_handoffs_total", Help: "Conversations handed over to the office, by trigger (asked, not_understood, gave_up, dispute).",
		}, []string{"trigger"}),
	}
	r.MustRegister(m.Handoffs)
	r.MustRegister(m.Requests, m.Replies, m.WebhookLatency, m.Routing, m.RoutingLatency, m.OutboxSends, m.LLMCalls,
		m.LLMTokens, m.MemoryFailures, m.Media)
	if outboxDepth != nil {
		r.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "munshi_outbox_depth", Help: "Outbox messages waiting to be sent.",
		}, outboxDepth))
	}
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

// WatchMemory exports whether conversation memory is degraded (1) or not.
func (m *Metrics) WatchMemory(degraded func() bool) {
	m.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "munshi_memory_degraded", Help: "1 while the shared memory store is unreachable and Munshi answers without memory.",
	}, func() float64 {
		if degraded() {
			return 1
		}
		return 0
	}))
}

// SyncEntity is how fresh one synced entity of the ERP is.
type SyncEntity struct {
	Entity   string
	Age      time.Duration // since its data was last written in full; <0: never
	Failures int           // runs failed in a row
	Stale    bool          // older than three tiers
}

// WatchSync exports each synced entity's age, failures in a row and
// staleness, read from status at every scrape.
func (m *Metrics) WatchSync(status func() []SyncEntity) {
	m.Registry.MustRegister(syncCollector{status})
}

var (
	syncAge = prometheus.NewDesc("munshi_sync_age_seconds",
		"Seconds since the entity's copy of the ERP was last synced in full (-1: never).", []string{"entity"}, nil)
	syncFailures = prometheus.NewDesc("munshi_sync_failures",
		"Sync runs of the entity failed in a row.", []string{"entity"}, nil)
	syncStale = prometheus.NewDesc("munshi_sync_stale",
		"1 while the entity's copy is older than three of its tiers.", []string{"entity"}, nil)
)

type syncCollector struct{ status func() []SyncEntity }

func (c syncCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- syncAge
	ch <- syncFailures
	ch <- syncStale
}

func (c syncCollector) Collect(ch chan<- prometheus.Metric) {
	for _, e := range c.status() {
		age := e.Age.Seconds()
		if e.Age < 0 {
			age = -1
		}
		stale := 0.0
		if e.Stale {
			stale = 1
		}
		ch <- prometheus.MustNewConstMetric(syncAge, prometheus.GaugeValue, age, e.Entity)
		ch <- prometheus.MustNewConstMetric(syncFailures, prometheus.GaugeValue, float64(e.Failures), e.Entity)
		ch <- prometheus.MustNewConstMetric(syncStale, prometheus.GaugeValue, stale, e.Entity)
	}
}
