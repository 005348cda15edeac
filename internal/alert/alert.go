package alert

import (
	"context"
	"log/slog"
	"sync"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

// Books is what telling needs of the books.
type Books interface {
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	Enqueue(ctx context.Context, effects ...domain.Effect) error
	AuditEntries(ctx context.Context, kind string) ([]audit.Entry, error)
}

// Auditor records what was told.
type Auditor interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Owners tells the people of a role (the owners, unless Role says
// otherwise) about problems, each topic's problem once.
type Owners struct {
	Books Books
	Audit Auditor
	// Kind is the audit kind of the entries: each names its topic
	// (subject) and the problem told ("" once it was put right). Tellers
	// of different things use different kinds.
	Kind   string
	Role   domain.Role // domain.RoleOwner when empty
	Nudge  func()      // the outbox dispatcher's, after a message is queued
	Logger *slog.Logger

	mu     sync.Mutex
	loaded bool
	told   map[string]string // the problem last told, by topic
}

func (o *Owners) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.Default()
	}
	return o.Logger
}

// load reads what was told before this process started.
func (o *Owners) load(ctx context.Context) {
	if o.loaded {
		return
	}
	o.told = map[string]string{}
	entries, err := o.Books.AuditEntries(ctx, o.Kind)
	if err != nil {
		o.logger().Warn("alert: earlier alerts unreadable", "kind", o.Kind, "err", err)
		return // tried again next time
	}
	for _, e := range entries {
		p, _ := e.Detail["problem"].(string)
		o.told[e.Subject] = p
	}
	o.loaded = true
}

// Tell sends text unless problem (a fingerprint of what is wrong) is what
// was last told about topic.
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

// Clear notes that topic is well again and, when a problem with it was
// told, tells text.
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

// Told reports the problem last told about topic, "" when none.
func (o *Owners) Told(ctx context.Context, topic string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.load(ctx)
	return o.told[topic]
}

func (o *Owners) note(ctx context.Context, topic, problem string) {
	o.told[topic] = problem
	if o.Audit != nil {
		o.Audit.Record(ctx, "system", o.Kind, topic, map[string]any{"problem": problem})
	}
}

// send queues text to everyone of the role and reports whether it did.
func (o *Owners) send(ctx context.Context, text string) bool {
	role := o.Role
	if role == "" {
		role = domain.RoleOwner
	}
	people, err := o.Books.UsersByRole(ctx, role)
	if err != nil {
		o.logger().Error("alert: recipients unreadable; not told", "kind", o.Kind, "err", err)
		return false
	}
	var effects []domain.Effect
	for _, u := range people {
		effects = append(effects, domain.WhatsApp(domain.Outbound{To: u.Phone, Body: text}))
	}
	if len(effects) == 0 {
		return true
	}
	if err := o.Books.Enqueue(ctx, effects...); err != nil {
		o.logger().Error("alert: alert not queued", "kind", o.Kind, "err", err)
		return false
	}
	if o.Nudge != nil {
		o.Nudge()
	}
	return true
}
