package briefing

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Inbox is the webhook's record of incoming messages (webhook.Inbox),
// stated here so that the digest's delivery does not import the Twilio
// edge: HeldBriefs passes every call through and hears of each claim.
type Inbox interface {
	Claim(ctx context.Context, in domain.Inbound, lease time.Duration) (claimed, done bool, reply domain.Reply, err error)
	SaveReply(ctx context.Context, sid string, reply domain.Reply) error
	Release(ctx context.Context, sid string) error
	Discard(ctx context.Context, sid string) error
	ClaimAbandoned(ctx context.Context, lease time.Duration, limit int) ([]domain.Inbound, error)
	WroteSince(ctx context.Context, in domain.Inbound) (bool, error)
}

// HeldBriefs is the inbox with the held digest in it: a person whose brief
// was held (they were outside WhatsApp's window) gets it as soon as a new
// message of theirs is claimed.
type HeldBriefs struct {
	Inbox
	Digest *Service
}

// Claim claims in and, when this delivery now holds it, sends its sender
// the briefs held for them.
func (h HeldBriefs) Claim(ctx context.Context, in domain.Inbound, lease time.Duration) (claimed, done bool, reply domain.Reply, err error) {
	claimed, done, reply, err = h.Inbox.Claim(ctx, in, lease)
	if claimed && err == nil {
		h.Digest.Replied(ctx, in.From)
	}
	return claimed, done, reply, err
}

// StatusRecorder records Twilio's status callbacks
// (webhook.StatusRecorder).
type StatusRecorder interface {
	RecordDeliveryStatus(ctx context.Context, messageSID, status, errorCode string) error
}

// Statuses records status callbacks and then lets the digest fall back
// when Twilio reports a brief undelivered outside the window (63016).
type Statuses struct {
	StatusRecorder
	Digest *Service
}

// RecordDeliveryStatus records the status, then hears of it.
func (d Statuses) RecordDeliveryStatus(ctx context.Context, messageSID, status, errorCode string) error {
	if err := d.StatusRecorder.RecordDeliveryStatus(ctx, messageSID, status, errorCode); err != nil {
		return err
	}
	d.Digest.DeliveryFailed(ctx, messageSID, status, errorCode)
	return nil
}
