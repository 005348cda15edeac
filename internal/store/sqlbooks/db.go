package sqlbooks

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// timeFormat is fixed-width so that text comparison orders times, in both
// engines alike.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

// Store is Munshi's books in one SQL database, SQLite or PostgreSQL. On
// SQLite writes go through one connection, so writers queue in the process
// instead of sleeping in SQLite's busy handler, and reads use a pool of
// query-only connections that see WAL snapshots. On PostgreSQL both are
// one pool, and every writing transaction is serializable and retried
// when the server says another won, so that what a single writer made
// safe stays safe with many processes.
type Store struct {
	db   *pool            // the writer
	read *pool            // readers
	e    *engine          // how the engine differs
	Now  func() time.Time // the clock; tests replace it

	poolSize int // PostgreSQL's connections

	groups groups // small writes waiting for a group commit (group.go)

	checkpoints *checkpointer // SQLite's WAL checkpoints (checkpoint.go); nil on PostgreSQL
}

// Option changes how a store is opened.
type Option func(*Store)

// WithClock makes now the store's clock, from the first write on.
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.Now = now }
}

func newStore(e *engine, writer, readers *sql.DB, opts []Option) *Store {
	s := &Store{db: &pool{DB: writer, e: e}, read: &pool{DB: readers, e: e}, e: e, Now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Close closes the database.
func (s *Store) Close() error {
	ckpt := s.checkpoints.close()
	if s.read.DB == s.db.DB {
		return errors.Join(ckpt, s.db.Close())
	}
	return errors.Join(ckpt, s.read.Close(), s.db.Close())
}

// Ping checks that the database answers, for readiness probes.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.read.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("sqlbooks: ping: %w", err)
	}
	return nil
}

// migrate applies the engine's migrations that are missing, each in its
// own transaction, in name order.
func (s *Store) migrate(ctx context.Context, migrations fs.FS) error {
	err := s.inTxAt(ctx, s.e.migrating, func(tx *dbTx) error {
		if err := s.e.lockMigrations(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlbooks: migrations table: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*/*.sql")
	if err != nil {
		return fmt.Errorf("sqlbooks: list migrations: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		body, err := fs.ReadFile(migrations, name)
		if err != nil {
			return fmt.Errorf("sqlbooks: read %s: %w", name, err)
		}
		// Both engines record a migration by the same name.
		key := "migrations/" + name[strings.LastIndex(name, "/")+1:]
		err = s.inTxAt(ctx, s.e.migrating, func(tx *dbTx) error {
			if err := s.e.lockMigrations(ctx, tx); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE name = ?`, key).Scan(&n); err != nil || n > 0 {
				return err
			}
			if _, err := tx.Tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, key, formatTime(s.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlbooks: apply %s: %w", name, err)
		}
	}
	return nil
}

// Schema names the schema: the engine, its version (the number of the last
// migration applied, the same in both engines for the same tables), and a
// hash of the migrations with the tables and indexes they made, so that
// an edited migration shows too: "postgres 0015 1f2e…".
func (s *Store) Schema(ctx context.Context) (string, error) {
	names, err := s.migrationNames(ctx)
	if err != nil {
		return "", fmt.Errorf("sqlbooks: schema: %w", err)
	}
	ddl, err := s.e.ddl(ctx, s.read)
	if err != nil {
		return "", fmt.Errorf("sqlbooks: schema: %w", err)
	}
	h := sha256.Sum256([]byte(strings.Join(names, ",") + "|" + ddl))
	last := ""
	if len(names) > 0 {
		last = names[len(names)-1]
	}
	version, _, _ := strings.Cut(strings.TrimPrefix(last, "migrations/"), "_")
	return s.e.name + " " + version + " " + hex.EncodeToString(h[:8]), nil
}

// migrationNames lists the migrations applied, in order.
func (s *Store) migrationNames(ctx context.Context) ([]string, error) {
	return stringsOf(ctx, s.read, `SELECT name FROM schema_migrations ORDER BY name`)
}

// A transaction that lost a race is run again at least retries times,
// and for as long as retryFor has not passed since its first try (or its
// context ends): several instances committing orders of one product at
// once serialize on it, and the last of thirty needs thirty rounds.
const (
	retries  = 12
	retryFor = 5 * time.Second
	// maxBackoffShift caps the random pause between tries at 2^shift ms.
	maxBackoffShift = 7
)

// inTx runs fn in a writing transaction, committing when it returns nil.
// When the engine says the transaction lost to a concurrent one (or its
// connection went before the commit was sent), fn runs again on a fresh
// transaction: fn must start from nothing each time.
func (s *Store) inTx(ctx context.Context, fn func(*dbTx) error) error {
	return s.inTxAt(ctx, s.e.write, fn)
}

// inTxAt is inTx at an isolation level of the engine's. Each try runs
// first before anything else of it (the held audit entries too): a lock
// that a serializable transaction takes before its first query makes it
// wait for the holder to commit and read what that committed.
func (s *Store) inTxAt(ctx context.Context, level sql.IsolationLevel, fn func(*dbTx) error, first ...func(context.Context, *dbTx) error) (err error) {
	fn, unsaved := s.heldFirst(ctx, fn) // a message's audit entries go first (audit.go)
	defer func() { unsaved(err) }()
	start := time.Now()
	for attempt := 0; ; attempt++ {
		err := s.tryTx(ctx, level, fn, first...)
		if err == nil || attempt >= retries && time.Since(start) >= retryFor || !s.e.retryable(err) || ctx.Err() != nil {
			return err
		}
		// Back off a little, at random, so the losers do not meet again.
		wait := time.Duration(1+rand.IntN(1<<min(attempt, maxBackoffShift))) * time.Millisecond
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

func (s *Store) tryTx(ctx context.Context, level sql.IsolationLevel, fn func(*dbTx) error, first ...func(context.Context, *dbTx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: level})
	if err != nil {
		return err
	}
	for _, f := range first {
		if err := f(ctx, tx); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return commitError{err}
	}
	s.checkpoints.committed()
	return nil
}

// commitError is a failed COMMIT: whether it took is unknown unless the
// server said it did not, so only such an answer is retried.
type commitError struct{ err error }

func (e commitError) Error() string { return e.err.Error() }
func (e commitError) Unwrap() error { return e.err }

func joinList(xs []string) string { return strings.Join(xs, "|") }

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}
