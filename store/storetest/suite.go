package storetest

import (
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// Opener opens a new, empty store for one test, and returns with it again,
// which opens another store on the same database (or returns the same
// store, for a database only one store may hold), for the tests of several
// stores at once.
type Opener = func(t *testing.T) (s store.Store, again func(t *testing.T) store.Store)

// suiteTest is one test of a suite of one of a store's parts (T: a
// store.Lobby, a store.PairInvites...), given the part of a new, empty
// store and a way to open another store on its database.
type suiteTest[T any] struct {
	name string
	run  func(t *testing.T, s T, again func() T)
}

// runSuite runs the tests of a store's part, in parallel, each on a store
// of its own from open, closed when the test ends; part returns the part
// of a store, named in the failure when a store has none (as
// "store.LobbyOf").
func runSuite[T any](t *testing.T, open Opener, name string, part func(store.Store) T, tests []suiteTest[T]) {
	partOf := func(t *testing.T, s store.Store) T {
		t.Helper()
		p := part(s)
		if any(p) == nil {
			t.Fatalf("%s(%T) = nil", name, s)
		}
		return p
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var again func(t *testing.T) store.Store
			s := openStore(t, func(t *testing.T) store.Store {
				var s store.Store
				s, again = open(t)
				return s
			})
			tt.run(t, partOf(t, s), func() T {
				t.Helper()
				return partOf(t, openStore(t, again))
			})
		})
	}
}
