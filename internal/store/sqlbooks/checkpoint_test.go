package sqlbooks

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
)

// The writer checkpoints only at its fallback mark; the checkpoints run
// on their own connection as commits accumulate, copy the whole log back
// while nothing reads an old snapshot, and stop with the store.
func TestCheckpointsOffTheWriter(t *testing.T) {
	s, _, path := openStore(t)
	ctx := context.Background()
	var mark int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&mark); err != nil || mark != writerCheckpointPages {
		t.Fatalf("the writer checkpoints at %d pages (%v), want %d", mark, err, writerCheckpointPages)
	}
	// The mark holds on a connection the pool opens anew.
	s.db.SetMaxIdleConns(0)
	s.db.SetMaxIdleConns(1)
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&mark); err != nil || mark != writerCheckpointPages {
		t.Fatalf("a new writer connection checkpoints at %d pages (%v)", mark, err)
	}

	runs := s.checkpoints.runs.Load()
	for i := range 3 * checkpointEvery {
		if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "test", Subject: fmt.Sprintf("SM%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for s.checkpoints.runs.Load() == runs {
		if time.Now().After(deadline) {
			t.Fatalf("no checkpoint after %d commits", 3*checkpointEvery)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Wait for the runs asked for to finish, then nothing is left in
	// the log that the database file lacks.
	for len(s.checkpoints.nudge) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	var busy, logged, copied int
	if err := s.checkpoints.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &copied); err != nil {
		t.Fatal(err)
	}
	if busy != 0 || logged != copied {
		t.Errorf("after the checkpoints: busy %d, %d frames in the log, %d copied", busy, logged, copied)
	}
	entries, err := s.AuditEntries(ctx, "test")
	if err != nil || len(entries) != 3*checkpointEvery {
		t.Fatalf("%d entries (%v), want %d", len(entries), err, 3*checkpointEvery)
	}

	// Close stops the checkpoints, with one asked for or not, and the
	// books open again whole.
	s.checkpoints.committed()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if entries, err := again.AuditEntries(ctx, "test"); err != nil || len(entries) != 3*checkpointEvery {
		t.Fatalf("reopened: %d entries (%v)", len(entries), err)
	}
}
