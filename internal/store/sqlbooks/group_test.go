package sqlbooks

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/store/pgtest"
)

// groupStores opens the store of each engine, PostgreSQL's with one
// committer (a pool of two), so that writes made while a group commits
// wait for the next.
func groupStores(t *testing.T) map[string]*Store {
	s, _, _ := openStore(t)
	pg, err := OpenPostgres(context.Background(), pgtest.NewDatabase(t), WithClock(func() time.Time { return t0 }), PoolSize(2))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	return map[string]*Store{"sqlite": s, "postgres": pg}
}

// holdCommitter starts a group whose one write waits until the returned
// function is called: the writes made meanwhile go in the next group.
func holdCommitter(t *testing.T, s *Store) (release func()) {
	t.Helper()
	started, free := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.group(context.Background(), func(context.Context, statements) error {
			close(started)
			<-free
			return nil
		})
	}()
	<-started
	return func() {
		close(free)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// waitPending waits until n writes wait for a group.
func waitPending(t *testing.T, s *Store, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.groups.mu.Lock()
		got := len(s.groups.pending)
		s.groups.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("fewer than %d writes pending", n)
}

func committedGroups(s *Store) int64 {
	s.groups.mu.Lock()
	defer s.groups.mu.Unlock()
	return s.groups.committed
}

// TestGroupCommitsWhatWaitedTogether: the audit entries written while a
// group commits are committed together in the next, each writer's in
// its order, and each writer returns once they are in.
func TestGroupCommitsWhatWaitedTogether(t *testing.T) {
	for name, s := range groupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			release := holdCommitter(t, s)
			before := committedGroups(s)
			const writers, each = 40, 5
			var wg sync.WaitGroup
			errs := make([]error, writers)
			for w := range writers {
				wg.Go(func() {
					es := make([]audit.Entry, each)
					for i := range es {
						es[i] = audit.Entry{Actor: fmt.Sprint(w), Kind: "group", Subject: fmt.Sprint(i)}
					}
					errs[w] = s.AppendAudit(ctx, es...)
				})
			}
			waitPending(t, s, writers)
			release()
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			// The group held back, then one with every writer's entries.
			if n := committedGroups(s) - before; n != 2 {
				t.Errorf("%d groups committed, want the one held and one more", n)
			}
			entries, err := s.AuditEntries(ctx, "group")
			if err != nil || len(entries) != writers*each {
				t.Fatalf("%d entries, %v; want %d", len(entries), err, writers*each)
			}
			next := map[string]int{}
			for _, e := range entries {
				if e.Subject != fmt.Sprint(next[e.Actor]) {
					t.Fatalf("writer %s: entry %s after %d of its entries", e.Actor, e.Subject, next[e.Actor])
				}
				next[e.Actor]++
			}
		})
	}
}

// TestGroupWriteFailsAlone: a write that fails in a group fails alone;
// the others of its group are committed, and nothing of it is.
func TestGroupWriteFailsAlone(t *testing.T) {
	for name, s := range groupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			release := holdCommitter(t, s)
			refused := errors.New("refused")
			var wg sync.WaitGroup
			errs := make([]error, 5)
			for i := range errs {
				wg.Go(func() {
					errs[i] = s.group(ctx, func(ctx context.Context, tx statements) error {
						if _, err := tx.ExecContext(ctx, `INSERT INTO audit_log (at, actor, kind, subject, detail) VALUES (?, 'test', 'alone', ?, '{}')`,
							formatTime(t0), fmt.Sprint(i)); err != nil {
							return err
						}
						if i == 2 {
							return refused
						}
						return nil
					})
				})
			}
			waitPending(t, s, len(errs))
			release()
			wg.Wait()
			for i, err := range errs {
				if (i == 2) != errors.Is(err, refused) {
					t.Errorf("write %d: %v", i, err)
				}
			}
			entries, _ := s.AuditEntries(ctx, "alone")
			var got []string
			for _, e := range entries {
				got = append(got, e.Subject)
			}
			if slices.Sort(got); fmt.Sprint(got) != "[0 1 3 4]" {
				t.Errorf("committed %v, want every write but 2", got)
			}
		})
	}
}

// TestGroupWriteAbandoned: a write whose caller gives up before a group
// takes it never runs.
func TestGroupWriteAbandoned(t *testing.T) {
	for name, s := range groupStores(t) {
		t.Run(name, func(t *testing.T) {
			release := holdCommitter(t, s)
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() { errc <- s.AppendAudit(ctx, audit.Entry{Actor: "test", Kind: "abandoned"}) }()
			waitPending(t, s, 1)
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Fatalf("AppendAudit = %v, want the context's end", err)
			}
			release()
			// A later write commits, and the abandoned one is not with it.
			if err := s.AppendAudit(context.Background(), audit.Entry{Actor: "test", Kind: "later"}); err != nil {
				t.Fatal(err)
			}
			if entries, _ := s.AuditEntries(context.Background(), "abandoned"); len(entries) != 0 {
				t.Fatalf("the abandoned write ran: %+v", entries)
			}
		})
	}
}

// TestLoneWriteNeedsNoTransaction: on PostgreSQL a write that needs no
// transaction, alone in its group, runs on the pool; with others it
// shares their transaction, and on SQLite it always has one.
func TestLoneWriteNeedsNoTransaction(t *testing.T) {
	for name, s := range groupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			inTx := func(i int, got []bool) func(context.Context, statements) error {
				return func(ctx context.Context, db statements) error {
					_, got[i] = db.(*dbTx)
					_, err := db.ExecContext(ctx, `INSERT INTO audit_log (at, actor, kind, subject, detail) VALUES (?, 'test', 'lone', ?, '{}')`,
						formatTime(t0), fmt.Sprint(i))
					return err
				}
			}
			alone := make([]bool, 1)
			if err := s.groupLone(ctx, inTx(0, alone)); err != nil {
				t.Fatal(err)
			}
			if want := name == "sqlite"; alone[0] != want {
				t.Errorf("a lone write alone: in a transaction %v, want %v", alone[0], want)
			}
			release := holdCommitter(t, s)
			together := make([]bool, 3)
			var wg sync.WaitGroup
			for i := range together {
				wg.Go(func() {
					if err := s.groupLone(ctx, inTx(i, together)); err != nil {
						t.Error(err)
					}
				})
			}
			waitPending(t, s, len(together))
			release()
			wg.Wait()
			for i, got := range together {
				if !got {
					t.Errorf("lone write %d of a group of %d ran outside its transaction", i, len(together))
				}
			}
			if entries, err := s.AuditEntries(ctx, "lone"); err != nil || len(entries) != 4 {
				t.Errorf("committed %d entries (%v), want 4", len(entries), err)
			}
		})
	}
}
