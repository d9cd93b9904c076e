package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

// AppendEvents appends events to a game in one transaction, committed to
// disk before it returns. The first event's Seq must be after+1, where
// after is the game's LastEvent, and the rest must follow on; otherwise
// nothing is written and the error is ErrConflict. A zero At is stored as
// now. The game's LastEvent becomes the last event's Seq, and its Updated
// time moves on to the last event's At (it never goes back).
//
// Appends that arrive while another commit is under way are committed
// together, in one transaction (group commit, see batch.go), and one sync
// of the log covers every commit made while the sync before it ran
// (logsync.go); each append keeps its own all-or-nothing outcome.
func (s *Store) AppendEvents(ctx context.Context, id string, after int64, events []store.Event) error {
	evs, err := check.Events(after, events, time.Now())
	if err != nil {
		return fmt.Errorf("sqlite: append to game %q: %w", id, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqlite: append to game %q after event %d: %w", id, after, err)
	}
	r := &writeReq{ctx: ctx, id: id, after: after, evs: evs}
	if err := s.writes.do(r); err != nil {
		return fmt.Errorf("sqlite: append to game %q after event %d: %w", id, after, err)
	}
	// Committed: whatever its context, the caller learns whether the
	// commit reached the disk.
	if err := s.log.wait(context.Background(), r.n); err != nil {
		return fmt.Errorf("sqlite: append to game %q after event %d: %w", id, after, err)
	}
	return nil
}

// appendTx does one append with the statements of a transaction; its
// errors are the caller's to prefix.
func appendTx(ctx context.Context, st *appendStmts, id string, after int64, evs []store.Event) error {
	if len(evs) == 0 {
		return expectLast(ctx, st, id, after)
	}
	last := evs[len(evs)-1]
	res, err := st.update.ExecContext(ctx, last.Seq, micros(last.At), id, after)
	if err != nil {
		return err
	}
	if rows, err := res.RowsAffected(); err != nil {
		return err
	} else if rows == 0 {
		return expectLast(ctx, st, id, after)
	}
	for _, e := range evs {
		// The data goes as a blob and the statement casts it to text: as a
		// Go string it was copied first, 6% of what the process
		// allocated while a thousand games were live.
		_, err := st.insert.ExecContext(ctx, id, e.Seq, e.Kind, blob(e.Data), micros(e.At))
		if isUniqueViolation(err) {
			return fmt.Errorf("event %d is already stored: %w", e.Seq, store.ErrConflict)
		} else if err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
	}
	return nil
}

// expectLast returns ErrNotFound if the game does not exist and
// ErrConflict if its last event is not after.
func expectLast(ctx context.Context, st *appendStmts, id string, after int64) error {
	var last int64
	err := st.last.QueryRowContext(ctx, id).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	} else if err != nil {
		return err
	}
	if last != after {
		return fmt.Errorf("its last event is %d: %w", last, store.ErrConflict)
	}
	return nil
}

// Events returns the game's events with Seq > after, in order;
// ErrNotFound if there is no such game.
func (s *Store) Events(ctx context.Context, id string, after int64) ([]store.Event, error) {
	evs, err := s.events(ctx, id, after)
	if err == nil {
		err = s.log.visible(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: events of game %q after %d: %w", id, after, err)
	}
	return evs, nil
}

func (s *Store) events(ctx context.Context, id string, after int64) ([]store.Event, error) {
	// A read transaction, so "no events" and "no game" are told apart in
	// one snapshot.
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT seq, kind, data, at FROM events
		WHERE game_id = ? AND seq > ? ORDER BY seq`, id, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var evs []store.Event
	for rows.Next() {
		var (
			e  store.Event
			at int64
		)
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Data, &at); err != nil {
			return nil, err
		}
		e.At = fromMicros(at)
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		if err := exists(ctx, tx, id); err != nil {
			return nil, err
		}
	}
	return evs, nil
}
