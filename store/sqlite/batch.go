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

// appendReq is one AppendEvents call waiting for its commit.
type appendReq struct {
	ctx   context.Context
	id    string
	after int64
	evs   []store.Event
	done  chan error
}

// batcher commits appends in groups. SQLite has one writer, and with
// synchronous=FULL every commit waits for the disk; one commit per action
// would make a busy server's actions queue behind each other's syncs.
// Instead the first append to arrive while no commit runs becomes the
// leader: it commits every append waiting at that moment (up to maxBatch)
// in one transaction, each inside its own savepoint, so that one append's
// conflict rolls back that append alone; then it hands its results out and
// repeats until nothing waits. An append returns only after the
// transaction holding it has committed, so nothing acknowledged is lost.
type batcher struct {
	mu      sync.Mutex
	queue   []*appendReq
	running bool
}

// do commits r, in a group with whatever else waits, and returns its
// outcome.
func (b *batcher) do(s *Store, r *appendReq) error {
	r.done = make(chan error, 1)
	b.mu.Lock()
	b.queue = append(b.queue, r)
	if b.running {
		b.mu.Unlock()
		return <-r.done
	}
	b.running = true
	b.mu.Unlock()
	for {
		b.mu.Lock()
		n := min(len(b.queue), maxBatch)
		if n == 0 {
			b.running = false
			b.mu.Unlock()
			break
		}
		batch := make([]*appendReq, n)
		copy(batch, b.queue)
		b.queue = append(b.queue[:0], b.queue[n:]...)
		b.mu.Unlock()
		s.commitBatch(batch)
	}
	return <-r.done
}

// commitBatch commits the appends of batch in one transaction and sends
// each its outcome. An append whose context is done by the time its turn
// comes is refused without being written.
func (s *Store) commitBatch(batch []*appendReq) {
	errs := make([]error, len(batch))
	// The transaction must not die with one caller's context: each
	// append's statements use its own context, the transaction none.
	err := s.inTx(context.Background(), func(tx *sql.Tx) error {
		for i, r := range batch {
			if err := r.ctx.Err(); err != nil {
				errs[i] = err
				continue
			}
			if _, err := tx.ExecContext(r.ctx, `SAVEPOINT append`); err != nil {
				return err
			}
			if err := appendTx(r.ctx, tx, r.id, r.after, r.evs); err != nil {
				errs[i] = err
				if _, err := tx.ExecContext(context.Background(), `ROLLBACK TO append`); err != nil {
					return fmt.Errorf("roll back one append: %w", err)
				}
			}
			if _, err := tx.ExecContext(context.Background(), `RELEASE append`); err != nil {
				return err
			}
		}
		return nil
	})
	for i, r := range batch {
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
