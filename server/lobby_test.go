package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// seek is a seek message.
type seek struct {
	Kind      string `json:"kind"`
	Pool      string `json:"pool"`
	Bots      bool   `json:"bots,omitempty"`
	BotWaitMS int64  `json:"bot_wait_ms,omitempty"`
	Name      string `json:"name,omitempty"`
}

// wantSeats checks the game of the seated messages in the store: one game,
// each seat named once, held by the token given, the others bots'.
func wantSeats(t *testing.T, st store.Store, seated []server.LobbyEvent, bots int, turnMS int64) {
	t.Helper()
	id := seated[0].Game
	var seats []string
	for _, e := range seated {
		if e.Game != id {
			t.Fatalf("seated in games %s and %s, want one", id, e.Game)
		}
		if slices.Contains(seats, e.Seat) {
			t.Fatalf("seat %s given twice", e.Seat)
		}
		seats = append(seats, e.Seat)
	}
	g, err := st.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var humans, botSeats int
	for _, s := range g.Seats {
		if strings.HasPrefix(s.Player, "bot:") {
			botSeats++
		} else {
			humans++
		}
	}
	if humans != len(seated) || botSeats != bots {
		t.Errorf("game %s has %d human seats and %d bots' (%+v), want %d and %d", id, humans, botSeats, g.Seats, len(seated), bots)
	}
	var set struct {
		TurnMS int64 `json:"turn_ms"`
	}
	if err := json.Unmarshal(g.Settings, &set); err != nil || set.TurnMS != turnMS {
		t.Errorf("game %s's turn_ms = %d (%v), want the pool's %d", id, set.TurnMS, err, turnMS)
	}
}

// TestLobbyFourSeated: four guests who seek in one pool, for people only,
// are seated in one game of the pool's rules within a bound, each in a
// seat of its own that its token opens; in the main rules' pool and in
// chesscom-chaturaji's.
func TestLobbyFourSeated(t *testing.T) {
	for _, pool := range []string{"chaturaji/15s/casual", "chesscom-chaturaji/15s/casual"} {
		t.Run(strings.Split(pool, "/")[0], func(t *testing.T) { fourSeated(t, pool) })
	}
}

// fourSeated is TestLobbyFourSeated in one pool.
func fourSeated(t *testing.T, pool string) {
	ts := newTestServer(t, lobbyConfig(), nil)
	var cs []*lobbyClient
	for i := range 4 {
		c := ts.lobbyDial()
		c.send(seek{Kind: "seek", Pool: pool, Name: fmt.Sprintf("p%d", i)})
		if e := c.until(server.LobbySeeking); e.Pool != pool || e.Since == nil {
			t.Fatalf("seeking = %+v, want the pool and the time", e)
		}
		cs = append(cs, c)
	}
	start := time.Now()
	var seated []server.LobbyEvent
	for _, c := range cs {
		e := c.until(server.LobbySeated)
		if e.Token == "" || e.Pool != pool {
			t.Errorf("seated = %+v, want a token and the pool", e)
		}
		seated = append(seated, e)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("seated %v after the last seek, want within 3s", d)
	}
	wantSeats(t, ts.store, seated, 0, 15000)
	if rules := ts.state(seated[0].Game).Rules; rules != strings.Split(pool, "/")[0] {
		t.Errorf("the game plays %s, want the pool's rules", rules)
	}
	for _, e := range seated {
		if g := ts.dial(e.Game, e.Token, 0); g.hello.Seat != e.Seat {
			t.Errorf("the token of %s opens seat %q", e.Seat, g.hello.Seat)
		}
	}
	ts.waitLobby("no seekers left", func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 0 })
	// Seated, they may seek again.
	cs[0].send(seek{Kind: "seek", Pool: pool})
	cs[0].until(server.LobbySeeking)
}

// TestLobbyBots: a lone seeker who allows bots is seated with bots once
// its wait has passed, not before.
func TestLobbyBots(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	c := ts.lobbyDial()
	start := time.Now()
	c.send(seek{Kind: "seek", Pool: "chaturaji/15s/casual", Bots: true, BotWaitMS: 400})
	c.until(server.LobbySeeking)
	e := c.until(server.LobbySeated)
	if d := time.Since(start); d < 400*time.Millisecond || d > 5*time.Second {
		t.Errorf("seated with bots %v after seeking, want after its wait of 400ms, within 5s", d)
	}
	wantSeats(t, ts.store, []server.LobbyEvent{e}, 3, 15000)
	// Two seats by correspondence: a day a decision.
	c.send(seek{Kind: "seek", Pool: "chaturanga-2p/1d/casual", Bots: true, BotWaitMS: 1})
	e = c.until(server.LobbySeated)
	wantSeats(t, ts.store, []server.LobbyEvent{e}, 1, 24*3600*1000)
}

