package sqlbooks

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/munshi/munshi/internal/store/pgadmin"
)

//go:embed migrations/postgres/*.sql
var postgresMigrations embed.FS

// Timeouts of the PostgreSQL connection, like a production analytical
// tier's: a server that does not answer in ConnectTimeout is down, and
// no statement of Munshi's runs anywhere near StatementTimeout.
const (
	ConnectTimeout   = 3 * time.Second
	StatementTimeout = 8 * time.Second
	// DefaultPoolSize is the connections one instance keeps when the
	// configuration names no number.
	DefaultPoolSize = 10
)

var postgresEngine = &engine{
	name:           "postgres",
	dollars:        true,
	write:          sql.LevelSerializable,
	snapshot:       sql.LevelRepeatableRead,
	migrating:      sql.LevelReadCommitted,
	retryable:      pgRetryable,
	lockMigrations: pgLockMigrations,
	lockCommits:    pgLockCommits,
	ddl:            pgDDL,
}

// A backup opens a store of the engine, so it is set once the engine is.
func init() { postgresEngine.backup = backupPostgres }

// PoolSize sets how many connections a PostgreSQL store keeps open; SQLite
// ignores it.
func PoolSize(n int) Option {
	return func(s *Store) { s.poolSize = n }
}

// OpenPostgres connects to the PostgreSQL database dsn names (a
// postgres:// URL or key=value string) and applies any missing
// migrations. Errors never repeat dsn, which may hold a password.
func OpenPostgres(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("sqlbooks: PostgreSQL address does not parse")
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > ConnectTimeout {
		cfg.ConnectTimeout = ConnectTimeout
	}
	if _, ok := cfg.RuntimeParams["statement_timeout"]; !ok {
		cfg.RuntimeParams["statement_timeout"] = fmt.Sprint(StatementTimeout.Milliseconds())
	}
	cfg.RuntimeParams["application_name"] = "munshi"
	db := stdlib.OpenDB(*cfg)
	s := newStore(postgresEngine, db, db, opts)
	n := s.poolSize
	if n <= 0 {
		n = DefaultPoolSize
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(5 * time.Minute)
	where := cfg.Database
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlbooks: connect to PostgreSQL database %q: %w", where, pgadmin.Cause(err))
	}
	if err := s.migrate(ctx, postgresMigrations); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// pgRetryable: a serialization failure or a deadlock rolled the
// transaction back, so it may run again; so may one whose connection was
// lost before its COMMIT was sent. A COMMIT that got no answer may have
// taken, and is not run again.
func pgRetryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	var ce commitError
	if errors.As(err, &ce) {
		return false
	}
	return errors.Is(err, driver.ErrBadConn) || pgconn.SafeToRetry(err)
}

// pgLockMigrations holds a lock for the rest of the transaction that
// every migrating process takes first, so that instances starting
// together migrate one after another.
func pgLockMigrations(ctx context.Context, tx *dbTx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7243061)`)
	return err
}

// pgLockCommits makes order commits, from every instance, wait for each
// other. Each reads the stock open orders hold and adds to it, and takes
// the next order number: run side by side, all but one lose at COMMIT
// (serialization failures) and start again, and under a burst of "ok"s
// from several instances the last loses until its retries run out. A
// table lock taken before the transaction's first query makes them go one
// after another, each with a snapshot taken once the one before has
// committed: serializable still, with nothing to retry. It locks counters,
// which commits write, in a mode that conflicts with itself and with
// writers of counters (the draft and proposal numbers wait the few
// milliseconds of a commit), not with readers.
func pgLockCommits(ctx context.Context, tx *dbTx) error {
	_, err := tx.ExecContext(ctx, `LOCK TABLE counters IN SHARE ROW EXCLUSIVE MODE`)
	return err
}

// pgDDL is every column, constraint and index of the schema, in name
// order.
func pgDDL(ctx context.Context, q querier) (string, error) {
	var ddl sql.NullString
	err := q.QueryRowContext(ctx, `SELECT string_agg(d, ';' ORDER BY d) FROM (
		SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '') AS d
			FROM information_schema.columns WHERE table_schema = current_schema()
		UNION ALL SELECT conrelid::regclass::text || ' ' || pg_get_constraintdef(oid)
			FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
		UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()) x`).Scan(&ddl)
	return ddl.String, err
}
