package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/store/sqlite"
)

// Sender delivers one kind of outbox payload and returns the provider's id.
// An error with a Permanent() bool method returning true is not retried.
type Sender interface {
	SendPayload(ctx context.Context, payload []byte) (string, error)
}

// Store is the part of the database the dispatcher uses.
type Store interface {
	ClaimDue(ctx context.Context, limit int, lease time.Duration) ([]sqlite.OutboxMessage, error)
	MarkSent(ctx context.Context, id int64, providerID string) error
	MarkRetry(ctx context.Context, id int64, reason string, next time.Time) error
	MarkFailed(ctx context.Context, id int64, reason string, notices ...sqlite.OutboxMessage) (bool, error)
}

// Recorder hears about every attempt, for the audit log and metrics.
type Recorder func(m sqlite.OutboxMessage, providerID string, err error, final bool)

// Dispatcher sends due outbox messages.
type Dispatcher struct {
	Store       Store
	Senders     map[string]Sender
	Logger      *slog.Logger
	Record      Recorder
	Now         func() time.Time
	Poll        time.Duration // how often to look for due messages without a nudge
	Lease       time.Duration // how long a claimed message is ours
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	MaxAttempts int
	Batch       int

	wake chan struct{}
	once sync.Once
}

func (d *Dispatcher) init() {
	d.once.Do(func() {
		d.wake = make(chan struct{}, 1)
		if d.Now == nil {
			d.Now = time.Now
		}
		if d.Poll == 0 {
			d.Poll = time.Second
		}
		if d.Lease == 0 {
			d.Lease = time.Minute
		}
		if d.BaseBackoff == 0 {
			d.BaseBackoff = 2 * time.Second
		}
		if d.MaxBackoff == 0 {
			d.MaxBackoff = 10 * time.Minute
		}
		if d.MaxAttempts == 0 {
			d.MaxAttempts = 12
		}
		if d.Batch == 0 {
			d.Batch = 16
		}
		if d.Logger == nil {
			d.Logger = slog.Default()
		}
	})
}

// Nudge asks the dispatcher to look for due messages now, after a caller
// has written some.
func (d *Dispatcher) Nudge() {
	d.init()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run sends due messages until ctx ends, then returns once the sends in
// flight have finished.
func (d *Dispatcher) Run(ctx context.Context) {
	d.init()
	t := time.NewTicker(d.Poll)
	defer t.Stop()
	for {
		for d.RunOnce(ctx) > 0 && ctx.Err() == nil {
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-d.wake:
		}
	}
}

// RunOnce sends one batch of due messages concurrently and returns how many
// it tried.
func (d *Dispatcher) RunOnce(ctx context.Context) int {
	d.init()
	if ctx.Err() != nil {
		return 0
	}
	msgs, err := d.Store.ClaimDue(ctx, d.Batch, d.Lease)
	if err != nil {
		d.Logger.Error("outbox: claim failed", "err", err)
		return 0
	}
	var wg sync.WaitGroup
	for _, m := range msgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.deliver(context.WithoutCancel(ctx), m)
		}()
	}
	wg.Wait()
	return len(msgs)
}

func (d *Dispatcher) deliver(ctx context.Context, m sqlite.OutboxMessage) {
	sender, ok := d.Senders[m.Kind]
	var id string
	var err error
	if !ok {
		err = permanentError{fmt.Errorf("outbox: no sender for %q messages", m.Kind)}
	} else {
		sendCtx, cancel := context.WithTimeout(ctx, d.Lease/2)
		id, err = sender.SendPayload(sendCtx, m.Payload)
		cancel()
	}
	if err == nil {
		if err := d.Store.MarkSent(ctx, m.ID, id); err != nil {
			d.Logger.Error("outbox: mark sent failed", "id", m.ID, "err", err)
		}
		d.record(m, id, nil, true)
		return
	}
	attempt := m.Attempts + 1
	giveUp := isPermanent(err) || attempt >= d.MaxAttempts
	next := d.Now().Add(d.backoff(attempt))
	if giveUp {
		if _, err := d.Store.MarkFailed(ctx, m.ID, err.Error()); err != nil {
			d.Logger.Error("outbox: mark failed failed", "id", m.ID, "err", err)
		}
	} else if err := d.Store.MarkRetry(ctx, m.ID, err.Error(), next); err != nil {
		d.Logger.Error("outbox: mark retry failed", "id", m.ID, "err", err)
	}
	level := slog.LevelWarn
	if giveUp {
		level = slog.LevelError
	}
	d.Logger.Log(ctx, level, "outbox: send failed", "id", m.ID, "kind", m.Kind, "attempt", attempt, "give_up", giveUp, "err", err)
	d.record(m, "", err, giveUp)
}

func (d *Dispatcher) record(m sqlite.OutboxMessage, id string, err error, final bool) {
	if d.Record != nil {
		d.Record(m, id, err, final)
	}
}

// backoff doubles from BaseBackoff per attempt up to MaxBackoff, with up to
// 20% jitter so that a burst of failures does not retry in lockstep.
func (d *Dispatcher) backoff(attempt int) time.Duration {
	b := d.BaseBackoff
	for i := 1; i < attempt && b < d.MaxBackoff; i++ {
		b *= 2
	}
	b = min(b, d.MaxBackoff)
	return b + time.Duration(rand.Int64N(int64(b)/5+1))
}

type permanentError struct{ error }

func (permanentError) Permanent() bool { return true }

func isPermanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.As(err, &p) && p.Permanent()
}
