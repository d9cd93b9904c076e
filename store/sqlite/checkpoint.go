package sqlite

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// checkpointEvery is how often the checkpointer copies the write-ahead
// log's committed pages into the database file while commits come in.
const checkpointEvery = 100 * time.Millisecond

// checkpointer copies the write-ahead log into the database file on a
// connection and a goroutine of its own, while appends go on committing.
//
// SQLite checkpoints by itself (wal_autocheckpoint) inside the commit that
// takes the log past a thousand pages, on the one writing connection: that
// commit, and every append queued behind it, waited for a thousand pages to
// be written to the database file and synced, which made the slowest
// hundredth of a busy server's actions many times slower than the rest. A
// PASSIVE checkpoint on another connection takes no writer's lock, so the
// checkpointer does that work beside the commits, and the writer's own
// checkpoints find little left to copy. They stay on: only a checkpoint
// right after a commit lets the log start over under a steady stream of
// commits (TestLogBounded), which the checkpointer's alone do not.
type checkpointer struct {
	mu   sync.Mutex // held by a checkpoint of the checkpointer or Scrub
	db   *sql.DB
	kick chan struct{} // a token when commits were made since the last look
	stop chan struct{}
	done chan struct{}
}

// startCheckpointer opens path's checkpointing connection and starts its
// goroutine.
func startCheckpointer(path, busy string) (*checkpointer, error) {
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
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
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
		// A checkpoint that fails (the disk is full, say) is tried again
		// after the next commits; the log keeps every commit meanwhile.
		c.mu.Lock()
		c.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
		c.mu.Unlock()
	}
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
