package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/store/pgadmin"
)

// DefaultURL is the server tests use when MUNSHI_TEST_POSTGRES_URL is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// ServerURL is the address of the test server's maintenance database.
func ServerURL() string {
	if u := os.Getenv("MUNSHI_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// NewDatabase creates an empty database for t and returns its address;
// the database is dropped, with whatever is still connected to it, when
// t ends. Without a server t skips, or fails under CI=true.
func NewDatabase(t testing.TB) string {
	t.Helper()
	dsn, err := withDatabase(ServerURL(), "munshi_test_"+suffix())
	if err != nil {
		t.Fatalf("pgtest: MUNSHI_TEST_POSTGRES_URL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := pgadmin.CreateDatabase(ctx, dsn); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: PostgreSQL is needed and does not answer at %s: %v", redacted(ServerURL()), err)
		}
		t.Skipf("pgtest: no PostgreSQL at %s (set MUNSHI_TEST_POSTGRES_URL): %v", redacted(ServerURL()), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := pgadmin.DropDatabase(ctx, dsn); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return dsn
}

// Sibling is the address of another database, name, on the server dsn
// names: where a backup of it goes.
func Sibling(t testing.TB, dsn, name string) string {
	t.Helper()
	out, err := withDatabase(dsn, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := pgadmin.DropDatabase(ctx, out); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return out
}

// Suffix is a random name part, so that parallel test runs never meet.
func suffix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func withDatabase(dsn, name string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

func redacted(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}
