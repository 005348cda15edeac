package sqlbooks

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/store/pgtest"
)

// A copy from SQLite into PostgreSQL keeps what a sync wrote: inactive
// products, bills, states, owned figures and provisional entries, and
// PostgreSQL numbers the next provisional entry past the copied ones.
func TestCopyKeepsSyncedBooks(t *testing.T) {
	ctx := context.Background()
	clock := func() time.Time { return t0 }
	src, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "munshi.db"), WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := src.UpsertProducts(ctx, []domain.Product{{SKU: "GC500", Name: "Glass Cleaner", Unit: "bottle", Price: 9200},
		{SKU: "BR01", Name: "Broom", Unit: "piece", Price: 8000}}); err != nil {
		t.Fatal(err)
	}
	if err := src.UpsertCustomers(ctx, []domain.Customer{{ID: "C01", Name: "Rajesh"}}); err != nil {
		t.Fatal(err)
	}
	b := func(e erpsync.Entity) erpsync.Batch {
		return erpsync.Batch{Entity: e, State: erpsync.State{Watermark: "w", LastRun: t0, LastGood: t0, Rows: 2}}
	}
	if _, err := src.SyncDues(ctx, b(erpsync.Dues), []erpsync.DuesRow{{CustomerID: "C01", Outstanding: 500000}}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Deactivate(ctx, erpsync.Products, []string{"GC500"}, b(erpsync.Products)); err != nil {
		t.Fatal(err)
	}
	bill := []erpsync.Bill{{Number: "B-1", CustomerID: "C01", Date: t0, Amount: 500000, Balance: 400000}}
	if _, err := src.SyncBills(ctx, b(erpsync.Bills), bill, true, erpsync.Settle{Days: 7}); err != nil {
		t.Fatal(err)
	}
	err = src.inTx(ctx, func(tx *dbTx) error {
		return addProvisional(ctx, tx, provisionalEntry{figure: erpsync.FigureDues, kind: provPayment, customerID: "C01", amount: -1000, at: t0})
	})
	if err != nil {
		t.Fatal(err)
	}

	dst := openPG(t, pgtest.NewDatabase(t))
	if _, err := src.CopyTo(ctx, dst); err != nil {
		t.Fatal(err)
	}
	same := func(what string, read func(*Store) (any, error)) {
		t.Helper()
		a, errA := read(src)
		c, errC := read(dst)
		if errA != nil || errC != nil || !reflect.DeepEqual(a, c) {
			t.Errorf("%s: SQLite %+v (%v), PostgreSQL %+v (%v)", what, a, errA, c, errC)
		}
	}
	same("products", func(s *Store) (any, error) { return s.Products(ctx) })
	same("states", func(s *Store) (any, error) { return s.SyncStates(ctx) })
	same("owned", func(s *Store) (any, error) { return s.Owned(ctx) })
	same("unsettled", func(s *Store) (any, error) { return s.Unsettled(ctx) })
	same("synced at", func(s *Store) (any, error) { return s.SyncedAt(ctx) })
	same("schema version", func(s *Store) (any, error) {
		v, err := s.Schema(ctx)
		return strings.Fields(v)[1], err
	})
	names, _ := fs.Glob(postgresMigrations, "migrations/postgres/*.sql")
	latest, _, _ := strings.Cut(path.Base(names[len(names)-1]), "_")
	if v, _ := dst.Schema(ctx); !strings.HasPrefix(v, "postgres "+latest+" ") {
		t.Errorf("Schema = %q; want it at the latest migration, %s", v, latest)
	}
	if ps, _ := dst.Products(ctx); len(ps) != 2 || !ps[0].Inactive || ps[1].Inactive {
		t.Errorf("products in the copy %+v; want the broom inactive", ps)
	}
	err = dst.inTx(ctx, func(tx *dbTx) error {
		return addProvisional(ctx, tx, provisionalEntry{figure: erpsync.FigureDues, kind: provPayment, customerID: "C01", amount: -2000, at: t0})
	})
	if err != nil {
		t.Fatalf("a provisional entry after the copy: %v", err)
	}
}
