package erp

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Dialect is the SQL engine a source runs.
type Dialect string

// The engines a source may be.
const (
	SQLServer  Dialect = "sqlserver"
	PostgreSQL Dialect = "postgres"
	MySQL      Dialect = "mysql"
	SQLite     Dialect = "sqlite"
)

// Options bound what a source may cost the ERP.
type Options struct {
	ConnectTimeout time.Duration // default 10s
	QueryTimeout   time.Duration // per query; default 60s
	MaxConns       int           // pool size; default 2
	Parallel       int           // queries at once; default 1
	// Later has Open return without waiting for the source to answer: a
	// server starts while its ERP is down, and each run tries again.
	Later bool
}

func (o Options) withDefaults() Options {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = 60 * time.Second
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 2
	}
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
	if o.Parallel > o.MaxConns {
		o.MaxConns = o.Parallel
	}
	return o
}

// conn is how to open a source: the driver, its DSN, and the dialect.
type conn struct {
	driver  string
	dsn     string
	dialect Dialect
}

// appName names Munshi to the ERP's server, so its DBA sees who reads.
const appName = "munshi-sync"

// parseDSN turns a source address into the driver's DSN with the
// read-only and timeout settings. Its errors never hold the password.
func parseDSN(dsn string, o Options) (conn, error) {
	dsn = strings.TrimSpace(dsn)
	scheme, _, ok := strings.Cut(dsn, ":")
	if !ok || dsn == "" {
		return conn{}, fmt.Errorf("erp: %q is not a source address: use sqlserver://, postgres://, mysql:// or sqlite:", Redact(dsn))
	}
	switch strings.ToLower(scheme) {
	case "sqlserver", "mssql":
		return sqlServerDSN(dsn, o)
	case "postgres", "postgresql":
		return postgresDSN(dsn, o)
	case "mysql", "mariadb":
		return mysqlDSN(dsn, o)
	case "sqlite", "sqlite3", "file":
		return sqliteDSN(dsn)
	}
	return conn{}, fmt.Errorf("erp: unknown source scheme %q: use sqlserver://, postgres://, mysql:// or sqlite:", scheme)
}

func parseURL(dsn string) (*url.URL, error) {
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("erp: %q is not a valid address (scheme://user:password@host:port/database)", Redact(dsn))
	}
	return u, nil
}

// sqlServerDSN asks for a read-only application intent (a read replica in
// an availability group; the login's own rights elsewhere) and sets the
// dial and login timeouts. go-mssqldb refuses read-only transactions, so
// the read-only promise rests on the intent and the login, which should
// be given only db_datareader.
func sqlServerDSN(dsn string, o Options) (conn, error) {
	u, err := parseURL(dsn)
	if err != nil {
		return conn{}, err
	}
	u.Scheme = "sqlserver"
	q := u.Query()
	secs := fmt.Sprint(int((o.ConnectTimeout + time.Second - 1) / time.Second))
	set := func(k, v string) {
		if q.Get(k) == "" {
			q.Set(k, v)
		}
	}
	set("ApplicationIntent", "ReadOnly")
	set("dial timeout", secs)
	set("connection timeout", secs)
	set("app name", appName)
	u.RawQuery = q.Encode()
	return conn{driver: "sqlserver", dsn: u.String(), dialect: SQLServer}, nil
}

// postgresDSN makes every transaction read-only by default and has the
// server end a statement at the query timeout.
func postgresDSN(dsn string, o Options) (conn, error) {
	u, err := parseURL(dsn)
	if err != nil {
		return conn{}, err
	}
	q := u.Query()
	q.Set("default_transaction_read_only", "on")
	q.Set("statement_timeout", fmt.Sprint(o.QueryTimeout.Milliseconds()))
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", fmt.Sprint(int((o.ConnectTimeout+time.Second-1)/time.Second)))
	}
	if q.Get("application_name") == "" {
		q.Set("application_name", appName)
	}
	u.RawQuery = q.Encode()
	return conn{driver: "pgx", dsn: u.String(), dialect: PostgreSQL}, nil
}

// mysqlDSN translates mysql://user:pass@host:port/db into the driver's
// form, with its dial and read timeouts and a session statement limit.
func mysqlDSN(dsn string, o Options) (conn, error) {
	u, err := parseURL(dsn)
	if err != nil {
		return conn{}, err
	}
	c := mysql.NewConfig()
	if u.User != nil {
		c.User = u.User.Username()
		c.Passwd, _ = u.User.Password()
	}
	c.Net, c.Addr = "tcp", u.Host
	if u.Port() == "" {
		c.Addr = u.Host + ":3306"
	}
	c.DBName = strings.TrimPrefix(u.Path, "/")
	c.ParseTime = true
	c.Loc = time.UTC
	c.Timeout = o.ConnectTimeout
	c.ReadTimeout = o.QueryTimeout + 5*time.Second
	c.Params = map[string]string{}
	for k, vs := range u.Query() {
		if len(vs) > 0 {
			c.Params[k] = vs[0]
		}
	}
	return conn{driver: "mysql", dsn: c.FormatDSN(), dialect: MySQL}, nil
}

// sqliteDSN opens the file read-only: sqlite:///abs/path.db,
// sqlite:relative.db or a file: URI.
func sqliteDSN(dsn string) (conn, error) {
	_, rest, _ := strings.Cut(dsn, ":")
	path, query, _ := strings.Cut(strings.TrimPrefix(rest, "//"), "?")
	if path == "" {
		return conn{}, fmt.Errorf("erp: %q names no SQLite file", dsn)
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return conn{}, fmt.Errorf("erp: %q: %w", dsn, err)
	}
	q.Set("mode", "ro")
	q.Set("_query_only", "true")
	return conn{driver: "sqlite3", dsn: "file:" + path + "?" + q.Encode(), dialect: SQLite}, nil
}

// Redact returns the address with its password replaced, for logs and
// errors; text that is no URL comes back with anything after '@' kept and
// what looks like user:password before it hidden.
func Redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		return u.String()
	}
	if at := strings.LastIndex(dsn, "@"); at >= 0 {
		// Not an address Munshi can read: whatever precedes the host may
		// be a password.
		pre := ""
		if i := strings.Index(dsn, "://"); i >= 0 && i < at {
			pre = dsn[:i+3]
		}
		return pre + "xxxxx" + dsn[at:]
	}
	return dsn
}
