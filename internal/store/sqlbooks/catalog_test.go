package sqlbooks

import (
	"context"
	"slices"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// Products sorts in Go what it reads in table order; the order must be
// the one SQLite itself gives the SKUs (byte order), which the suite
// checks from outside.
func TestProductsSortLikeSQLite(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	var ps []domain.Product
	for _, sku := range []string{"z.1", "ä", "B", "10", "सूर्या-1", "a", "9", "A-B/C", "GC500", "gc500", "É"} {
		ps = append(ps, domain.Product{SKU: sku, Name: "Product " + sku, Unit: "piece"})
	}
	if err := s.UpsertProducts(ctx, ps); err != nil {
		t.Fatal(err)
	}
	got, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sqliteOrder := texts(t, s.read.DB, `SELECT sku FROM products ORDER BY sku`)
	var ours []string
	for _, p := range got {
		ours = append(ours, p.SKU)
	}
	if !slices.Equal(ours, sqliteOrder) {
		t.Errorf("Products order %q, SQLite's %q", ours, sqliteOrder)
	}
}
