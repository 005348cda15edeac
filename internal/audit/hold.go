package audit

import (
	"context"
	"sync"
	"time"
)

// KindTool is a business tool's call (the reports package writes it).
const KindTool = "tool"

// holds reports whether entries of kind are held (see Hold): those that
// describe a message, and record no change of the books.
func holds(kind string) bool {
	switch kind {
	case KindInbound, KindDecision, KindTool, KindOutbound:
		return true
	}
	return false
}

// holding is what one message's context holds.
type holding struct {
	mu      sync.Mutex
	now     func() time.Time
	log     *Log // the log that held the entries, which EndHold writes to
	entries []Entry
	ended   bool
}

type holdingKey struct{}

// Hold returns a context in which the entries that describe the message
// being answered — what came in, how it was routed, what the tools read
// and what was answered (KindInbound, KindDecision, KindTool,
// KindOutbound) — are held, each stamped at now, for the store to commit
// with the first change the message makes: the transaction that saves its
// reply (TakeHeld), or one that changes the books before it. They then
// cost no transaction of their own. Any other entry recorded in it is
// written at once, with those held before it, so that none is committed
// after an entry that followed it.
//
// A message answered with a 200 has its reply saved first, and so its
// entries; a crash that cuts the answer short loses the held entries with
// it, and the recovery, which answers the message again, audits it again.
func Hold(ctx context.Context, now func() time.Time) context.Context {
	return context.WithValue(ctx, holdingKey{}, &holding{now: now})
}

// TakeHeld takes the entries ctx holds, in the order they were recorded,
// for the caller to commit in the transaction that changes the books;
// nil when there are none. Holding goes on for the entries after them.
func TakeHeld(ctx context.Context) []Entry {
	h, _ := ctx.Value(holdingKey{}).(*holding)
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	es := h.entries
	h.entries = nil
	return es
}

// EndHold writes what ctx still holds, when the message's reply was not
// saved in it (the answer goes out late, or not at all), and ends the
// holding: later entries are written at once.
func EndHold(ctx context.Context) {
	h, _ := ctx.Value(holdingKey{}).(*holding)
	if h == nil {
		return
	}
	h.mu.Lock()
	es, l := h.entries, h.log
	h.entries, h.ended = nil, true
	h.mu.Unlock()
	if len(es) > 0 {
		l.write(ctx, es)
	}
}

// hold keeps e when ctx holds entries of its kind (true); otherwise it
// returns what was held before e, to be written with it.
func (l *Log) hold(ctx context.Context, e Entry) (before []Entry, held bool) {
	h, _ := ctx.Value(holdingKey{}).(*holding)
	if h == nil {
		return nil, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended {
		return nil, false
	}
	if !holds(e.Kind) || !plain(e.Detail) {
		before, h.entries = h.entries, nil
		return before, false
	}
	e.At = h.now()
	h.entries, h.log = append(h.entries, e), l
	return nil, true
}

// plain reports whether v holds only the values Redact makes of what is
// JSON (strings, numbers, booleans, nil, and maps and lists of them). An
// entry with anything else is written at once, where the store says
// whether it can encode it; a held one must be encodable.
func plain(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !plain(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !plain(e) {
				return false
			}
		}
		return true
	case nil, string, []string, bool, int, int64, float64:
		return true
	}
	return false
}
