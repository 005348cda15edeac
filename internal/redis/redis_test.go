package redis_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/internal/proxytest"
	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/memory/memorytest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func newStore(tb testing.TB, url, prefix string, opts redis.Options) *redis.Store {
	tb.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	s, err := redis.New(url, prefix, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func backend(t *testing.T, opts redis.Options) memorytest.Backend {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	s := newStore(t, redistest.URL(), prefix, opts)
	peer := newStore(t, redistest.URL(), prefix, opts) // a second Munshi instance
	return memorytest.Backend{
		Store: s,
		Peer:  peer,
		Keys: func(t *testing.T) map[string]time.Duration {
			ctx := context.Background()
			out := map[string]time.Duration{}
			for _, k := range redistest.Keys(ctx, raw, prefix+"*") {
				ttl, err := raw.PTTL(ctx, k).Result()
				if err != nil {
					t.Fatal(err)
				}
				out[k] = ttl // -1 (no TTL) fails the suite's check
			}
			return out
		},
		Size: func(t *testing.T, phone string) int {
			n, err := raw.StrLen(context.Background(), prefix+"conv:{"+phone+"}").Result()
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		},
		Waiting: func(t *testing.T, phone string) int { return redistest.Waiting(t, raw, prefix, phone) },
	}
}

func TestStore(t *testing.T) {
	memorytest.Run(t, func(t *testing.T) memorytest.Backend { return backend(t, redis.Options{}) })
}

func TestResilientOverRedis(t *testing.T) {
	memorytest.Run(t, func(t *testing.T) memorytest.Backend {
		b := backend(t, redis.Options{})
		b.Store = memory.NewResilient(b.Store, memory.ResilientOptions{Logger: quiet})
		b.Peer = memory.NewResilient(b.Peer, memory.ResilientOptions{Logger: quiet})
		return b
	})
}

// webhookBudget is how long Twilio's webhook may take (MUNSHI_BUDGET's
// default): memory must never be why a reply misses it.
const webhookBudget = 12 * time.Second

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), patience.Limit)
	t.Cleanup(cancel)
	return c
}

// TestKeysStayUnderPrefix looks for any key naming the person outside the
// prefix.
func TestKeysStayUnderPrefix(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	s := newStore(t, redistest.URL(), prefix, redis.Options{})
	phone := memorytest.Phone()
	s.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: "GC stock?"})
	unlock, err := s.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	s.Seen(ctx(t), "SM"+phone[1:], phone, 0)
	for _, k := range append(redistest.Keys(ctx(t), raw, "*"+phone+"*"), redistest.Keys(ctx(t), raw, "*SM"+phone[1:]+"*")...) {
		if !strings.HasPrefix(k, prefix) {
			t.Errorf("key %q outside the prefix %q", k, prefix)
		}
	}
	if got := len(redistest.Keys(ctx(t), raw, prefix+"*")); got != 4 {
		t.Errorf("%d keys, want 4 (conversation, lock queue and leases, message id)", got)
	}
}

// TestRealExpiry lets Redis expire a conversation and a message id.
func TestRealExpiry(t *testing.T) {
	raw := redistest.Need(t)
	const life = 200 * time.Millisecond
	s := newStore(t, redistest.URL(), redistest.Prefix(t, raw), redis.Options{TTL: life, SeenTTL: life})
	phone := memorytest.Phone()
	sid := "SMexp" + phone[1:]
	written := time.Now()
	if err := s.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: "GC stock?"}); err != nil {
		t.Fatal(err)
	}
	if state, _ := s.Seen(ctx(t), sid, phone, 0); state != memory.SeenNew {
		t.Fatalf("a new message id: %v", state)
	}
	if err := s.Answered(ctx(t), sid, phone); err != nil {
		t.Fatal(err)
	}
	// Unless its lifetime has already passed, the conversation is there.
	if c, _ := s.Load(ctx(t), phone); len(c.Turns) != 1 && time.Since(written) < life {
		t.Fatal("not stored")
	}
	patience.WaitFor(t, "Redis to expire the conversation", func() bool {
		c, err := s.Load(ctx(t), phone)
		return err == nil && c.Empty()
	})
	patience.WaitFor(t, "Redis to expire the message id", func() bool {
		state, err := s.Seen(ctx(t), sid, phone, 0)
		return err == nil && state == memory.SeenNew
	})
}

