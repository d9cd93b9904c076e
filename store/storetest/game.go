package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// gameTests are about games and seats: CreateGame, Game, UpdateSeat,
// Finish, and what every method says of an unknown id.
var gameTests = []test{
	{"a created game reads back field for field", func(t *testing.T, s store.Store) {
		g := newGame("g1")
		want := wantGame(g)
		if err := s.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		sameGame(t, mustGame(t, s, "g1"), want)
		sameGame(t, g, want) // what CreateGame set in g
	}},

	{"a new game's zero status and times are filled in", func(t *testing.T, s store.Store) {
		g := newGame("g1")
		g.Status, g.Created, g.Updated = "", time.Time{}, time.Time{}
		before := time.Now()
		if err := s.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		after := time.Now()
		if g.Status != store.Live {
			t.Errorf("Status = %q, want %q", g.Status, store.Live)
		}
		if g.Created.Before(kept(before)) || g.Created.After(after) {
			t.Errorf("Created = %v, want between %v and %v", g.Created, before, after)
		}
		if !g.Updated.Equal(g.Created) {
			t.Errorf("Updated = %v, want Created %v", g.Updated, g.Created)
		}
		sameGame(t, mustGame(t, s, "g1"), g)
	}},

	{"empty bytes read back as nil", func(t *testing.T, s store.Store) {
		g := newGame("g1")
		g.Seed, g.Settings = []byte{}, nil
		g.Seats[0].TokenHash = []byte{}
		g.Seats[2].InviteHash = []byte{}
		if err := s.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, s, "g1", 0, []store.Event{{Seq: 1, Kind: "start", Data: []byte{}, At: t0}})
		got := mustGame(t, s, "g1")
		if got.Seed != nil || got.Settings != nil || got.Seats[0].TokenHash != nil || got.Seats[1].TokenHash != nil || got.Seats[2].InviteHash != nil {
			t.Errorf("Seed %#v, Settings %#v, TokenHashes %#v and %#v, InviteHash %#v; want all nil",
				got.Seed, got.Settings, got.Seats[0].TokenHash, got.Seats[1].TokenHash, got.Seats[2].InviteHash)
		}
		if evs := mustEvents(t, s, "g1", 0); len(evs) != 1 || evs[0].Data != nil {
			t.Errorf("events %#v, want one with nil Data", evs)
		}
	}},

	{"a game without seats reads back without seats", func(t *testing.T, s store.Store) {
		g := newGame("g1")
		g.Seats = nil
		want := wantGame(g)
		if err := s.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
		sameGame(t, mustGame(t, s, "g1"), want)
	}},

	{"creating a game with a taken id conflicts and changes nothing", func(t *testing.T, s store.Store) {
		first := mustCreate(t, s, "g1")
		again := newGame("g1")
		again.Rules, again.Seats = "other rules", again.Seats[:2]
		err := s.CreateGame(t.Context(), again)
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("CreateGame of a taken id: %v, want ErrConflict", err)
		}
		sameGame(t, mustGame(t, s, "g1"), wantGame(first))
	}},

	{"a game that is not new is refused", func(t *testing.T, s store.Store) {
		for _, tc := range []struct {
			name string
			edit func(g *store.Game)
		}{
			{"no id", func(g *store.Game) { g.ID = "" }},
			{"events already", func(g *store.Game) { g.LastEvent = 3 }},
			{"unknown status", func(g *store.Game) { g.Status = "paused" }},
			{"settings not JSON", func(g *store.Game) { g.Settings = []byte("{clock: 10m") }},
		} {
			g := newGame("g1")
			tc.edit(g)
			if err := s.CreateGame(t.Context(), g); err == nil {
				t.Errorf("%s: CreateGame accepted %+v", tc.name, g)
			}
		}
		if _, err := s.Game(t.Context(), "g1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("after the refusals Game(g1): %v, want ErrNotFound", err)
		}
	}},

	{"every method given an unknown id says not found", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		ctx := t.Context()
		calls := map[string]func() error{
			"Game": func() error { _, err := s.Game(ctx, "nope"); return err },
			"AppendEvents": func() error {
				return s.AppendEvents(ctx, "nope", 0, events(1, 2, 0))
			},
			"AppendEvents of none": func() error { return s.AppendEvents(ctx, "nope", 0, nil) },
			"Events":               func() error { _, err := s.Events(ctx, "nope", 0); return err },
			"UpdateSeat":           func() error { return s.UpdateSeat(ctx, "nope", 0, store.Seat{Player: "bot:1"}) },
			"Finish":               func() error { return s.Finish(ctx, "nope", "1-0-0-0") },
			"ReplaceSeed":          func() error { return s.ReplaceSeed(ctx, "nope", nil, hash("x")) },
			"LastHeld":             func() error { _, err := s.LastHeld(ctx, "nope"); return err },
			"SetRecord":            func() error { return s.SetRecord(ctx, "nope", []byte("[Game \"nope\"]\n")) },
		}
		for name, call := range calls {
			if err := call(); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", name, err)
			}
		}
		if evs := mustEvents(t, s, "g1", 0); len(evs) != 0 {
			t.Errorf("g1 has events %s, want none", seqs(evs))
		}
	}},

	{"updating a seat replaces it alone", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		seat := store.Seat{Player: "bot:strong", Name: "Asha's bot"}
		before := time.Now()
		if err := s.UpdateSeat(t.Context(), "g1", 0, seat); err != nil {
			t.Fatal(err)
		}
		got := mustGame(t, s, "g1")
		want := wantGame(g)
		want.Seats[0] = seat
		if got.Updated.Before(kept(before)) {
			t.Errorf("Updated = %v, want on or after %v", got.Updated, before)
		}
		want.Updated = got.Updated
		sameGame(t, got, want)

		seat = store.Seat{Player: "human", Name: "Ravi", TokenHash: hash("new token")}
		if err := s.UpdateSeat(t.Context(), "g1", 3, seat); err != nil {
			t.Fatal(err)
		}
		want.Seats[3] = seat
		got = mustGame(t, s, "g1")
		want.Updated = got.Updated
		sameGame(t, got, want)

		// A bot takes the seat an account held: the account goes with it.
		seat = store.Seat{Player: "bot:greedy", Name: "Asha (bot)"}
		if err := s.UpdateSeat(t.Context(), "g1", 0, seat); err != nil {
			t.Fatal(err)
		}
		want.Seats[0] = seat
		got = mustGame(t, s, "g1")
		want.Updated = got.Updated
		sameGame(t, got, want)
	}},

	{"claiming an invited seat sets its token and clears its invite", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		if g.Seats[2].InviteHash == nil || g.Seats[2].TokenHash != nil {
			t.Fatalf("the fixture's North is %+v, want a seat waiting for its invite", g.Seats[2])
		}
		want := wantGame(g)
		sameGame(t, mustGame(t, s, "g1"), want)
		claimed := store.Seat{Player: "human", Name: g.Seats[2].Name, TokenHash: hash("token of the claimer"), Account: "account of the claimer"}
		if err := s.UpdateSeat(t.Context(), "g1", 2, claimed); err != nil {
			t.Fatal(err)
		}
		got := mustGame(t, s, "g1")
		want.Seats[2] = claimed
		want.Updated = got.Updated
		sameGame(t, got, want)
		if got.Seats[2].InviteHash != nil {
			t.Errorf("North's invite hash is %x after the claim, want none", got.Seats[2].InviteHash)
		}
	}},

	{"updating a seat that does not exist is not found", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		for _, seat := range []int{-1, 4, 100} {
			err := s.UpdateSeat(t.Context(), "g1", seat, store.Seat{Player: "bot:1"})
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("UpdateSeat(g1, %d): %v, want ErrNotFound", seat, err)
			}
		}
		sameGame(t, mustGame(t, s, "g1"), wantGame(g))
	}},

	{"finishing a game sets its status and result", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		mustAppend(t, s, "g1", 0, events(1, 3, 0))
		before := time.Now()
		if err := s.Finish(t.Context(), "g1", "54-12-0-7"); err != nil {
			t.Fatal(err)
		}
		got := mustGame(t, s, "g1")
		want := wantGame(g)
		want.Status, want.Result, want.LastEvent = store.Finished, "54-12-0-7", 3
		if got.Updated.Before(kept(before)) {
			t.Errorf("Updated = %v, want on or after %v", got.Updated, before)
		}
		want.Updated = got.Updated
		sameGame(t, got, want)
	}},

	{"finishing again keeps the first result", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		if err := s.Finish(t.Context(), "g1", "1-0-0-0"); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish(t.Context(), "g1", "1-0-0-0"); err != nil {
			t.Errorf("Finish again with the same result: %v, want nil", err)
		}
		if err := s.Finish(t.Context(), "g1", "0-1-0-0"); !errors.Is(err, store.ErrConflict) {
			t.Errorf("Finish again with another result: %v, want ErrConflict", err)
		}
		if got := mustGame(t, s, "g1"); got.Status != store.Finished || got.Result != "1-0-0-0" {
			t.Errorf("status %q, result %q; want finished, 1-0-0-0", got.Status, got.Result)
		}
	}},

	{"replacing a seed replaces it alone, if it is the one named", func(t *testing.T, s store.Store) {
		g := mustCreate(t, s, "g1")
		other := mustCreate(t, s, "g2")
		sealed := append([]byte{1}, hash("a sealed seed, longer than a seed")...)
		if err := s.ReplaceSeed(t.Context(), "g1", hash("not its seed"), sealed); !errors.Is(err, store.ErrConflict) {
			t.Errorf("ReplaceSeed of another seed: %v, want ErrConflict", err)
		}
		sameGame(t, mustGame(t, s, "g1"), wantGame(g))
		if err := s.ReplaceSeed(t.Context(), "g1", g.Seed, sealed); err != nil {
			t.Fatal(err)
		}
		want := wantGame(g)
		want.Seed = sealed // and Updated stays: the game did not change
		sameGame(t, mustGame(t, s, "g1"), want)
		sameGame(t, mustGame(t, s, "g2"), wantGame(other))
		if err := s.ReplaceSeed(t.Context(), "g1", g.Seed, hash("again")); !errors.Is(err, store.ErrConflict) {
			t.Errorf("ReplaceSeed of the seed already replaced: %v, want ErrConflict", err)
		}
		g3 := newGame("g3")
		g3.Seed = nil
		if err := s.CreateGame(t.Context(), g3); err != nil {
			t.Fatal(err)
		}
		if err := s.ReplaceSeed(t.Context(), "g3", nil, sealed); err != nil {
			t.Errorf("ReplaceSeed of no seed: %v", err)
		}
	}},

	{"a cancelled context stops every method", func(t *testing.T, s store.Store) {
		mustCreate(t, s, "g1")
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		calls := map[string]func() error{
			"CreateGame":   func() error { return s.CreateGame(ctx, newGame("g2")) },
			"Game":         func() error { _, err := s.Game(ctx, "g1"); return err },
			"Games":        func() error { _, err := s.Games(ctx, store.Filter{}); return err },
			"AppendEvents": func() error { return s.AppendEvents(ctx, "g1", 0, events(1, 1, 0)) },
			"Events":       func() error { _, err := s.Events(ctx, "g1", 0); return err },
			"UpdateSeat":   func() error { return s.UpdateSeat(ctx, "g1", 0, store.Seat{Player: "bot:1"}) },
			"Finish":       func() error { return s.Finish(ctx, "g1", "1-0-0-0") },
			"ReplaceSeed":  func() error { return s.ReplaceSeed(ctx, "g1", hash("seed of g1"), hash("x")) },
		}
		for name, call := range calls {
			if err := call(); !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v, want context.Canceled", name, err)
			}
		}
		g := mustGame(t, s, "g1")
		if g.LastEvent != 0 || g.Status != store.Live || g.Seats[0].Player != "human" {
			t.Errorf("a cancelled call changed the game: %+v", g)
		}
		if _, err := s.Game(t.Context(), "g2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a cancelled CreateGame stored g2: %v", err)
		}
	}},
}
