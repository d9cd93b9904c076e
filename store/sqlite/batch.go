package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/chaturaji/chaturaji/store"
)

// maxBatch bounds how many writes one transaction commits together.
const maxBatch = 256

// errClosed is the error of a write to a closed store.
var errClosed = errors.New("the store is closed")

// writeReq is one write waiting for its commit: an AppendEvents call (id,
// after, evs), or any other write of the store's (f, from inTx).
type writeReq struct {
	ctx   context.Context
	id    string
	after int64
	evs   []store.Event
	// f, if set, is the write: it runs in the group's transaction with a
	// context that carries ctx's values but is never cancelled, since
	// SQLite rolls back the whole transaction, the others' writes with
	// it, when a statement is interrupted.
	f    func(ctx context.Context, tx *sql.Tx) error
	done chan error
	n    uint64 // the number of the commit holding it, set before done (logSync.wait)
}

// batcher commits the store's writes in groups. SQLite has one writer, and
// each commit costs its statements, a write of the log's pages and a sync;
// one commit per action would make a busy server's actions queue behind
// each other's. Instead one goroutine of the store's own, the committer,
// commits every write waiting when it is free (up to maxBatch) in one
// transaction, each inside its own savepoint, so that one write's
// conflict or error rolls back that write alone; then it hands each its
// outcome and takes the next group. A write returns only after the
// transaction holding it has committed and a sync of the log begun after
// that commit has ended (logsync.go), so nothing acknowledged is lost; the
// committer does not wait for the sync, but commits the next group
// meanwhile.
//
// Every write goes through the committer, appends and the rest (a game
// created, finished, a record, a heartbeat, the lobby's): the writes wait
// in one queue, in the order they came, and share commits. (When only the
// appends did, the other writes each took the one writing connection for
// a transaction of their own, and the connection went to whichever of its
// waiters database/sql picked: a thousand games created at once held the
// committer's groups for hundreds of milliseconds.)
//
// The committer is no caller's goroutine: a caller waits for its own
// group's commit and no more. (When the first caller to arrive led the
// commits itself, as it once did, it went on committing the others'
// groups for as long as the queue was never empty, and under load its own
// game waited seconds for an append committed long before.)
type batcher struct {
	mu     sync.Mutex
	queue  []*writeReq
	taken  uint64 // the writes the committer has taken from the queue
	closed bool
	wake   chan struct{} // a token when the queue has work or the batcher closes
	done   chan struct{} // closed when the committer has stopped
}

// start starts the committer, which commits with commit until stop.
func (b *batcher) start(commit func([]*writeReq)) {
	b.wake = make(chan struct{}, 1)
	b.done = make(chan struct{})
	go b.run(commit)
}

// do queues r and returns its outcome once it is committed or refused.
func (b *batcher) do(r *writeReq) error {
	r.done = make(chan error, 1)
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return errClosed
	}
	b.queue = append(b.queue, r)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default: // the committer has a token already
	}
	return <-r.done
}

// run is the committer: it commits the queue's writes, a group at a
// time, until the batcher is stopped and the queue is empty.
func (b *batcher) run(commit func([]*writeReq)) {
	defer close(b.done)
	var batch []*writeReq
	for {
		b.mu.Lock()
		n := min(len(b.queue), maxBatch)
		if n == 0 && b.closed {
			b.mu.Unlock()
			return
		}
		batch = append(batch[:0], b.queue[:n]...)
		b.queue = append(b.queue[:0], b.queue[n:]...)
		b.taken += uint64(n)
		b.mu.Unlock()
		if n == 0 {
			<-b.wake
			continue
		}
		commit(batch)
		clear(batch)
	}
}

// stop commits what is queued and stops the committer; later writes are
// refused. Calling it again does nothing.
func (b *batcher) stop() {
	if b.done == nil {
		return // never started
	}
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	<-b.done
}

// commitBatch commits the writes of batch in one transaction and sends
// each its outcome. A write whose context is done by the time its turn
// comes is refused without being written; once begun, it is not
// interrupted (an append's statements take microseconds, and the driver
// would start a goroutine for each to watch a context; an interrupted
// statement would roll back the whole group), and its caller, which waits
// for the outcome whatever its context, learns what was committed.
func (s *Store) commitBatch(batch []*writeReq) {
	for len(batch) > 0 {
		batch = s.commitGroup(batch)
	}
}

