package reportstest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/store/sqlite"
)

// TestTimeFormat checks that generated orders read back through the store
// with the times they were written with: the generator writes the store's
// time format itself.
func TestTimeFormat(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "small.db")
	if err := Build(ctx, path, Size{Products: 30, Customers: 12, Lines: 400, Days: 20}); err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o, ok, err := s.Order(ctx, "ORD-1001")
	if err != nil || !ok {
		t.Fatalf("ORD-1001: %v %v", ok, err)
	}
	if o.CreatedAt.IsZero() || o.CreatedAt.After(Now) || Now.Sub(o.CreatedAt) > 21*24*time.Hour {
		t.Fatalf("created at %v, want within 20 days before %v", o.CreatedAt, Now)
	}
	if len(o.Lines) == 0 || o.Total != o.Subtotal+o.GST {
		t.Fatalf("order %+v", o)
	}
	ps, err := s.Products(ctx)
	if err != nil || len(ps) != 30 {
		t.Fatalf("products: %d, %v", len(ps), err)
	}
	cs, err := s.Customers(ctx)
	if err != nil || len(cs) != 12 {
		t.Fatalf("customers: %d, %v", len(cs), err)
	}
}
