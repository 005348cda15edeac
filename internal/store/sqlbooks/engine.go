package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
)

// engine is what SQLite and PostgreSQL do differently. The queries are
// written once; where the two engines spell a thing differently, the
// engine gives its spelling.
type engine struct {
	name     string // "sqlite" or "postgres", as Schema reports it
	dollars  bool   // placeholders are $1, $2, … rather than ?
	write    sql.IsolationLevel
	snapshot sql.IsolationLevel // of a read-only transaction
	// migrating is the level migrations run at: each statement must see
	// what another process migrated while this one waited for the lock.
	migrating sql.IsolationLevel
	// retryable says whether a failed transaction lost a race (or its
	// connection) and may run again.
	retryable func(error) bool
	// lockMigrations keeps two processes from migrating at once.
	lockMigrations func(ctx context.Context, tx *dbTx) error
	// lockCommits, the first statement of an order's commit, makes
	// commits take their turn rather than lose races to each other.
	lockCommits func(ctx context.Context, tx *dbTx) error
	// ddl is every table's and index's definition, in name order.
	ddl func(ctx context.Context, q querier) (string, error)
	// backup copies the whole database to dst.
	backup func(ctx context.Context, s *Store, dst string) error
}

func (e *engine) postgres() bool { return e.name == "postgres" }

// Backup writes a consistent copy of the whole database to dst, which
// Open opens as it opens this one and which must not exist yet.
func (s *Store) Backup(ctx context.Context, dst string) error { return s.e.backup(ctx, s, dst) }

// The spellings that differ. Each takes SQL expressions and returns one.

// seq is the column that orders a table's rows as they were written.
func (e *engine) seq() string {
	if e.postgres() {
		return "seq"
	}
	return "rowid"
}

// greatest is the larger of two values.
func (e *engine) greatest(a, b string) string {
	if e.postgres() {
		return "GREATEST(" + a + ", " + b + ")"
	}
	return "MAX(" + a + ", " + b + ")"
}

// jsonInt is the integer at key of the JSON object doc (NULL without one).
func (e *engine) jsonInt(doc, key string) string {
	if e.postgres() {
		return e.jsonText(doc, key) + "::bigint"
	}
	return e.jsonText(doc, key)
}

// jsonText is the text at key of the JSON object doc.
func (e *engine) jsonText(doc, key string) string {
	if e.postgres() {
		return "((" + doc + ")::jsonb->>'" + key + "')"
	}
	return "json_extract(" + doc + ", '$." + key + "')"
}

// jsonLen is the length of the array at key of the JSON object doc.
func (e *engine) jsonLen(doc, key string) string {
	if e.postgres() {
		return "jsonb_array_length((" + doc + ")::jsonb->'" + key + "')"
	}
	return "json_array_length(" + doc + ", '$." + key + "')"
}

// jsonEach is a FROM item: the elements of the array at key of doc, each
// as alias.value.
func (e *engine) jsonEach(doc, key, alias string) string {
	if e.postgres() {
		return "jsonb_array_elements((" + doc + ")::jsonb->'" + key + "') AS " + alias + "(value)"
	}
	return "json_each(" + doc + ", '$." + key + "') " + alias
}

// jsonStrings is a subquery of the strings of a JSON array given as the
// parameter ?.
func (e *engine) jsonStrings() string {
	if e.postgres() {
		return "SELECT jsonb_array_elements_text(CAST(? AS jsonb))"
	}
	return "SELECT value FROM json_each(?)"
}

// joined is the values of expr in a group, joined by sep, in the order of
// by ("" for any order); a DISTINCT expr is joined by ",".
func (e *engine) joined(expr, sep, by string) string {
	if e.postgres() {
		if by != "" {
			by = " ORDER BY " + by
		}
		distinct := ""
		if rest, ok := strings.CutPrefix(expr, "DISTINCT "); ok {
			distinct, expr = "DISTINCT ", rest
		}
		return "string_agg(" + distinct + "CAST(" + expr + " AS text), '" + sep + "'" + by + ")"
	}
	if strings.HasPrefix(expr, "DISTINCT ") {
		// SQLite takes no separator with DISTINCT: it is always ','.
		return "group_concat(" + expr + ")"
	}
	return "group_concat(" + expr + ", '" + sep + "')"
}

// strpos is the position of needle in hay, from 1, or 0.
func (e *engine) strpos(hay, needle string) string {
	if e.postgres() {
		return "strpos(" + hay + ", " + needle + ")"
	}
	return "instr(" + hay + ", " + needle + ")"
}

// localDay is the date, YYYY-MM-DD, of the time column col offset seconds
// east of UTC.
func (e *engine) localDay(col string, offset int) string {
	if e.postgres() {
		return fmt.Sprintf("to_char(CAST(left(%s, 19) AS timestamp) + interval '%d seconds', 'YYYY-MM-DD')", col, offset)
	}
	return fmt.Sprintf("date(substr(%s, 1, 19), '%+d seconds')", col, offset)
}

// uniqueViolation reports whether err is a write refused by a unique key,
// in either engine.
func uniqueViolation(err error) bool {
	if se := (sqlite3.Error{}); errors.As(err, &se) {
		return se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// skipLocked ends a SELECT that claims rows: PostgreSQL locks the rows it
// returns and passes over those another claim holds, so concurrent claims
// take different rows instead of waiting for or undoing one another.
// SQLite's one writer claims one at a time already.
func (e *engine) skipLocked() string {
	if e.postgres() {
		return " FOR UPDATE SKIP LOCKED"
	}
	return ""
}
