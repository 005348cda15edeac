package main

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/handoff"
)

// HandoffPoll is how often a running server looks for handoffs the office
// has not answered in MUNSHI_HANDOFF_TIMEOUT, to remind them once.
var HandoffPoll = time.Minute

// newHandoffs wires handing over to the office: to MUNSHI_HANDOFF_TO (or
// the owners), through the outbox, outside WhatsApp's window with the
// digest's template, redacted as the audit log is, counted by trigger.
func (m *Main) newHandoffs(ctx context.Context) *handoff.Service {
	for _, t := range handoff.Triggers {
		m.Metrics.Handoffs.WithLabelValues(string(t)) // every trigger shows, at 0 too
	}
	// An office phone answers through the chat: one Munshi does not know
	// is refused like any stranger.
	for _, p := range m.Config.HandoffTo {
		if _, err := m.Store.UserByPhone(ctx, p); domain.ErrorCode(err) == domain.ENOTFOUND {
			m.Logger.Warn("MUNSHI_HANDOFF_TO names a phone that is not a user: it is sent handoffs but cannot answer them until it is imported as one", "phone", p)
		}
	}
	return &handoff.Service{
		Store: m.Store, Users: m.Store, Audit: m.Audit, Window: m.Digest, Redactor: m.Audit,
		Office: m.Config.HandoffTo, Timeout: m.Config.HandoffTimeout,
		Hours: handoff.Hours{Open: m.Config.OfficeOpen, Close: m.Config.OfficeClose, Closed: m.Config.OfficeClosed, Zone: m.location()},
		Now:   m.now, Nudge: m.Dispatcher.Nudge, Logger: m.Logger,
		Opened: func(t handoff.Trigger) { m.Metrics.Handoffs.WithLabelValues(string(t)).Inc() },
	}
}
