package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// Faults of the store, as the API tells them apart: a game whose row or
// events cannot be rebuilt is damaged, and that concerns it alone (the
// lists, records and exports go on without it and say so); a store that
// does not answer concerns everyone for a while (EUNAVAILABLE, and the
// games try again by themselves: recover.go).

// storeRetryAfter is what an answer says to wait (Retry-After) when the
// database does not answer.
const storeRetryAfter = 2 * time.Second

// errNoSeedKey says a game's seed is sealed and the store was opened
// without a seed key: no game can be read, which is the operator's to
// fix, not a damaged game.
var errNoSeedKey = errors.New("the store was opened without a seed key")

// damagedError says a game cannot be rebuilt from what the store holds:
// its row or one of its events is not what the server wrote (a rules name
// no preset has, a roll the seed does not give, an illegal action, a seed
// that does not open); or that the record kept of it was changed (records.go).
type damagedError struct {
	id  string
	err error // names the game and what is wrong
}

func (e *damagedError) Error() string { return e.err.Error() }
func (e *damagedError) Unwrap() error { return e.err }

// damaged wraps an error of rebuilding game id, if it says the game is
// damaged; a store that failed, or one opened without its seed key, is not
// the game's fault.
func damaged(id string, err error) error {
	var d *damagedError
	switch {
	case err == nil || errors.As(err, &d) || errors.Is(err, errNoSeedKey):
		return err
	case errors.Is(err, store.ErrSeedDamaged), errors.Is(err, store.ErrSeedKey):
		return &damagedError{id: id, err: err}
	}
	return err
}

// Skipped is a game that an answer or an export left out because it is
// damaged: its row or its events cannot be rebuilt.
type Skipped struct {
	ID    string `json:"id"`    // the game's id
	Error string `json:"error"` // what is wrong with it
}

// noteDamaged logs a damaged game the first time this server meets it,
// and never again: a game damaged for good would otherwise fill the log at
// every list and export that passes it by.
func (s *Server) noteDamaged(id string, err error) {
	if _, seen := s.damagedSeen.LoadOrStore(id, true); seen {
		return
	}
	s.log.Error("damaged game: lists, records and exports leave it out; repair or remove its rows", "game", id, "err", err)
}

// storeError turns a failure to read the store for a request into the
// API's error: ENOTFOUND, EINTERNAL for a damaged game (logged once,
// naming it), EUNAVAILABLE with Retry-After if the database did not
// answer. An *Error passes as it is.
func (s *Server) storeError(id string, err error) error {
	var e *Error
	var d *damagedError
	switch {
	case err == nil || errors.As(err, &e):
		return err
	case errors.Is(err, store.ErrNotFound):
		return Errorf(ENOTFOUND, "no game %q", id)
	case errors.As(err, &d):
		s.noteDamaged(d.id, d.err)
		return Errorf(EINTERNAL, "the game cannot be rebuilt from the database, it is damaged: %v", d.err)
	case errors.Is(err, errNoSeedKey):
		return fmt.Errorf("server: %w", err)
	case errors.Is(err, context.Canceled):
		return Errorf(EUNAVAILABLE, "the request was cancelled")
	}
	s.metrics.storeFailures.WithLabelValues(opRead).Inc()
	s.repeats.Error("reading the database", "game", id, "err", err)
	return unavailable(storeRetryAfter, "the database did not answer; try again")
}
