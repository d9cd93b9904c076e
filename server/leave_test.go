package server_test

import (
	"context"
	"crypto/sha256"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// TestLeave checks that a player who leaves, by POST .../actions or by
// WebSocket, gives the seat to the table's bot with the reason "left",
// said to every client and written in the record; the game goes on; the
// old token acts no more, whether by HTTP or on the socket it holds; a
// spectator cannot leave, and a leave with an action is refused.
func TestLeave(t *testing.T) {
	for _, tt := range []struct {
		name string
		ws   bool
	}{
		{"by POST .../actions", false},
		{"by WebSocket", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, testConfig(), nil)
			g := ts.create(`{"seats": ["human", "human", "bot:random", "bot:random"], "takeover": "random", "auto_pass": false}`)
			south := ts.dial(g.ID, g.Seats[0].Token, 0)
			west := ts.dial(g.ID, ts.mustClaim(g.ID, "West", g.Seats[1].Invite), 0)
			spectator := ts.dial(g.ID, "", 0)
			spectator.send(server.Message{Kind: server.KindLeave})
			spectator.wantErrorMsg(server.EUNAUTHORIZED)
			for _, bad := range []string{`{"kind": "leave", "action": "pass"}`, `{"kind": "leave", "seq": 2}`} {
				status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, bad)
				wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
			}

			// South leaves on its own turn: its king is on the board.
			st := ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.ToAct == "South" && len(s.Actions) > 0 })
			if tt.ws {
				south.send(server.Message{Kind: server.KindLeave})
			} else if status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"kind": "leave"}`); status != http.StatusOK {
				t.Fatalf("South's leave: %d %s", status, body)
			}
			seat := spectator.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
			if seat.Seat != "South" || seat.Player != "bot:random" || seat.Reason != server.ReasonLeft {
				t.Fatalf("seat event %+v: want South to bot:random, left", seat)
			}
			// The bot plays South's turn; the game goes on with West.
			spectator.until(func(e server.Event) bool {
				return e.Kind == server.KindAction && e.Seat == "South" && e.By == server.ByBot
			})
			if st := ts.state(g.ID); st.Status != "live" || st.Seats[0].Player != "bot:random" || st.Seats[1].Player != server.Human {
				t.Fatalf("after the leave: %s, seats %+v; want live, South a bot's, West a person's", st.Status, st.Seats)
			}

			// The old token acts no more, for any message.
			for _, body := range []string{`{"action": "` + st.Actions[0] + `"}`, `{"kind": "leave"}`, `{"kind": "resign"}`} {
				status, data := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, body)
				if status != http.StatusConflict && status != http.StatusUnauthorized {
					t.Errorf("South's old token sent %s: %d %s, want it refused", body, status, data)
				}
			}
			south.send(server.Message{Kind: "action", Action: st.Actions[0]})
			if e := south.until(func(e server.Event) bool { return e.Kind == server.KindError }); e.Error.Code != server.ECONFLICT && e.Error.Code != server.EUNAUTHORIZED {
				t.Errorf("an action on South's old socket: %+v, want it refused", e.Error)
			}
			if now := ts.state(g.ID); now.Seats[0].Player != "bot:random" || now.Status != "live" {
				t.Errorf("a refused message changed the game: seats %+v, %s %s", now.Seats, now.Status, now.End)
			}

			west.send(server.Message{Kind: server.KindResign})
			spectator.until(func(e server.Event) bool { return e.Kind == server.KindSeat && e.Seat == "West" })
			takeover, _ := ts.record(g.ID).Tags.Get("Takeover")
			if !strings.Contains(takeover, "South: bot:random from turn ") || !strings.Contains(takeover, "(left)") {
				t.Errorf("Takeover tag %q: want South's bot, left", takeover)
			}
		})
	}
}

// TestLeaveLastSeatWithoutRoom checks that the last person to leave a
// game when the server has no room for another game of bots alone ends
// it, aborted with no result, the reason "left"; with room the game plays
// on with bots alone.
func TestLeaveLastSeatWithoutRoom(t *testing.T) {
	for _, tt := range []struct {
		name    string
		room    bool
		wantEnd bool
	}{
		{"room for a game of bots alone: it plays on", true, false},
		{"no room: the game is aborted", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxBotGamesPerClient = 1
			cfg.MaxBotDelay = time.Hour
			ts := newTestServer(t, cfg, nil)
			if !tt.room { // the quota's one game of bots alone, held by its delay
				ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"], "bot_delay_ms": 3600000}`)
			}
			g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "takeover": "random", "bot_delay_ms": 3600000}`)
			spectator := ts.dial(g.ID, "", 0)
			status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"kind": "leave"}`)
			if status != http.StatusOK {
				t.Fatalf("South's leave: %d %s", status, body)
			}
			e := spectator.until(func(e server.Event) bool { return e.Kind == server.KindSeat || e.Kind == server.KindEnd })
			st := ts.state(g.ID)
			switch {
			case tt.wantEnd && (e.Kind != server.KindEnd || e.End != server.EndAborted || e.Reason != server.ReasonLeft || e.Result != "*" || st.Status != "finished"):
				t.Errorf("event %+v, state %s: want the game aborted, reason left", e, st.Status)
			case !tt.wantEnd && (e.Kind != server.KindSeat || e.Reason != server.ReasonLeft || st.Status != "live"):
				t.Errorf("event %+v, state %s: want South's seat a bot's, the game live", e, st.Status)
			}
		})
	}
}

