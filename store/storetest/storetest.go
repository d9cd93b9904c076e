// Package storetest is the test suite every store.Store passes: SQLite's
// and PostgreSQL's run the same tests, so the server can rely on the same
// behaviour from both.
//
// What the suite holds a store to, beyond store.Store's own documentation:
//
//   - Times read back in UTC, truncated to the microsecond (the precision
//     PostgreSQL's timestamptz keeps; SQLite keeps integer microseconds).
//   - Bytes read back byte for byte; an empty or nil slice (Seed,
//     Settings, TokenHash, Data) reads back as nil. Settings and Data must
//     be JSON: anything else is refused, and refused atomically.
//   - CreateGame fills a zero Status with Live, a zero Created with now and
//     a zero Updated with Created, and sets them in the caller's Game.
//   - AppendEvents stores a zero At as now; Updated never moves back.
//     UpdateSeat and Finish move Updated on to now.
//   - Finish with the result already stored does nothing; with another
//     result it is ErrConflict.
//   - Every method that takes a game's id says ErrNotFound for an unknown
//     one, UpdateSeat also for an unknown seat.
//   - ReplaceSeed replaces only the seed it names (else ErrConflict) and
//     does not move Updated.
//   - LastHeld of any game is the latest time Heartbeat was given, zero
//     before the first; a heartbeat never moves it back.
//   - SetRecord keeps a finished game's record byte for byte (a live
//     game's is ErrConflict); Records returns those kept, by id, and
//     leaves out the games with none.
//
// RunReopen tests a database closed and opened again, RunSealed that
// store.Sealed leaves no seed in plain form in the database's bytes, and
// RunLobby a store's store.Lobby, with claims racing through two stores
// on one database.
package storetest

import (
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// test is one test of the suite, given a new, empty store.
type test struct {
	name string
	run  func(t *testing.T, s store.Store)
}

// Run runs the suite. Each test calls open for a new, empty store of its
// own, and closes it when it ends (after that, open's own cleanups run).
// The tests run in parallel.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	var tests []test
	tests = append(tests, gameTests...)
	tests = append(tests, eventTests...)
	tests = append(tests, raceTests...)
	tests = append(tests, listTests...)
	tests = append(tests, heldTests...)
	tests = append(tests, recordTests...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, openStore(t, open))
		})
	}
}

// openStore calls open and closes the store when the test ends.
func openStore(t *testing.T, open func(t *testing.T) store.Store) store.Store {
	t.Helper()
	s := open(t)
	if s == nil {
		t.Fatal("open returned no store")
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}
