package sqlbooks

import (
	"context"
	"database/sql"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Group commit. Each message writes a few single rows (its claim, its
// audit entries, its reply), and on SQLite every write queues for the
// one writer connection and commits alone. group gathers the writes
// that concurrent callers make into one transaction, so that a burst of
// messages shares its commits; each caller still waits for the commit
// of its own write, so a write is as durable when group returns nil as
// one committed alone, and a caller's writes commit in the order it made
// them.

// groupMax bounds how many writes one transaction commits, so that a
// group never holds the writer for long.
const groupMax = 256

// The states of a write waiting for its group.
const (
	writeWaiting   int32 = iota
	writeTaken           // in a transaction: its caller waits for the outcome
	writeAbandoned       // its caller's context ended first: never run
)

// statements is what a group's write runs its statements on: the
// group's transaction or, for a write alone on PostgreSQL that needs
// none, the pool.
type statements interface {
	execer
	querier
}

// groupWrite is one write waiting for a group commit.
type groupWrite struct {
	ctx   context.Context
	write func(ctx context.Context, db statements) error
	// lone says the write is as correct without a transaction: each of
	// its statements stands alone (groupLone).
	lone  bool
	state atomic.Int32
	done  chan error // the outcome, sent once
}

// groups is the queue of writes waiting for a group commit and the
// goroutines that commit them.
type groups struct {
	mu         sync.Mutex
	pending    []*groupWrite
	committing int   // goroutines committing groups
	committed  int64 // groups committed, for the tests
}

// group runs write in a transaction that it shares with the writes other
// callers make meanwhile, and returns once that transaction has
// committed (nil) or failed. write must start from nothing each time it
// runs: a transaction that loses a race runs again, and when one write
// of a group fails, each runs again in a transaction of its own, so that
// one write's error is its own and undoes none of the others. A caller
// whose ctx ends before its write is taken into a transaction gets
// ctx's error and the write never runs; once taken, it commits or fails
// with its group. The caller must not hold a writing transaction.
func (s *Store) group(ctx context.Context, write func(ctx context.Context, db statements) error) error {
	return s.enqueue(ctx, write, false)
}

// groupLone is group for a write that needs no transaction of its own:
// one statement, or statements each guarded by its own conditions as
// they are under read committed. On PostgreSQL such a write alone in its
// group runs on the pool, each statement committing as it runs, and is
// spared the BEGIN and COMMIT round trips; with others it shares their
// transaction as any write does. On SQLite it is group.
func (s *Store) groupLone(ctx context.Context, write func(ctx context.Context, db statements) error) error {
	return s.enqueue(ctx, write, true)
}

// enqueue is group, or groupLone when lone.
func (s *Store) enqueue(ctx context.Context, write func(ctx context.Context, db statements) error, lone bool) error {
	w := &groupWrite{ctx: ctx, write: write, lone: lone, done: make(chan error, 1)}
	g := &s.groups
	g.mu.Lock()
	g.pending = append(g.pending, w)
	if g.committing < s.committers() {
		g.committing++
		go s.commitGroups()
	}
	g.mu.Unlock()
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		if w.state.CompareAndSwap(writeWaiting, writeAbandoned) {
			return ctx.Err()
		}
		return <-w.done
	}
}

// committers is how many groups may commit at once: SQLite has one
// writer, PostgreSQL's pool serves several.
func (s *Store) committers() int {
	if !s.e.postgres() {
		return 1
	}
	n := s.poolSize
	if n <= 0 {
		n = DefaultPoolSize
	}
	return max(1, n/2)
}

// groupLevel is the isolation of a group's transaction. The writes
// gathered are single rows, each guarded by its own statement as when it
// was committed alone; on PostgreSQL they keep the isolation a lone
// statement has (read committed), so that gathering them makes no
// conflicts of serializable transactions.
func (s *Store) groupLevel() sql.IsolationLevel {
	if s.e.postgres() {
		return sql.LevelReadCommitted
	}
	return s.e.write
}

// commitGroups commits groups of pending writes until none is left.
// Before each group it yields the processor once: when the machine is
// busy, the goroutines ready to run go first and add their writes to
// the group, and when it is idle the yield returns at once. Under a
// burst of owners' questions that made groups four times larger (6.6
// writes instead of 1.65) and the CPU a message a sixth smaller.
func (s *Store) commitGroups() {
	for s.anyPending() {
		runtime.Gosched()
		s.commitGroup()
	}
}

// anyPending reports whether writes wait for a group; when none does,
// the goroutine that asks stops committing.
func (s *Store) anyPending() bool {
	g := &s.groups
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.pending) == 0 {
		g.committing--
		return false
	}
	return true
}