// TestFullSpeedOnceNobodyPlays plays a game whose one person, South, is
// down to a lone king at a table with a bot delay of a second: while
// South plays the bots keep the delay; once South's king retires (the
// person is out of play, and watches) the bots play the game out at once,
// far faster than the delay would let them, and the person's socket
// still receives every event, in order. The game is made from a position
// (the API has no way to), written into the store as the server writes a
// new game, before the server starts and takes it up.
func TestFullSpeedOnceNobodyPlays(t *testing.T) {
	const (
		delay = time.Second
		// South has its king alone; West is to roll.
		start = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/6rPrH/3bK2rPrB y - 0,0,0,0 0"
		token = "the-token-of-south-in-this-test"
	)
	st := openStore(t, "")
	seed := rules.NewSeed()
	hash := sha256.Sum256([]byte(token))
	now := time.Now().UTC().Truncate(time.Millisecond)
	err := st.CreateGame(context.Background(), &store.Game{
		ID: "lonekingsouth", Rules: "chaturaji", Seed: seed[:], SeedHash: seed.Commitment(), Start: start,
		Seats:    []store.Seat{{Player: server.Human, Name: "ann", TokenHash: hash[:]}, {Player: "bot:greedy"}, {Player: "bot:greedy"}, {Player: "bot:greedy"}},
		Settings: []byte(`{"turn_ms": 0, "on_timeout": "pass", "help": true, "abandon_ms": 3600000, "takeover": "greedy", "auto_pass": true, "bot_delay_ms": 1000, "rated": false, "hosts": [0]}`),
		Status:   store.Live, Created: now, Updated: now,
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.MaxGrace = time.Hour
	ts := newTestServer(t, cfg, st)
	south := ts.dial("lonekingsouth", token, 0)
	turn := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
	bots := 0
	for i, e := range south.events[1:] {
		if e.Kind == server.KindAction {
			bots++
			if gap := e.At.Sub(south.events[i].At); gap < delay {
				t.Errorf("while South plays, %s's %s came %v after the event before it: want the delay, %v", e.Seat, e.Action, gap, delay)
			}
		}
	}
	if bots == 0 || slices.Contains(turn.OutOfPlay, "South") {
		t.Fatalf("before South's turn: %d bot actions, out of play %v; want some, and South in play", bots, turn.OutOfPlay)
	}
	if !slices.Contains(turn.Actions, "retire") {
		t.Fatalf("South's lone king may not retire: actions %v", turn.Actions)
	}
	south.send(server.Message{Kind: "action", Action: "retire", Seq: turn.Seq})
	retired := south.until(func(e server.Event) bool { return e.Kind == server.KindAction && e.Seat == "South" })
	if !slices.Contains(retired.OutOfPlay, "South") {
		t.Errorf("after South's king retired, out of play %v: want South", retired.OutOfPlay)
	}
	// At the delay, the rest of the game would take a second an action.
	limit := time.Now().Add(60 * time.Second)
	var end server.Event
	for end.Kind != server.KindEnd {
		if time.Now().After(limit) {
			t.Fatalf("a minute after South retired the game is not over: %d events since, at about one a second", south.lastSeq()-retired.Seq)
		}
		end = south.next()
	}
	actions := 0
	for _, e := range south.events {
		if e.Seq > retired.Seq && e.Kind == server.KindAction {
			actions++
		}
	}
	// Three armies are left: two kings at least must fall before the end.
	took := end.At.Sub(retired.At)
	if actions < 2 || took > time.Duration(actions)*delay/4 {
		t.Errorf("after South retired, %d bot actions took %v: want them at once, not %v each", actions, took, delay)
	}
	t.Logf("after South retired: %d bot actions in %v", actions, took)
}
