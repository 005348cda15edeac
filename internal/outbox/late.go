package outbox

import (
	"context"
	"fmt"

	"github.com/munshi/munshi/internal/domain"
)

// Enqueuer writes effects to the outbox, all or none.
type Enqueuer interface {
	Enqueue(ctx context.Context, effects ...domain.Effect) error
}

// LateReplies sends answers that missed the webhook budget as ordinary
// WhatsApp messages through the outbox.
type LateReplies struct {
	Store      Enqueuer
	Dispatcher *Dispatcher
}

// SendLate enqueues the reply to the person and nudges the dispatcher.
func (l LateReplies) SendLate(ctx context.Context, to string, reply domain.Reply) error {
	if err := l.Store.Enqueue(ctx, domain.WhatsApp(domain.Outbound{To: to, Body: reply.Text, MediaURLs: reply.MediaURLs})); err != nil {
		return fmt.Errorf("outbox: late reply: %w", err)
	}
	l.Dispatcher.Nudge()
	return nil
}
