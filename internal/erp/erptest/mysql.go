package erptest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// DefaultMySQL is the server used when MUNSHI_TEST_MYSQL_URL is not set.
const DefaultMySQL = "mysql://root@127.0.0.1:3306/test"

// MySQL creates an empty database for t and returns its mysql:// address;
// it is dropped when t ends. Without a server t skips, or fails under
// CI=true.
func MySQL(t testing.TB) string {
	t.Helper()
	server := os.Getenv("MUNSHI_TEST_MYSQL_URL")
	if server == "" {
		server = DefaultMySQL
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("erptest: MUNSHI_TEST_MYSQL_URL: %v", err)
	}
	c := mysql.NewConfig()
	c.Net, c.Addr = "tcp", u.Host
	if u.User != nil {
		c.User = u.User.Username()
		c.Passwd, _ = u.User.Password()
	}
	c.Timeout = 3 * time.Second
	admin, err := sql.Open("mysql", c.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b := make([]byte, 6)
	rand.Read(b)
	name := "munshi_erp_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("erptest: MySQL is needed and does not answer at %s: %v", u.Host, err)
		}
		t.Skipf("erptest: no MySQL at %s (set MUNSHI_TEST_MYSQL_URL): %v", u.Host, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS `"+name+"`"); err != nil {
			t.Errorf("erptest: %v", err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// Writer opens a read-write connection to a mysql:// address, for a test
// that builds the source it then reads through erp.
func Writer(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	c := mysql.NewConfig()
	c.Net, c.Addr, c.DBName = "tcp", u.Host, u.Path[1:]
	if u.User != nil {
		c.User = u.User.Username()
		c.Passwd, _ = u.User.Password()
	}
	c.ParseTime, c.MultiStatements = true, true
	db, err := sql.Open("mysql", c.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
