package sqlbooks

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestBackupHoldsWhatIsStillInTheLog: writes not yet checkpointed from the
// write-ahead log are in the copy, which opens as a store of its own; a
// copy never overwrites a file.
func TestBackupHoldsWhatIsStillInTheLog(t *testing.T) {
	ctx := context.Background()
	s, _, path := openStore(t)
	p := domain.Product{SKU: "GC500", Name: "Glass Cleaner 500ml", Unit: "bottle", Price: 9200, GSTPercent: 1800, StockReady: 2400}
	if err := s.UpsertProducts(ctx, []domain.Product{p}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("write-ahead log %v, %v; want the write still in it", fi, err)
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := s.Backup(ctx, dst); err != nil {
		t.Fatal(err)
	}
	c, err := OpenSQLite(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ps, err := c.Products(ctx); err != nil || len(ps) != 1 || ps[0].SKU != "GC500" || ps[0].StockReady != 2400 {
		t.Fatalf("the copy's products = %+v, %v; want GC500 as written", ps, err)
	}
	if err := s.Backup(ctx, dst); err == nil {
		t.Fatal("Backup wrote over an existing file")
	}
	if ps, err := c.Products(ctx); err != nil || len(ps) != 1 {
		t.Fatalf("after a refused backup the copy reads %+v, %v", ps, err)
	}
}
