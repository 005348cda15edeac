package redis

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// DefaultPrefix is the key prefix when none is given.
const DefaultPrefix = "munshi:"

// Options tune a Store. The zero value is the production setting.
type Options struct {
	// TTL is how long a conversation lives after its last message (default
	// memory.TTL); SeenTTL how long an answered MessageSid is remembered
	// (default memory.SeenTTL).
	TTL, SeenTTL time.Duration
	// LockLifetime is how long a lock ticket lives without being renewed
	// (default 15s, Twilio's own limit): the holder renews it every third
	// of that while it works, waiters on every poll, so a crashed instance
	// blocks the person for at most this long.
	LockLifetime time.Duration
	// LockPoll is the first pause between checks while waiting for the
	// lock (default 1ms); it doubles up to LockPollMax (default 20ms).
	LockPoll, LockPollMax time.Duration
	// DialTimeout (default 1s) and IOTimeout (default 500ms, reads and
	// writes) keep a dead Redis from eating the webhook's budget.
	DialTimeout, IOTimeout time.Duration
	// PoolSize is the most connections kept (default go-redis's).
	PoolSize int
	Logger   *slog.Logger
}

// Store is memory.Store over Redis. It is safe for concurrent use.
type Store struct {
	c      *goredis.Client
	prefix string
	opts   Options
	log    *slog.Logger
	batch  scriptBatch
	// lastRead is Append's first guess of what is stored; prefetched
	// the conversations read with a lock just taken, for the Load after it.
	lastRead, prefetched lastReads
}

var _ memory.Store = (*Store)(nil)

// New connects lazily to the Redis at url (redis:// or rediss://): it does
// not fail when Redis is down, so that Munshi starts and answers without
// memory; Ping tells. prefix "" means DefaultPrefix.
func New(url, prefix string, opts Options) (*Store, error) {
	o, err := goredis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis: REDIS_URL: %w", err)
	}
	if prefix == "" {
		prefix = DefaultPrefix
	}
	if strings.ContainsAny(prefix, "{}*?[] \t\r\n") {
		return nil, fmt.Errorf("redis: key prefix %q has characters keys cannot have", prefix)
	}
	opts = withDefaults(opts)
	if o.DialTimeout == 0 {
		o.DialTimeout = opts.DialTimeout
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = opts.IOTimeout
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = opts.IOTimeout
	}
	if opts.PoolSize > 0 {
		o.PoolSize = opts.PoolSize
	}
	// One retry survives a connection that died with a Redis restart; more
	// would only delay the fallback to answering without memory.
	if o.MaxRetries == 0 {
		o.MaxRetries = 1
	}
	o.DialerRetries = 1
	o.ContextTimeoutEnabled = true
	o.DisableIdentity = true
	o.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return &Store{c: goredis.NewClient(o), prefix: prefix, opts: opts, log: opts.Logger}, nil
}

func withDefaults(o Options) Options {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.TTL, memory.TTL)
	def(&o.SeenTTL, memory.SeenTTL)
	def(&o.LockLifetime, 15*time.Second)
	def(&o.LockPoll, time.Millisecond)
	def(&o.LockPollMax, 20*time.Millisecond)
	def(&o.DialTimeout, time.Second)
	def(&o.IOTimeout, 500*time.Millisecond)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Close closes the connections.
func (s *Store) Close() error { return s.c.Close() }

// Key names, all under the prefix; the phone is a hash tag.
func (s *Store) convKey(phone string) string    { return s.prefix + "conv:{" + phone + "}" }
func (s *Store) queueKey(phone string) string   { return s.prefix + "lockq:{" + phone + "}" }
func (s *Store) ticketsKey(phone string) string { return s.prefix + "lockt:{" + phone + "}" }
func (s *Store) seenKey(sid string) string      { return s.prefix + "seen:" + sid }

// ConversationKey returns the key holding phone's conversation, for tests
// and operators.
func (s *Store) ConversationKey(phone string) string { return s.convKey(phone) }

