package sqlbooks

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/munshi/munshi/internal/store/pgtest"
)

// TestOneOpenHandoffIsTheDatabases: the one open handoff a person may
// have is the schema's rule, not only OpenHandoff's: a second open row
// for the person is refused by either engine, a closed one is not.
func TestOneOpenHandoffIsTheDatabases(t *testing.T) {
	ctx := context.Background()
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var s *Store
			if engine == "sqlite" {
				var err error
				if s, err = OpenSQLite(ctx, filepath.Join(t.TempDir(), "munshi.db")); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
			} else {
				s = openPG(t, pgtest.NewDatabase(t))
			}
			insert := func(status string) error {
				return s.inTx(ctx, func(tx *dbTx) error {
					_, err := tx.ExecContext(ctx, `INSERT INTO handoffs (person, reason, status, opened_at) VALUES (?, 'asked', ?, ?)`,
						"+919900000003", status, formatTime(t0))
					return err
				})
			}
			if err := insert("open"); err != nil {
				t.Fatal(err)
			}
			if err := insert("closed"); err != nil {
				t.Errorf("a closed handoff beside the open one: %v", err)
			}
			if err := insert("open"); !uniqueViolation(err) {
				t.Errorf("a second open handoff of one person: %v; want a unique violation", err)
			}
		})
	}
}
