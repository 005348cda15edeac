package memory

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Options tune an InProcess store. The zero value is the production setting.
type Options struct {
	// Now is the clock (default time.Now); tests move it to expire entries.
	Now func() time.Time
	// TTL is how long a conversation lives after its last message (default
	// TTL); SeenTTL how long an answered MessageSid is remembered (default
	// SeenTTL).
	TTL, SeenTTL time.Duration
	// MaxSeen bounds how many MessageSids are remembered (default
	// DefaultMaxSeen); past it the oldest are forgotten first. The
	// database's inbox stays the record of every message.
	MaxSeen int
}

// DefaultMaxSeen is how many MessageSids an InProcess store remembers at
// most: hours of a busy distributor's traffic, in a few megabytes.
const DefaultMaxSeen = 10000

// InProcess is the embedded Store, used when no REDIS_URL is set: the same
// behaviour as the Redis one (stored form, bounds, TTL, FIFO lock, Seen)
// within one process. Expired entries are dropped when touched and swept
// now and then.
type InProcess struct {
	now          func() time.Time
	ttl, seenTTL time.Duration
	locks        fifo

	mu     sync.Mutex
	convs  map[string]entry
	seen   seenSet
	writes int // since the last sweep
}

type entry struct {
	data    []byte // the stored form, as Apply makes it
	expires time.Time
}

var _ Store = (*InProcess)(nil)

// NewInProcess returns an empty in-process store.
func NewInProcess(opts Options) *InProcess {
	s := &InProcess{
		now: opts.Now, ttl: opts.TTL, seenTTL: opts.SeenTTL,
		convs: map[string]entry{}, seen: seenSet{max: opts.MaxSeen, marks: map[string]seenMark{}},
	}
	if s.seen.max <= 0 {
		s.seen.max = DefaultMaxSeen
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.ttl <= 0 {
		s.ttl = TTL
	}
	if s.seenTTL <= 0 {
		s.seenTTL = SeenTTL
	}
	return s
}

// Load returns phone's conversation, empty when unknown or expired.
func (s *InProcess) Load(ctx context.Context, phone string) (Conversation, error) {
	if err := CheckPhone(phone); err != nil {
		return Conversation{}, err
	}
	s.mu.Lock()
	data := s.live(phone)
	s.mu.Unlock()
	c, _ := Decode(data) // Apply wrote it: it reads
	c.Phone = phone
	return c, nil
}

// Append adds turns to phone's conversation and restarts its TTL.
func (s *InProcess) Append(ctx context.Context, phone string, turns ...Turn) error {
	if err := CheckPhone(phone); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	data, err := Apply(s.live(phone), now, turns...)
	if err != nil {
		return err
	}
	// A map keeps the key of its latest assignment: a copy, so that the
	// entry never pins the request the phone came from.
	s.convs[strings.Clone(phone)] = entry{data: data, expires: now.Add(s.ttl)}
	s.sweep(now)
	return nil
}

// Forget deletes phone's conversation.
func (s *InProcess) Forget(ctx context.Context, phone string) error {
	if err := CheckPhone(phone); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.convs, phone)
	s.mu.Unlock()
	return nil
}

// Lock admits phone's messages one at a time, first come first served.
func (s *InProcess) Lock(ctx context.Context, phone string) (func(), error) {
	if err := CheckPhone(phone); err != nil {
		return nil, err
	}
	return s.locks.lock(ctx, phone)
}