// Load returns phone's conversation; an unknown or expired one is empty,
// and so is one Munshi can no longer read (it is logged).
func (s *Store) Load(ctx context.Context, phone string) (memory.Conversation, error) {
	if err := memory.CheckPhone(phone); err != nil {
		return memory.Conversation{}, err
	}
	var b []byte
	if v, ok := s.prefetched.take(phone); ok {
		b = []byte(v) // read with the lock this message holds
	} else {
		var err error
		b, err = s.c.Get(ctx, s.convKey(phone)).Bytes()
		if err != nil && !errors.Is(err, goredis.Nil) {
			s.lastRead.drop(phone)
			return memory.Conversation{}, fmt.Errorf("redis: unable to load conversation: %w", err)
		}
	}
	s.lastRead.put(phone, string(b))
	c, err := memory.Decode(b)
	if err != nil {
		s.log.Warn("redis: stored conversation unreadable; starting afresh", "err", err)
	}
	c.Phone = phone
	return c, nil
}

// casConversation writes a conversation only if it is still what the
// writer read: KEYS[1] the conversation; ARGV the value read ("" for
// none), the new value, the TTL in ms and the size bound. It returns
// {1} when it wrote, else {0, the value there now}, so that the writer
// can fold its turns into that without reading it again.
var casConversation = goredis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur then cur = '' end
if cur ~= ARGV[1] then return {0, cur} end
if #ARGV[2] > tonumber(ARGV[4]) then
  return redis.error_reply('ERR munshi conversation over its size bound')
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return {1}
`)

// maxAppendTries bounds the compare-and-set retries of one Append; with
// the per-person lock held there is never more than one.
const maxAppendTries = 32

// Append adds turns atomically: it folds the turns into the conversation
// as last read (by Load or an Append; "" when this instance has not read
// it) with memory.Apply and writes the result only if nobody wrote in
// between, else folds them into what is there and tries again. Under the
// per-person lock the guess is right, and an Append is one round trip.
func (s *Store) Append(ctx context.Context, phone string, turns ...memory.Turn) error {
	if err := memory.CheckPhone(phone); err != nil {
		return err
	}
	key := s.convKey(phone)
	old := s.lastRead.get(phone)
	for try := 0; try < maxAppendTries; try++ {
		next, err := memory.Apply([]byte(old), time.Now(), turns...)
		if err != nil {
			return err
		}
		res, err := s.run(ctx, casConversation, []string{key}, old, next, s.opts.TTL.Milliseconds(), memory.MaxBytes).Slice()
		if err != nil {
			s.lastRead.drop(phone)
			return fmt.Errorf("redis: unable to append to conversation: %w", err)
		}
		if len(res) == 1 {
			s.lastRead.put(phone, string(next))
			return nil
		}
		cur, _ := res[1].(string)
		if try > 0 {
			// Another writer got there first, twice: a moment's pause.
			if err := sleep(ctx, time.Duration(rand.Int64N(int64(time.Millisecond)*int64(try+1)))); err != nil {
				return fmt.Errorf("redis: unable to append to conversation: %w", err)
			}
		}
		old = cur
	}
	s.lastRead.drop(phone)
	return domain.Errorf(domain.ECONFLICT, "memory: conversation too busy to append to")
}

// lastReads remembers stored forms of conversations by phone: the last
// this instance read or wrote, as the first guess of Append's
// compare-and-set (a wrong guess costs one more round trip, never a lost
// write), or the one read with a lock. The map is emptied when it grows
// past its bound.
type lastReads struct {
	mu sync.Mutex
	m  map[string]string
}

const maxLastReads = 4096

func (l *lastReads) get(phone string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[phone]
}

func (l *lastReads) put(phone, v string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil || len(l.m) >= maxLastReads {
		l.m = make(map[string]string)
	}
	l.m[phone] = v
}

// take returns phone's value and forgets it.
func (l *lastReads) take(phone string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.m[phone]
	delete(l.m, phone)
	return v, ok
}

func (l *lastReads) drop(phone string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, phone)
}

// Forget deletes phone's conversation. The lock keys hold no content and
// expire within one lock lifetime; deleting them under a working holder
// would break the person's ordering.
func (s *Store) Forget(ctx context.Context, phone string) error {
	if err := memory.CheckPhone(phone); err != nil {
		return err
	}
	s.lastRead.drop(phone)
	if err := s.c.Del(ctx, s.convKey(phone)).Err(); err != nil {
		return fmt.Errorf("redis: unable to forget conversation: %w", err)
	}
	return nil
}

// A MessageSid's key holds who has it: "c" and the sender's phone while an
// instance holds the claim (with the claim's lease as TTL), "a" and the
// phone once it is answered (with SeenTTL). A claim whose holder died
// simply expires, and the next delivery claims it afresh.
const seenAnswered = "a"

// claimSeen returns the key's value, or "" after claiming it for ARGV[1]
// (the phone) for ARGV[2] ms.
var claimSeen = goredis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], 'c' .. ARGV[1], 'PX', ARGV[2])
return ''
`)

