package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/chaturaji/chaturaji/store"
)

// maxBatch bounds how many appends one transaction commits together.
const maxBatch = 256

// errClosed is the error of an append to a closed store.
var errClosed = errors.New("the store is closed")

// appendReq is one AppendEvents call waiting for its commit.
type appendReq struct {
	ctx   context.Context
	id    string
	after int64
	evs   []store.Event
	done  chan error
	n     uint64 // the number of the commit holding it, set before done (logSync.wait)
}

// batcher commits appends in groups. SQLite has one writer, and each
// commit costs its statements, a write of the log's pages and a sync; one
// commit per action would make a busy server's actions queue behind each
// other's. Instead one goroutine of the store's own, the committer, commits every
// append waiting when it is free (up to maxBatch) in one transaction, each
// inside its own savepoint, so that one append's conflict rolls back that
// append alone; then it hands each its outcome and takes the next group.
// An append returns only after the transaction holding it has committed
// and a sync of the log begun after that commit has ended (logsync.go),
// so nothing acknowledged is lost; the committer does not wait for the
// sync, but commits the next group meanwhile.
//
// The committer is no caller's goroutine: a caller waits for its own
// group's commit and no more. (When the first caller to arrive led the
// commits itself, as it once did, it went on committing the others'
// groups for as long as the queue was never empty, and under load its own
// game waited seconds for an append committed long before.)
type batcher struct {
	mu     sync.Mutex
	queue  []*appendReq
	closed bool
	wake   chan struct{} // a token when the queue has work or the batcher closes
	done   chan struct{} // closed when the committer has stopped
}

// start starts the committer, which commits with commit until stop.
func (b *batcher) start(commit func([]*appendReq)) {
	b.wake = make(chan struct{}, 1)
	b.done = make(chan struct{})
	go b.run(commit)
}

// do queues r and returns its outcome once it is committed or refused.
func (b *batcher) do(r *appendReq) error {
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

// run is the committer: it commits the queue's appends, a group at a
// time, until the batcher is stopped and the queue is empty.
func (b *batcher) run(commit func([]*appendReq)) {
	defer close(b.done)
	var batch []*appendReq
	for {
		b.mu.Lock()
		n := min(len(b.queue), maxBatch)
		if n == 0 && b.closed {
			b.mu.Unlock()
			return
		}
		batch = append(batch[:0], b.queue[:n]...)
		b.queue = append(b.queue[:0], b.queue[n:]...)
		b.mu.Unlock()
		if n == 0 {
			<-b.wake
			continue
		}
		commit(batch)
		clear(batch)
	}
}

// stop commits what is queued and stops the committer; later appends are
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

// commitBatch commits the appends of batch in one transaction and sends
// each its outcome. An append whose context is done by the time its turn
// comes is refused without being written; once begun, it is not
// interrupted (its statements take microseconds, and the driver would
// start a goroutine for each to watch a context), and its caller, which
// waits for the outcome whatever its context, learns what was committed.
func (s *Store) commitBatch(batch []*appendReq) {
	errs := make([]error, len(batch))
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
			if err := appendTx(ctx, st, r.id, r.after, r.evs); err != nil {
				errs[i] = err
				if _, err := st.rollback.ExecContext(context.Background()); err != nil {
					return fmt.Errorf("roll back one append: %w", err)
				}
			}
			if _, err := st.release.ExecContext(context.Background()); err != nil {
				return err
			}
		}
		return nil
	})
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
}

// appendStmts are the statements of an append, prepared once on the
// writing connection: parsing them again for every append was a fifth of
// the committer's time.
type appendStmts struct {
	savepoint, rollback, release *sql.Stmt // around each append of a group
	update, insert, last         *sql.Stmt // appendTx's
}

// prepareAppends prepares the statements of an append on db.
func prepareAppends(ctx context.Context, db *sql.DB) (*appendStmts, error) {
	st := &appendStmts{}
	for _, p := range []struct {
		stmt  **sql.Stmt
		query string
	}{
		{&st.savepoint, `SAVEPOINT append`},
		{&st.rollback, `ROLLBACK TO append`},
		{&st.release, `RELEASE append`},
		{&st.update, `UPDATE games SET last_event = ?, updated = max(updated, ?) WHERE id = ? AND last_event = ?`},
		{&st.insert, `INSERT INTO events (game_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)`},
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
