package server_test

import (
	"net/http"
	"testing"

	"github.com/chaturaji/chaturaji/server"
)

// TestLobbyAccountDevices: a signed-in player's seek is its account's:
// seeking from a second device replaces the first device's seek, and when
// it is seated, every lobby WebSocket of the account on the node is told
// "seated", the first device's too, with the one seat, whose token opens
// it; a socket of another account is not.
func TestLobbyAccountDevices(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	phone, laptop, other := newDevice(ts), newDevice(ts), newDevice(ts)
	phone.signUp("ana", "correct horse battery")
	laptop.signIn("ana", "correct horse battery")
	other.signUp("bodo", "correct horse battery")
	dial := func(d *device) *lobbyClient {
		c, err := ts.tryLobbyDial(http.Header{"Cookie": {server.SessionCookie + "=" + d.session()}})
		if err != nil {
			t.Fatal(err)
		}
		if c.hello.Guest {
			t.Fatalf("hello %+v, want a signed-in player", c.hello)
		}
		return c
	}
	a1, a2, b := dial(phone), dial(laptop), dial(other)
	const pool = "chaturaji/15s/casual"
	a1.send(seek{Kind: "seek", Pool: pool})
	a1.until(server.LobbySeeking)
	a2.send(seek{Kind: "seek", Pool: pool, Bots: true, BotWaitMS: 300})
	a2.until(server.LobbySeeking)
	s2, s1 := a2.until(server.LobbySeated), a1.until(server.LobbySeated)
	if s1.Game != s2.Game || s1.Seat != s2.Seat || s1.Token == "" {
		t.Fatalf("the account's devices were told %+v and %+v, want one seat of one game", s1, s2)
	}
	wantSeats(t, ts.store, []server.LobbyEvent{s2}, 3, 15000)
	if g := ts.dial(s1.Game, s1.Token, 0); g.hello.Seat != s1.Seat {
		t.Errorf("the first device's token opens seat %q, want %s", g.hello.Seat, s1.Seat)
	}
	// Bodo, of another account, waiting for people, is told nothing.
	b.send(seek{Kind: "seek", Pool: pool})
	b.until(server.LobbySeeking)
	b.send(map[string]string{"kind": "withdraw"})
	if e := b.until(server.LobbySeated, server.LobbyGone); e.Kind != server.LobbyGone {
		t.Errorf("another account's socket was told %+v", e)
	}
}
