package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// checkpointEvery is how often the checkpointer copies the write-ahead
// log's committed pages into the database file while commits come in.
const checkpointEvery = 100 * time.Millisecond

// restartPages is how many pages the write-ahead log may hold before the
// checkpointer has it start over: 16 MiB of SQLite's 4 KiB pages. Each
// start costs the commits a pause (below); at a thousand pages it came
// seven times a second in a 1,000-game load test, and the commits waited
// in those pauses 8% of the time.
const restartPages = 4000

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
// checkpoint: the next write starts the log over (TestLogBounded).
//
// That pause holds up the commits, so the checkpointer does beforehand,
// beside them, what it can. A checkpoint beside the commits never reaches
// the log's end, and SQLite syncs the database file only in a checkpoint
// that does: every page copied since the log last started over would be
// synced in the pause, megabytes that took 12 to 28 ms in a 1,000-game
// load test. The checkpointer syncs the file itself first, and copies
// what was committed meanwhile, so that the pause copies and syncs only
// the pages of the last few milliseconds (TestCheckpointSyncsBeforeItHolds).
type checkpointer struct {
	mu    sync.Mutex // held by a checkpoint of the checkpointer or Scrub
	db    *sql.DB
	write *sql.DB       // the store's writing connection
	file  *os.File      // the database file, to sync it beside the commits
	kick  chan struct{} // a token when commits were made since the last look
	stop  chan struct{}
	done  chan struct{}
	hold  atomic.Pointer[chan struct{}] // tests: if set, a checkpoint waits until it is closed
	// step, if set, is told each step of a checkpoint as it begins (tests):
	// "copy", "sync", "hold".
	step atomic.Pointer[func(string)]
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
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		db.Close()
		return nil, err
	}
	c := &checkpointer{db: db, write: write, file: f, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
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
	c.tell("copy")
	logged, err := passive(ctx, c.db)
	if err != nil || logged < restartPages {
		return
	}
	// The pages copied since the log last started over, synced now
	// rather than in the pause below; then what came in meanwhile.
	c.tell("sync")
	if err := c.file.Sync(); err != nil {
		return
	}
	c.tell("copy")
	if _, err := passive(ctx, c.db); err != nil {
		return
	}
	// Holding the writing connection holds off the next transaction
	// until the pages committed since the checkpoint above are copied.
	c.tell("hold")
	conn, err := c.write.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	passive(ctx, conn)
}

// tell tells c.step, if set, of a checkpoint's step.
func (c *checkpointer) tell(step string) {
	if f := c.step.Load(); f != nil {
		(*f)(step)
	}
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
	return errors.Join(c.db.Close(), c.file.Close())
}
