package storetest

import (
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// RunReopen tests that what a store kept survives Close: every call of
// open must open the same database (for SQLite, a file in t.TempDir()).
// It writes a game through one store, closes it, and reads and appends
// through a second.
func RunReopen(t *testing.T, open func(t *testing.T) store.Store) {
	first := open(t)
	g := newGame("g1")
	want := wantGame(g)
	if err := first.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, first, "g2")
	evs := events(1, 5, 0)
	mustAppend(t, first, "g1", 0, evs[:2])
	mustAppend(t, first, "g1", 2, evs[2:])
	seat := store.Seat{Player: "bot:strong", Name: "Asha's bot"}
	if err := first.UpdateSeat(t.Context(), "g1", 0, seat); err != nil {
		t.Fatal(err)
	}
	if err := first.Finish(t.Context(), "g1", "30-20-10-0"); err != nil {
		t.Fatal(err)
	}
	before := mustGame(t, first, "g1")
	if err := first.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	second := openStore(t, open)
	want.Seats[0] = seat
	want.Status, want.Result, want.LastEvent, want.Updated = store.Finished, "30-20-10-0", 5, before.Updated
	sameGame(t, mustGame(t, second, "g1"), want)
	sameEvents(t, mustEvents(t, second, "g1", 0), wantEvents(evs))
	wantIDs(t, second, store.Filter{}, "g1 g2")

	// The reopened store goes on where the first stopped.
	more := events(6, 2, 0)
	mustAppend(t, second, "g1", 5, more)
	sameEvents(t, mustEvents(t, second, "g1", 4), wantEvents(append(evs[4:], more...)))
}
