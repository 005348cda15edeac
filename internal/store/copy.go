package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/munshi/munshi/internal/store/sqlbooks"
)

// TableCopy is one table of a copy: its rows and money in the source and
// in the copy.
type TableCopy = sqlbooks.TableCopy

// Copy copies the books of one open store into another, which must be
// empty, and verifies each table's rows and money totals in both. It is
// how a distributor moves from SQLite to PostgreSQL.
func Copy(ctx context.Context, from, to Store) ([]TableCopy, error) {
	src, ok := from.(*sqlbooks.Store)
	dst, ok2 := to.(*sqlbooks.Store)
	if !ok || !ok2 {
		return nil, errors.New("store: copy: both stores must be Munshi's SQL books")
	}
	out, err := src.CopyTo(ctx, dst)
	if err != nil {
		return out, fmt.Errorf("store: %w", err)
	}
	return out, nil
}
