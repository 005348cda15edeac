package outbox

import (
	"context"
	"fmt"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store/sqlite"
)

// Enqueuer writes outbox rows.
type Enqueuer interface {
	Enqueue(ctx context.Context, msgs ...sqlite.OutboxMessage) error
}

// LateReplies sends answers that missed the webhook budget as ordinary
// WhatsApp messages through the outbox.
type LateReplies struct {
	Store      Enqueuer
	Dispatcher *Dispatcher
}

// SendLate enqueues the reply to the person and nudges the dispatcher.
func (l LateReplies) SendLate(ctx context.Context, to string, reply domain.Reply) error {
	if err := l.Store.Enqueue(ctx, sqlite.WhatsAppMessage(domain.Outbound{To: to, Body: reply.Text, MediaURLs: reply.MediaURLs})); err != nil {
		return fmt.Errorf("outbox: late reply: %w", err)
	}
	l.Dispatcher.Nudge()
	return nil
}