// commitGroup commits the writes of batch in one transaction and sends
// each its outcome, but for those it returns, to be committed in another.
// A write's error rolls back that write alone, to its savepoint, unless
// SQLite has rolled back the whole transaction on it (as it may when the
// disk is full): then that write is refused with its error, and the
// others, of which nothing is committed, go again in a new transaction,
// so that one write the disk has no room for does not fail the others of
// its group (a heartbeat, which takes no new page).
func (s *Store) commitGroup(batch []*writeReq) (again []*writeReq) {
	errs := make([]error, len(batch))
	aborted := -1 // the write whose error ended the transaction
	ctx := context.Background()
	n, err := s.commitTx(ctx, func(tx *sql.Tx) error {
		st := s.stmts.in(tx)
		for i, r := range batch {
			if err := r.ctx.Err(); err != nil {
				errs[i] = err
				continue
			}
			if _, err := st.savepoint.ExecContext(ctx); err != nil {
				return err
			}
			var err error
			if r.f != nil {
				err = r.f(context.WithoutCancel(r.ctx), tx)
			} else {
				err = appendTx(ctx, st, r.id, r.after, r.evs)
			}
			if err != nil {
				errs[i] = err
				if _, err := st.rollback.ExecContext(ctx); err != nil {
					aborted = i
					return fmt.Errorf("roll back one write: %w", err)
				}
			}
			if _, err := st.release.ExecContext(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if aborted >= 0 {
		// Nothing of the transaction is committed: the writes that went
		// through in it, and those after the one that ended it, go again.
		for i, r := range batch {
			switch {
			case i == aborted:
				r.done <- errs[i]
			case errs[i] != nil:
				r.done <- errs[i] // refused, or rolled back alone, before it
			default:
				again = append(again, r)
			}
		}
		return again
	}
	for i, r := range batch {
		r.n = n
		switch {
		case err != nil && errs[i] == nil:
			r.done <- err
		case err != nil:
			r.done <- errors.Join(errs[i], err)
		default:
			r.done <- errs[i]
		}
	}
	return nil
}

// appendStmts are the statements of an append, prepared once on the
// writing connection: parsing them again for every append was a fifth of
// the committer's time.
type appendStmts struct {
	savepoint, rollback, release *sql.Stmt // around each write of a group
	update, insert, last         *sql.Stmt // appendTx's
}

// prepareAppends prepares the statements of an append on db.
func prepareAppends(ctx context.Context, db *sql.DB) (*appendStmts, error) {
	st := &appendStmts{}
	for _, p := range []struct {
		stmt  **sql.Stmt
		query string
	}{
		{&st.savepoint, `SAVEPOINT write`},
		{&st.rollback, `ROLLBACK TO write`},
		{&st.release, `RELEASE write`},
		{&st.update, `UPDATE games SET last_event = ?, updated = max(updated, ?) WHERE id = ? AND last_event = ?`},
		{&st.insert, `INSERT INTO events (game_id, seq, kind, data, at) VALUES (?, ?, ?, CAST(? AS TEXT), ?)`},
		{&st.last, `SELECT last_event FROM games WHERE id = ?`},
	} {
		var err error
		if *p.stmt, err = db.PrepareContext(ctx, p.query); err != nil {
			st.close()
			return nil, fmt.Errorf("sqlite: prepare %q: %w", p.query, err)
		}
	}
	return st, nil
}

// in returns the statements bound to the transaction tx; they are closed
// with it. On the store's one writing connection, where they were
// prepared, this prepares nothing again.
func (st *appendStmts) in(tx *sql.Tx) *appendStmts {
	return &appendStmts{
		savepoint: tx.Stmt(st.savepoint), rollback: tx.Stmt(st.rollback), release: tx.Stmt(st.release),
		update: tx.Stmt(st.update), insert: tx.Stmt(st.insert), last: tx.Stmt(st.last),
	}
}

// close closes the statements prepared.
func (st *appendStmts) close() {
	for _, s := range []*sql.Stmt{st.savepoint, st.rollback, st.release, st.update, st.insert, st.last} {
		if s != nil {
			s.Close()
		}
	}
}
