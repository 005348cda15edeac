package sqlbooks

import (
	"context"
	"database/sql"
)

// engine is what SQLite and PostgreSQL do differently. The queries are
// written once; where the two engines spell a thing differently, the
// engine gives its spelling.
type engine struct {
	name     string // "sqlite" or "postgres", as Schema reports it
	dollars  bool   // placeholders are $1, $2, … rather than ?
	write    sql.IsolationLevel
	snapshot sql.IsolationLevel // of a read-only transaction
	// retryable says whether a failed transaction lost a race (or its
	// connection) and may run again.
	retryable func(error) bool
	// lockMigrations keeps two processes from migrating at once.
	lockMigrations func(ctx context.Context, tx *dbTx) error
	// ddl is every table's and index's definition, in name order.
	ddl func(ctx context.Context, q querier) (string, error)
	// backup copies the whole database to dst.
	backup func(ctx context.Context, s *Store, dst string) error
}

func (e *engine) postgres() bool { return e.name == "postgres" }

// Backup writes a consistent copy of the whole database to dst, which
// Open opens as it opens this one and which must not exist yet.
func (s *Store) Backup(ctx context.Context, dst string) error { return s.e.backup(ctx, s, dst) }
