package main

import (
	"context"

	"github.com/munshi/munshi/internal/scheduler"
	"github.com/munshi/munshi/webhook"
)

// schedule puts the periodic work of a running server on one scheduler:
// the outbox dispatcher (every OutboxPoll and whenever something is
// written to the outbox), the catalog watcher (CatalogPoll), the recovery
// of messages a crash left unanswered (RecoveryPoll), the retention
// sweeps (RetentionSweep), the reminder of handoffs the office has not
// answered (HandoffPoll) and, with MUNSHI_SHEETS_SYNC, the pull of the
// sheet's Catalog and Customers tabs. Each runs once at start.
func (m *Main) schedule() *scheduler.Scheduler {
	s := scheduler.New(scheduler.Options{Logger: m.Logger})
	s.Every("outbox", m.Dispatcher.Poll, m.Dispatcher.Drain).WakeOn(m.Dispatcher.Nudged())
	catalog := s.Every("catalog", CatalogPoll, m.Catalog.Check)
	if m.SheetsSync != nil {
		m.SheetsSync.Taken = func(context.Context) { catalog.Nudge() }
		s.Every("sheets", m.Config.SheetsSync, m.SheetsSync.Run)
	}
	if m.Sync != nil {
		m.Sync.Schedule(s)
	}
	s.Every("recovery", RecoveryPoll, m.recoverUnanswered)
	s.Every("retention", RetentionSweep, m.sweep)
	s.Every("handoffs", HandoffPoll, m.Handoffs.Remind)
	if _, err := s.Cron("digest", m.Config.DigestAt, m.location(), m.Digest.Run); err != nil {
		m.Logger.Error("the daily digest is not scheduled", "spec", m.Config.DigestAt, "err", err)
	}
	return s
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
			"answered", r.Answered, "stale", r.Stale, "closed", r.Closed, "elsewhere", r.Elsewhere, "failed", r.Failed)
	}
}

// catchUpDigest sends the morning's digest at start when Munshi was down
// at MUNSHI_DIGEST_AT, until MUNSHI_DIGEST_LATEST.
func (m *Main) catchUpDigest(ctx context.Context) {
	if m.Config.DigestAt == "" {
		return // a configuration built in code without a digest schedule
	}
	if err := m.Digest.CatchUp(ctx, m.Config.DigestAt, m.Config.DigestLatest); err != nil && ctx.Err() == nil {
		m.Logger.Error("the digest catch-up at start failed", "err", err)
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
