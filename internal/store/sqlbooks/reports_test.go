package sqlbooks_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/store/sqlbooks"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// TestCommittedStockSeesOtherWriters: the committed stock a store keeps
// between questions is dropped when another process changes the books
// under it, with no clock moving: another Munshi on the same file marks an
// open order delivered.
func TestCommittedStockSeesOtherWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	s, err := sqlbooks.OpenSQLite(ctx, path, sqlbooks.WithClock(func() time.Time { return reportstest.Now }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := reportstest.Known(ctx, s); err != nil {
		t.Fatal(err)
	}
	brooms := func() (committed int64, oversold int) {
		t.Helper()
		tot, _, err := s.StockCatalog(ctx, reports.Page{})
		if err != nil {
			t.Fatal(err)
		}
		lines, err := s.StockOf(ctx, []string{"BR01"})
		if err != nil || len(lines) != 1 {
			t.Fatalf("StockOf(BR01) = %+v, %v", lines, err)
		}
		return lines[0].Committed, tot.Oversold
	}
	if n, over := brooms(); n != 120 || over != 1 {
		t.Fatalf("before: %d brooms committed, %d oversold; want 120 and 1", n, over)
	}
	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec(`UPDATE orders SET status = 'delivered' WHERE id = 'ORD-1004'`); err != nil {
		t.Fatal(err)
	}
	if n, over := brooms(); n != 0 || over != 0 {
		t.Fatalf("after another writer delivered ORD-1004: %d brooms committed, %d oversold; want none", n, over)
	}
}
