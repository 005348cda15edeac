package memory

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// ResilientOptions tune a Resilient store. The zero value is the production
// setting.
type ResilientOptions struct {
	Logger *slog.Logger
	// RetryEvery is how often, while degraded, one request tries the primary
	// again (default 2s); the others go without memory at once.
	RetryEvery time.Duration
	// OpTimeout bounds one call to the primary, except Lock, whose waiting
	// is bounded by the caller (default 1s).
	OpTimeout time.Duration
	// OnFailure hears every failed call to the primary, for a metric.
	OnFailure func(op string, err error)
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Resilient wraps the shared Store (Redis) so that no request fails because
// it is down: Load answers an empty, Unavailable conversation, Append drops
// the turns, Lock falls back to a lock within this process, Seen answers
// SeenNew and Answered drops the mark (the database stays the dedupe
// record). Each failure is logged
// and counted, Degraded reports the state for /readyz, and while degraded
// one request every RetryEvery (or a Ping) tries the primary again, so
// memory comes back by itself.
//
// While the primary is down, ordering holds within this instance only, and
// a message locked locally may overlap one locked in the primary just as it
// comes back.
//
// Forget is the exception: it returns the primary's error, because a person
// who asked to be forgotten must not be told they were when they were not.
// Errors that are the caller's (EINVALID, its context ending) pass through
// without degrading.
type Resilient struct {
	primary Store
	opts    ResilientOptions
	local   fifo // the lock while the primary is down

	degraded  atomic.Bool
	lastTry   atomic.Int64 // Unix nanoseconds of the last call to the primary while degraded
	failures  atomic.Int64
	fallbacks atomic.Int64
}

var _ Store = (*Resilient)(nil)

// NewResilient wraps primary.
func NewResilient(primary Store, opts ResilientOptions) *Resilient {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.RetryEvery <= 0 {
		opts.RetryEvery = 2 * time.Second
	}
	if opts.OpTimeout <= 0 {
		opts.OpTimeout = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Resilient{primary: primary, opts: opts}
}

// ResilienceStats counts what a Resilient store went through.
type ResilienceStats struct {
	Failures  int64 // calls to the primary that failed
	Fallbacks int64 // requests answered without the primary
	Degraded  bool
}

// Stats returns the counts so far.
func (r *Resilient) Stats() ResilienceStats {
	return ResilienceStats{Failures: r.failures.Load(), Fallbacks: r.fallbacks.Load(), Degraded: r.degraded.Load()}
}

// Degraded reports whether the primary is failing and memory is off.
func (r *Resilient) Degraded() bool { return r.degraded.Load() }

// Load returns the conversation, or an empty Unavailable one when the
// primary cannot be read.
func (r *Resilient) Load(ctx context.Context, phone string) (Conversation, error) {
	var c Conversation
	err := r.call(ctx, "load", true, func(ctx context.Context) (err error) {
		c, err = r.primary.Load(ctx, phone)
		return err
	})
	if err != nil {
		if passThrough(ctx, err) {
			return Conversation{}, err
		}
		return Conversation{Phone: phone, Unavailable: true}, nil
	}
	return c, nil
}

// Append stores turns, or drops them when the primary is down.
func (r *Resilient) Append(ctx context.Context, phone string, turns ...Turn) error {
	err := r.call(ctx, "append", true, func(ctx context.Context) error {
		return r.primary.Append(ctx, phone, turns...)
	})
	if err != nil && passThrough(ctx, err) {
		return err
	}
	return nil
}

// Forget deletes phone's memory and returns the primary's error, if any,
// even while degraded.
func (r *Resilient) Forget(ctx context.Context, phone string) error {
	return r.call(ctx, "forget", false, func(ctx context.Context) error {
		return r.primary.Forget(ctx, phone)
	})
}

// Lock takes the primary's lock, or this process's when the primary is
// down. Its only errors are the caller's: a bad phone, or ctx ending while
// an earlier message of the same person is still being answered.
func (r *Resilient) Lock(ctx context.Context, phone string) (func(), error) {
	if err := CheckPhone(phone); err != nil {
		return nil, err
	}
	var unlock func()
	err := r.call(ctx, "lock", true, func(ctx context.Context) (err error) {
		unlock, err = r.primary.Lock(ctx, phone)
		return err
	})
	if err == nil {
		return unlock, nil
	}
	if passThrough(ctx, err) {
		return nil, err
	}
	return r.local.lock(ctx, phone)
}

// Seen claims sid in the primary; when the primary is down every message
// is new here: this instance answers, and the database's inbox decides.
func (r *Resilient) Seen(ctx context.Context, sid, phone string, lease time.Duration) (SeenState, error) {
	state := SeenNew
	err := r.call(ctx, "seen", true, func(ctx context.Context) (err error) {
		state, err = r.primary.Seen(ctx, sid, phone, lease)
		return err
	})
	if err != nil {
		if passThrough(ctx, err) {
			return 0, err
		}
		return SeenNew, nil
	}
	return state, nil
}

// Answered marks sid answered in the primary; while it is down the mark is
// dropped (the claim's lease runs out, and the inbox keeps the reply).
func (r *Resilient) Answered(ctx context.Context, sid, phone string) error {
	err := r.call(ctx, "answered", true, func(ctx context.Context) error {
		return r.primary.Answered(ctx, sid, phone)
	})
	if err != nil && passThrough(ctx, err) {
		return err
	}
	return nil
}

// Ping asks the primary, whatever the state, and so is the probe for
// /readyz (a degraded, not a failing, check): a success ends a degraded
// spell at once.
func (r *Resilient) Ping(ctx context.Context) error {
	return r.call(ctx, "ping", false, r.primary.Ping)
}

// call runs op against the primary unless it is degraded and not yet due
// for another try (skippable ops only). It returns the primary's error, or
// errSkipped.
func (r *Resilient) call(ctx context.Context, op string, skippable bool, fn func(context.Context) error) error {
	if skippable && r.degraded.Load() && !r.due() {
		r.fallbacks.Add(1)
		return errSkipped
	}
	cctx := ctx
	if op != "lock" {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, r.opts.OpTimeout)
		defer cancel()
	}
	err := fn(cctx)
	switch {
	case err == nil:
		if r.degraded.Swap(false) {
			r.opts.Logger.Info("memory: store answers again; conversation memory is back", "op", op)
		}
		return nil
	case passThrough(ctx, err):
		return err
	}
	r.failures.Add(1)
	if skippable {
		r.fallbacks.Add(1)
	}
	r.lastTry.Store(r.opts.Now().UnixNano())
	if r.opts.OnFailure != nil {
		r.opts.OnFailure(op, err)
	}
	if !r.degraded.Swap(true) {
		r.opts.Logger.Error("memory: store failing; answering without conversation memory", "op", op, "err", err)
	} else {
		r.opts.Logger.Debug("memory: store still failing", "op", op, "err", err)
	}
	return err
}

// due reports whether this request should try the primary again; one
// request per RetryEvery does.
func (r *Resilient) due() bool {
	now := r.opts.Now().UnixNano()
	last := r.lastTry.Load()
	if now-last < int64(r.opts.RetryEvery) {
		return false
	}
	return r.lastTry.CompareAndSwap(last, now)
}

// passThrough reports errors that are the caller's, not the store's: a bad
// argument, or the caller's own context ending.
func passThrough(ctx context.Context, err error) bool {
	if err == errSkipped {
		return false
	}
	return domain.ErrorCode(err) == domain.EINVALID || ctx.Err() != nil
}

var errSkipped = fmt.Errorf("memory: store degraded; not tried")
