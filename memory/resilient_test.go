package memory_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/memory"
)

// flaky is a Store that fails, or hangs, on demand.
type flaky struct {
	memory.Store
	down  atomic.Bool
	hang  atomic.Bool
	calls atomic.Int64
	given atomic.Int64 // time left on the context of the last hung call, -1 for none
}

var errDown = errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")

func (f *flaky) fail(ctx context.Context) error {
	f.calls.Add(1)
	if f.hang.Load() {
		f.given.Store(-1)
		if dl, ok := ctx.Deadline(); ok {
			f.given.Store(int64(time.Until(dl)))
		}
		<-ctx.Done()
		return ctx.Err()
	}
	if f.down.Load() {
		return errDown
	}
	return nil
}

func (f *flaky) Load(ctx context.Context, phone string) (memory.Conversation, error) {
	if err := f.fail(ctx); err != nil {
		return memory.Conversation{}, err
	}
	return f.Store.Load(ctx, phone)
}

func (f *flaky) Append(ctx context.Context, phone string, turns ...memory.Turn) error {
	if err := f.fail(ctx); err != nil {
		return err
	}
	return f.Store.Append(ctx, phone, turns...)
}

func (f *flaky) Forget(ctx context.Context, phone string) error {
	if err := f.fail(ctx); err != nil {
		return err
	}
	return f.Store.Forget(ctx, phone)
}

func (f *flaky) Lock(ctx context.Context, phone string) (func(), error) {
	if err := f.fail(ctx); err != nil {
		return nil, err
	}
	return f.Store.Lock(ctx, phone)
}

func (f *flaky) Seen(ctx context.Context, sid, phone string, lease time.Duration) (memory.SeenState, error) {
	if err := f.fail(ctx); err != nil {
		return 0, err
	}
	return f.Store.Seen(ctx, sid, phone, lease)
}

func (f *flaky) Answered(ctx context.Context, sid, phone string) error {
	if err := f.fail(ctx); err != nil {
		return err
	}
	return f.Store.Answered(ctx, sid, phone)
}

func (f *flaky) Ping(ctx context.Context) error { return f.fail(ctx) }

const opTimeout = 50 * time.Millisecond

func newResilient(t *testing.T) (*memory.Resilient, *flaky, *clocktest.Clock, *atomic.Int64) {
	clk := clocktest.At(time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC))
	f := &flaky{Store: memory.NewInProcess(memory.Options{})}
	var hook atomic.Int64
	r := memory.NewResilient(f, memory.ResilientOptions{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clk.Now,
		RetryEvery: time.Second, OpTimeout: opTimeout,
		OnFailure: func(op string, err error) { hook.Add(1) },
	})
	return r, f, clk, &hook
}

func TestResilientAnswersWithoutMemory(t *testing.T) {
	r, f, clk, hook := newResilient(t)
	ctx := context.Background()
	phone := "+919810000001"
	turn := memory.Turn{Role: memory.RolePerson, Text: "GC stock?", Products: []string{"GC500"}}
	if err := r.Append(ctx, phone, turn); err != nil {
		t.Fatal(err)
	}

	f.down.Store(true)
	c, err := r.Load(ctx, phone)
	if err != nil || !c.Unavailable || !c.Empty() || c.Phone != phone {
		t.Fatalf("Load while down = %+v, %v", c, err)
	}
	if !r.Degraded() || r.Stats().Failures != 1 || hook.Load() != 1 {
		t.Fatalf("failure not reported: %+v", r.Stats())
	}
	// Within RetryEvery the primary is not asked again.
	before := f.calls.Load()
	if err := r.Append(ctx, phone, turn); err != nil {
		t.Fatal(err)
	}
	if state, err := r.Seen(ctx, "SM1", phone, 0); err != nil || state != memory.SeenNew {
		t.Fatalf("Seen while down = %v, %v", state, err)
	}
	if state, err := r.Seen(ctx, "SM1", phone, 0); err != nil || state != memory.SeenNew {
		t.Fatalf("Seen while down = %v, %v (this instance answers; the database decides)", state, err)
	}
	if err := r.Answered(ctx, "SM1", phone); err != nil {
		t.Fatalf("Answered while down = %v", err)
	}
	if f.calls.Load() != before {
		t.Fatalf("the primary was asked %d times while degraded", f.calls.Load()-before)
	}
	if r.Stats().Fallbacks < 4 {
		t.Fatalf("fallbacks not counted: %+v", r.Stats())
	}
	// Forget says it failed.
	if err := r.Forget(ctx, phone); err == nil {
		t.Fatal("Forget succeeded with the store down")
	}
	if err := r.Ping(ctx); err == nil {
		t.Fatal("Ping succeeded with the store down")
	}

	// One request per RetryEvery tries again; the store is back.
	f.down.Store(false)
	clk.Advance(2 * time.Second)
	c, err = r.Load(ctx, phone)
	if err != nil || c.Unavailable || len(c.Turns) != 1 {
		t.Fatalf("Load after recovery = %+v, %v", c, err)
	}
	if r.Degraded() {
		t.Fatal("still degraded")
	}
}

