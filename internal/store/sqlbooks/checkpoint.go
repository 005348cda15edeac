package sqlbooks

import (
	"context"
	"database/sql"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Checkpoints. In WAL mode SQLite copies the log back into the database
// file once it holds 1,000 pages, inside the commit that crossed the
// mark: the writer then copies and syncs megabytes while every other
// write waits behind it, and under a burst each such commit held up
// every message in flight for 40-70 ms. Munshi instead checkpoints from
// a connection of its own as commits accumulate, in PASSIVE mode, which
// takes no lock a writer or reader waits on. The writer's own automatic
// checkpoint stays, at a mark ten times higher, for when this one falls
// behind (a reader holding an old snapshot for long).

const (
	// checkpointEvery is how many committed transactions the background
	// checkpoint waits for.
	checkpointEvery = 64
	// writerCheckpointPages is the writer's own automatic checkpoint.
	writerCheckpointPages = 10000
	// checkpointTimeout bounds one checkpoint.
	checkpointTimeout = 30 * time.Second
)

// sqliteDriver is mattn/go-sqlite3 with the writer's checkpoint mark
// set on every connection it opens, so that a connection the pool
// replaces keeps it.
const sqliteDriver = "sqlite3-munshi"

var registerDriver sync.Once

func registerSQLite() {
	registerDriver.Do(func() {
		sql.Register(sqliteDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec("PRAGMA wal_autocheckpoint = "+strconv.Itoa(writerCheckpointPages), nil)
			return err
		}})
	})
}

// checkpointer runs PASSIVE checkpoints on its own connection when told
// that enough transactions committed.
type checkpointer struct {
	db      *sql.DB
	commits atomic.Int64
	nudge   chan struct{}
	stop    chan struct{}
	once    sync.Once
	stopped sync.WaitGroup
	runs    atomic.Int64 // checkpoints run, for the tests
}

func startCheckpointer(db *sql.DB) *checkpointer {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	c := &checkpointer{db: db, nudge: make(chan struct{}, 1), stop: make(chan struct{})}
	c.stopped.Add(1)
	go c.loop()
	return c
}

// committed counts one committed transaction, and every checkpointEvery
// asks for a checkpoint without waiting for it.
func (c *checkpointer) committed() {
	if c == nil || c.commits.Add(1)%checkpointEvery != 0 {
		return
	}
	select {
	case c.nudge <- struct{}{}:
	default: // one is asked for already
	}
}

func (c *checkpointer) loop() {
	defer c.stopped.Done()
	for {
		select {
		case <-c.stop:
			return
		case <-c.nudge:
		}
		ctx, cancel := context.WithTimeout(context.Background(), checkpointTimeout)
		// A failed or partial checkpoint is left to the next one, or to
		// the writer's own.
		c.db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
		cancel()
		c.runs.Add(1)
	}
}

// close stops the checkpoints and closes their connection; again, it
// does nothing.
func (c *checkpointer) close() error {
	if c == nil {
		return nil
	}
	var err error
	c.once.Do(func() {
		close(c.stop)
		c.stopped.Wait()
		err = c.db.Close()
	})
	return err
}
