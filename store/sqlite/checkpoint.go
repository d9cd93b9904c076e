package sqlite

import (
	"context"
	"database/sql"
	"time"
)

// checkpointEvery is the shortest time between two checkpoints.
const checkpointEvery = 500 * time.Millisecond

// checkpointer moves committed pages from the write-ahead log into the
// database file, in a goroutine and on a connection of its own, so that
// commits wait for little of it. SQLite checkpoints inside the commit that
// takes the log past 1,000 pages, and every append queued behind that
// commit waits for the pages' copy and the file's sync: under load, a
// sixth of the committer's time. With the checkpointer copying the pages
// as they come, that commit finds nearly all of them copied and has only
// the last few to copy. The write connection keeps its own checkpoints
// even so: the log starts over from its beginning only when a write begins
// with every page of it copied, which under a steady stream of commits
// only the writer's own checkpoint, right after its commit, brings about;
// without them the log grew by gigabytes (BenchmarkAppend reports its
// size). A PASSIVE checkpoint never blocks the writer or the readers; of
// two at once, one gives way.
//
// Durability does not depend on it: a commit is on disk, in the log, when
// it returns, and a log left over by a crash is replayed when the database
// is next opened.
type checkpointer struct {
	db   *sql.DB
	kick chan struct{} // a token when there is something to checkpoint
	quit chan struct{}
	done chan struct{}
}

// startCheckpointer starts checkpointing with db.
func startCheckpointer(db *sql.DB) *checkpointer {
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// committed tells the checkpointer that the log has grown.
func (c *checkpointer) committed() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.kick:
		case <-c.quit:
			return
		}
		// A failed checkpoint leaves the pages in the log, where readers
		// find them, and the next one copies them: nothing to do but go
		// on.
		c.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
		select {
		case <-time.After(checkpointEvery):
		case <-c.quit:
			return
		}
	}
}

// stop stops the checkpointer and closes its connection; SQLite
// checkpoints the log once more when the last connection closes.
func (c *checkpointer) stop() error {
	close(c.quit)
	<-c.done
	return c.db.Close()
}
