package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// eventTests are about AppendEvents and Events of one writer.
var eventTests = []test{
	{"appended events read back field for field", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		evs := []store.Event{
			{Seq: 1, Kind: "roll", Data: []byte(`{"faces":["boat","king"]}`), At: t0.Add(time.Nanosecond)},
			{Seq: 2, Kind: "action", Data: []byte("{\n  \"action\": \"e2e4\",  \"by\": \"Ñandú 🐘\"\n}"), At: t0.Add(1500 * time.Microsecond)},
			{Seq: 3, Kind: "seat", Data: []byte(`[1, 2.50, "x", null, true]`), At: t0.Add(-time.Hour)},
			{Seq: 4, Kind: "note", At: t0.Add(time.Hour)},
		}
		mustAppend(t, s, "g1", 0, evs)
		sameEvents(t, mustEvents(t, s, "g1", 0), wantEvents(evs))
	}},

	{"appending sets the game's last event and updated time", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		want := wantGame(g)
		evs := events(1, 2, time.Minute)
		mustAppend(t, s, "g1", 0, evs)
		want.LastEvent, want.Updated = 2, kept(evs[1].At)
		sameGame(t, mustGame(t, s, "g1"), want)

		evs = events(3, 1, time.Hour)
		mustAppend(t, s, "g1", 2, evs)
		want.LastEvent, want.Updated = 3, kept(evs[0].At)
		sameGame(t, mustGame(t, s, "g1"), want)

		// An event dated before the last change does not move Updated back.
		evs = []store.Event{{Seq: 4, Kind: "late", At: t0.Add(-time.Hour)}}
		mustAppend(t, s, "g1", 3, evs)
		want.LastEvent = 4
		sameGame(t, mustGame(t, s, "g1"), want)
	}},

	{"an event without a time is stored at now", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		before := time.Now()
		mustAppend(t, s, "g1", 0, []store.Event{{Seq: 1, Kind: "roll"}})
		after := time.Now()
		evs := mustEvents(t, s, "g1", 0)
		if len(evs) != 1 || evs[0].At.Before(kept(before)) || evs[0].At.After(after) {
			t.Fatalf("events %+v, want one at a time between %v and %v", evs, before, after)
		}
		if g := mustGame(t, s, "g1"); !g.Updated.Equal(evs[0].At) {
			t.Errorf("Updated = %v, want the event's time %v", g.Updated, evs[0].At)
		}
	}},

	{"appending after the wrong event conflicts and writes nothing", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		mustAppend(t, s, "g1", 0, events(1, 2, 0))
		want := wantGame(g)
		want.LastEvent, want.Updated = 2, kept(events(1, 2, 0)[1].At)
		for _, tc := range []struct {
			name   string
			after  int64
			events []store.Event
		}{
			{"after an earlier event", 1, events(2, 1, time.Hour)},
			{"after the first event again", 0, events(1, 3, time.Hour)},
			{"after an event not yet there", 3, events(4, 1, time.Hour)},
			{"after a negative number", -1, events(0, 1, time.Hour)},
			{"numbered from the wrong place", 2, events(4, 2, time.Hour)},
			{"numbered again", 2, []store.Event{events(3, 1, time.Hour)[0], events(3, 1, time.Hour)[0]}},
			{"with a gap", 2, []store.Event{events(3, 1, time.Hour)[0], events(5, 1, time.Hour)[0]}},
			{"backwards", 2, []store.Event{events(4, 1, time.Hour)[0], events(3, 1, time.Hour)[0]}},
			{"none, after an earlier event", 1, nil},
		} {
			err := s.AppendEvents(t.Context(), "g1", tc.after, tc.events)
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("%s: %v, want ErrConflict", tc.name, err)
			}
		}
		sameGame(t, mustGame(t, s, "g1"), want)
		sameEvents(t, mustEvents(t, s, "g1", 0), wantEvents(events(1, 2, 0)))
	}},

	{"a batch is written whole or not at all", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		evs := events(1, 3, 0)
		evs[2].Data = []byte(`{"not json`)
		err := s.AppendEvents(t.Context(), "g1", 0, evs)
		if err == nil {
			t.Fatal("AppendEvents stored data that is not JSON")
		}
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
			t.Errorf("invalid data: %v, want neither ErrConflict nor ErrNotFound", err)
		}
		sameGame(t, mustGame(t, s, "g1"), wantGame(g))
		sameEvents(t, mustEvents(t, s, "g1", 0), nil)

		evs = events(1, 5, 0)
		mustAppend(t, s, "g1", 0, evs)
		sameEvents(t, mustEvents(t, s, "g1", 0), wantEvents(evs))
		if got := mustGame(t, s, "g1").LastEvent; got != 5 {
			t.Errorf("LastEvent = %d, want 5", got)
		}
	}},

	{"appending no events after the last writes nothing", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		mustAppend(t, s, "g1", 0, nil)
		mustAppend(t, s, "g1", 0, []store.Event{})
		sameGame(t, mustGame(t, s, "g1"), wantGame(g))
	}},

	{"events after a number page through the game", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		mustCreate(t, s, "g2")
		all := events(1, 10, 0)
		mustAppend(t, s, "g1", 0, all[:4])
		mustAppend(t, s, "g1", 4, all[4:5])
		mustAppend(t, s, "g1", 5, all[5:])
		mustAppend(t, s, "g2", 0, events(1, 3, time.Hour))
		for _, after := range []int64{0, 1, 4, 9} {
			sameEvents(t, mustEvents(t, s, "g1", after), wantEvents(all[after:]))
		}
		for _, after := range []int64{10, 11, 1000} {
			if evs := mustEvents(t, s, "g1", after); len(evs) != 0 {
				t.Errorf("Events(after %d) = %s, want none", after, seqs(evs))
			}
		}
		// Paging as a client catching up would.
		var got []store.Event
		for after := int64(0); ; {
			page := mustEvents(t, s, "g1", after)
			if len(page) == 0 {
				break
			}
			page = page[:min(3, len(page))]
			got = append(got, page...)
			after = page[len(page)-1].Seq
		}
		sameEvents(t, got, wantEvents(all))
		sameEvents(t, mustEvents(t, s, "g1", -5), wantEvents(all))
	}},

	{"a game without events has none", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		if evs := mustEvents(t, s, "g1", 0); len(evs) != 0 {
			t.Errorf("Events = %s, want none", seqs(evs))
		}
	}},
}
