package memorytest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/memory"
)

// Message ids, forgetting, concurrent appends and the per-person lock:
// the cases of the suite that are about more than one message.

// wantSeen claims sid for phone and checks what the store says of it.
func wantSeen(t *testing.T, s memory.Store, sid, phone string, lease time.Duration, want memory.SeenState) {
	t.Helper()
	if got, err := s.Seen(ctx(t), sid, phone, lease); err != nil || got != want {
		t.Fatalf("Seen(%s, %s) = %v, %v; want %v", sid, phone, got, err, want)
	}
}

func testForget(t *testing.T, b Backend) {
	phone, other := Phone(), Phone()
	for _, p := range []string{phone, other} {
		if err := b.Store.Append(ctx(t), p, memory.Turn{Role: memory.RolePerson, Text: "GC stock?"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.peer().Forget(ctx(t), phone); err != nil {
		t.Fatal(err)
	}
	if c, _ := b.Store.Load(ctx(t), phone); !c.Empty() {
		t.Errorf("remembered after Forget: %+v", c)
	}
	if c, _ := b.Store.Load(ctx(t), other); len(c.Turns) != 1 {
		t.Errorf("Forget touched another person: %+v", c)
	}
	for k := range b.Keys(t) {
		if strings.Contains(k, phone) && strings.Contains(k, "conv:") {
			t.Errorf("key %s left after Forget", k)
		}
	}
	if err := b.Store.Forget(ctx(t), Phone()); err != nil {
		t.Errorf("Forget of an unknown phone: %v", err)
	}
}

// testSeen: a MessageSid is claimed by one instance, bound to its sender,
// and answered once; what another instance or another sender sees of it.
func testSeen(t *testing.T, b Backend) {
	phone, other := Phone(), Phone()
	sid := "SM" + strings.TrimPrefix(phone, "+") + "seen"
	wantSeen(t, b.Store, sid, phone, time.Minute, memory.SeenNew)
	// A retry on another instance while the first answers.
	wantSeen(t, b.peer(), sid, phone, time.Minute, memory.SeenInFlight)
	// The same sid from another number learns nothing and claims nothing.
	wantSeen(t, b.peer(), sid, other, time.Minute, memory.SeenOtherSender)
	wantSeen(t, b.Store, sid+"x", phone, time.Minute, memory.SeenNew)
	if err := b.Store.Answered(ctx(t), sid, phone); err != nil {
		t.Fatal(err)
	}
	wantSeen(t, b.peer(), sid, phone, time.Minute, memory.SeenAnswered)
	wantSeen(t, b.peer(), sid, other, time.Minute, memory.SeenOtherSender)
	// Another sender cannot take the record over by answering it.
	if err := b.peer().Answered(ctx(t), sid, other); err != nil {
		t.Fatal(err)
	}
	wantSeen(t, b.Store, sid, phone, time.Minute, memory.SeenAnswered)

	// Racing deliveries of one sid: exactly one claims it.
	sid += "race"
	var firsts atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			s := b.Store
			if i%2 == 1 {
				s = b.peer()
			}
			if state, err := s.Seen(ctx(t), sid, phone, time.Minute); err != nil {
				t.Error(err)
			} else if state == memory.SeenNew {
				firsts.Add(1)
			} else if state != memory.SeenInFlight {
				t.Errorf("a racing delivery saw %v", state)
			}
		})
	}
	wg.Wait()
	if firsts.Load() != 1 {
		t.Fatalf("%d deliveries claimed the message", firsts.Load())
	}
}