// TestLobbyWithdraw: a seek is withdrawn by its message and by closing its
// socket; the lobby's view lists a seeker while it waits.
func TestLobbyWithdraw(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	const pool = "chaturaji/1m0s/casual"
	a, b := ts.lobbyDial(), ts.lobbyDial()
	a.send(seek{Kind: "seek", Pool: pool, Name: "Ana"})
	a.until(server.LobbySeeking)
	b.send(seek{Kind: "seek", Pool: pool, Name: "Bo"})
	b.until(server.LobbySeeking)
	ts.waitLobby("Ana and Bo", func(v *server.LobbyView) bool { return slices.Equal(seekersIn(v, pool), []string{"Ana", "Bo"}) })
	a.send(map[string]string{"kind": "withdraw"})
	if e := a.until(server.LobbyGone); e.Pool != pool {
		t.Errorf("withdrawn = %+v, want pool %s", e, pool)
	}
	a.send(map[string]string{"kind": "withdraw"})
	a.wantError(server.ENOTFOUND, "withdraw", "no open seek")
	b.conn.CloseNow()
	ts.waitLobby("no one", func(v *server.LobbyView) bool { return len(seekersIn(v, pool)) == 0 })
	// Seen by every client of the lobby: the view of a third client.
	c := ts.lobbyDial()
	for {
		if e := c.until("lobby"); e.LobbyView != nil && len(seekersIn(e.LobbyView, pool)) == 0 {
			break
		}
	}
}

// TestLobbyOneSeek: a person has one seek at a time: a second replaces
// the first, and a seek is refused while the person sits at a table.
func TestLobbyOneSeek(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	a := ts.lobbyDial()
	a.send(seek{Kind: "seek", Pool: "chaturaji/1m0s/casual", Name: "Ana"})
	a.until(server.LobbySeeking)
	a.send(seek{Kind: "seek", Pool: "chaturaji/15s/casual", Name: "Ana"})
	a.until(server.LobbySeeking)
	ts.waitLobby("Ana in the second pool alone", func(v *server.LobbyView) bool {
		return len(seekersIn(v, "chaturaji/1m0s/casual")) == 0 && slices.Equal(seekersIn(v, "chaturaji/15s/casual"), []string{"Ana"})
	})
}

// TestLobbyRefuses: bad messages, and a guest in a rated pool, are refused
// with an error that names what is wrong, and change nothing.
func TestLobbyRefuses(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	c := ts.lobbyDial()
	for _, tc := range []struct {
		msg        string
		code, echo string
		saying     string
	}{
		{`{"kind":"seek","pool":"chaturaji/15s/rated"}`, server.EUNAUTHORIZED, "seek", "sign in"},
		{`{"kind":"seek","pool":"chaturaji/15s"}`, server.EINVALID, "seek", "want RULES/TURN"},
		{`{"kind":"seek","pool":"nosuch/15s/casual"}`, server.EINVALID, "seek", "nosuch"},
		{`{"kind":"seek","pool":"chaturaji/1ms/casual"}`, server.EINVALID, "seek", "1ms"},
		{`{"kind":"seek","pool":"chaturaji/15s/casual","bot_wait_ms":-1}`, server.EINVALID, "seek", "bot_wait_ms -1"},
		{`{"kind":"seek","pool":"chaturaji/15s/casual","name":"a\u0007"}`, server.EINVALID, "seek", "name"},
		{`{"kind":"dance"}`, server.EINVALID, "dance", "unknown message kind"},
		{`{"kind":"seek","pool":"chaturaji/15s/casual","extra":1}`, server.EINVALID, "", "malformed JSON"},
		{`not json`, server.EINVALID, "", "malformed JSON"},
	} {
		c.conn.Write(t.Context(), 1, []byte(tc.msg))
		c.wantError(tc.code, tc.echo, tc.saying)
	}
	v := ts.lobbyView()
	for _, p := range v.Pools {
		if len(p.Seekers) != 0 {
			t.Errorf("pool %s lists %v after refused seeks, want none", p.Pool, p.Seekers)
		}
	}
}

// open is an open message.
type open struct {
	Kind      string   `json:"kind"`
	Rules     string   `json:"rules,omitempty"`
	TurnMS    int64    `json:"turn_ms"`
	Rated     bool     `json:"rated,omitempty"`
	MinRating float64  `json:"min_rating,omitempty"`
	MaxRating float64  `json:"max_rating,omitempty"`
	Seat      string   `json:"seat"`
	Open      []string `json:"open"`
	Name      string   `json:"name,omitempty"`
}