// markAnswered marks the key answered for ARGV[1] (the phone) for ARGV[2]
// ms, unless it is another phone's.
var markAnswered = goredis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 2) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 'a' .. ARGV[1], 'PX', ARGV[2])
return 1
`)

// Seen claims sid for phone for lease, atomically across instances, or
// says who has it.
func (s *Store) Seen(ctx context.Context, sid, phone string, lease time.Duration) (memory.SeenState, error) {
	if err := memory.CheckSeen(sid, phone); err != nil {
		return 0, err
	}
	if lease <= 0 {
		lease = memory.SeenLease
	}
	v, err := s.run(ctx, claimSeen, []string{s.seenKey(sid)}, phone, lease.Milliseconds()).Text()
	if err != nil {
		return 0, fmt.Errorf("redis: unable to claim message id: %w", err)
	}
	switch {
	case v == "":
		return memory.SeenNew, nil
	case len(v) < 2:
		return memory.SeenAnswered, nil // a bare mark from before claims had leases
	case v[1:] != phone:
		return memory.SeenOtherSender, nil
	case v[:1] == seenAnswered:
		return memory.SeenAnswered, nil
	}
	return memory.SeenInFlight, nil
}

// Answered marks sid answered for SeenTTL.
func (s *Store) Answered(ctx context.Context, sid, phone string) error {
	if err := memory.CheckSeen(sid, phone); err != nil {
		return err
	}
	if err := s.run(ctx, markAnswered, []string{s.seenKey(sid)}, phone, s.opts.SeenTTL.Milliseconds()).Err(); err != nil {
		return fmt.Errorf("redis: unable to mark message id answered: %w", err)
	}
	return nil
}

// Ping checks that Redis answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.c.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: ping: %w", err)
	}
	return nil
}

// The lock is a queue of tickets (KEYS[2], a list, in arrival order) with a
// lease per ticket (KEYS[1], a hash of ticket → expiry in Unix ms by Redis's
// clock, so that instances need not agree on time). The head of the queue
// holds the lock. Tickets whose lease ran out (a crashed instance) are
// dropped when they reach the head. Every write renews both keys' TTL to
// one lifetime, which outlives every live lease.
const lockHead = `
if redis.replicate_commands then redis.replicate_commands() end -- TIME before writes, Redis < 5
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function turn(ticket, t, life)
  redis.call('PEXPIRE', KEYS[1], life)
  redis.call('PEXPIRE', KEYS[2], life)
  while true do
    local head = redis.call('LINDEX', KEYS[2], 0)
    if not head then return -1 end
    if head == ticket then return 1 end
    local exp = tonumber(redis.call('HGET', KEYS[1], head))
    if exp and exp > t then return 0 end
    redis.call('LPOP', KEYS[2])
    redis.call('HDEL', KEYS[1], head)
  end
end
`

// withConversation returns the state of a ticket, and with a held lock
// the conversation (KEYS[3], when given), read in the same round trip:
// the holder reads it next anyway.
const withConversation = `
local function held(s)
  if s == 1 and KEYS[3] then return {s, redis.call('GET', KEYS[3]) or ''} end
  return {s}
