package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/store/sqlbooks"
)

// Option changes how Open opens a store.
type Option func(*options)

type options struct {
	now  func() time.Time
	pool int
}

// WithPoolSize sets how many connections a PostgreSQL store keeps (0:
// sqlbooks.DefaultPoolSize); SQLite keeps its one writer.
func WithPoolSize(n int) Option {
	return func(o *options) { o.pool = n }
}

// WithClock makes now the store's clock: leases, refusal days, the times
// it stamps. Tests move it; Munshi runs on time.Now.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// scheme is the start of a URL ("postgres:"). A single letter is not one:
// "C:\munshi.db" is a Windows path.
var scheme = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.\-]+):`)

var _ Store = (*sqlbooks.Store)(nil)

// Open opens the database dsn names, creating and migrating it if needed:
//
//   - a file path, file:PATH or file:///PATH (an SQLite URI filename,
//     without parameters), or sqlite:PATH or sqlite://PATH: SQLite (a name
//     with a scheme of two or more letters is never a path: write
//     ./data:2026.db for such a file);
//   - postgres://… or postgresql://…: PostgreSQL (the database must
//     exist; Munshi creates its tables);
//   - anything else: refused.
//
// Errors never repeat the rest of dsn, which may hold a password.
func Open(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var sopts []sqlbooks.Option
	if o.now != nil {
		sopts = append(sopts, sqlbooks.WithClock(o.now))
	}
	if IsPostgres(dsn) {
		// A scheme is case-blind; pgx reads only the lower case.
		name := scheme.FindStringSubmatch(dsn)[1]
		dsn = strings.ToLower(name) + dsn[len(name):]
		s, err := sqlbooks.OpenPostgres(ctx, dsn, append(sopts, sqlbooks.PoolSize(o.pool))...)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		return s, nil
	}
	path, err := sqlitePath(dsn)
	if err != nil {
		return nil, err
	}
	s, err := sqlbooks.OpenSQLite(ctx, path, sopts...)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Redacted is dsn as logs and messages may show it: a URL's password
// replaced by xxxxx.
func Redacted(dsn string) string {
	if !scheme.MatchString(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "(an address that does not parse)"
	}
	return u.Redacted()
}

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	m := scheme.FindStringSubmatch(dsn)
	return m != nil && (strings.EqualFold(m[1], "postgres") || strings.EqualFold(m[1], "postgresql"))
}

// sqlitePath is the SQLite file dsn names, or why dsn names none.
func sqlitePath(dsn string) (string, error) {
	if strings.TrimSpace(dsn) == "" {
		return "", errors.New("store: no database given: want a SQLite file path")
	}
	if strings.ContainsRune(dsn, 0) {
		// SQLite would cut the name there and open another file.
		return "", errors.New("store: database name holds a NUL byte")
	}
	m := scheme.FindStringSubmatch(dsn)
	if m == nil {
		return dsn, nil
	}
	rest := dsn[len(m[0]):]
	switch name := strings.ToLower(m[1]); name {
	case "sqlite", "sqlite3":
		// sqlite:munshi.db, sqlite:/var/lib/munshi.db, sqlite:///var/lib/munshi.db
		if strings.HasPrefix(rest, "//") {
			rest = rest[2:]
		}
		if rest == "" {
			return "", fmt.Errorf("store: %s: names no file", name)
		}
		return rest, nil
	case "file":
		return fileURIPath(dsn)
	default:
		return "", fmt.Errorf("store: unsupported database %q: want a SQLite file path, file:, sqlite: or postgres://", name+":")
	}
}

// fileURIPath reads an SQLite URI filename: file:munshi.db,
// file:///var/lib/munshi.db, percent-escapes decoded. Munshi sets the
// connection's parameters itself, so the URI may carry none.
func fileURIPath(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", errors.New("store: file: URI does not parse")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", errors.New("store: file: URI with parameters: Munshi sets its own, give the file alone")
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", errors.New("store: file: URI names another host")
	}
	path := u.Path
	if u.Opaque != "" {
		if path, err = url.PathUnescape(u.Opaque); err != nil {
			return "", errors.New("store: file: URI has a bad escape")
		}
	}
	if path == "" {
		return "", errors.New("store: file: URI names no file")
	}
	return path, nil
}