func TestResilientPingRecovers(t *testing.T) {
	r, f, _, _ := newResilient(t)
	f.down.Store(true)
	r.Load(context.Background(), "+919810000001")
	f.down.Store(false)
	if err := r.Ping(context.Background()); err != nil || r.Degraded() {
		t.Fatalf("Ping = %v, degraded %v", err, r.Degraded())
	}
}

// TestResilientBoundsAHungStore: a store that never answers is given at
// most OpTimeout, and the request goes on without memory.
func TestResilientBoundsAHungStore(t *testing.T) {
	r, f, _, _ := newResilient(t)
	f.hang.Store(true)
	var c memory.Conversation
	var err error
	patience.Within(t, "Load from a hung store", func() { c, err = r.Load(context.Background(), "+919810000001") })
	if err != nil || !c.Unavailable {
		t.Fatalf("Load = %+v, %v", c, err)
	}
	if given := time.Duration(f.given.Load()); given <= 0 || given > opTimeout {
		t.Fatalf("the hung store was given %v, want at most OpTimeout (%v)", given, opTimeout)
	}
	if !r.Degraded() {
		t.Fatal("a hung store is not degraded")
	}
}

func TestResilientPassesCallerErrors(t *testing.T) {
	r, _, _, _ := newResilient(t)
	if err := r.Append(context.Background(), "+919810000001", memory.Turn{Role: "bot"}); domain.ErrorCode(err) != domain.EINVALID {
		t.Fatalf("bad role: %v", err)
	}
	if _, err := r.Lock(context.Background(), ""); domain.ErrorCode(err) != domain.EINVALID {
		t.Fatalf("empty phone: %v", err)
	}
	// A message that waits past its deadline for an earlier one is the
	// caller's business, not an outage.
	unlock, err := r.Lock(context.Background(), "+919810000001")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := r.Lock(short, "+919810000001"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock past the deadline: %v", err)
	}
	if r.Degraded() || r.Stats().Failures != 0 {
		t.Fatalf("caller errors counted as failures: %+v", r.Stats())
	}
}

// TestResilientLocalLockKeepsOrder: while the store is down, one
// instance still answers a person's messages one at a time, in order.
func TestResilientLocalLockKeepsOrder(t *testing.T) {
	r, f, _, _ := newResilient(t)
	f.down.Store(true)
	ctx := context.Background()
	phone := "+919810000001"
	first, err := r.Lock(ctx, phone)
	if err != nil {
		t.Fatal(err)
	}
	var (
		inside atomic.Int32
		mu     sync.Mutex
		order  []int
		wg     sync.WaitGroup
	)
	const n = 5
	for i := range n {
		wg.Go(func() {
			unlock, err := r.Lock(ctx, phone)
			if err != nil {
				t.Error(err)
				return
			}
			if k := inside.Add(1); k != 1 {
				t.Errorf("%d messages of one person answered at once", k)
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			inside.Add(-1)
			unlock()
		})
		// The next message arrives once this one is queued.
		patience.WaitFor(t, fmt.Sprintf("message %d to queue", i), func() bool { return r.Waiting(phone) == i+1 })
	}
	first()
	wg.Wait()
	if len(order) != n {
		t.Fatalf("%d of %d messages answered", len(order), n)
	}
	for i, got := range order {
		if got != i {
			t.Fatalf("order %v", order)
		}
	}
}
