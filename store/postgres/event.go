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

// AppendEvents appends events to a game in one statement, committed
// before it returns. The first event's Seq must be after+1, where after is
// the game's LastEvent, and the rest must follow on; otherwise nothing is
// written and the error is ErrConflict. A zero At is stored as now. The
// game's LastEvent becomes the last event's Seq, and its Updated time moves
// on to the last event's At (it never goes back).
//
// The statement moves the game's last_event on and inserts the events
// together, in one round trip and one transaction of its own (four round
// trips as BEGIN, UPDATE, INSERT and COMMIT): moving last_event on locks
// the game's row, so a racing appender waits, then finds the number moved
// and inserts nothing.
func (s *Store) AppendEvents(ctx context.Context, id string, after int64, events []store.Event) error {
	evs, err := check.Events(after, events, time.Now())
	if err != nil {
		return fmt.Errorf("postgres: append to game %q: %w", id, err)
	}
	if err := s.appendEvents(ctx, id, after, evs); err != nil {
		return fmt.Errorf("postgres: append to game %q after event %d: %w", id, after, err)
	}
	return nil
}

func (s *Store) appendEvents(ctx context.Context, id string, after int64, evs []store.Event) error {
	if len(evs) == 0 {
		return expectLast(ctx, s.pool, id, after)
	}
	seqs := make([]int64, len(evs))
	kinds := make([]string, len(evs))
	data := make([]*string, len(evs))
	ats := make([]time.Time, len(evs))
	for i, e := range evs {
		seqs[i], kinds[i], ats[i] = e.Seq, e.Kind, e.At
		if len(e.Data) > 0 {
			d := string(e.Data)
			data[i] = &d
		}
	}
	last := evs[len(evs)-1]
	n, epoch, err := s.fence(id)
	if err != nil {
		return err
	}
	if n != nil {
		return s.appendFenced(ctx, n, epoch, id, after, last, seqs, kinds, data, ats)
	}
	tag, err := s.pool.Exec(ctx, `WITH g AS (
			UPDATE games SET last_event = $1, updated = greatest(updated, $2)
			WHERE id = $3 AND last_event = $4
			RETURNING id
		)
		INSERT INTO events (game_id, seq, kind, data, at)
		SELECT g.id, e.seq, e.kind, e.data::json, e.at
		FROM g, unnest($5::bigint[], $6::text[], $7::text[], $8::timestamptz[]) WITH ORDINALITY AS e(seq, kind, data, at, n)
		ORDER BY e.n`,
		last.Seq, last.At, id, after, seqs, kinds, data, ats)
	if isUniqueViolation(err) {
		return fmt.Errorf("an event is already stored: %w", store.ErrConflict)
	} else if err != nil {
		return err
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	// Nothing moved: no such game, or its last event is not after. The
	// number only moves on, but it may have been behind after and caught
	// up since.
	if err := expectLast(ctx, s.pool, id, after); err != nil {
		return err
	}
	return fmt.Errorf("its last event was not %d: %w", after, store.ErrConflict)
}

// appendFenced is appendEvents for a node (cluster.go): the statement
// moves last_event on only if the node holds the game's lease at its
// epoch and the lease has not lapsed by the database's clock, and
// notifies the other nodes, on commit, of the game's new last event.
func (s *Store) appendFenced(ctx context.Context, n *node, epoch int64, id string, after int64, last store.Event,
	seqs []int64, kinds []string, data []*string, ats []time.Time) error {
	tag, err := s.pool.Exec(ctx, `WITH g AS (
			UPDATE games SET last_event = $1, updated = greatest(updated, $2)
			WHERE id = $3 AND last_event = $4 AND owner = $9 AND epoch = $10 AND lease_until > now()
			RETURNING id
		), note AS (
			SELECT pg_notify($11, g.id || ':' || $1::text) AS sent FROM g
		)
		INSERT INTO events (game_id, seq, kind, data, at)
		SELECT g.id, e.seq, e.kind, e.data::json, e.at
		FROM g, note, unnest($5::bigint[], $6::text[], $7::text[], $8::timestamptz[]) WITH ORDINALITY AS e(seq, kind, data, at, n)
		ORDER BY e.n`,
		last.Seq, last.At, id, after, seqs, kinds, data, ats, n.id, epoch, s.eventsCh)
	if isUniqueViolation(err) {
		return fmt.Errorf("an event is already stored: %w", store.ErrConflict)
	} else if err != nil {
		return err
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	var last0 int64
	var ok bool
	err = s.pool.QueryRow(ctx, `SELECT last_event, coalesce(owner = $2 AND epoch = $3 AND lease_until > now(), false)
		FROM games WHERE id = $1`, id, n.id, epoch).Scan(&last0, &ok)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.ErrNotFound
	case err != nil:
		return err
	case !ok:
		return n.fenced(id, epoch)
	}
	return fmt.Errorf("its last event is %d: %w", last0, store.ErrConflict)
}

// expectLast returns ErrNotFound if the game does not exist and
// ErrConflict if its last event is not after.
func expectLast(ctx context.Context, q querier, id string, after int64) error {
	var last int64
	err := q.QueryRow(ctx, `SELECT last_event FROM games WHERE id = $1`, id).Scan(&last)
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
