package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/health"
	"github.com/munshi/munshi/internal/mail"
	"github.com/munshi/munshi/internal/metrics"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/webhook"
)

// Main is the whole program, wired: tests start it on port :0 with a temp
// database and talk to it over HTTP.
type Main struct {
	Config config.Config
	Demo   bool
	Logger *slog.Logger
	// Now is the clock of the books, the inbox and the retention sweep;
	// tests move it. Nil is time.Now.
	Now func() time.Time

	Store      store.Store
	Audit      *audit.Log
	Metrics    *metrics.Metrics
	Router     *liveRouter
	LLM        *gemini.Client // nil without GEMINI_API_KEY
	Orders     *orders.Service
	Memory     memory.Store
	Reports    *reports.Tools
	redis      *redis.Store // nil without REDIS_URL
	Dispatcher *outbox.Dispatcher
	Channels   orders.Channels // whether accounts can be told right now
	Pipeline   *webhook.Pipeline

	listener net.Listener
	server   *http.Server
	stop     context.CancelFunc
	workers  sync.WaitGroup
}

// CatalogPoll is how often a running server looks for an imported catalog
// or customer list.
var CatalogPoll = 5 * time.Second

// RecoveryPoll is how often a running server looks for messages a crash
// left unanswered whose claim has run out; it also looks at start.
var RecoveryPoll = 30 * time.Second

// RetentionSweep is how often inbound records and audit entries past their
// retention are deleted.
var RetentionSweep = time.Hour

// NewMain returns a program for the configuration, logging to logw.
func NewMain(cfg config.Config, demoMode bool, logw io.Writer) *Main {
	level := map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}[cfg.LogLevel]
	return &Main{Config: cfg, Demo: demoMode, Logger: slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: level}))}
}

// now reads Main's clock.
func (m *Main) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Open opens the database, seeds the demo if asked, and wires every part,
// without listening yet. Commands that do not serve HTTP stop here.
func (m *Main) Open(ctx context.Context) error {
	books, err := store.Open(ctx, m.Config.DB, store.WithClock(m.now))
	if err != nil {
		return err
	}
	m.Store = books
	if m.Demo {
		seeded, err := demo.Seed(ctx, books, time.Now())
		if err != nil {
			return err
		}
		if seeded {
			m.Logger.Info("seeded the demo distributor", "db", m.Config.DB,
				"owner", demo.OwnerPhone, "accounts", demo.AccountsPhone, "sales", demo.SalesPhone)
		}
	}
	m.Audit = audit.New(books, m.Config.Secrets(), m.Logger)
	m.Metrics = metrics.New(func() float64 {
		n, _ := books.OutboxDepth(context.Background())
		return float64(n)
	})
	if m.Config.GeminiAPIKey != "" {
		m.LLM, err = gemini.New(gemini.Config{APIKey: m.Config.GeminiAPIKey, Model: m.Config.GeminiModel,
			BaseURL: m.Config.GeminiBaseURL, Recorder: m.recordLLM})
		if err != nil {
			return err
		}
	} else {
		m.Logger.Info("GEMINI_API_KEY is not set: running without the LLM tier")
	}
	m.Router = &liveRouter{}
	router, parser, err := m.compileCatalog(ctx)
	if err != nil {
		return err
	}
	m.Router.current.Store(router)
	senders, err := m.senders()
	if err != nil {
		return err
	}
	m.Dispatcher = &outbox.Dispatcher{Store: books, Senders: senders, Logger: m.Logger, Record: m.recordSend,
		Redact: m.Audit.RedactString}
	m.Channels = notifyChannels{m.Dispatcher}
	m.Orders = m.newOrders(parser)
	if err := m.newMemory(); err != nil {
		return err
	}
	m.Reports = reports.NewTools(books, m.Audit)
	m.Reports.Names, m.Reports.Logger = m.Router, m.Logger
	answers := &conversation.Service{
		Users: books, Router: m.Router, Orders: m.Orders, Reports: m.Reports, Memory: m.Memory,
		Audit: m.Audit, Logger: m.Logger, Observer: routingMetrics{m.Metrics}, Refusals: books,
	}
	if m.LLM != nil {
		answers.Agent = &reports.Agent{Model: m.LLM, Tools: m.Reports}
	}
	m.Pipeline = &webhook.Pipeline{
		Inbox:     books,
		Seen:      m.Memory,
		Responder: answers,
		Late:      outbox.LateReplies{Store: books, Dispatcher: m.Dispatcher},
		Audit:     m.Audit,
		Redact:    m.Audit.RedactString,
		Now:       m.now, // the books' clock too, even when a test moves it
		Budget:    m.Config.Budget,
		Logger:    m.Logger,
	}
	return nil
}