end
`

// enterQueue issues ARGV[1] a ticket with a lease of ARGV[2] ms; it
// returns 1 if the ticket holds the lock at once, else 0.
var enterQueue = goredis.NewScript(lockHead + withConversation + `
local t = now()
redis.call('HSET', KEYS[1], ARGV[1], t + tonumber(ARGV[2]))
redis.call('RPUSH', KEYS[2], ARGV[1])
return held(turn(ARGV[1], t, ARGV[2]))
`)

// renewTicket renews ARGV[1]'s lease: 1 if it holds the lock, 0 if it
// waits, -1 if it was dropped (its lease ran out).
var renewTicket = goredis.NewScript(lockHead + withConversation + `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return {-1} end
local t = now()
redis.call('HSET', KEYS[1], ARGV[1], t + tonumber(ARGV[2]))
return held(turn(ARGV[1], t, ARGV[2]))
`)

// ticketState reads a ticket script's reply, and the conversation read
// with a lock just taken.
func ticketState(res []any, err error) (state int64, conv string, read bool, _ error) {
	if err != nil {
		return 0, "", false, err
	}
	if len(res) == 0 {
		return 0, "", false, errors.New("a lock script returned nothing")
	}
	state, _ = res[0].(int64)
	if len(res) > 1 {
		conv, read = res[1].(string)
	}
	return state, conv, read, nil
}

// leaveQueue drops ARGV[1]'s ticket, held or waiting.
var leaveQueue = goredis.NewScript(`
redis.call('LREM', KEYS[2], 0, ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('LLEN', KEYS[2]) == 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1
`)

// Lock takes a ticket in phone's queue and waits, until ctx ends, for it to
// reach the head: messages of one person are answered one at a time, in
// the order they reached Redis, across instances.
func (s *Store) Lock(ctx context.Context, phone string) (func(), error) {
	if err := memory.CheckPhone(phone); err != nil {
		return nil, err
	}
	keys := []string{s.ticketsKey(phone), s.queueKey(phone), s.convKey(phone)}
	ticket := newTicket()
	life := s.opts.LockLifetime.Milliseconds()
	state, conv, read, err := ticketState(s.run(ctx, enterQueue, keys, ticket, life).Slice())
	pause := s.opts.LockPoll
	for err == nil && state == 0 {
		if err = sleep(ctx, pause); err != nil {
			break
		}
		pause = min(2*pause, s.opts.LockPollMax)
		state, conv, read, err = ticketState(s.run(ctx, renewTicket, keys, ticket, life).Slice())
	}
	keys = keys[:2]
	if err == nil && state < 0 {
		err = errors.New("the ticket's lease ran out while waiting")
	}
	if err != nil {
		s.leave(keys, ticket)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("redis: waiting for an earlier message: %w", ctx.Err())
		}
		return nil, fmt.Errorf("redis: unable to lock conversation: %w", err)
	}
	if read {
		s.prefetched.put(phone, conv)
	}
	unlock := s.hold(keys, ticket)
	return func() {
		s.prefetched.drop(phone)
		unlock()
	}, nil
}

// hold renews the lease of a held ticket until unlock is called.
func (s *Store) hold(keys []string, ticket string) func() {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.opts.LockLifetime / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), s.opts.LockLifetime/3)
			state, _, _, err := ticketState(renewTicket.Run(ctx, s.c, keys, ticket, s.opts.LockLifetime.Milliseconds()).Slice())
			cancel()
			if err != nil {
				s.log.Warn("redis: unable to renew a conversation lock", "err", err)
			} else if state != 1 {
				s.log.Warn("redis: a conversation lock was lost: its lease ran out")
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			<-done
			s.leave(keys, ticket)
		})
	}
}

// leave drops a ticket, even after the caller's context has ended. A
// failed try (Redis stalled or restarting) is tried again in the
// background until the ticket's lease would have run out anyway, so that
// a person's next message does not wait out a lease nobody holds.
func (s *Store) leave(keys []string, ticket string) {
	err := s.tryLeave(keys, ticket)
	if err == nil {
		return
	}
	go func() {
		end := time.Now().Add(s.opts.LockLifetime)
		for pause := s.opts.LockPollMax; err != nil && time.Now().Before(end) && !errors.Is(err, goredis.ErrClosed); pause = min(2*pause, time.Second) {
			time.Sleep(pause)
			err = s.tryLeave(keys, ticket)
		}
		if err != nil {
			s.log.Warn("redis: unable to release a conversation lock; its lease will run out", "err", err)
		}
	}()
}

func (s *Store) tryLeave(keys []string, ticket string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*s.opts.IOTimeout)
	defer cancel()
	return s.run(ctx, leaveQueue, keys, ticket).Err()
}

func newTicket() string {
	b := make([]byte, 12)
	crand.Read(b)
	return hex.EncodeToString(b)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
