package sqlbooks

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/reports"
)

// endless returns a row at once and then counts a sequence that never
// ends: once the first row is read the query is running, and it runs
// until SQLite is interrupted.
const endless = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
	SELECT 0 UNION ALL SELECT count(*) FROM n`

// runEndless runs endless through the report path, closing running once
// the first row is read.
func runEndless(ctx context.Context, s *Store, running chan<- struct{}) error {
	return s.report(ctx, "endless count", func(ctx context.Context, q querier) error {
		rows, err := q.QueryContext(ctx, endless)
		if err != nil {
			return err
		}
		defer rows.Close()
		for n := 0; rows.Next(); n++ {
			if n == 0 {
				close(running)
			}
		}
		return rows.Err()
	})
}

// TestReportTimeout: a report query still running when its context ends,
// cancelled by the caller or past ReportTimeout, is interrupted with the
// context's error, and the store answers the next question.
func TestReportTimeout(t *testing.T) {
	ctx := context.Background()
	s, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "munshi.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })

	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		running, done := make(chan struct{}), make(chan error, 1)
		go func() { done <- runEndless(cctx, s, running) }()
		patience.Within(t, "the query to start", func() { <-running })
		cancel()
		var err error
		patience.Within(t, "a cancelled query to stop", func() { err = <-done })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want the cancellation", err)
		}
	})
	t.Run("past ReportTimeout", func(t *testing.T) {
		running := make(chan struct{})
		var err error
		patience.Within(t, "a query past ReportTimeout to stop", func() { err = runEndless(ctx, s, running) })
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "took longer than "+ReportTimeout.String()) {
			t.Fatalf("err = %v, want the report's deadline", err)
		}
		select {
		case <-running:
		default:
			t.Fatal("the query never ran")
		}
	})
	if _, _, err := s.StockCatalog(ctx, reports.Page{}); err != nil {
		t.Fatalf("the store after interrupted queries: %v", err)
	}
}
