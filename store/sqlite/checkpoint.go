package sqlite

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"
)

// checkpointEvery is how often the checkpointer copies the write-ahead
// log's committed pages into the database file while commits come in.
const checkpointEvery = 100 * time.Millisecond

// restartPages is how many pages the write-ahead log may hold before the
// checkpointer has it start over (4 MiB of SQLite's 4 KiB pages, as the
// writer's own checkpoints once did).
const restartPages = 1000

// checkpointer copies the write-ahead log into the database file, and
// has the log start over, on a goroutine of its own, so that no commit
// waits for a checkpoint's syncs.
//
// SQLite checkpoints by itself (wal_autocheckpoint) inside the commit
// that takes the log past a thousand pages, on the one writing
// connection, and inside every commit after it until the log starts
// over: each such commit syncs the log, copies pages and syncs the
// database file while every append queued behind it waits. In a
// 300-game load test 3% of the commits did so, taking on average 52 ms
// each against 2 ms for the others, half the time the committer spent in
// COMMIT. The writer's own checkpoints are off (wal_autocheckpoint=0).
//
// Instead, every checkpointEvery while commits come in, the checkpointer
// runs a PASSIVE checkpoint on a connection of its own, which takes no
// writer's lock: the commits go on meanwhile. The log starts over only
// when a write begins with all of it copied, which under a steady stream
// of commits a checkpoint beside them never brings about (the log grew to
// 4.8 GB so in a 1,000-game run). So once the log holds restartPages
// pages, the checkpointer also takes the writing connection between two
// transactions and copies on it the few pages committed since its
// checkpoint: the next write starts the log over (TestLogBounded). That
// pause, a sync of the log and one of the database file, comes once per
// restartPages pages rather than in every commit past them.
type checkpointer struct {
	mu    sync.Mutex // held by a checkpoint of the checkpointer or Scrub
	db    *sql.DB
	write *sql.DB       // the store's writing connection
	kick  chan struct{} // a token when commits were made since the last look
	stop  chan struct{}
	done  chan struct{}
	hold  atomic.Pointer[chan struct{}] // tests: if set, a checkpoint waits until it is closed
}

// startCheckpointer opens path's checkpointing connection and starts its
// goroutine; write is the store's one writing connection.
func startCheckpointer(path, busy string, write *sql.DB) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn(path, "_pragma="+busy))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	c := &checkpointer{db: db, write: write, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// committed tells the checkpointer that a commit was made.
func (c *checkpointer) committed() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// run checkpoints at most once every checkpointEvery, and only after
// commits, until close.
func (c *checkpointer) run() {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		select {
		case <-c.kick:
		default:
			continue // nothing committed since the last checkpoint
		}
		c.mu.Lock()
		c.checkpoint()
		c.mu.Unlock()
	}
}

// checkpoint copies the log beside the commits and, once it holds
// restartPages pages, between two of them, so that the next write starts
// it over. A checkpoint that fails (the disk is full, say) is tried again
// after the next commits; the log keeps every commit meanwhile.
func (c *checkpointer) checkpoint() {
	ctx := context.Background()
	if hold := c.hold.Load(); hold != nil {
		<-*hold
	}
	logged, err := passive(ctx, c.db)
	if err != nil || logged < restartPages {
		return
	}
	// Holding the writing connection holds off the next transaction
	// until the pages committed since the checkpoint above are copied.
	conn, err := c.write.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	passive(ctx, conn)
}

// passive runs a PASSIVE checkpoint on q and returns the pages the log
// holds.
func passive(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) (logged int, err error) {
	var busy, moved int
	err = q.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &moved)
	return logged, err
}

// exclusive runs f while no checkpoint of the checkpointer's runs.
func (c *checkpointer) exclusive(f func() error) error {
	if c == nil {
		return f()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return f()
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	if c == nil {
		return nil
	}
	close(c.stop)
	<-c.done
	return c.db.Close()
}