// testSeenLease: an instance that claims a message and dies before
// answering it (it never calls Answered) holds it for one lease only; then
// another instance claims it and answers.
func testSeenLease(t *testing.T, b Backend) {
	phone := Phone()
	sid := "SM" + strings.TrimPrefix(phone, "+") + "dead"
	const lease = 300 * time.Millisecond
	wantSeen(t, b.Store, sid, phone, lease, memory.SeenNew)
	wantSeen(t, b.peer(), sid, phone, time.Minute, memory.SeenInFlight)
	if b.Advance != nil {
		b.Advance(lease + time.Millisecond)
	}
	patience.WaitFor(t, "the dead holder's lease to end", func() bool {
		state, err := b.peer().Seen(ctx(t), sid, phone, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return state == memory.SeenNew
	})
	// The new holder's claim is live: the first instance, back, waits.
	wantSeen(t, b.Store, sid, phone, lease, memory.SeenInFlight)
	if err := b.peer().Answered(ctx(t), sid, phone); err != nil {
		t.Fatal(err)
	}
	wantSeen(t, b.Store, sid, phone, lease, memory.SeenAnswered)
}

// testAtomicAppend appends from many goroutines without the lock: no turn
// may be lost.
func testAtomicAppend(t *testing.T, b Backend) {
	phone := Phone()
	const n = 24
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s := b.Store
			if i%2 == 1 {
				s = b.peer()
			}
			if err := s.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	c, err := b.Store.Load(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Turns) + c.Summary.Folded; got != n {
		t.Fatalf("%d turns kept or folded, want %d", got, n)
	}
}

// testLockOrder queues messages of one person, from two instances, while
// the first is being answered: each is answered alone, in arrival order.
func testLockOrder(t *testing.T, b Backend) {
	phone := Phone()
	first, err := b.Store.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	var (
		inside atomic.Int32
		mu     sync.Mutex
		order  []int
		wg     sync.WaitGroup
	)
	for i := range n {
		s := b.Store
		if i%2 == 1 {
			s = b.peer()
		}
		wg.Go(func() {
			unlock, err := s.Lock(ctx(t), phone)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			if k := inside.Add(1); k != 1 {
				t.Errorf("%d messages of one person answered at once", k)
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			if err := s.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
			// Hold the lock a moment, so that a second holder, if the lock
			// let one in, would be inside with this one; no order hangs on it.
			time.Sleep(time.Millisecond)
			inside.Add(-1)
		})
		// The next message arrives once this one is queued.
		patience.WaitFor(t, fmt.Sprintf("message %d to queue", i), func() bool { return b.Waiting(t, phone) == i+1 })
	}
	first()
	first() // unlock twice is harmless
	wg.Wait()
	for i, got := range order {
		if got != i {
			t.Fatalf("answered in order %v", order)
		}
	}
	c, _ := b.Store.Load(ctx(t), phone)
	for i, turn := range c.Turns {
		if want := fmt.Sprint(n - len(c.Turns) + i); turn.Text != want {
			t.Fatalf("turn %d = %q, want %q", i, turn.Text, want)
		}
	}
	// The lock is free again.
	unlock, err := b.Store.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

// testLockTimeout: a message that waits until its deadline gives up with
// the deadline's error, and leaves no trace that would block the next one.
func testLockTimeout(t *testing.T, b Backend) {
	phone := Phone()
	unlock, err := b.Store.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	// The lock stays held, so only the deadline can end this wait.
	short, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	var waitErr error
	patience.Within(t, "a wait past its deadline", func() { _, waitErr = b.peer().Lock(short, phone) })
	if !errors.Is(waitErr, context.DeadlineExceeded) {
		t.Fatalf("waiting past the deadline: %v", waitErr)
	}
	// Its ticket leaves at once, or soon after when the store stalled: not
	// only when its lease runs out.
	patience.WaitFor(t, "the waiter that gave up to leave the queue", func() bool { return b.Waiting(t, phone) == 0 })
	unlock()
	next, err := b.Store.Lock(ctx(t), phone)
	if err != nil {
		t.Fatalf("a message that gave up blocks the next: %v", err)
	}
	next()
	if n := b.Waiting(t, phone); n != 0 {
		t.Fatalf("%d waiting after everyone left", n)
	}
}
