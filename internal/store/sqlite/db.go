package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // the database/sql driver "sqlite3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// timeFormat is fixed-width so that text comparison orders times.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

// Store is Munshi's SQLite database. Writes go through one connection, so
// writers queue in the process instead of sleeping in SQLite's busy
// handler; reads use a pool of query-only connections that see WAL
// snapshots and never wait for a writer.
type Store struct {
	db   *sql.DB          // the writer
	read *sql.DB          // readers
	Now  func() time.Time // the clock; tests replace it
}

// Option changes how Open opens the store.
type Option func(*Store)

// WithClock makes now the store's clock, from the first write on.
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.Now = now }
}

// Open opens (creating if needed) the database at path with WAL, a busy
// timeout and foreign keys on, and applies any missing migrations.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	// The path is a URI filename: '?', '#' and '%' in it must be escaped.
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	db, err := sql.Open("sqlite3", "file:"+escaped+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	s := &Store{db: db, read: db, Now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	rq := url.Values{}
	rq.Set("_busy_timeout", "5000")
	rq.Set("_foreign_keys", "on")
	rq.Set("_query_only", "true")
	read, err := sql.Open("sqlite3", "file:"+escaped+"?"+rq.Encode())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	read.SetMaxOpenConns(4)
	read.SetMaxIdleConns(4)
	s.read = read
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	return errors.Join(s.read.Close(), s.db.Close())
}

// Ping checks that the database answers, for readiness probes.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.read.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// Schema names the schema: the migrations applied, and a hash of them with
// the tables and indexes they made, so that an edited migration shows too.
func (s *Store) Schema(ctx context.Context) (string, error) {
	var names, ddl sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT
		(SELECT group_concat(name, ',') FROM (SELECT name FROM schema_migrations ORDER BY name)),
		(SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name))`).Scan(&names, &ddl)
	if err != nil {
		return "", fmt.Errorf("sqlite: schema: %w", err)
	}
	h := sha256.Sum256([]byte(names.String + "|" + ddl.String))
	last := names.String[strings.LastIndex(names.String, ",")+1:]
	return "sqlite " + strings.TrimSuffix(strings.TrimPrefix(last, "migrations/"), ".sql") + " " + hex.EncodeToString(h[:8]), nil
}

func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("sqlite: migrations table: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: list migrations: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		body, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("sqlite: read %s: %w", name, err)
		}
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE name = ?`, name).Scan(&n); err != nil || n > 0 {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, name, formatTime(s.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: apply %s: %w", name, err)
		}
	}
	return nil
}

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func joinList(xs []string) string { return strings.Join(xs, "|") }

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}