// tableIn returns the view's open table id, nil if it lists none.
func tableIn(v *server.LobbyView, id string) *server.TableView {
	for i := range v.Tables {
		if v.Tables[i].ID == id {
			return &v.Tables[i]
		}
	}
	return nil
}

// TestLobbyOpenTable: a player opens a table with two seats open; it is
// listed; another joins one; only the opener starts it, with a bot in the
// seat still empty and in the closed one; a table whose open seats are
// all taken starts by itself; a table whose opener leaves is gone.
func TestLobbyOpenTable(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	a, b := ts.lobbyDial(), ts.lobbyDial()
	a.send(open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"West", "North"}, Name: "Ana", MinRating: 1400, MaxRating: 1600})
	at := a.until(server.LobbyAtTable)
	if at.Seat != "South" || at.Table == nil || len(at.Table.Seats) != 4 || at.Table.Seats[0].Name != "Ana" || !at.Table.Seats[1].Open || at.Table.Seats[3].Open {
		t.Fatalf("table = %+v, want Ana at South, West and North open, East a bot's", at)
	}
	id := at.Table.ID
	ts.waitLobby("the table", func(v *server.LobbyView) bool { return tableIn(v, id) != nil })
	b.send(map[string]string{"kind": "join", "table": id, "name": "Bo"})
	if e := b.until(server.LobbyAtTable); e.Seat != "West" || e.Table.Seats[1].Name != "Bo" {
		t.Fatalf("join = %+v, want Bo at West, the first open seat", e)
	}
	b.send(map[string]string{"kind": "join", "table": id, "seat": "North"})
	b.wantError(server.ECONFLICT, "join", "already")
	b.send(map[string]string{"kind": "start"})
	b.wantError(server.ECONFLICT, "start", "only the opener")
	ts.waitLobby("Bo at West", func(v *server.LobbyView) bool {
		tv := tableIn(v, id)
		return tv != nil && tv.Seats[1].Name == "Bo"
	})
	a.send(map[string]string{"kind": "start"})
	sa, sb := a.until(server.LobbySeated), b.until(server.LobbySeated)
	if sa.Game != id || sa.Seat != "South" || sb.Seat != "West" {
		t.Fatalf("seated %+v and %+v, want game %s, South and West", sa, sb, id)
	}
	wantSeats(t, ts.store, []server.LobbyEvent{sa, sb}, 2, 15000)
	ts.waitLobby("the table gone", func(v *server.LobbyView) bool { return tableIn(v, id) == nil })

	// Full, it starts by itself.
	a.send(open{Kind: "open", Rules: "chaturanga-2p", TurnMS: 60000, Seat: "South", Open: []string{"North"}})
	id = a.until(server.LobbyAtTable).Table.ID
	b.send(map[string]string{"kind": "join", "table": id, "seat": "North"})
	sa, sb = a.until(server.LobbySeated), b.until(server.LobbySeated)
	if sa.Game != id || sb.Game != id {
		t.Fatalf("seated %+v and %+v, want game %s", sa, sb, id)
	}
	wantSeats(t, ts.store, []server.LobbyEvent{sa, sb}, 0, 60000)

	// Its opener gone, the table is gone.
	c := ts.lobbyDial()
	c.send(open{Kind: "open", TurnMS: 15000, Seat: "East", Open: []string{"West"}})
	id = c.until(server.LobbyAtTable).Table.ID
	ts.waitLobby("the third table", func(v *server.LobbyView) bool { return tableIn(v, id) != nil })
	c.conn.CloseNow()
	ts.waitLobby("the third table gone", func(v *server.LobbyView) bool { return tableIn(v, id) == nil })
}

