package pgadmin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// connectTimeout is how long the server has to answer.
const connectTimeout = 3 * time.Second

// CreateDatabase creates the empty database dsn names, connecting to the
// server's postgres database to do it; a database of that name that
// exists already is an error.
func CreateDatabase(ctx context.Context, dsn string) error {
	return onServer(ctx, dsn, "create", func(name string) string {
		return `CREATE DATABASE ` + name
	})
}

// DropDatabase drops the database dsn names, closing what is connected to
// it, if it exists.
func DropDatabase(ctx context.Context, dsn string) error {
	return onServer(ctx, dsn, "drop", func(name string) string {
		return `DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`
	})
}

// onServer runs the statement that stmt makes of the quoted name of the
// database dsn names, connected to the server's postgres database.
func onServer(ctx context.Context, dsn, what string, stmt func(name string) string) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return errors.New("pgadmin: the PostgreSQL address does not parse")
	}
	name := cfg.Database
	if name == "" {
		return errors.New("pgadmin: the PostgreSQL address names no database")
	}
	cfg.Database = "postgres"
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("pgadmin: connect to %s %q: %w", what, name, Cause(err))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, stmt(pgx.Identifier{name}.Sanitize())); err != nil {
		return fmt.Errorf("pgadmin: %s database %q: %w", what, name, Cause(err))
	}
	return nil
}

// Cause keeps what the server or the network said, without the
// connection string pgx puts in front of it.
func Cause(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		if u := errors.Unwrap(ce); u != nil {
			return u
		}
	}
	return err
}