// Seen claims sid for phone for lease, or says who has it.
func (s *InProcess) Seen(ctx context.Context, sid, phone string, lease time.Duration) (SeenState, error) {
	if err := CheckSeen(sid, phone); err != nil {
		return 0, err
	}
	if lease <= 0 {
		lease = SeenLease
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if m, ok := s.seen.get(sid, now); ok {
		return m.state(phone), nil
	}
	s.seen.put(sid, seenMark{phone: phone, expires: now.Add(lease)}, now)
	return SeenNew, nil
}

// Answered marks sid answered for SeenTTL.
func (s *InProcess) Answered(ctx context.Context, sid, phone string) error {
	if err := CheckSeen(sid, phone); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if m, ok := s.seen.get(sid, now); ok && m.phone != phone {
		return nil // another sender's record stays as it is
	}
	s.seen.put(sid, seenMark{phone: phone, answered: true, expires: now.Add(s.seenTTL)}, now)
	return nil
}

// Ping always answers.
func (s *InProcess) Ping(ctx context.Context) error { return nil }

// Lifetimes returns the remaining lifetime of every live entry, keyed
// "conv:PHONE" and "seen:SID", with the size of each conversation's stored
// form; for tests and operators.
func (s *InProcess) Lifetimes() (ttl map[string]time.Duration, size map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	ttl, size = map[string]time.Duration{}, map[string]int{}
	for p, e := range s.convs {
		if now.Before(e.expires) {
			ttl["conv:"+p] = e.expires.Sub(now)
			size["conv:"+p] = len(e.data)
		}
	}
	for sid, m := range s.seen.marks {
		if now.Before(m.expires) {
			ttl["seen:"+sid] = m.expires.Sub(now)
		}
	}
	return ttl, size
}

// Waiting returns how many messages of phone wait for the lock.
func (s *InProcess) Waiting(phone string) int { return s.locks.waiting(phone) }

// live returns phone's stored conversation if it has not expired; s.mu is
// held.
func (s *InProcess) live(phone string) []byte {
	e, ok := s.convs[phone]
	if !ok {
		return nil
	}
	if !s.now().Before(e.expires) {
		delete(s.convs, phone)
		return nil
	}
	return e.data
}

// sweep drops expired entries every few hundred writes, so that memory
// stays bounded by the people active in the last TTL; s.mu is held.
func (s *InProcess) sweep(now time.Time) {
	s.writes++
	if s.writes < 256 {
		return
	}
	s.writes = 0
	for p, e := range s.convs {
		if !now.Before(e.expires) {
			delete(s.convs, p)
		}
	}
}

// seenSet is the in-process MessageSid dedupe: a claim or an answered mark
// per sid, forgotten when it expires or, past max marks, oldest written
// first. Marks are mostly written with one lifetime, so write order is
// close to expiry order and the oldest are dropped from the front.
type seenSet struct {
	max   int
	marks map[string]seenMark
	order []seenRef // write order; a ref superseded by a later write is skipped
	head  int       // order[:head] is consumed
	seq   uint64
}

type seenMark struct {
	phone    string
	answered bool
	expires  time.Time
	seq      uint64 // the write that made it
}

type seenRef struct {
	sid string
	seq uint64
}

func (m seenMark) state(phone string) SeenState {
	switch {
	case m.phone != phone:
		return SeenOtherSender
	case m.answered:
		return SeenAnswered
	}
	return SeenInFlight
}

// get returns sid's live mark, dropping an expired one.
func (s *seenSet) get(sid string, now time.Time) (seenMark, bool) {
	m, ok := s.marks[sid]
	if ok && !now.Before(m.expires) {
		delete(s.marks, sid)
		return seenMark{}, false
	}
	return m, ok
}

// put writes sid's mark, then forgets the expired and the oldest beyond max.
// The strings are copied: a MessageSid parsed from a form may be a slice of
// the whole request body, which must not live for SeenTTL.
func (s *seenSet) put(sid string, m seenMark, now time.Time) {
	s.seq++
	sid, m.phone, m.seq = strings.Clone(sid), strings.Clone(m.phone), s.seq
	s.marks[sid] = m
	s.order = append(s.order, seenRef{sid: sid, seq: m.seq})
	s.trim(now)
}

func (s *seenSet) trim(now time.Time) {
	for s.head < len(s.order) {
		ref := s.order[s.head]
		if m, ok := s.marks[ref.sid]; ok && m.seq == ref.seq {
			if len(s.marks) <= s.max && now.Before(m.expires) {
				break
			}
			delete(s.marks, ref.sid)
		}
		s.order[s.head] = seenRef{}
		s.head++
	}
	if s.head > len(s.order)/2 || len(s.order)-s.head > 2*s.max {
		s.compact()
	}
}

// compact drops the consumed and superseded refs, keeping write order.
func (s *seenSet) compact() {
	live := make([]seenRef, 0, len(s.marks))
	for _, ref := range s.order[s.head:] {
		if m, ok := s.marks[ref.sid]; ok && m.seq == ref.seq {
			live = append(live, ref)
		}
	}
	s.order, s.head = live, 0
}

// fifo is a per-key lock that admits waiters in arrival order.
type fifo struct {
	mu     sync.Mutex
	queues map[string]*fifoQueue
}

type fifoQueue struct {
	waiters []chan struct{} // closed when the lock passes to that waiter
}

func (f *fifo) lock(ctx context.Context, key string) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("memory: waiting for an earlier message: %w", err)
	}
	f.mu.Lock()
	if f.queues == nil {
		f.queues = map[string]*fifoQueue{}
	}
	q, held := f.queues[key]
	if !held {
		f.queues[key] = &fifoQueue{}
		f.mu.Unlock()
		return f.unlocker(key), nil
	}
	turn := make(chan struct{})
	q.waiters = append(q.waiters, turn)
	f.mu.Unlock()
	select {
	case <-turn:
		return f.unlocker(key), nil
	case <-ctx.Done():
	}
	f.mu.Lock()
	for i, w := range q.waiters {
		if w == turn {
			q.waiters = append(q.waiters[:i], q.waiters[i+1:]...)
			f.mu.Unlock()
			return nil, fmt.Errorf("memory: waiting for an earlier message: %w", ctx.Err())
		}
	}
	f.mu.Unlock()
	// The lock passed to this waiter as its context ended: pass it on.
	f.release(key)
	return nil, fmt.Errorf("memory: waiting for an earlier message: %w", ctx.Err())
}

func (f *fifo) unlocker(key string) func() {
	var once sync.Once
	return func() { once.Do(func() { f.release(key) }) }
}

func (f *fifo) release(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.queues[key]
	if q == nil {
		return
	}
	if len(q.waiters) == 0 {
		delete(f.queues, key)
		return
	}
	next := q.waiters[0]
	q.waiters = q.waiters[1:]
	close(next)
}

func (f *fifo) waiting(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if q := f.queues[key]; q != nil {
		return len(q.waiters)
	}
	return 0
}
