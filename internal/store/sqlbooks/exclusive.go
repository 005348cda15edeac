package sqlbooks

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
)

// Exclusive runs fn while no other caller of Exclusive with the same name
// runs, in this process or, on PostgreSQL, in any process on the same
// database: work that two instances must not do at once, such as writing
// the same rows of a Google Sheet. On PostgreSQL it holds a session
// advisory lock on a connection of its own for as long as fn runs; SQLite
// has one process per file, so a lock of the process is enough.
func (s *Store) Exclusive(ctx context.Context, name string, fn func(context.Context) error) error {
	mu := s.processLock(name)
	mu.Lock()
	defer mu.Unlock()
	if !s.e.postgres() {
		return fn(ctx)
	}
	conn, err := s.db.DB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlbooks: lock %s: %w", name, err)
	}
	defer conn.Close()
	h := fnv.New64a()
	h.Write([]byte("munshi exclusive " + name))
	key := int64(h.Sum64())
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		return fmt.Errorf("sqlbooks: lock %s: %w", name, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key)
	return fn(ctx)
}

// locks are the process's locks of Exclusive, by store and name.
var locks sync.Map

type lockKey struct {
	s    *Store
	name string
}

func (s *Store) processLock(name string) *sync.Mutex {
	v, _ := locks.LoadOrStore(lockKey{s, name}, new(sync.Mutex))
	return v.(*sync.Mutex)
}
