// Package check validates and normalizes what a Store is given, so that
// every backend accepts, refuses and rounds the same things the same way.
// Its errors are the backends' to prefix with their package's name.
package check

import (
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// DefaultLimit is how many games Games lists when the filter gives no limit.
const DefaultLimit = 50

// Time returns t as the stores keep it: in UTC, truncated to the
// microsecond (PostgreSQL's precision; SQLite keeps integer microseconds).
func Time(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

// Game checks a new game and sets what CreateGame fills in: a zero Status
// becomes Live, a zero Created now, a zero Updated Created; both times as
// Time keeps them.
func Game(g *store.Game, now time.Time) error {
	if g == nil {
		return errors.New("no game given")
	}
	if g.ID == "" {
		return errors.New("the game has no id")
	}
	if g.LastEvent != 0 {
		return fmt.Errorf("new game %q has LastEvent %d; a new game has no events", g.ID, g.LastEvent)
	}
	if g.Status == "" {
		g.Status = store.Live
	}
	if err := Status(g.Status); err != nil {
		return err
	}
	if g.Created.IsZero() {
		g.Created = now
	}
	if g.Updated.IsZero() {
		g.Updated = g.Created
	}
	g.Created, g.Updated = Time(g.Created), Time(g.Updated)
	return nil
}

// Status checks that s is a status of a game.
func Status(s store.Status) error {
	switch s {
	case store.Live, store.Finished:
		return nil
	}
	return fmt.Errorf("unknown status %q", s)
}

// Events checks that events number on from after (after+1, after+2, ...)
// and returns a copy with zero At times set to now and every time as Time
// keeps it. Misnumbered events are ErrConflict, as AppendEvents promises.
func Events(after int64, events []store.Event, now time.Time) ([]store.Event, error) {
	if after < 0 {
		return nil, fmt.Errorf("append after event %d: %w", after, store.ErrConflict)
	}
	out := make([]store.Event, len(events))
	for i, e := range events {
		if want := after + int64(i) + 1; e.Seq != want {
			return nil, fmt.Errorf("event %d of the batch is numbered %d, want %d: %w", i+1, e.Seq, want, store.ErrConflict)
		}
		if e.At.IsZero() {
			e.At = now
		}
		e.At = Time(e.At)
		out[i] = e
	}
	return out, nil
}

// Limit returns how many games a filter lists.
func Limit(f store.Filter) int {
	if f.Limit <= 0 {
		return DefaultLimit
	}
	return f.Limit
}
