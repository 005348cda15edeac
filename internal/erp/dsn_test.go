package erp

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestSQLServerDSN(t *testing.T) {
	c, err := parseDSN("sqlserver://erp_reader:p%40ss@10.0.0.5:1433?database=BusyERP", Options{ConnectTimeout: 2500 * time.Millisecond}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if c.driver != "sqlserver" || c.dialect != SQLServer {
		t.Errorf("driver %q dialect %q", c.driver, c.dialect)
	}
	u, _ := url.Parse(c.dsn)
	q := u.Query()
	for k, want := range map[string]string{"ApplicationIntent": "ReadOnly", "dial timeout": "3", "connection timeout": "3", "app name": appName, "database": "BusyERP"} {
		if q.Get(k) != want {
			t.Errorf("%s = %q, want %q (%s)", k, q.Get(k), want, Redact(c.dsn))
		}
	}
	if pw, _ := u.User.Password(); pw != "p@ss" {
		t.Errorf("password %q", pw)
	}
	// mssql:// is the same, and settings the address gives win.
	c, _ = parseDSN("mssql://u:p@host?ApplicationIntent=ReadWrite", Options{}.withDefaults())
	if u, _ := url.Parse(c.dsn); u.Scheme != "sqlserver" || u.Query().Get("ApplicationIntent") != "ReadWrite" {
		t.Errorf("mssql:// read as %s", Redact(c.dsn))
	}
}

func TestPostgresAndMySQLDSN(t *testing.T) {
	o := Options{QueryTimeout: 45 * time.Second, ConnectTimeout: 3 * time.Second}.withDefaults()
	c, err := parseDSN("postgresql://erp:pw@db:5432/erp?sslmode=disable", o)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(c.dsn)
	if q := u.Query(); c.driver != "pgx" || q.Get("default_transaction_read_only") != "on" || q.Get("statement_timeout") != "45000" || q.Get("connect_timeout") != "3" {
		t.Errorf("postgres DSN %s", Redact(c.dsn))
	}
	c, err = parseDSN("mysql://erp:pw@db/erp?charset=utf8mb4", o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"erp:pw@tcp(db:3306)/erp", "parseTime=true", "timeout=3s", "charset=utf8mb4"} {
		if !strings.Contains(c.dsn, want) {
			t.Errorf("mysql DSN %q lacks %q", c.dsn, want)
		}
	}
	c, _ = parseDSN("sqlite:///var/erp/busy.db", o)
	if c.dsn != "file:/var/erp/busy.db?_query_only=true&mode=ro" {
		t.Errorf("sqlite DSN %q", c.dsn)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://erp:s3cret@db/erp":  "postgres://erp:xxxxx@db/erp",
		"sqlserver://sa:s3cret@db:1433": "sqlserver://sa:xxxxx@db:1433",
		"sqlite:/var/erp.db":            "sqlite:/var/erp.db",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParseDSN: any address is read or refused, never a panic, and a
// refusal never repeats the password.
func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{"sqlserver://u:secretpw@h:1433?database=x", "mysql://u:secretpw@h/db", "postgres://u:secretpw@h/db",
		"sqlite:/tmp/x.db", "file:x.db?mode=rw", "mssql://", "mysql://u:secretpw@[::1", "", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		_, err := parseDSN(dsn, Options{}.withDefaults())
		if err != nil && strings.Contains(dsn, "secretpw") && strings.Contains(err.Error(), "secretpw") {
			t.Errorf("the error repeats the password: %v", err)
		}
	})
}
