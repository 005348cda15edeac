package sheets

import (
	"context"
	"log/slog"
	"sync"

	"github.com/munshi/munshi/internal/alert"
)

// AlertKind is the audit kind of the owners' alerts about the Sheet: each
// entry names its topic (subject) and the problem told ("" once it was
// put right), so that a restart does not tell the same problem again.
const AlertKind = "sheets_alert"

// OwnerBooks is what telling the owners needs of the books.
type OwnerBooks = alert.Books

// Auditor records the alerts.
type Auditor = alert.Auditor

// Owners tells the owners on WhatsApp, through the outbox, about a
// problem with the Sheet: once per distinct problem of a topic (the order
// log, the catalog tab), not at every try, and once when it is put right
// (alert.Owners, under AlertKind).
type Owners struct {
	Books  OwnerBooks
	Audit  Auditor
	Nudge  func() // the outbox dispatcher's, after a message is queued
	Logger *slog.Logger

	once sync.Once
	o    *alert.Owners
}

func (o *Owners) teller() *alert.Owners {
	o.once.Do(func() {
		o.o = &alert.Owners{Books: o.Books, Audit: o.Audit, Kind: AlertKind, Nudge: o.Nudge, Logger: o.Logger}
	})
	return o.o
}

// Tell sends text to every owner unless problem (a fingerprint of what
// is wrong) is what they were last told about topic.
func (o *Owners) Tell(ctx context.Context, topic, problem, text string) {
	o.teller().Tell(ctx, topic, problem, text)
}

// Clear notes that topic is well again and, when the owners were told of
// a problem with it, tells them text.
func (o *Owners) Clear(ctx context.Context, topic, text string) {
	o.teller().Clear(ctx, topic, text)
}