// commitGroup commits the writes pending once it holds a writing
// transaction: on SQLite the writer, so that the writes made while it
// waited for it go in too.
func (s *Store) commitGroup() {
	if w := s.takeLone(); w != nil {
		err := w.write(context.WithoutCancel(w.ctx), s.db)
		s.counted(err)
		w.done <- err
		return
	}
	var batch []*groupWrite
	taken, failed := false, false
	err := s.inTxAt(context.Background(), s.groupLevel(), func(tx *dbTx) error {
		if !taken {
			batch, taken = s.takePending(), true
		}
		failed = false
		for _, w := range batch {
			if err := w.write(context.WithoutCancel(w.ctx), tx); err != nil {
				failed = true
				return err
			}
		}
		return nil
	})
	if !taken {
		// No transaction began: the writes pending fail with it.
		batch = s.takePending()
	}
	if failed && len(batch) > 1 {
		// One write failed and the transaction was rolled back: each
		// runs again alone, to commit or fail on its own.
		for _, w := range batch {
			w.done <- s.inTxAt(context.Background(), s.groupLevel(), func(tx *dbTx) error { return w.write(context.WithoutCancel(w.ctx), tx) })
		}
		return
	}
	s.counted(err)
	for _, w := range batch {
		w.done <- err
	}
}

// counted counts a group committed when err is nil.
func (s *Store) counted(err error) {
	if err != nil {
		return
	}
	s.groups.mu.Lock()
	s.groups.committed++
	s.groups.mu.Unlock()
}

// takePending takes up to groupMax pending writes whose callers still
// wait, in the order they were made.
func (s *Store) takePending() []*groupWrite {
	g := &s.groups
	g.mu.Lock()
	defer g.mu.Unlock()
	var batch []*groupWrite
	n := 0
	for _, w := range g.pending {
		if len(batch) == groupMax {
			break
		}
		n++
		if w.ctx.Err() != nil && w.state.CompareAndSwap(writeWaiting, writeAbandoned) {
			w.done <- w.ctx.Err()
			continue
		}
		if w.state.CompareAndSwap(writeWaiting, writeTaken) {
			batch = append(batch, w)
		}
	}
	g.pending = slices.Delete(g.pending, 0, n)
	return batch
}

// takeLone takes the one write pending on PostgreSQL when it needs no
// transaction (groupLone); nil when there are more, or it needs one, or
// the engine is SQLite, whose one writer commits every write in a
// transaction anyway.
func (s *Store) takeLone() *groupWrite {
	if !s.e.postgres() {
		return nil
	}
	g := &s.groups
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.pending) != 1 || !g.pending[0].lone || g.pending[0].ctx.Err() != nil {
		return nil
	}
	w := g.pending[0]
	if !w.state.CompareAndSwap(writeWaiting, writeTaken) {
		return nil
	}
	g.pending = g.pending[:0]
	return w
}

// groupExec runs one statement in a group commit and returns how many
// rows it changed.
func (s *Store) groupExec(ctx context.Context, query string, args ...any) (int64, error) {
	var n int64
	err := s.groupLone(ctx, func(ctx context.Context, db statements) error {
		res, err := db.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}
