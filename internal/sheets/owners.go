package sheets

import (
	"context"
	"log/slog"
	"sync"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// AlertKind is the audit kind of the owners' alerts about the Sheet: each
// entry names its topic (subject) and the problem told ("" once it was
// put right), so that a restart does not tell the same problem again.
const AlertKind = "sheets_alert"

// OwnerBooks is what telling the owners needs of the books.
type OwnerBooks interface {
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	Enqueue(ctx context.Context, effects ...domain.Effect) error
	AuditEntries(ctx context.Context, kind string) ([]audit.Entry, error)
}

// Auditor records the alerts.
type Auditor interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Owners tells the owners on WhatsApp, through the outbox, about a
// problem with the Sheet: once per distinct problem of a topic (the order
// log, the catalog tab), not at every try, and once when it is put right.
type Owners struct {
	Books  OwnerBooks
	Audit  Auditor
	Nudge  func() // the outbox dispatcher's, after a message is queued
	Logger *slog.Logger

	mu     sync.Mutex
	loaded bool
	told   map[string]string // the problem last told, by topic
}

// load reads what was told before this process started.
func (o *Owners) load(ctx context.Context) {
	if o.loaded {
		return
	}
	o.told = map[string]string{}
	entries, err := o.Books.AuditEntries(ctx, AlertKind)
	if err != nil {
		o.Logger.Warn("sheets: earlier alerts to the owners unreadable", "err", err)
		return // tried again next time
	}
	for _, e := range entries {
		p, _ := e.Detail["problem"].(string)
		o.told[e.Subject] = p
	}
	o.loaded = true
}

// Tell sends text to every owner unless problem (a fingerprint of what
// is wrong) is what they were last told about topic.
func (o *Owners) Tell(ctx context.Context, topic, problem, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.load(ctx)
	if o.told[topic] == problem {
		return
	}
	if o.send(ctx, text) {
		o.note(ctx, topic, problem)
	}
}

// Clear notes that topic is well again and, when the owners were told of
// a problem with it, tells them text.
func (o *Owners) Clear(ctx context.Context, topic, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.load(ctx)
	if o.told[topic] == "" {
		return
	}
	if text == "" || o.send(ctx, text) {
		o.note(ctx, topic, "")
	}
}

func (o *Owners) note(ctx context.Context, topic, problem string) {
	o.told[topic] = problem
	if o.Audit != nil {
		o.Audit.Record(ctx, "system", AlertKind, topic, map[string]any{"problem": problem})
	}
}

// send queues text to every owner and reports whether it did.
func (o *Owners) send(ctx context.Context, text string) bool {
	owners, err := o.Books.UsersByRole(ctx, domain.RoleOwner)
	if err != nil {
		o.Logger.Error("sheets: owners unreadable; not told", "err", err)
		return false
	}
	var effects []domain.Effect
	for _, u := range owners {
		effects = append(effects, domain.WhatsApp(domain.Outbound{To: u.Phone, Body: text}))
	}
	if len(effects) == 0 {
		return true
	}
	if err := o.Books.Enqueue(ctx, effects...); err != nil {
		o.Logger.Error("sheets: alert to the owners not queued", "err", err)
		return false
	}
	if o.Nudge != nil {
		o.Nudge()
	}
	return true
}
