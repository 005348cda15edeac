package sqlbooks_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/store/storetest"
)

// TestConformance runs the suite every store must pass against SQLite,
// opened the way Munshi opens it.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, opts ...store.Option) store.Store {
		s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "munshi.db"), opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
