package reports_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

var (
	owner    = domain.User{Phone: reportstest.KnownOwner, Name: "Vikram Singh", Role: domain.RoleOwner}
	accounts = domain.User{Phone: reportstest.KnownAccounts, Name: "Priya Nair", Role: domain.RoleAccounts}
	sales    = domain.User{Phone: reportstest.KnownSales, Name: "Ravi Kumar", Role: domain.RoleSales}
	nobody   = domain.User{Phone: "+919900000099", Name: "Guest User", Role: domain.Role("driver")}
)

// books are tools over a real SQLite store, auditing to it.
type books struct {
	store  store.Store
	tools  *reports.Tools
	router *intent.Router
}

// openBooks opens a fresh store, fills it with seed and wires tools at now
// in Kolkata, with a router over the store's catalog and customers.
func openBooks(t testing.TB, now time.Time, seed func(context.Context, store.Store) error) *books {
	t.Helper()
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "munshi.db"), now)
	if err := seed(ctx, s); err != nil {
		t.Fatal(err)
	}
	return wire(t, s, now)
}

// openStore opens the store at path on a clock standing at now, closed
// when the test ends.
func openStore(t testing.TB, path string, now time.Time) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path, store.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func wire(t testing.TB, s store.Store, now time.Time) *books {
	ctx := context.Background()
	ps, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := audit.New(s, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	tools := reports.NewTools(s, log)
	tools.Now = func() time.Time { return now }
	tools.Names = r
	return &books{store: s, tools: tools, router: r}
}

func knownBooks(t testing.TB) *books {
	return openBooks(t, reportstest.Now, func(ctx context.Context, s store.Store) error { return reportstest.Known(ctx, s) })
}

// ask routes text and answers it deterministically.
func (b *books) ask(t testing.TB, user domain.User, text string) string {
	t.Helper()
	d := b.router.Route(context.Background(), text)
	return b.tools.Answer(context.Background(), user, d).Text
}

// call runs a tool and fails the test on error.
func (b *books) call(t testing.TB, user domain.User, name string, args map[string]any) reports.Result {
	t.Helper()
	res, err := b.tools.Call(context.Background(), user, name, args)
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

func (b *books) audits(t testing.TB, kind string) []audit.Entry {
	t.Helper()
	es, err := b.store.AuditEntries(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// lines splits a reply into its lines, for comparing.
func lines(s string) []string { return strings.Split(s, "\n") }

func wantText(t testing.TB, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("reply:\n%s\n\nwant:\n%s", got, want)
	}
}

func wantContains(t testing.TB, got string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(got, p) {
			t.Fatalf("reply does not contain %q:\n%s", p, got)
		}
	}
}
