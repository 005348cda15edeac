package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

func TestSQLitePath(t *testing.T) {
	for dsn, want := range map[string]string{
		"munshi.db":                   "munshi.db",
		"/var/lib/munshi/munshi.db":   "/var/lib/munshi/munshi.db",
		"./data:2026.db":              "./data:2026.db",
		`C:\munshi\munshi.db`:         `C:\munshi\munshi.db`,
		"sqlite:munshi.db":            "munshi.db",
		"sqlite:/var/lib/munshi.db":   "/var/lib/munshi.db",
		"sqlite:///var/lib/munshi.db": "/var/lib/munshi.db",
		"SQLite://relative/munshi.db": "relative/munshi.db",
		"file:munshi.db":              "munshi.db",
		"file:///var/lib/munshi.db":   "/var/lib/munshi.db",
		"file://localhost/tmp/m.db":   "/tmp/m.db",
		"file:my%20books.db":          "my books.db",
		"बही खाता.db":                 "बही खाता.db",
		"sqlite:मुंशी/बही.db":         "मुंशी/बही.db",
	} {
		got, err := sqlitePath(dsn)
		if err != nil || got != want {
			t.Errorf("sqlitePath(%q) = %q, %v; want %q", dsn, got, err, want)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	const secret = "s3cr3t-pa55"
	for dsn, want := range map[string]string{
		"":    "no database given",
		"   ": "no database given",
		// Nothing listens on port 1: the error says where, never the password.
		"postgres://munshi:" + secret + "@127.0.0.1:1/munshi?sslmode=disable": `connect to PostgreSQL database "munshi"`,
		"postgresql://munshi:" + secret + "@127.0.0.1:1/books":                `connect to PostgreSQL database "books"`,
		"POSTGRES://munshi:" + secret + "@127.0.0.1:1/munshi":                 `connect to PostgreSQL database "munshi"`,
		"postgres://munshi:" + secret + "@[::1/munshi":                        "does not parse",
		"mysql://root:" + secret + "@localhost/munshi":                        `unsupported database "mysql:"`,
		"redis://:" + secret + "@127.0.0.1:6379/0":                            `unsupported database "redis:"`,
		"with\x00nul.db":           "NUL",
		"sqlite:/tmp/a\x00b.db":    "NUL",
		"sqlite:":                  "names no file",
		"sqlite://":                "names no file",
		"file:":                    "names no file",
		"file:munshi.db?mode=ro":   "with parameters",
		"file:munshi.db#frag":      "with parameters",
		"file://db.example/m.db":   "another host",
		"file:bad%zzescape.db":     "bad escape",
		"https://example.com/m.db": `unsupported database "https:"`,
	} {
		s, err := Open(context.Background(), dsn)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded, want %q", dsn, want)
			continue
		}
		if !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "store: ") {
			t.Errorf("Open(%q) = %v, want a store error saying %q", dsn, err, want)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("Open(%q) repeats the password: %v", dsn, err)
		}
	}
}

// Open by a path, a file: URI and a sqlite: name reach the same database,
// on the given clock.
func TestOpenSQLite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "बही.db")
	at := time.Date(2026, 3, 14, 4, 0, 0, 0, time.UTC)
	s, err := Open(ctx, path, WithClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertUsers(ctx, []domain.User{{Phone: "+919900000001", Name: "Vikram Singh", Role: domain.RoleOwner}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "startup"}); err != nil {
		t.Fatal(err)
	}
	entries, err := s.AuditEntries(ctx, "")
	if err != nil || len(entries) != 1 || !entries[0].At.Equal(at) {
		t.Fatalf("audit entries %+v, %v; want one stamped by the given clock %v", entries, err, at)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, dsn := range []string{"file://" + path, "sqlite:" + path, "sqlite://" + path} {
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatalf("Open(%q): %v", dsn, err)
		}
		if u, err := s.UserByPhone(ctx, "+919900000001"); err != nil || u.Name != "Vikram Singh" {
			t.Errorf("Open(%q) found %+v, %v; want the same database", dsn, u, err)
		}
		s.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, "sqlite:")); err == nil {
		t.Error("a sqlite: name was taken for a file name")
	}
}

// Hostile names fail with an error, never a panic.
func TestOpenHostileNames(t *testing.T) {
	dir := t.TempDir()
	for _, dsn := range []string{
		dir, // a directory
		filepath.Join(dir, "no", "such", "dir", "m.db"),
		filepath.Join(dir, strings.Repeat("ब", 400)+".db"),
		"file:" + strings.Repeat("%", 3),
	} {
		if s, err := Open(context.Background(), dsn); err == nil {
			s.Close()
			t.Errorf("Open(%.40q) succeeded", dsn)
		}
	}
}

func TestRedactedHidesThePassword(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://munshi:s3cr3t@db.example:5432/books": "postgres://munshi:xxxxx@db.example:5432/books",
		"postgres://db.example/books":                    "postgres://db.example/books",
		"/var/lib/munshi/munshi.db":                      "/var/lib/munshi/munshi.db",
		"postgres://munshi:s3cr3t@[::1/books":            "(an address that does not parse)",
	} {
		if got := Redacted(dsn); got != want {
			t.Errorf("Redacted(%q) = %q, want %q", dsn, got, want)
		}
	}
}
