package server_test

import (
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// lobbyNode starts a node of a cluster on the PostgreSQL database dsn,
// with the lobby's rounds and views frequent.
func lobbyNode(t *testing.T, dsn string) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var log lockedBuffer
	return nodeWith(t, lobbyConfig(), dsn, time.Hour, &log, ln, "http://"+ln.Addr().String())
}

// dialAs opens the lobby's WebSocket of ts with the session of d.
func dialAs(t *testing.T, ts *testServer, d *device) *lobbyClient {
	t.Helper()
	c, err := ts.tryLobbyDial(http.Header{"Cookie": {server.SessionCookie + "=" + d.session()}})
	if err != nil {
		t.Fatal(err)
	}
	if c.hello.Guest {
		t.Fatalf("hello %+v, want a signed-in player", c.hello)
	}
	return c
}

// TestLobbyPairAcrossNodes: partners whose lobby WebSockets reach two
// nodes of a cluster on one PostgreSQL come as a pair, and the same on
// one node on SQLite (both "nodes" the one).
func TestLobbyPairAcrossNodes(t *testing.T) {
	t.Run("postgres, two nodes", func(t *testing.T) {
		dsn := pgtest.Schema(t)
		pairAcross(t, lobbyNode(t, dsn), lobbyNode(t, dsn))
	})
	t.Run("sqlite, one node", func(t *testing.T) {
		ts := newTestServer(t, lobbyConfig(), nil)
		pairAcross(t, ts, ts)
	})
}

// pairAcross: Ana, signed in, invites from her phone on n1; Bo, a guest
// on n2, takes the code, and a second taker on n1 is told it is taken;
// with Cy on n1 and Di on n2 seeking alone, the four are seated in one
// game, Ana and Bo partners, each told its seat with a token that opens
// it; Ana's laptop on n2 is told her seat, which its session opens.
// Then Bo withdraws a new pair's seek on n2 and Ana on n1 is told why;
// and Ana leaves n1 with a third and Bo on n2 is told why, her code no
// more. Last, Ana seeks alone from n1, and her laptop on n2 is told her
// seat.
func pairAcross(t *testing.T, n1, n2 *testServer) {
	const pool = "chaturaji-teams/15s/casual"
	phone, laptop := newDevice(n1), newDevice(n2)
	phone.signUp("ana", "correct horse battery")
	laptop.signIn("ana", "correct horse battery")
	a, a2, b := dialAs(t, n1, phone), dialAs(t, n2, laptop), n2.lobbyDial()

	a.send(pairMsg{Kind: "pair", Pool: pool})
	code := a.until(server.LobbyInvited).Code
	b.send(map[string]string{"kind": "partner", "code": code, "name": "Bo"})
	if e := b.until(server.LobbySeeking); e.Pool != pool || e.Partner != "ana" {
		t.Fatalf("the partner's seeking = %+v, want pool %s with partner ana", e, pool)
	}
	if e := a.until(server.LobbySeeking); e.Pool != pool || e.Partner != "Bo" {
		t.Fatalf("the inviter's seeking = %+v, want pool %s with partner Bo", e, pool)
	}
	late := n1.lobbyDial()
	late.send(map[string]string{"kind": "partner", "code": code})
	late.wantError(server.ECONFLICT, "partner", "taken already")
	n1.waitLobby("the pair", func(v *server.LobbyView) bool { return slices.Equal(seekersIn(v, pool), []string{"ana", "Bo"}) })

	c, d := n1.lobbyDial(), n2.lobbyDial()
	for i, s := range []*lobbyClient{c, d} {
		s.send(seek{Kind: "seek", Pool: pool, Name: []string{"Cy", "Di"}[i]})
		s.until(server.LobbySeeking)
	}
	sa, sb, sc, sd := a.until(server.LobbySeated), b.until(server.LobbySeated), c.until(server.LobbySeated), d.until(server.LobbySeated)
	if sa.Partner != "Bo" || sb.Partner != "ana" || sa.Pool != pool || sb.Pool != pool || sa.Token == "" || sb.Token == "" {
		t.Errorf("the pair seated %+v and %+v, want each with a token and the other as partner, in pool %s", sa, sb, pool)
	}
	wantSeats(t, n1.store, []server.LobbyEvent{sa, sb, sc, sd}, 0, 15000)
	wantPartners(t, n1, "chaturaji-teams", sa, sb)
	wantPartners(t, n2, "chaturaji-teams", sc, sd)
	if e := a2.until(server.LobbySeated); e.Game != sa.Game || e.Seat != sa.Seat {
		t.Errorf("Ana's laptop was told %+v, want her seat %s of game %s", e, sa.Seat, sa.Game)
	}
	g, err := n2.tryDial(sa.Game, "", 0, http.Header{"Cookie": {server.SessionCookie + "=" + laptop.session()}})
	if err != nil {
		t.Fatal(err)
	}
	if g.hello.Seat != sa.Seat {
		t.Errorf("the laptop's session opens seat %q, want %s", g.hello.Seat, sa.Seat)
	}

	listed := func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 2 }
	empty := func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 0 }
	again := func() {
		t.Helper()
		a.send(pairMsg{Kind: "pair", Pool: pool})
		code = a.until(server.LobbyInvited).Code
		b.send(map[string]string{"kind": "partner", "code": code, "name": "Bo"})
		b.until(server.LobbySeeking)
		a.until(server.LobbySeeking)
		n1.waitLobby("the pair again", listed)
	}
	again()
	b.send(map[string]string{"kind": "withdraw"})
	if e := b.until(server.LobbyGone); e.Why != "" {
		t.Errorf("the withdrawer's withdrawn = %+v, want no reason", e)
	}
	if e := a.until(server.LobbyGone); e.Pool != pool || e.Why != "your partner withdrew" {
		t.Errorf("the inviter's withdrawn = %+v, want pool %s, its partner's withdrawal", e, pool)
	}
	n1.waitLobby("no pair", empty)

	again()
	a.conn.CloseNow()
	if e := b.until(server.LobbyGone); e.Pool != pool || e.Why != "your partner left the lobby" {
		t.Errorf("the partner's withdrawn = %+v, want pool %s, its partner gone", e, pool)
	}
	n2.waitLobby("no pair", empty)
	late.send(map[string]string{"kind": "partner", "code": code})
	late.wantError(server.ENOTFOUND, "partner", "no pair invitation")

	// Ana alone, from her phone on n1, with bots: the laptop on n2 is
	// told her seat too.
	a = dialAs(t, n1, phone)
	a.send(seek{Kind: "seek", Pool: "chaturaji/15s/casual", Bots: true, BotWaitMS: 300})
	s := a.until(server.LobbySeated)
	if e := a2.until(server.LobbySeated); e.Game != s.Game || e.Seat != s.Seat {
		t.Errorf("Ana's laptop was told %+v, want her seat %s of game %s, sought alone", e, s.Seat, s.Game)
	}
}
