package server_test

import (
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestLobbyCorrespondence: in a lobby game by correspondence (its time per
// decision at least CorrespondenceTurn, here 2 s, well above a grace and
// an expiry of 200 ms), a player who never comes keeps the seat for the
// whole of its decision, and at its deadline the table's timeout gives it
// to a bot; in a game of the same server below CorrespondenceTurn, the
// grace or the expiry gives it to a bot long before the deadline.
func TestLobbyCorrespondence(t *testing.T) {
	cfg := lobbyConfig()
	cfg.Grace, cfg.MaxGrace, cfg.Expiry = 100*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond
	cfg.CorrespondenceTurn = 2 * time.Second
	ts := newTestServer(t, cfg, nil)
	for _, tc := range []struct {
		pool    string
		corr    bool
		reasons []string // the seat event's possible reasons
	}{
		{"chaturanga-2p/2s/casual", true, []string{server.ReasonTimeout}},
		{"chaturanga-2p/1s/casual", false, []string{server.ReasonAbandoned, server.ReasonExpired}},
	} {
		t.Run(tc.pool, func(t *testing.T) {
			c := ts.lobbyDial()
			c.send(seek{Kind: "seek", Pool: tc.pool, Bots: true, BotWaitMS: 1})
			seated := c.until(server.LobbySeated)
			if st := ts.state(seated.Game); st.Table.Correspondence != tc.corr {
				t.Fatalf("game %s's table = %+v, want correspondence %v", seated.Game, st.Table, tc.corr)
			}
			// The seeker never comes to the game; a spectator watches.
			w := ts.dial(seated.Game, "", 0)
			var deadline time.Time
			e := w.until(func(e server.Event) bool {
				if e.ToAct == seated.Seat && e.Deadline != nil && deadline.IsZero() {
					deadline = *e.Deadline
				}
				return e.Kind == server.KindSeat && e.Seat == seated.Seat || e.Kind == server.KindEnd
			})
			at := time.Now()
			if e.Kind != server.KindSeat || deadline.IsZero() {
				t.Fatalf("the game went on to %+v without the absent seat's decision (deadline %v) or a bot taking it", e, deadline)
			}
			ok := false
			for _, r := range tc.reasons {
				ok = ok || e.Reason == r
			}
			if !ok || e.Player == server.Human {
				t.Errorf("seat event %+v, want a bot to take %s for one of %v", e, seated.Seat, tc.reasons)
			}
			if tc.corr && at.Before(deadline) {
				t.Errorf("by correspondence a bot took the absent seat at %v, %v before its deadline", at, deadline.Sub(at))
			}
			if !tc.corr && !at.Before(deadline) {
				t.Errorf("the control game's absent seat was taken at its deadline (%v), not by its grace or expiry", deadline)
			}
		})
	}
}

// TestLobbyCorrespondenceBound: past MaxCorrespondence live games by
// correspondence, the node refuses seeks, pair invitations and open
// tables in correspondence pools, naming the limit, and stores nothing;
// a faster pool is still served; once the game ends, seeks are taken.
func TestLobbyCorrespondenceBound(t *testing.T) {
	cfg := lobbyConfig()
	cfg.CorrespondenceTurn = 2 * time.Second
	cfg.MaxCorrespondence = 1
	ts := newTestServer(t, cfg, nil)
	const pool = "chaturaji/2s/casual"
	a, b := ts.lobbyDial(), ts.lobbyDial()
	a.send(seek{Kind: "seek", Pool: pool, Bots: true, BotWaitMS: 1})
	game := a.until(server.LobbySeated).Game
	for _, tc := range []struct {
		msg  any
		echo string
	}{
		{seek{Kind: "seek", Pool: pool}, "seek"},
		{pairMsg{Kind: "pair", Pool: "chaturaji-teams/1d/casual"}, "pair"},
		{open{Kind: "open", TurnMS: 3000, Seat: "South", Open: []string{"West"}}, "open"},
	} {
		b.send(tc.msg)
		b.wantError(server.EUNAVAILABLE, tc.echo, "live games by correspondence, its limit")
	}
	if v := ts.lobbyView(); len(seekersIn(v, pool)) != 0 || len(v.Tables) != 0 {
		t.Errorf("the view after refused messages: %+v, want no seeker and no table", v)
	}
	b.send(seek{Kind: "seek", Pool: "chaturaji/1s/casual"})
	b.until(server.LobbySeeking)
	// The absent seeker times out and the bots play the game to its end.
	ts.waitState(game, 20*time.Second, func(s *server.State) bool { return s.Status != "live" })
	b.send(seek{Kind: "seek", Pool: pool})
	b.until(server.LobbySeeking)
}
