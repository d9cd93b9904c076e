package server_test

import (
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

// pairMsg is a pair message: an invitation to seek as partners.
type pairMsg struct {
	Kind      string `json:"kind"`
	Pool      string `json:"pool"`
	Bots      bool   `json:"bots,omitempty"`
	BotWaitMS int64  `json:"bot_wait_ms,omitempty"`
	Name      string `json:"name,omitempty"`
}

// invitePair has a invite a partner in pool and b take the invitation;
// both are told they seek, each with the other's name.
func invitePair(t *testing.T, a, b *lobbyClient, m pairMsg, nameB string) {
	t.Helper()
	m.Kind = "pair"
	a.send(m)
	inv := a.until(server.LobbyInvited)
	if inv.Code == "" || inv.Pool != m.Pool {
		t.Fatalf("invited = %+v, want a code and pool %s", inv, m.Pool)
	}
	b.send(map[string]string{"kind": "partner", "code": inv.Code, "name": nameB})
	if e := b.until(server.LobbySeeking); e.Pool != m.Pool || e.Partner != m.Name {
		t.Fatalf("the partner's seeking = %+v, want pool %s with partner %q", e, m.Pool, m.Name)
	}
	if e := a.until(server.LobbySeeking); e.Pool != m.Pool || e.Partner != nameB {
		t.Fatalf("the inviter's seeking = %+v, want pool %s with partner %q", e, m.Pool, nameB)
	}
}

// wantPartners checks that the seated messages of a pair name two seats of
// one team of rules, and that each token opens its own seat.
func wantPartners(t *testing.T, ts *testServer, ruleset string, a, b server.LobbyEvent) {
	t.Helper()
	pr, err := rules.Lookup(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	seat := func(name string) rules.Seat {
		i := slices.IndexFunc(pr.Seats(), func(s rules.Seat) bool { return s.String() == name })
		if i < 0 {
			t.Fatalf("seat %q is none of %s's", name, ruleset)
		}
		return pr.Seats()[i]
	}
	if a.Game != b.Game || a.Seat == b.Seat || !pr.Teammates(seat(a.Seat), seat(b.Seat)) {
		t.Fatalf("the pair seated at %s %s and %s %s, want partners' seats of one game", a.Game, a.Seat, b.Game, b.Seat)
	}
	for _, e := range []server.LobbyEvent{a, b} {
		if g := ts.dial(e.Game, e.Token, 0); g.hello.Seat != e.Seat {
			t.Errorf("the token told for %s opens seat %q", e.Seat, g.hello.Seat)
		}
	}
}

// TestLobbyPairSeated: two partners who come as a pair (one invites, the
// other takes its code over its own socket) and two seekers alone, in a
// team pool, are seated in one game of four people, the pair in the
// seats of one team and the two alone in the other's, each told its own
// seat with a token that opens it.
func TestLobbyPairSeated(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	const pool = "chaturaji-teams/15s/casual"
	a, b, c, d := ts.lobbyDial(), ts.lobbyDial(), ts.lobbyDial(), ts.lobbyDial()
	invitePair(t, a, b, pairMsg{Pool: pool, Name: "Ana"}, "Bo")
	ts.waitLobby("the pair", func(v *server.LobbyView) bool { return slices.Equal(seekersIn(v, pool), []string{"Ana", "Bo"}) })
	for i, s := range []*lobbyClient{c, d} {
		s.send(seek{Kind: "seek", Pool: pool, Name: []string{"Cy", "Di"}[i]})
		s.until(server.LobbySeeking)
	}
	sa, sb, sc, sd := a.until(server.LobbySeated), b.until(server.LobbySeated), c.until(server.LobbySeated), d.until(server.LobbySeated)
	if sa.Partner != "Bo" || sb.Partner != "Ana" || sa.Pool != pool || sb.Pool != pool {
		t.Errorf("the pair seated %+v and %+v, want each with the other as partner, in pool %s", sa, sb, pool)
	}
	wantSeats(t, ts.store, []server.LobbyEvent{sa, sb, sc, sd}, 0, 15000)
	wantPartners(t, ts, "chaturaji-teams", sa, sb)
	wantPartners(t, ts, "chaturaji-teams", sc, sd)
	ts.waitLobby("no seekers left", func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 0 })
}

// TestLobbyPairBots: a pair that allows bots is seated once its wait has
// passed, with two bots, the pair one team and the bots the other.
func TestLobbyPairBots(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	const pool = "chaturaji-teams/15s/casual"
	a, b := ts.lobbyDial(), ts.lobbyDial()
	start := time.Now()
	invitePair(t, a, b, pairMsg{Pool: pool, Name: "Ana", Bots: true, BotWaitMS: 400}, "Bo")
	sa, sb := a.until(server.LobbySeated), b.until(server.LobbySeated)
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("seated with bots %v after the invitation, before its wait of 400ms", d)
	}
	wantSeats(t, ts.store, []server.LobbyEvent{sa, sb}, 2, 15000)
	wantPartners(t, ts, "chaturaji-teams", sa, sb)
}

