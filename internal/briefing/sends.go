package briefing

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

// Channels of a delivery.
const (
	// ChannelWhatsApp is the brief on WhatsApp, or, outside the 24-hour
	// window, the template that stands for it while the brief is held.
	ChannelWhatsApp = "whatsapp"
	ChannelEmail    = "email"
)

// Delivery names one delivery of a digest: the digest of Date (the day it
// is about, YYYY-MM-DD in MUNSHI_TZ) to Recipient (an E.164 phone or an
// email address) by Channel. The store keeps each one once.
type Delivery struct {
	Date      string
	Recipient string
	Channel   string
}

// Sends is what the digest needs of the store. Every method that writes is
// one transaction.
type Sends interface {
	// ClaimDelivery records d and enqueues effects; held, when not nil, is
	// kept to be sent when the recipient next writes (ReleaseDigests). It
	// reports false, writing nothing, when d was claimed before.
	ClaimDelivery(ctx context.Context, d Delivery, held *domain.Effect, effects ...domain.Effect) (bool, error)
	// HoldDelivery keeps held for the recipient's next message after a
	// claimed send was refused, and enqueues effects. It reports false,
	// writing nothing, when d was not claimed or already holds something.
	HoldDelivery(ctx context.Context, d Delivery, held domain.Effect, effects ...domain.Effect) (bool, error)
	// ReleaseDigests enqueues what is held for recipient in deliveries claimed
	// at or after since, once each, and says how many it enqueued.
	ReleaseDigests(ctx context.Context, recipient string, since time.Time) (int, error)
	// Deliveries counts the deliveries claimed for a date.
	Deliveries(ctx context.Context, date string) (int, error)
	// LastInbound is when phone last wrote to Munshi; false when it never
	// did (or the record is past its retention).
	LastInbound(ctx context.Context, phone string) (time.Time, bool, error)
	// SentMessage is the outbox message the provider knows by providerID,
	// for a status callback that reports its failure.
	SentMessage(ctx context.Context, providerID string) (outbox.Message, bool, error)
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	// KeepEdition keeps k as the edition of its date, stamped KeptAt with
	// the store's clock, unless one is kept already, and returns the
	// edition kept: k, or the earlier one.
	KeepEdition(ctx context.Context, k Kept) (Kept, error)
	// KeptEdition is the edition kept for date (YYYY-MM-DD); false when
	// none was.
	KeptEdition(ctx context.Context, date string) (Kept, bool, error)
}