// vocabulary reads the catalog and the customers the router and the order
// parser recognise in messages.
func vocabulary(ctx context.Context, books store.Catalog) (intent.Vocabulary, error) {
	products, err := books.Products(ctx)
	if err != nil {
		return intent.Vocabulary{}, err
	}
	customers, err := books.Customers(ctx)
	if err != nil {
		return intent.Vocabulary{}, err
	}
	return intent.Vocabulary{Products: products, Customers: customers}, nil
}

// newRouter trains the intent router on a vocabulary, with the LLM tier
// when there is one.
func newRouter(v intent.Vocabulary, llm *gemini.Client) (*intent.Router, error) {
	var opts intent.Options
	if llm != nil {
		opts.LLM = llm
	}
	return intent.NewRouter(v, opts)
}

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

// newMemory keeps conversations in Redis when REDIS_URL is set, behind a
// wrapper that answers without memory while Redis is down, else in this
// process.
func (m *Main) newMemory() error {
	if m.Config.RedisURL == "" {
		m.Memory = memory.NewInProcess(memory.Options{})
		return nil
	}
	redis.RouteLogs(m.Logger)
	rs, err := redis.New(m.Config.RedisURL, m.Config.RedisPrefix, redis.Options{Logger: m.Logger})
	if err != nil {
		return err
	}
	m.redis = rs
	// Memory is resilient and Munshi starts without it, but an operator
	// should not have to find a wrong REDIS_URL in /readyz.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	if err := rs.Ping(ctx); err != nil {
		m.Logger.Warn("REDIS_URL does not answer: answering without conversation memory until it does",
			"err", m.Audit.RedactString(err.Error()))
	}
	cancel()
	resilient := memory.NewResilient(rs, memory.ResilientOptions{Logger: m.Logger, OnFailure: func(op string, _ error) {
		m.Metrics.MemoryFailures.WithLabelValues(op).Inc()
	}})
	m.Metrics.WatchMemory(resilient.Degraded)
	m.Memory = resilient
	return nil
}

// newOrders wires order taking to the catalog and customers.
func (m *Main) newOrders(p *orders.Parser) *orders.Service {
	svc := &orders.Service{
		Books: m.Store, Parser: p, Audit: m.Audit, Logger: m.Logger,
		MinimumOrder: m.Config.MinimumOrder, AccountsEmail: m.Config.AccountsEmails(), Nudge: m.Dispatcher.Nudge,
		Channels: m.Channels,
	}
	if m.LLM != nil {
		svc.Extractor = m.LLM
	}
	return svc
}

func (m *Main) senders() (map[string]outbox.Sender, error) {
	c := m.Config
	senders := map[string]outbox.Sender{}
	if c.TwilioAccountSID == "" {
		m.Logger.Warn("no Twilio credentials: outbound WhatsApp messages are logged, not sent")
		senders[domain.EffectWhatsApp] = &twilio.LogSender{Logger: m.Logger}
	} else {
		s, err := twilio.NewSender(twilio.SenderConfig{AccountSID: c.TwilioAccountSID, AuthToken: c.TwilioAuthToken,
			From: c.TwilioWhatsAppFrom, APIURL: c.TwilioAPIURL, PublicURL: c.PublicURL})
		if err != nil {
			return nil, err
		}
		senders[domain.EffectWhatsApp] = s
	}
	if c.SMTPURL != "" {
		s, err := mail.NewSender(c.SMTPURL, c.MailFrom)
		if err != nil {
			return nil, err
		}
		senders[domain.EffectEmail] = s
	}
	return senders, nil
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
}

// notifyChannels tells orders whether notifications can go out now, from
// the dispatcher's holds.
type notifyChannels struct{ d *outbox.Dispatcher }

var _ orders.Channels = notifyChannels{}

// channelNames are the kinds of outbox message as people say them.
var channelNames = map[string]string{domain.EffectWhatsApp: "WhatsApp", domain.EffectEmail: "email"}

// Problem reports every held kind: "WhatsApp: authentication failed (Twilio 401)".
func (c notifyChannels) Problem() (string, bool) {
	holds := c.d.Holds()
	var parts []string
	for _, kind := range slices.Sorted(maps.Keys(holds)) {
		name := channelNames[kind]
		if name == "" {
			name = kind
		}
		parts = append(parts, name+": "+holds[kind].Reason)
	}
	return strings.Join(parts, "; "), len(parts) > 0
}

// outboxChecks are the readiness checks of the outbox, one per kind that
// has a sender: degraded while sending that kind is held.
func (m *Main) outboxChecks() []health.Check {
	var checks []health.Check
	for _, kind := range slices.Sorted(maps.Keys(m.Dispatcher.Senders)) {
		checks = append(checks, health.Check{Name: kind, Degraded: true,
			Probe: func(context.Context) error { return m.Dispatcher.Check(kind) }})
	}
	return checks
}

