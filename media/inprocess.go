package media

import (
	"bytes"
	"container/heap"
	"container/list"
	"context"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// DefaultBudget is the most bytes an InProcess store holds by default.
const DefaultBudget = 256 << 20

// Options tune an InProcess store. The zero value is the production setting.
type Options struct {
	// Budget is the most file bytes held (default DefaultBudget): a Put
	// that would exceed it evicts the oldest files first.
	Budget int64
	// TTL is how long a file lives when Put is not told (default
	// DefaultTTL; MUNSHI_MEDIA_TTL).
	TTL time.Duration
	// Now is the clock (default time.Now); tests move it to expire files.
	Now func() time.Time
}

// InProcess is the embedded Store, used when no REDIS_URL is set. Its files
// live in this process only: another instance, or this one after a
// restart, answers ENOTFOUND for them — fine for links Twilio fetches
// within minutes of the reply. Expired files are swept on every Put and
// Get.
type InProcess struct {
	now    func() time.Time
	ttl    time.Duration
	budget int64

	mu      sync.Mutex
	files   map[string]*entry
	byAge   list.List // of *entry, oldest at the front
	byEnd   expiries  // soonest expiry at the root
	holding int64     // body bytes held
}

type entry struct {
	id   string
	file File
	age  *list.Element
	slot int // index in byEnd
}

var _ Store = (*InProcess)(nil)

// NewInProcess returns an empty in-process store.
func NewInProcess(opts Options) *InProcess {
	s := &InProcess{now: opts.Now, ttl: opts.TTL, budget: opts.Budget, files: map[string]*entry{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.ttl <= 0 {
		s.ttl = DefaultTTL
	}
	if s.budget <= 0 {
		s.budget = DefaultBudget
	}
	return s
}

// Put stores a copy of f, evicting the oldest files if the budget needs
// the room. EINVALID: see Prepare, and a file larger than the whole budget.
func (s *InProcess) Put(ctx context.Context, f File) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	now := s.now()
	f, err := Prepare(f, now, s.ttl)
	if err != nil {
		return "", err
	}
	size := int64(len(f.Body))
	if size > s.budget {
		return "", domain.Errorf(domain.EINVALID, "media: %s is %s bytes, more than the %s bytes kept for all files",
			f.Name, domain.GroupIndian(size), domain.GroupIndian(s.budget))
	}
	f.Body = bytes.Clone(f.Body) // the caller may reuse its buffer
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	for s.holding+size > s.budget {
		s.remove(s.byAge.Front().Value.(*entry))
	}
	e := &entry{id: NewID(), file: f}
	for s.files[e.id] != nil { // 130 random bits: never, but cheap to be sure
		e.id = NewID()
	}
	e.age = s.byAge.PushBack(e)
	heap.Push(&s.byEnd, e)
	s.files[e.id] = e
	s.holding += size
	return e.id, nil
}

// Get returns the file stored under id until it expires.
func (s *InProcess) Get(ctx context.Context, id string) (File, error) {
	if err := CheckID(id); err != nil {
		return File{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(s.now())
	e := s.files[id]
	if e == nil {
		return File{}, ErrNotFound
	}
	return e.file, nil
}

// Holding returns how many files and body bytes the store holds.
func (s *InProcess) Holding() (files int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.files), s.holding
}

// sweep drops every file whose time is up; s.mu is held.
func (s *InProcess) sweep(now time.Time) {
	for len(s.byEnd) > 0 && !now.Before(s.byEnd[0].file.Expires) {
		s.remove(s.byEnd[0])
	}
}

// remove drops e from every index; s.mu is held.
func (s *InProcess) remove(e *entry) {
	delete(s.files, e.id)
	s.byAge.Remove(e.age)
	heap.Remove(&s.byEnd, e.slot)
	s.holding -= int64(len(e.file.Body))
}

// expiries is a min-heap of entries by expiry: files may have TTLs of
// their own, so the oldest file is not always the first to expire.
type expiries []*entry

func (h expiries) Len() int           { return len(h) }
func (h expiries) Less(i, j int) bool { return h[i].file.Expires.Before(h[j].file.Expires) }
func (h expiries) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].slot, h[j].slot = i, j
}
func (h *expiries) Push(x any) {
	e := x.(*entry)
	e.slot = len(*h)
	*h = append(*h, e)
}
func (h *expiries) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return e
}
