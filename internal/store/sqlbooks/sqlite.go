package sqlbooks

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
)

//go:embed migrations/sqlite/*.sql
var sqliteMigrations embed.FS

// sqliteEngine has one writer, so no transaction ever loses a race.
var sqliteEngine = &engine{
	name:           "sqlite",
	retryable:      func(error) bool { return false },
	lockMigrations: func(context.Context, *dbTx) error { return nil },
	lockCommits:    func(context.Context, *dbTx) error { return nil }, // one writer already
	ddl:            sqliteDDL,
	backup:         backupSQLite,
}

// stmtCache is how many prepared statements each connection keeps: the
// few dozen a message runs are then compiled once, not on every message.
const stmtCache = "128"

// busyTimeout is how long, in milliseconds, every connection waits for a
// lock another holds: the writer's, the readers' and the checkpoints'.
const busyTimeout = "5000"

// OpenSQLite opens (creating if needed) the SQLite database at path with
// WAL, a busy timeout and foreign keys on, and applies any missing
// migrations.
func OpenSQLite(ctx context.Context, path string, opts ...Option) (*Store, error) {
	keepFreedMemory()
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", busyTimeout)
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	q.Set("_stmt_cache_size", stmtCache)
	// The path is a URI filename: '?', '#' and '%' in it must be escaped.
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	registerSQLite()
	db, err := sql.Open(sqliteDriver, "file:"+escaped+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	s := newStore(sqliteEngine, db, db, opts)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlbooks: open %s: %w", path, err)
	}
	if err := s.migrate(ctx, sqliteMigrations); err != nil {
		db.Close()
		return nil, err
	}
	rq := url.Values{}
	rq.Set("_busy_timeout", busyTimeout)
	rq.Set("_foreign_keys", "on")
	rq.Set("_query_only", "true")
	rq.Set("_stmt_cache_size", stmtCache)
	read, err := sql.Open("sqlite3", "file:"+escaped+"?"+rq.Encode())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlbooks: open %s for reading: %w", path, err)
	}
	read.SetMaxOpenConns(4)
	read.SetMaxIdleConns(4)
	s.read = &pool{DB: read, e: sqliteEngine}
	cq := url.Values{}
	cq.Set("_busy_timeout", busyTimeout)
	ckpt, err := sql.Open(sqliteDriver, "file:"+escaped+"?"+cq.Encode())
	if err != nil {
		read.Close()
		db.Close()
		return nil, fmt.Errorf("sqlbooks: open %s for checkpoints: %w", path, err)
	}
	s.checkpoints = startCheckpointer(ckpt)
	return s, nil
}

// sqliteDDL is every table's and index's definition, in name order.
func sqliteDDL(ctx context.Context, q querier) (string, error) {
	var ddl sql.NullString
	err := q.QueryRowContext(ctx, `SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name)`).Scan(&ddl)
	return ddl.String, err
}

// backupSQLite writes a consistent copy of the database, write-ahead log
// included, to a new file at path. VACUUM INTO reads one snapshot on the
// writer's connection, so no write lands half in the copy.
func backupSQLite(ctx context.Context, s *Store, path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("sqlbooks: backup: %s already exists", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sqlbooks: backup: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("sqlbooks: backup: %w", err)
	}
	return nil
}
