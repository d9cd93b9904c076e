package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// listTests are about Games.
var listTests = []test{
	{"games are listed most recently updated first", func(t *testing.T, s store.Store) {
		// Created an hour apart, g0 first; g2 and g3 at the same time.
		for i, off := range []time.Duration{0, time.Hour, 2 * time.Hour, 2 * time.Hour, 3 * time.Hour} {
			g := newGame(fmt.Sprint("g", i))
			g.Created, g.Updated = t0.Add(off), t0.Add(off)
			if err := s.CreateGame(t.Context(), g); err != nil {
				t.Fatal(err)
			}
		}
		wantIDs(t, s, store.Filter{}, "g4 g2 g3 g1 g0") // ties by id

		// An event moves a game to the top.
		mustAppend(t, s, "g1", 0, []store.Event{{Seq: 1, Kind: "roll", At: t0.Add(4 * time.Hour)}})
		wantIDs(t, s, store.Filter{}, "g1 g4 g2 g3 g0")

		// So do a seat change and the end, which happen now.
		if err := s.UpdateSeat(t.Context(), "g0", 1, store.Seat{Player: "bot:1", Name: "b"}); err != nil {
			t.Fatal(err)
		}
		wantIDs(t, s, store.Filter{}, "g0 g1 g4 g2 g3")
		if err := s.Finish(t.Context(), "g3", "1-2-3-4"); err != nil {
			t.Fatal(err)
		}
		wantIDs(t, s, store.Filter{}, "g3 g0 g1 g4 g2")
	}},

	{"games are listed with their seats", func(t *testing.T, s store.Store) {
		var want []*store.Game
		for i := range 3 {
			g := newGame(fmt.Sprint("g", i))
			g.Seats = g.Seats[:i+1]
			g.Created, g.Updated = t0.Add(time.Duration(-i)*time.Minute), t0.Add(time.Duration(-i)*time.Minute)
			want = append(want, wantGame(g))
			if err := s.CreateGame(t.Context(), g); err != nil {
				t.Fatal(err)
			}
		}
		nobody := newGame("nobody")
		nobody.Seats = nil
		nobody.Created, nobody.Updated = t0.Add(-time.Hour), t0.Add(-time.Hour)
		want = append(want, wantGame(nobody))
		if err := s.CreateGame(t.Context(), nobody); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, s, "g2", 0, []store.Event{{Seq: 1, Kind: "roll", At: t0.Add(-time.Hour)}})
		want[2].LastEvent = 1

		got, err := s.Games(t.Context(), store.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("Games listed %d games, want %d", len(got), len(want))
		}
		for i := range want {
			sameGame(t, got[i], want[i])
		}
	}},

	{"games are filtered by status", func(t *testing.T, s store.Store) {
		for i := range 6 {
			g := newGame(fmt.Sprint("g", i))
			g.Created, g.Updated = t0.Add(time.Duration(i)*time.Minute), t0.Add(time.Duration(i)*time.Minute)
			if i%3 == 0 {
				g.Status, g.Result = store.Finished, "1-0-0-0"
			}
			if err := s.CreateGame(t.Context(), g); err != nil {
				t.Fatal(err)
			}
		}
		wantIDs(t, s, store.Filter{Status: store.Finished}, "g3 g0")
		wantIDs(t, s, store.Filter{Status: store.Live}, "g5 g4 g2 g1")
		wantIDs(t, s, store.Filter{Status: store.Live, Limit: 3}, "g5 g4 g2")
		wantIDs(t, s, store.Filter{}, "g5 g4 g3 g2 g1 g0")
		if _, err := s.Games(t.Context(), store.Filter{Status: "paused"}); err == nil {
			t.Error("Games listed games of an unknown status")
		}
	}},

	{"games are limited, to 50 unless told", func(t *testing.T, s store.Store) {
		const n = 53
		for i := range n {
			g := newGame(fmt.Sprintf("g%02d", i))
			g.Created, g.Updated = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i)*time.Second)
			if err := s.CreateGame(t.Context(), g); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct{ limit, want int }{{0, 50}, {-1, 50}, {1, 1}, {10, 10}, {50, 50}, {51, 51}, {100, n}} {
			got, err := s.Games(t.Context(), store.Filter{Limit: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Errorf("Limit %d: %d games, want %d", tc.limit, len(got), tc.want)
				continue
			}
			if len(got) > 0 && (got[0].ID != fmt.Sprintf("g%02d", n-1) || got[len(got)-1].ID != fmt.Sprintf("g%02d", n-tc.want)) {
				t.Errorf("Limit %d: from %s to %s, want the most recent", tc.limit, got[0].ID, got[len(got)-1].ID)
			}
		}
	}},

	{"an empty store lists no games", func(t *testing.T, s store.Store) {
		wantIDs(t, s, store.Filter{}, "")
		wantIDs(t, s, store.Filter{Status: store.Live}, "")
	}},
}

// wantIDs fails the test unless Games lists the games with the given
// space-separated ids, in that order.
func wantIDs(t *testing.T, s store.Store, f store.Filter, want string) {
	t.Helper()
	games, err := s.Games(t.Context(), f)
	if err != nil {
		t.Fatalf("Games(%+v): %v", f, err)
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("Games(%+v) = %q, want %q", f, got, want)
	}
}
