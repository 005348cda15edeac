package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/catalog"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/handoff"
	"github.com/munshi/munshi/internal/health"
	"github.com/munshi/munshi/internal/metrics"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/scheduler"
	"github.com/munshi/munshi/internal/sheets"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/assets"
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

	Store   store.Store
	Audit   *audit.Log
	Metrics *metrics.Metrics
	Router  *intent.Live
	// Catalog rebuilds Router and the order parser when an import changes
	// the catalog or the customers.
	Catalog *catalog.Watch
	LLM     *gemini.Client // nil without GEMINI_API_KEY
	Orders  *orders.Service
	Memory  memory.Store
	Reports *reports.Tools
	redis   *redis.Store // nil without REDIS_URL
	// Media keeps generated charts and files for MUNSHI_MEDIA_TTL: in
	// Redis (mediaRedis) when REDIS_URL is set, else in this process.
	Media      media.Store
	mediaRedis *redis.MediaStore
	Dispatcher *outbox.Dispatcher
	// Jobs runs the periodic work while serving: built by Run (schedule),
	// stopped by Close.
	Jobs     *scheduler.Scheduler
	Channels orders.Channels // whether accounts can be told right now
	Pipeline *webhook.Pipeline
	Digest   *briefing.Service // the daily digest's delivery
	Handoffs *handoff.Service  // handing conversations over to the office (handoff.go)
	// Sheets is the Google Sheet of MUNSHI_SHEETS_ID (nil without one);
	// SheetsSync pulls its tabs with MUNSHI_SHEETS_SYNC (sheets.go).
	Sheets     *sheets.Client
	SheetsSync *sheets.Sync
	// Sync keeps the copy of the ERP's books of MUNSHI_SYNC_CONFIG
	// (erpsync.go) from Source; both nil without one.
	Sync   *erpsync.Syncer
	Source *erp.Source

	listener net.Listener
	server   *http.Server
	stop     context.CancelFunc
	workers  sync.WaitGroup
}

