package main

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/reports"
)

// TestMigrateCopiesTheBooksIntoPostgres: the demo distributor's books,
// history and all, copied from SQLite read the same in PostgreSQL, and
// the copy goes on where the original left off.
func TestMigrateCopiesTheBooksIntoPostgres(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "munshi.db")
	src, err := store.Open(ctx, path, store.WithClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Seed(ctx, src, at); err != nil {
		t.Fatal(err)
	}
	if _, err := src.NewDraftID(ctx); err != nil {
		t.Fatal(err)
	}
	src.Close()

	dsn := pgtest.NewDatabase(t)
	out, _, err := cli(t, nil, "", "migrate", "--from", path, "--to", dsn)
	if err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	for _, want := range []string{"products", "order_lines", "payments", "Every table holds the same rows and money"} {
		if !strings.Contains(out, want) {
			t.Errorf("migrate printed no %q:\n%s", want, out)
		}
	}

	src, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := store.Open(ctx, dsn, store.WithClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	same := func(what string, read func(store.Store) (any, error)) {
		t.Helper()
		a, errA := read(src)
		b, errB := read(dst)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs after the copy: SQLite %+v (%v), PostgreSQL %+v (%v)", what, a, errA, b, errB)
		}
	}
	same("products", func(s store.Store) (any, error) { return s.Products(ctx) })
	same("customers", func(s store.Store) (any, error) { return s.Customers(ctx) })
	same("dues", func(s store.Store) (any, error) {
		totals, dues, err := s.Dues(ctx, reports.DuesQuery{Page: reports.Page{Limit: 50}})
		return []any{totals, dues}, err
	})
	same("sales", func(s store.Store) (any, error) {
		totals, groups, err := s.SalesSummary(ctx, reports.SalesQuery{From: at.AddDate(0, 0, -30), To: at, Page: reports.Page{Limit: 50}})
		return []any{totals, groups}, err
	})
	same("schema's last migration", func(s store.Store) (any, error) {
		v, err := s.Schema(ctx)
		return strings.Fields(v)[1], err
	})

	// The counters and ids go on past what was copied.
	if id, err := dst.NewDraftID(ctx); err != nil || id != "D-2" {
		t.Errorf("the next draft in the copy = %q, %v; want D-2", id, err)
	}
	pay := domain.Payment{CustomerID: "C01", Amount: 100, Mode: domain.PayUPI, ReceivedAt: at, Reference: "UPI-AFTER-COPY"}
	if err := dst.AddHistory(ctx, nil, []domain.Payment{pay}); err != nil {
		t.Errorf("a payment after the copy: %v", err)
	}

	// Into books that are not empty, nothing is copied.
	if _, _, err := cli(t, nil, "", "migrate", "--from", path, "--to", dsn); err == nil || !strings.Contains(err.Error(), "already holds books") {
		t.Errorf("a second copy into the same database: %v", err)
	}
}

func TestMigrateRefusesWhatItCannotCopy(t *testing.T) {
	dir := t.TempDir()
	const secret = "pa55-w0rd"
	pg := "postgres://munshi:" + secret + "@127.0.0.1:1/books"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate"}, "usage"},
		{[]string{"migrate", "--from", "a.db"}, "usage"},
		{[]string{"migrate", "--from", filepath.Join(dir, "none.db"), "--to", pg}, "no SQLite database at"},
		{[]string{"migrate", "--from", dir, "--to", pg}, "is a directory"},
		{[]string{"migrate", "--from", pg, "--to", pg}, "--from must be a SQLite file"},
		{[]string{"migrate", "--from", "a.db", "--to", filepath.Join(dir, "b.db")}, "--to must be a PostgreSQL address"},
	} {
		_, stderr, err := cli(t, nil, "", tc.args...)
		if err == nil {
			t.Errorf("%q succeeded", tc.args)
			continue
		}
		if tc.want == "usage" {
			if !errors.Is(err, errUsage) || !strings.Contains(stderr, "munshi migrate --from") {
				t.Errorf("%q = %v, %q; want the usage", tc.args, err, stderr)
			}
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q = %v, want %q", tc.args, err, tc.want)
		}
		if strings.Contains(err.Error()+stderr, secret) {
			t.Errorf("%q repeats the password: %v", tc.args, err)
		}
	}
}
