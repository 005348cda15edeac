package outbox

import (
	"context"
	"fmt"
	"maps"
	"time"
)

// hold notes that sending kind is held back for reason. The first hold of
// a kind is logged once at error level; later ones only when the reason
// changes, so that a fixed token with a wrong sender shows the new cause.
func (d *Dispatcher) hold(kind, reason string, since time.Time) {
	d.mu.Lock()
	h, was := d.holds[kind]
	changed := was && h.Reason != reason
	if !was {
		h.Since = since
	}
	h.Reason = reason
	d.holds[kind] = h
	d.mu.Unlock()
	switch {
	case !was:
		d.Logger.Error("outbox: sending is held until the configuration is put right", "kind", kind, "reason", reason,
			"since", h.Since)
	case changed:
		d.Logger.Error("outbox: sending is still held, now for another reason", "kind", kind, "reason", reason,
			"since", h.Since)
	}
}

// recovered clears a hold on kind after a successful send, logs it once,
// and makes the kind's other held messages due at once.
func (d *Dispatcher) recovered(ctx context.Context, kind string) {
	d.mu.Lock()
	h, was := d.holds[kind]
	delete(d.holds, kind)
	d.mu.Unlock()
	if !was {
		return
	}
	d.Logger.Info("outbox: sending works again", "kind", kind, "was", h.Reason, "held_for", d.Now().Sub(h.Since))
	if n, err := d.Store.ReleaseHeld(ctx, kind); err != nil {
		d.Logger.Error("outbox: release held messages failed", "kind", kind, "err", err)
	} else if n > 0 {
		d.Nudge()
	}
}

// Holds reports, by kind, what is held back and why.
func (d *Dispatcher) Holds() map[string]Hold {
	d.init()
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.holds)
}

// Check is a readiness probe for one kind: nil while it sends, else why it
// is held and since when ("authentication failed (Twilio 401) since …").
func (d *Dispatcher) Check(kind string) error {
	h, ok := d.Holds()[kind]
	if !ok {
		return nil
	}
	return fmt.Errorf("%s since %s", h.Reason, h.Since.UTC().Format(time.RFC3339))
}
