package sqlbooks

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store/pgtest"
)

func openPG(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := OpenPostgres(context.Background(), dsn, WithClock(func() time.Time { return t0 }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Instances that start together on a new database migrate it once, one
// after another, and all open.
func TestPostgresInstancesStartingTogetherMigrateOnce(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := OpenPostgres(context.Background(), dsn)
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}
	s := openPG(t, dsn)
	names, err := s.migrationNames(context.Background())
	files, _ := postgresMigrations.ReadDir("migrations/postgres")
	if err != nil || len(names) != len(files) {
		t.Errorf("migrations applied = %q, %v; want each once", names, err)
	}
}

func TestPostgresSessionTimeouts(t *testing.T) {
	s := openPG(t, pgtest.NewDatabase(t))
	var timeout string
	if err := s.read.QueryRowContext(context.Background(), `SHOW statement_timeout`).Scan(&timeout); err != nil || timeout != "8s" {
		t.Errorf("statement_timeout = %q, %v; want 8s", timeout, err)
	}
	if got := s.db.Stats().MaxOpenConnections; got != DefaultPoolSize {
		t.Errorf("pool = %d connections, want %d", got, DefaultPoolSize)
	}
	sized, err := OpenPostgres(context.Background(), pgtest.NewDatabase(t), PoolSize(3))
	if err != nil {
		t.Fatal(err)
	}
	defer sized.Close()
	if got := sized.db.Stats().MaxOpenConnections; got != 3 {
		t.Errorf("PoolSize(3) gave %d connections", got)
	}
}

// A connection the server dropped (a restart, a failover, an idle
// timeout) is replaced: the next read and the next write succeed.
func TestPostgresLostConnectionsAreReplaced(t *testing.T) {
	ctx := context.Background()
	s := openPG(t, pgtest.NewDatabase(t))
	if err := s.UpsertProducts(ctx, []domain.Product{{SKU: "GC500", Name: "Glass Cleaner", Unit: "bottle", Price: 9200}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	// The connection that ran the kill is still good; the others are not.
	for i := 0; i < 2*DefaultPoolSize; i++ {
		if _, err := s.Products(ctx); err != nil {
			t.Fatalf("read %d after the server dropped connections: %v", i, err)
		}
		if err := s.UpsertUsers(ctx, []domain.User{{Phone: "+919900000001", Name: "Asha", Role: domain.RoleOwner}}); err != nil {
			t.Fatalf("write %d after the server dropped connections: %v", i, err)
		}
	}
}

// Backup makes a new database holding the same books, which opens like
// any other.
func TestPostgresBackupIsACopy(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	s := openPG(t, dsn)
	if err := s.UpsertProducts(ctx, []domain.Product{{SKU: "GC500", Name: "Glass Cleaner", Unit: "bottle", Price: 9200, StockReady: 24}}); err != nil {
		t.Fatal(err)
	}
	copyDSN := pgtest.Sibling(t, dsn, "munshi_backup_of_test")
	if err := s.Backup(ctx, copyDSN); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, copyDSN); err == nil {
		t.Error("a second backup over the first succeeded")
	}
	c := openPG(t, copyDSN)
	a, _ := s.Products(ctx)
	b, err := c.Products(ctx)
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("backup holds %+v (%v), want %+v", b, err, a)
	}
}

// Two instances on one database never run Exclusive of one name at once.
func TestPostgresExclusiveAcrossInstances(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	a, b := openPG(t, dsn), openPG(t, dsn)
	ctx := context.Background()
	entered := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- a.Exclusive(ctx, "sheets order log", func(context.Context) error {
			close(entered)
			<-release
			return nil
		})
	}()
	<-entered
	waiting, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	ran := false
	err := b.Exclusive(waiting, "sheets order log", func(context.Context) error { ran = true; return nil })
	if ran || err == nil {
		t.Fatalf("the other instance ran while the lock was held (err %v)", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := b.Exclusive(ctx, "sheets order log", func(context.Context) error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("after the release: ran %v, %v", ran, err)
	}
}