// OutboxPoll is how often the outbox dispatcher looks for due messages
// when nothing nudges it.
var OutboxPoll = time.Second

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
	books, err := store.Open(ctx, m.Config.DB, store.WithClock(m.now), store.WithPoolSize(m.Config.DBPool))
	if err != nil {
		return err
	}
	m.Store = books
	if m.Demo {
		// Instances starting together on one empty database seed it once:
		// the others wait, then find it seeded.
		seeded := false
		err := books.Exclusive(ctx, "demo seed", func(ctx context.Context) error {
			var err error
			seeded, err = demo.Seed(ctx, books, m.now())
			return err
		})
		if err != nil {
			return err
		}
		if seeded {
			m.Logger.Info("seeded the demo distributor", "db", store.Redacted(m.Config.DB),
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
	m.Catalog = &catalog.Watch{Books: books, Options: routerOptions(m.LLM), Logger: m.Logger}
	parser, err := m.Catalog.Load(ctx)
	if err != nil {
		return err
	}
	m.Router = m.Catalog.Router
	senders, err := m.senders()
	if err != nil {
		return err
	}
	m.Dispatcher = &outbox.Dispatcher{Store: books, Senders: senders, Logger: m.Logger, Record: m.recordSend,
		Redact: m.Audit.RedactString, Poll: OutboxPoll, Lease: m.Config.OutboxLease}
	if err := m.openSheets(ctx); err != nil {
		return err
	}
	if err := m.openSync(ctx); err != nil {
		return err
	}
	m.Channels = notifyChannels{m.Dispatcher}
	m.Orders = m.newOrders(parser)
	m.Catalog.Orders = m.Orders
	if err := m.newMemory(); err != nil {
		return err
	}
	if err := m.newMedia(); err != nil {
		return err
	}
	m.Reports = reports.NewTools(books, m.Audit)
	m.Reports.Names, m.Reports.Logger, m.Reports.Now = m.Router, m.Logger, m.now
	m.Digest = m.newDigest()
	m.Reports.Location, m.Reports.Briefs = m.Config.Location, m.Digest
	if m.Sync != nil {
		m.Reports.StaleAfter = map[string]time.Duration{}
		for f, d := range m.Sync.Mapping.StaleAfter() {
			m.Reports.StaleAfter[string(f)] = d
		}
	}
	m.Reports.Files, m.Reports.AssetsHost = mediaShelf{store: m.Media, public: m.publicBase()}, m.publicBase()+assets.Prefix
	answers := &conversation.Service{
		Users: books, Router: m.Router, Orders: m.Orders, Reports: m.Reports, Memory: m.Memory,
		Audit: m.Audit, Logger: m.Logger, Observer: routingMetrics{m.Metrics}, Refusals: books,
	}
	if m.LLM != nil {
		answers.Agent = &reports.Agent{Model: m.LLM, Tools: m.Reports}
	}
	m.Handoffs = m.newHandoffs(ctx)
	answers.Handoffs = m.Handoffs
	if err := m.listen(answers); err != nil {
		return err
	}
	m.Pipeline = &webhook.Pipeline{
		Inbox:     briefing.HeldBriefs{Inbox: books, Digest: m.Digest},
		Seen:      m.seer(),
		Responder: answers,
		Late:      outbox.LateReplies{Store: books, Dispatcher: m.Dispatcher},
		Audit:     m.Audit,
		Redact:    m.Audit.RedactString,
		MaxBody:   conversation.MaxBodyChars,
		Now:       m.now, // the books' clock too, even when a test moves it
		Budget:    m.Config.Budget,
		Logger:    m.Logger,
	}
	return nil
}

// seer is the dedupe shared by instances with their own books: the
// memory, when it is shared (Redis). Books on PostgreSQL are themselves
// shared, and their inbox claims each MessageSid once for every instance,
// so a second claim in Redis would only cost two round trips a message.
func (m *Main) seer() webhook.Seer {
	if store.IsPostgres(m.Config.DB) {
		return nil
	}
	return m.Memory
}

// newOrders wires order taking to the catalog and customers.
func (m *Main) newOrders(p *orders.Parser) *orders.Service {
	svc := &orders.Service{
		Books: m.Store, Parser: p, Audit: m.Audit, Logger: m.Logger,
		MinimumOrder: m.Config.MinimumOrder, MaxAdvance: m.Config.MaxAdvance, AccountsEmail: m.Config.AccountsEmails(),
		Nudge: m.Dispatcher.Nudge, Channels: m.Channels, Location: m.Config.Location,
		LogOrders: m.Sheets != nil,
	}
	if m.LLM != nil {
		svc.Extractor, svc.Chooser = m.LLM, m.LLM
	}
	return svc
}

// routerOptions gives the router its LLM tier when there is one.
func routerOptions(llm *gemini.Client) intent.Options {
	var opts intent.Options
	if llm != nil {
		opts.LLM = llm
	}
	return opts
}

// Run starts the HTTP server and the scheduler of the periodic jobs (the
// outbox dispatcher, catalog reload, recovery of messages a crash left
// unanswered, retention sweeps) and returns once the server is listening.
// Addr() then tells where.
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
		Pipeline: m.Pipeline, Statuses: briefing.Statuses{StatusRecorder: m.Store, Digest: m.Digest}, AuthToken: m.Config.TwilioAuthToken, PublicURL: m.Config.PublicURL,
		AllowUnsigned: allowUnsigned, Logger: m.Logger, Observer: webhookMetrics{m.Metrics},
	}).Register(mux)
	checks := []health.Check{{Name: "database", Probe: m.Store.Ping}}
	if m.redis != nil {
		checks = append(checks, health.Check{Name: "redis", Probe: m.Memory.Ping, Degraded: true})
	}
	checks = append(checks, m.outboxChecks()...)
	checks = append(checks, m.syncCheck()...)
	(&health.Handler{Checks: checks, Notes: []health.Note{{Name: "digest", Text: m.Digest.Note}}}).Register(mux)
	mux.Handle("GET /metrics", m.Metrics.Handler())
	m.registerMedia(mux)

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
	// Messages held by a wrong set-up are due again at once: a restart with
	// the set-up put right sends them without waiting.
	m.Dispatcher.Resume(workCtx)
	m.Jobs = m.schedule()
	m.workers.Add(3)
	go func() {
		defer m.workers.Done()
		m.catchUpDigest(workCtx)
	}()
	go func() {
		defer m.workers.Done()
		m.Jobs.Run(workCtx)
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

// Addr is the address the server listens on.
func (m *Main) Addr() string {
	if m.listener == nil {
		return ""
	}
	return m.listener.Addr().String()
}

// Close stops taking requests, lets in-flight ones finish, stops the
// scheduled jobs (the dispatcher after its current sends), and closes the
// database.
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
	if m.Dispatcher != nil {
		m.Dispatcher.Wait() // batches (the Sheet's rows) in flight
	}
	if m.Source != nil {
		m.Source.Close()
	}
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
	if m.mediaRedis != nil {
		if err := m.mediaRedis.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