// Run starts the HTTP server, the outbox dispatcher and the periodic jobs
// (catalog reload, recovery of messages a crash left unanswered, retention
// sweep) and returns once the server is listening. Addr() then tells where.
func (m *Main) Run(ctx context.Context) error {
	if m.Store == nil {
		if err := m.Open(ctx); err != nil {
			return err
		}
	}
	allowUnsigned := false
	switch {
	case m.Config.TwilioAuthToken != "":
	case m.Config.Loopback():
		allowUnsigned = true
		m.Logger.Warn("TWILIO_AUTH_TOKEN is not set: accepting unsigned webhooks, on this loopback address only", "addr", m.Config.Addr)
	default:
		m.Logger.Warn("TWILIO_AUTH_TOKEN is not set and the address is not loopback: every webhook will be refused", "addr", m.Config.Addr)
	}
	mux := http.NewServeMux()
	(&webhook.Handler{
		Pipeline: m.Pipeline, Statuses: m.Store, AuthToken: m.Config.TwilioAuthToken, PublicURL: m.Config.PublicURL,
		AllowUnsigned: allowUnsigned, Logger: m.Logger, Observer: webhookMetrics{m.Metrics},
	}).Register(mux)
	checks := []health.Check{{Name: "database", Probe: m.Store.Ping}}
	if m.redis != nil {
		checks = append(checks, health.Check{Name: "redis", Probe: m.Memory.Ping, Degraded: true})
	}
	checks = append(checks, m.outboxChecks()...)
	(&health.Handler{Checks: checks}).Register(mux)
	mux.Handle("GET /metrics", m.Metrics.Handler())

	ln, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", m.Config.Addr, err)
	}
	m.listener = ln
	m.server = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      m.Config.Budget + 5*time.Second,
		ErrorLog:          slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn),
	}
	workCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	m.stop = stop
	m.workers.Add(5)
	go func() {
		defer m.workers.Done()
		m.Dispatcher.Run(workCtx)
	}()
	go func() {
		defer m.workers.Done()
		m.watchCatalog(workCtx, CatalogPoll)
	}()
	go func() {
		defer m.workers.Done()
		every(workCtx, RecoveryPoll, m.recoverUnanswered)
	}()
	go func() {
		defer m.workers.Done()
		every(workCtx, RetentionSweep, m.sweep)
	}()
	go func() {
		defer m.workers.Done()
		if err := m.server.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.Logger.Error("http server stopped", "err", err)
		}
	}()
	m.Logger.Info("munshi is listening", "addr", ln.Addr().String())
	return nil
}

// every runs job at once and then every interval until ctx ends.
func every(ctx context.Context, interval time.Duration, job func(context.Context)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		job(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// recoverUnanswered answers, through the outbox, the messages a crash left
// claimed and unanswered, and closes those too old to answer.
func (m *Main) recoverUnanswered(ctx context.Context) {
	r, err := m.Pipeline.Recover(ctx)
	if err != nil && ctx.Err() == nil {
		m.Logger.Error("recovery of unanswered messages failed", "err", err)
	}
	if r != (webhook.Recovered{}) {
		m.Logger.Info("recovered messages a crash left unanswered",
			"answered", r.Answered, "closed", r.Closed, "elsewhere", r.Elsewhere, "failed", r.Failed)
	}
}

// sweep deletes the inbound records past MUNSHI_RETENTION and the audit
// entries past MUNSHI_AUDIT_RETENTION.
func (m *Main) sweep(ctx context.Context) {
	if m.Config.Retention <= 0 || m.Config.AuditRetention <= 0 {
		return // a configuration built in code without them keeps everything
	}
	now := m.now()
	inbound, err := m.Store.SweepInbound(ctx, now.Add(-m.Config.Retention))
	if err != nil && ctx.Err() == nil {
		m.Logger.Error("retention sweep of inbound messages failed", "err", err)
	}
	audited, err := m.Store.SweepAudit(ctx, now.Add(-m.Config.AuditRetention))
	if err != nil && ctx.Err() == nil {
		m.Logger.Error("retention sweep of the audit log failed", "err", err)
	}
	if inbound+audited > 0 {
		m.Logger.Info("deleted records past their retention", "inbound", inbound, "audit", audited)
	}
}

// Addr is the address the server listens on.
func (m *Main) Addr() string {
	if m.listener == nil {
		return ""
	}
	return m.listener.Addr().String()
}

// Close stops taking requests, lets in-flight ones finish, stops the
// dispatcher after its current sends, and closes the database.
func (m *Main) Close() error {
	var errs []error
	if m.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), m.Config.Budget+3*time.Second)
		if err := m.server.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("http shutdown: %w", err))
		}
		cancel()
	}
	if m.Pipeline != nil {
		// Late answers go to the outbox; give them a moment before the
		// dispatcher and the database stop.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := m.Pipeline.Wait(ctx); err != nil {
			m.Logger.Warn("shutdown: some late answers were not queued", "err", err)
		}
		cancel()
	}
	if m.stop != nil {
		m.stop()
	}
	m.workers.Wait()
	if m.Store != nil {
		if err := m.Store.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if m.redis != nil {
		if err := m.redis.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