// TestLobbyOpenTableRefuses: bad tables, rated tables for guests, a seek
// while seated, a join outside the range: refused, naming why.
func TestLobbyOpenTableRefuses(t *testing.T) {
	ts := newTestServer(t, lobbyConfig(), nil)
	a, b := ts.lobbyDial(), ts.lobbyDial()
	for _, tc := range []struct {
		msg    open
		code   string
		saying string
	}{
		{open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"West"}, Rated: true}, server.EUNAUTHORIZED, "sign in"},
		{open{Kind: "open", TurnMS: 15000, Seat: "Up", Open: []string{"West"}}, server.EINVALID, `seat "Up"`},
		{open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"South"}}, server.EINVALID, "your own"},
		{open{Kind: "open", TurnMS: 15000, Seat: "South"}, server.EINVALID, "at least one seat"},
		{open{Kind: "open", TurnMS: 5, Seat: "South", Open: []string{"West"}}, server.EINVALID, "5ms"},
		{open{Kind: "open", Rules: "nosuch", TurnMS: 15000, Seat: "South", Open: []string{"West"}}, server.EINVALID, "nosuch"},
		{open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"West"}, MinRating: 1600}, server.EINVALID, "outside the range"},
		{open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"West"}, MinRating: 1600, MaxRating: 1000}, server.EINVALID, "above max_rating"},
	} {
		a.send(tc.msg)
		a.wantError(tc.code, "open", tc.saying)
	}
	if v := ts.lobbyView(); len(v.Tables) != 0 {
		t.Fatalf("tables %+v after refused opens, want none", v.Tables)
	}
	a.send(open{Kind: "open", TurnMS: 15000, Seat: "South", Open: []string{"West"}, MaxRating: 1500})
	id := a.until(server.LobbyAtTable).Table.ID
	a.send(seek{Kind: "seek", Pool: "chaturaji/15s/casual"})
	a.wantError(server.ECONFLICT, "seek", "leave it before you seek")
	b.send(map[string]string{"kind": "join", "table": id, "seat": "North"})
	b.wantError(server.ECONFLICT, "join", "a bot's")
	b.send(map[string]string{"kind": "join", "table": "nosuch"})
	b.wantError(server.ENOTFOUND, "join", "no open table")
	b.send(seek{Kind: "seek", Pool: "chaturaji/15s/casual"})
	b.until(server.LobbySeeking)
	b.send(map[string]string{"kind": "join", "table": id})
	b.wantError(server.ECONFLICT, "join", "withdraw it")
	a.send(map[string]string{"kind": "leave"})
	if e := a.until(server.LobbyAtTable); e.Table != nil {
		t.Errorf("after leave: %+v, want a table message with no table", e)
	}
	ts.waitLobby("the table closed", func(v *server.LobbyView) bool { return tableIn(v, id) == nil })
	a.send(map[string]string{"kind": "leave"})
	a.wantError(server.ENOTFOUND, "leave", "no open table")
}

// TestLobbyClaimLeftByDeadNode: another node's round claims a table that
// seats three seekers of this server and one of its own, and dies before
// making its game; this server makes the game after LobbyClaimWait, with
// the table's id, and seats its seekers in it.
func TestLobbyClaimLeftByDeadNode(t *testing.T) {
	cfg := lobbyConfig()
	cfg.LobbyClaimWait = 300 * time.Millisecond
	ts := newTestServer(t, cfg, nil)
	dead, err := lobby.NewPairer(store.LobbyOf(ts.store), "dead", lobby.DefaultParams(nil))
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := lobby.ParsePool("chaturaji/15s/casual")
	for try := range 5 {
		var cs []*lobbyClient
		for range 3 {
			c := ts.lobbyDial()
			c.send(seek{Kind: "seek", Pool: pool.String()})
			c.until(server.LobbySeeking)
			cs = append(cs, c)
		}
		ghost := &lobby.Seek{Pool: pool, Seekers: []lobby.Seeker{{Player: fmt.Sprintf("ghost%d", try), Name: "Ghost", Guest: true, Rating: 1500, TokenHash: []byte("no one's")}}}
		if err := dead.Add(t.Context(), ghost, time.Now()); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		won, err := dead.Round(t.Context(), pool, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		var seated []server.LobbyEvent
		for _, c := range cs {
			seated = append(seated, c.until(server.LobbySeated))
		}
		if len(won) == 0 { // this server's round claimed it first: again
			continue
		}
		if want := strings.ToLower(won[0].ID); seated[0].Game != want {
			t.Fatalf("seated in game %s, want %s, the id of the table the dead node claimed", seated[0].Game, want)
		}
		if d := time.Since(start); d < cfg.LobbyClaimWait {
			t.Errorf("the game was made %v after the claim, before the claim wait of %v", d, cfg.LobbyClaimWait)
		}
		for i, e := range seated {
			if e.Game != seated[0].Game || slices.ContainsFunc(seated[:i], func(o server.LobbyEvent) bool { return o.Seat == e.Seat }) {
				t.Fatalf("seated %+v, want one game, a seat each", seated)
			}
		}
		g, err := ts.store.Game(t.Context(), seated[0].Game)
		if err != nil {
			t.Fatal(err)
		}
		if held := tokenHeld(g.Seats, []byte("no one's")); !held {
			t.Errorf("the dead node's seeker holds no seat of %+v", g.Seats)
		}
		return
	}
	t.Fatal("this server's rounds claimed every table first, five times")
}

// tokenHeld reports whether a seat is held by the token hash given.
func tokenHeld(seats []store.Seat, hash []byte) bool {
	for _, s := range seats {
		if string(s.TokenHash) == string(hash) {
			return true
		}
	}
	return false
}
