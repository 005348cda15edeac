package sqlbooks_test

import (
	"context"
	"testing"

	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/internal/store/storetest"
)

// TestConformancePostgres runs the same suite against PostgreSQL, each
// case on its own database, opened the way Munshi opens it.
func TestConformancePostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T, opts ...store.Option) store.Store {
		s, err := store.Open(context.Background(), pgtest.NewDatabase(t), opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