// TestLobbyPairWithdraw: a pair's seek is withdrawn whole when either
// partner closes its socket or withdraws, and the other is told why; an
// invitation is withdrawn by its message and gone with its socket; bad
// invitations and codes are refused, naming why, and change nothing.
func TestLobbyPairWithdraw(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	const pool = "chaturaji-teams/1m0s/casual"
	empty := func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 0 }
	listed := func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 2 }

	// The partner closes its socket: the inviter is told.
	a, b := ts.lobbyDial(), ts.lobbyDial()
	invitePair(t, a, b, pairMsg{Pool: pool, Name: "Ana"}, "Bo")
	ts.waitLobby("the pair", listed)
	b.conn.CloseNow()
	if e := a.until(server.LobbyGone); e.Pool != pool || e.Why != "your partner left the lobby" {
		t.Errorf("the inviter's withdrawn = %+v, want pool %s, its partner gone", e, pool)
	}
	ts.waitLobby("no pair", empty)

	// The inviter closes its socket: the partner is told.
	b = ts.lobbyDial()
	invitePair(t, a, b, pairMsg{Pool: pool, Name: "Ana"}, "Bo")
	ts.waitLobby("the pair again", listed)
	a.conn.CloseNow()
	if e := b.until(server.LobbyGone); e.Why != "your partner left the lobby" {
		t.Errorf("the partner's withdrawn = %+v, want its partner gone", e)
	}
	ts.waitLobby("no pair", empty)

	// One withdraws: both are.
	a = ts.lobbyDial()
	invitePair(t, a, b, pairMsg{Pool: pool, Name: "Ana"}, "Bo")
	ts.waitLobby("the pair a third time", listed)
	b.send(map[string]string{"kind": "withdraw"})
	if e := b.until(server.LobbyGone); e.Why != "" {
		t.Errorf("the withdrawer's withdrawn = %+v, want no reason", e)
	}
	if e := a.until(server.LobbyGone); e.Why != "your partner withdrew" {
		t.Errorf("the other's withdrawn = %+v, want its partner's withdrawal", e)
	}
	ts.waitLobby("no pair", empty)

	// An invitation, withdrawn, is no more; one whose socket closed
	// neither (taken before the server saw it close, its pair's seek is
	// withdrawn once it does).
	a.send(pairMsg{Kind: "pair", Pool: pool})
	code := a.until(server.LobbyInvited).Code
	a.send(map[string]string{"kind": "withdraw"})
	a.until(server.LobbyGone)
	b.send(map[string]string{"kind": "partner", "code": code})
	b.wantError(server.ENOTFOUND, "partner", "no pair invitation")
	c := ts.lobbyDial()
	c.send(pairMsg{Kind: "pair", Pool: pool})
	code = c.until(server.LobbyInvited).Code
	c.conn.CloseNow()
	for {
		b.send(map[string]string{"kind": "partner", "code": code})
		e := b.until(server.LobbyError, server.LobbySeeking)
		if e.Kind == server.LobbySeeking {
			if g := b.until(server.LobbyGone); g.Why != "your partner left the lobby" {
				t.Fatalf("withdrawn = %+v, want the pair's seek withdrawn as its inviter left", g)
			}
			continue
		}
		if e.Error.Code == server.ENOTFOUND {
			break
		}
	}

	// Refused, naming why.
	a.send(pairMsg{Kind: "pair", Pool: pool})
	code = a.until(server.LobbyInvited).Code
	for _, tc := range []struct {
		from       *lobbyClient
		msg        any
		code, echo string
		saying     string
	}{
		{a, pairMsg{Kind: "pair", Pool: "chaturaji/15s/casual"}, server.EINVALID, "pair", "not played in teams"},
		{a, pairMsg{Kind: "pair", Pool: "chaturaji-teams/15s/rated"}, server.EUNAUTHORIZED, "pair", "sign in"},
		{a, pairMsg{Kind: "pair", Pool: "chaturaji-teams/15s"}, server.EINVALID, "pair", "want RULES/TURN"},
		{a, map[string]string{"kind": "partner", "code": code}, server.EINVALID, "partner", "your own"},
		{b, map[string]string{"kind": "partner"}, server.EINVALID, "partner", "no code"},
		{b, map[string]string{"kind": "partner", "code": "nosuch"}, server.ENOTFOUND, "partner", "no pair invitation"},
		{a, open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"West"}}, server.ECONFLICT, "open", "pair invitation"},
	} {
		tc.from.send(tc.msg)
		tc.from.wantError(tc.code, tc.echo, tc.saying)
	}
	b.send(seek{Kind: "seek", Pool: pool})
	b.until(server.LobbySeeking)
	b.send(map[string]string{"kind": "partner", "code": code})
	b.wantError(server.ECONFLICT, "partner", "withdraw it")
	ts.waitLobby("b alone", func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 1 })
}

