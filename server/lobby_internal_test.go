package server

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

// signedInConn returns a lobby connection of the hall as the account id
// would have signed in, without a socket: its messages wait in out.
func signedInConn(h *hall, id, name string) *lobbyConn {
	c := &lobbyConn{h: h, out: make(chan []byte, lobbyOutbox), viewed: make(chan struct{}, 1), cancel: func() {},
		account: id, player: lobbyPlayer(id), name: name}
	c.mu, c.sigma = h.s.seekerRating(context.Background(), id, "chaturaji")
	c.rating = shownRating(c.mu, c.sigma)
	return c
}

// nextEvent returns the next message queued for c, failing the test if
// none comes within 10 s.
func nextEvent(t *testing.T, c *lobbyConn) LobbyEvent {
	t.Helper()
	select {
	case data := <-c.out:
		var e LobbyEvent
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatal(err)
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no lobby message in 10s")
	}
	return LobbyEvent{}
}

// TestLobbyRatedSignedIn: signed-in seekers of a rated pool are seated
// in a rated game whose seats belong to their accounts, with the engine's
// help off; one account's second seek, from another device, replaces its
// first; told of their game, they may seek again.
func TestLobbyRatedSignedIn(t *testing.T) {
	st, err := sqlite.Open(t.Context(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := New(Config{BotDelay: NoBotDelay}, st, nil)
	defer s.Shutdown(context.Background())
	h := s.hall
	ctx := t.Context()
	seek := &LobbyMessage{Kind: LobbySeek, Pool: "chaturaji/15s/rated"}

	first := signedInConn(h, "acc0", "Ana")
	if err := first.seekPool(ctx, seek); err != nil {
		t.Fatal(err)
	}
	other := signedInConn(h, "acc0", "Ana") // another device
	if err := other.seekPool(ctx, seek); err != nil {
		t.Fatal(err)
	}
	sk, err := h.st.SeekOf(ctx, lobbyPlayer("acc0"))
	if err != nil || sk.ID != other.seek.id || sk.Seekers[0].Guest {
		t.Fatalf("SeekOf(acc0) = %+v, %v; want the second device's seek, signed in", sk, err)
	}
	conns := []*lobbyConn{other}
	for _, id := range []string{"acc1", "acc2", "acc3"} {
		c := signedInConn(h, id, "Player "+id)
		if err := c.seekPool(ctx, seek); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	h.rounds(time.Now())
	var game string
	for _, c := range conns {
		for {
			e := nextEvent(t, c)
			if e.Kind == LobbySeated {
				game = e.Game
				break
			}
		}
	}
	g, err := st.Game(ctx, game)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, seat := range g.Seats {
		seen[seat.Account] = true
	}
	for _, id := range []string{"acc0", "acc1", "acc2", "acc3"} {
		if !seen[id] {
			t.Errorf("no seat of game %s belongs to account %s: %+v", game, id, g.Seats)
		}
	}
	var set settings
	if err := json.Unmarshal(g.Settings, &set); err != nil || set.Help || set.TurnMS != 15000 {
		t.Errorf("game settings %+v (%v), want the engine's help off and 15 s a decision", set, err)
	}
	// Told, their seeks are forgotten: they may seek again.
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := h.st.SeekOf(ctx, lobbyPlayer("acc1"))
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("SeekOf(acc1) after the game: %v, want ErrNotFound", err)
		}
	}
	if err := conns[1].seekPool(ctx, seek); err != nil {
		t.Errorf("a seek after the game: %v", err)
	}
}
