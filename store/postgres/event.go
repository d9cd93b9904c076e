package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/internal/check"
)

// AppendEvents appends events to a game in one transaction, committed
// before it returns. The first event's Seq must be after+1, where after is
// the game's LastEvent, and the rest must follow on; otherwise nothing is
// written and the error is ErrConflict. A zero At is stored as now. The
// game's LastEvent becomes the last event's Seq, and its Updated time moves
// on to the last event's At (it never goes back).
func (s *Store) AppendEvents(ctx context.Context, id string, after int64, events []store.Event) error {
	evs, err := check.Events(after, events, time.Now())
	if err != nil {
		return fmt.Errorf("postgres: append to game %q: %w", id, err)
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if len(evs) == 0 {
			return expectLast(ctx, tx, id, after)
		}
		// Moving last_event on locks the game's row: a racing appender
		// waits here, then finds the number moved and updates nothing.
		last := evs[len(evs)-1]
		tag, err := tx.Exec(ctx, `UPDATE games SET last_event = $1, updated = greatest(updated, $2)
			WHERE id = $3 AND last_event = $4`, last.Seq, last.At, id, after)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return expectLast(ctx, tx, id, after)
		}
		var b pgx.Batch
		for _, e := range evs {
			b.Queue(`INSERT INTO events (game_id, seq, kind, data, at) VALUES ($1, $2, $3, $4, $5)`,
				id, e.Seq, e.Kind, orNull(e.Data), e.At)
		}
		err = tx.SendBatch(ctx, &b).Close()
		if isUniqueViolation(err) {
			return fmt.Errorf("an event is already stored: %w", store.ErrConflict)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: append to game %q after event %d: %w", id, after, err)
	}
	return nil
}

// expectLast returns ErrNotFound if the game does not exist and
// ErrConflict if its last event is not after.
func expectLast(ctx context.Context, tx pgx.Tx, id string, after int64) error {
	var last int64
	err := tx.QueryRow(ctx, `SELECT last_event FROM games WHERE id = $1`, id).Scan(&last)
	if errors.Is(err, pgx.ErrNoRows) {
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
	if err != nil {
		return nil, fmt.Errorf("postgres: events of game %q after %d: %w", id, after, err)
	}
	return evs, nil
}

func (s *Store) events(ctx context.Context, id string, after int64) ([]store.Event, error) {
	rows, err := s.pool.Query(ctx, `SELECT seq, kind, data, at FROM events
		WHERE game_id = $1 AND seq > $2 ORDER BY seq`, id, after)
	if err != nil {
		return nil, err
	}
	var evs []store.Event
	for rows.Next() {
		var e store.Event
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Data, &e.At); err != nil {
			rows.Close()
			return nil, err
		}
		e.At = utc(e.At)
		evs = append(evs, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// No events: tell an empty game from none. Games are never deleted,
	// so a game seen now existed when the events were read.
	if len(evs) == 0 {
		if err := exists(ctx, s.pool, id); err != nil {
			return nil, err
		}
	}
	return evs, nil
}