// TestLobbyPairInvitesBound: a player's open pair invitations are at most
// MaxPairInvites, over its account's devices: past it the invitation is
// refused, saying why, until one is withdrawn; a device's own account's
// code is refused as a partner's; a guest's socket keeps one, a new one
// replacing it.
func TestLobbyPairInvitesBound(t *testing.T) {
	cfg := lobbyConfig()
	cfg.MaxPairInvites = 1
	ts := newTestServer(t, cfg, nil)
	const pool = "chaturaji-teams/15s/casual"
	phone, laptop := newDevice(ts), newDevice(ts)
	phone.signUp("ana", "correct horse battery")
	laptop.signIn("ana", "correct horse battery")
	a1, a2 := dialAs(t, ts, phone), dialAs(t, ts, laptop)
	a1.send(pairMsg{Kind: "pair", Pool: pool})
	code := a1.until(server.LobbyInvited).Code
	a2.send(pairMsg{Kind: "pair", Pool: pool})
	a2.wantError(server.ETOOMANY, "pair", "1 pair invitations open, the limit")
	a2.send(map[string]string{"kind": "partner", "code": code})
	a2.wantError(server.EINVALID, "partner", "your own account's")
	a1.send(map[string]string{"kind": "withdraw"})
	a1.until(server.LobbyGone)
	a2.send(pairMsg{Kind: "pair", Pool: pool})
	a2.until(server.LobbyInvited)

	// A guest's new invitation replaces its open one, within the bound.
	g := ts.lobbyDial()
	g.send(pairMsg{Kind: "pair", Pool: pool})
	old := g.until(server.LobbyInvited).Code
	g.send(pairMsg{Kind: "pair", Pool: pool})
	if code := g.until(server.LobbyInvited).Code; code == old {
		t.Fatalf("a second invitation has the first's code %s", code)
	}
	b := ts.lobbyDial()
	b.send(map[string]string{"kind": "partner", "code": old})
	b.wantError(server.ENOTFOUND, "partner", "no pair invitation")
}