// TestCrashedHolder: an instance that dies holding a person's lock blocks
// them until its lease runs out, and no longer.
func TestCrashedHolder(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	opts := redis.Options{LockLifetime: 300 * time.Millisecond}
	crashed := newStore(t, redistest.URL(), prefix, opts)
	alive := newStore(t, redistest.URL(), prefix, opts)
	phone := memorytest.Phone()
	unlock, err := crashed.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	crashed.Close() // no more renewals, no release
	defer unlock()
	_, lease := redistest.Holder(t, raw, prefix, phone)
	// ctx(t) is the guard: a lock that never passes fails here.
	next, err := alive.Lock(ctx(t), phone)
	if err != nil {
		t.Fatalf("the lock never passed from a crashed holder: %v", err)
	}
	passed := redistest.Now(t, raw)
	next()
	if passed.Before(lease) {
		t.Fatalf("the lock passed at %v, before the crashed holder's lease ended at %v", passed, lease)
	}
}

// TestDeadInstanceClaimIsTakenOver: two instances share Redis; one claims
// a MessageSid and dies before answering. The other leaves it alone while
// the claim is live, then takes it over once its lease has run out, and a
// different sender never can.
func TestDeadInstanceClaimIsTakenOver(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	dead := newStore(t, redistest.URL(), prefix, redis.Options{})
	alive := newStore(t, redistest.URL(), prefix, redis.Options{})
	phone, stranger := memorytest.Phone(), memorytest.Phone()
	sid := "SMdead" + phone[1:]
	const lease = 400 * time.Millisecond
	if state, err := dead.Seen(ctx(t), sid, phone, lease); err != nil || state != memory.SeenNew {
		t.Fatalf("first claim = %v, %v", state, err)
	}
	dead.Close() // it never marks the message answered
	if state, err := alive.Seen(ctx(t), sid, phone, time.Minute); err != nil || state != memory.SeenInFlight {
		t.Fatalf("a retry while the claim is live = %v, %v; want in flight", state, err)
	}
	if state, _ := alive.Seen(ctx(t), sid, stranger, time.Minute); state != memory.SeenOtherSender {
		t.Fatalf("another sender's delivery = %v", state)
	}
	if ttl := raw.PTTL(ctx(t), prefix+"seen:"+sid).Val(); ttl <= 0 || ttl > lease {
		t.Fatalf("the claim lives %v, want at most its lease %v", ttl, lease)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		state, err := alive.Seen(ctx(t), sid, phone, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if state == memory.SeenNew {
			break
		}
		if state != memory.SeenInFlight || time.Now().After(deadline) {
			t.Fatalf("the dead instance's claim was never taken over: %v", state)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := alive.Answered(ctx(t), sid, phone); err != nil {
		t.Fatal(err)
	}
	if ttl := raw.PTTL(ctx(t), prefix+"seen:"+sid).Val(); ttl <= time.Minute || ttl > memory.SeenTTL {
		t.Fatalf("the answered mark lives %v, want SeenTTL", ttl)
	}
	if state, _ := newStore(t, redistest.URL(), prefix, redis.Options{}).Seen(ctx(t), sid, phone, 0); state != memory.SeenAnswered {
		t.Fatalf("a third instance sees %v, want answered", state)
	}
}

// TestHolderKeepsLease: a live holder renews its lease, so a message that
// takes longer than one lifetime still holds the lock.
func TestHolderKeepsLease(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	// Long enough that a loaded machine still renews in time: the holder
	// renews every third of it.
	const life = time.Second
	opts := redis.Options{LockLifetime: life}
	a, b := newStore(t, redistest.URL(), prefix, opts), newStore(t, redistest.URL(), prefix, opts)
	phone := memorytest.Phone()
	unlock, err := a.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	holder, firstLease := redistest.Holder(t, raw, prefix, phone)
	waiting, stop := context.WithCancel(context.Background())
	defer stop()
	got := make(chan error, 1)
	go func() {
		next, err := b.Lock(waiting, phone)
		if err == nil {
			next()
		}
		got <- err
	}()
	// Two lifetimes pass, by the clock the leases are kept by, while the
	// holder works and the other message waits.
	patience.WaitFor(t, "two lock lifetimes", func() bool {
		select {
		case err := <-got:
			t.Fatalf("took a lock whose holder is alive: %v", err)
		default:
		}
		return redistest.Now(t, raw).After(firstLease.Add(life))
	})
	if now, lease := redistest.Holder(t, raw, prefix, phone); now != holder || !lease.After(firstLease) {
		t.Fatalf("holder %q with lease to %v; want %q renewed past %v", now, lease, holder, firstLease)
	}
	stop()
	var err2 error
	patience.Within(t, "a waiter whose context ended", func() { err2 = <-got })
	if !errors.Is(err2, context.Canceled) {
		t.Fatalf("the waiter ended with %v, want its context's end", err2)
	}
	unlock()
	next, err := b.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	next()
}

// TestBadURL: only a malformed URL is an error; a Redis that is down is not.
func TestBadURL(t *testing.T) {
	if _, err := redis.New("http://127.0.0.1:6379", "", redis.Options{}); err == nil {
		t.Error("accepted an http URL")
	}
	if _, err := redis.New("redis://127.0.0.1:6379", "bad prefix{", redis.Options{}); err == nil {
		t.Error("accepted a prefix with braces")
	}
	s, err := redis.New("redis://127.0.0.1:1/0", "", redis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Ping(ctx(t)); err == nil {
		t.Error("Ping of nothing answered")
	}
}

// TestOutage stops Redis mid-conversation: Munshi keeps answering without
// memory (and knows it), counts the failures, reports degraded, and
// recovers by itself when Redis returns.
func TestOutage(t *testing.T) {
	redistest.Need(t)
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	o, _ := goredis.ParseURL(redistest.URL())
	p := proxytest.New(t, o.Addr)
	url := strings.Replace(redistest.URL(), o.Addr, p.Addr(), 1)
	var failures atomic.Int64
	r := memory.NewResilient(newStore(t, url, prefix, redis.Options{}), memory.ResilientOptions{
		Logger: quiet, RetryEvery: 50 * time.Millisecond,
		OnFailure: func(op string, err error) { failures.Add(1) },
	})
	phone := memorytest.Phone()
	gc := memory.Turn{Role: memory.RoleMunshi, Text: "GC500: 2,400 ready", Tool: "stock", Products: []string{"GC500"}}
	if err := r.Append(ctx(t), phone, gc); err != nil {
		t.Fatal(err)
	}
	if r.Degraded() || r.Ping(ctx(t)) != nil {
		t.Fatal("degraded with Redis up")
	}

	p.Stop()
	// Every request still finishes inside the webhook's budget: a request
	// that did not would fail with the budget's error.
	budget, cancel := context.WithTimeout(context.Background(), webhookBudget)
	defer cancel()
	c, err := r.Load(budget, phone)
	if err != nil || !c.Unavailable || !c.Empty() {
		t.Fatalf("Load during the outage = %+v, %v", c, err)
	}
	ref := memory.Resolve("uska stock kitna hai", intent.Normalized{}, c)
	if !ref.NeedsMemory || !strings.Contains(memory.NoReferent(c), "unavailable") {
		t.Errorf("a follow-up during the outage: %+v, %q", ref, memory.NoReferent(c))
	}
	if err := r.Append(budget, phone, memory.Turn{Role: memory.RolePerson, Text: "uska stock"}); err != nil {
		t.Fatalf("Append during the outage: %v", err)
	}
	unlock, err := r.Lock(budget, phone)
	if err != nil {
		t.Fatalf("Lock during the outage: %v", err)
	}
	unlock()
	if state, err := r.Seen(budget, "SMoutage"+phone[1:], phone, 0); err != nil || state != memory.SeenNew {
		t.Fatalf("Seen during the outage = %v, %v", state, err)
	}
	if !r.Degraded() || r.Ping(budget) == nil || failures.Load() == 0 || r.Stats().Fallbacks == 0 {
		t.Fatalf("outage not reported: degraded %v, stats %+v", r.Degraded(), r.Stats())
	}
	if err := r.Forget(budget, phone); err == nil {
		t.Fatal("Forget claimed success with Redis down")
	}

	p.Restart(t)
	patience.WaitFor(t, "memory to come back", func() bool {
		c, err = r.Load(ctx(t), phone)
		if err != nil {
			t.Fatal(err)
		}
		return !c.Unavailable
	})
	if r.Degraded() {
		t.Fatal("still degraded after recovering")
	}
	if len(c.Turns) != 1 || c.Turns[0].Text != gc.Text {
		t.Fatalf("memory after the outage = %+v", c)
	}
	t.Logf("outage: %+v", r.Stats())
}

// TestNothingListening: a REDIS_URL pointing at nothing still lets every
// request through, and only the first waits for the network: the others
// go without memory at once until a retry is due.
func TestNothingListening(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	stopped := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) // no retry ever falls due
	r := memory.NewResilient(newStore(t, "redis://"+addr+"/0", "", redis.Options{}),
		memory.ResilientOptions{Logger: quiet, Now: func() time.Time { return stopped }})
	phone := memorytest.Phone()
	const requests = 20
	for range requests {
		c, err := r.Load(ctx(t), phone)
		if err != nil || !c.Unavailable {
			t.Fatalf("Load = %+v, %v", c, err)
		}
		if err := r.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
	}
	if st := r.Stats(); !st.Degraded || st.Failures != 1 || st.Fallbacks != 2*requests {
		t.Fatalf("stats %+v: want degraded, one call to the dead address and every request answered without it", st)
	}
}

// TestWaiterLeavesAfterAnOutage: a message that gives up waiting while
// Redis cannot be reached leaves the queue once Redis is back, not only
// when its lease runs out, so the person's next message does not wait
// for a ticket nobody holds.
func TestWaiterLeavesAfterAnOutage(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	o, _ := goredis.ParseURL(redistest.URL())
	p := proxytest.New(t, o.Addr)
	url := strings.Replace(redistest.URL(), o.Addr, p.Addr(), 1)
	opts := redis.Options{LockLifetime: 10 * patience.Limit} // no lease runs out during the test
	holder := newStore(t, redistest.URL(), prefix, opts)
	waiter := newStore(t, url, prefix, opts)
	phone := memorytest.Phone()
	unlock, err := holder.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	waiting, giveUp := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := waiter.Lock(waiting, phone)
		done <- err
	}()
	patience.WaitFor(t, "the second message to queue", func() bool { return redistest.Waiting(t, raw, prefix, phone) == 1 })
	p.Stop()
	giveUp()
	if err := <-done; err == nil {
		t.Fatal("a message took a held lock")
	}
	if n := redistest.Waiting(t, raw, prefix, phone); n != 1 {
		t.Fatalf("%d waiting while Redis cannot be reached, want the ticket still queued", n)
	}
	p.Restart(t)
	patience.WaitFor(t, "the ticket to leave once Redis is back", func() bool { return redistest.Waiting(t, raw, prefix, phone) == 0 })
}
