package server_test

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

const fourHumans = `{"rules": "chaturaji", "seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "names": ["ann", "bob", "cy", "di"]}`

// TestFullGame plays a whole game with four scripted WebSocket clients and
// a spectator, and checks that everyone saw the same events, that the state
// and the record agree with them, and that the dice follow from the seed
// revealed at the end.
func TestFullGame(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	if len(g.Seats) != 4 || g.SeedHash == "" || len(g.SeedHash) != 64 {
		t.Fatalf("created %+v", g)
	}
	for _, s := range g.Seats {
		if len(s.Token) != 22 {
			t.Fatalf("seat %s: token %q, want 22 base64url characters (128 bits)", s.Seat, s.Token)
		}
	}
	spectator := ts.dial(g.ID, "", 0)
	clients := make([]*client, 4)
	for i, s := range g.Seats {
		clients[i] = ts.dial(g.ID, s.Token, 0)
		if clients[i].hello.Seat != s.Seat {
			t.Fatalf("hello %+v, want seat %s", clients[i].hello, s.Seat)
		}
	}
	errs := make(chan error, 4)
	for i, c := range clients {
		go func() { errs <- c.playUntilOver(rand.New(rand.NewPCG(uint64(i), 7))) }()
	}
	for range clients {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	end := spectator.until(func(e server.Event) bool { return e.Kind == server.KindEnd })
	if spectator.closed() != 1000 {
		t.Errorf("spectator closed with %v, want 1000 (game over)", spectator.closed())
	}
	for _, c := range clients {
		eventsEqual(t, c.events, spectator.events)
	}
	evs := spectator.events
	if evs[0].Seq != 1 || evs[0].Kind != server.KindStart || evs[0].SeedHash != g.SeedHash {
		t.Fatalf("first event %+v", evs[0])
	}
	if len(end.Ranks) != 4 || end.Seed == "" || end.Result == "" {
		t.Fatalf("end event %+v", end)
	}

	st := ts.state(g.ID)
	if st.Status != "finished" || st.Seq != end.Seq || st.Position != end.Position || st.Seed != end.Seed || st.Result != end.Result {
		t.Fatalf("state %+v\nend %+v", st, end)
	}

	r := ts.record(g.ID)
	if seed, _ := r.Tags.Get("Seed"); seed != end.Seed {
		t.Fatalf("record's seed %q, want %q", seed, end.Seed)
	}
	if v, _ := r.Tags.Get("South"); v != "ann" {
		t.Errorf("South tag %q, want ann", v)
	}
	game, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.VerifyDice(); err != nil {
		t.Fatal(err)
	}
	if game.Position().String() != end.Position {
		t.Fatalf("record replays to %s, want %s", game.Position(), end.Position)
	}
	rolls, actions := 0, 0
	for _, e := range evs {
		switch e.Kind {
		case server.KindRoll:
			rolls++
		case server.KindAction:
			actions++
		}
	}
	turnActions := 0
	for _, turn := range r.Turns {
		turnActions += len(turn.Actions)
	}
	if rolls != len(r.Turns) || actions != turnActions {
		t.Fatalf("events: %d rolls, %d actions; record: %d turns, %d actions", rolls, actions, len(r.Turns), turnActions)
	}
}

// TestLiveRecordHidesSeed checks that a live game's record shows the
// seed's hash but not the seed.
func TestLiveRecordHidesSeed(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	_, body := ts.request("GET", "/api/games/"+g.ID+"/record", "", "")
	text := string(body)
	if strings.Contains(text, "[Seed ") || !strings.Contains(text, `[SeedHash "`+g.SeedHash+`"]`) || !strings.Contains(text, `[Result "*"]`) {
		t.Fatalf("live record:\n%s", text)
	}
}

// TestHTTPActions plays a game through POST .../actions alone, as a simple
// bot would, and checks each answer is the state after the action.
func TestHTTPActions(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	tokens := map[string]string{}
	for _, s := range g.Seats {
		tokens[s.Seat] = s.Token
	}
	rng := rand.New(rand.NewPCG(1, 2))
	st := ts.state(g.ID)
	for n := 0; st.Status == "live"; n++ {
		if n > 5000 {
			t.Fatal("game too long")
		}
		a := st.Actions[rng.IntN(len(st.Actions))]
		status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", tokens[st.ToAct],
			`{"action": "`+a+`", "seq": `+itoa(st.Seq)+`}`)
		if status != http.StatusOK {
			t.Fatalf("action %s: %d %s", a, status, body)
		}
		next := ts.state(g.ID)
		if next.Seq <= st.Seq {
			t.Fatalf("after %s: seq %d, was %d", a, next.Seq, st.Seq)
		}
		st = next
	}
	if len(st.Ranks) != 4 || st.Seed == "" {
		t.Fatalf("final state %+v", st)
	}
}

// TestList checks that GET /api/games lists live and finished games.
func TestList(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	live := ts.create(fourHumans)
	done := ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`)
	ts.waitState(done.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", []string{done.ID, live.ID}},
		{"?status=live", []string{live.ID}},
		{"?status=finished", []string{done.ID}},
		{"?limit=1", []string{done.ID}},
	} {
		status, body := ts.request("GET", "/api/games"+c.query, "", "")
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.query, status, body)
		}
		for _, id := range c.want {
			if !strings.Contains(string(body), id) {
				t.Errorf("GET /api/games%s does not list %s: %s", c.query, id, body)
			}
		}
		if c.query == "?limit=1" && strings.Contains(string(body), live.ID) {
			t.Errorf("limit=1 lists two games: %s", body)
		}
	}
	status, body := ts.request("GET", "/api/games?status=lost", "", "")
	wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
}

// TestFinishedGame checks what clients of a game that is over get: a
// WebSocket's hello shows the final position, and the events after the
// client's last follow, then the connection closes normally; acting is
// refused as too late for the seat's holder and as unauthorized for
// anyone else.
func TestFinishedGame(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "abandon_ms": 10, "takeover": "random"}`)
	st := ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	for _, after := range []int64{0, st.Seq - 3, st.Seq} {
		c := ts.dial(g.ID, g.Seats[0].Token, after)
		h := c.hello
		if h.Last != st.Seq || h.Status != "finished" || h.Position != st.Position || h.Dice != st.Dice ||
			!slicesEqual(h.Scores, st.Scores) || h.ToAct != "" || len(h.Actions) != 0 || h.Seat != "South" {
			t.Fatalf("after=%d: hello %+v, want the final state %+v", after, h, st)
		}
		for int64(len(c.events)) < st.Seq-after {
			c.next()
		}
		if len(c.events) > 0 && (c.events[0].Seq != after+1 || c.lastSeq() != st.Seq) {
			t.Fatalf("after=%d: events %d to %d, want %d to %d", after, c.events[0].Seq, c.lastSeq(), after+1, st.Seq)
		}
		if s := c.closed(); s != websocket.StatusNormalClosure {
			t.Fatalf("after=%d: closed with %v, want 1000", after, s)
		}
	}
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "pass"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	status, body = ts.request("POST", "/api/games/"+g.ID+"/actions", "AAAAAAAAAAAAAAAAAAAAAA", `{"action": "pass"}`)
	wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
	status, body = ts.request("POST", "/api/games/"+g.ID+"/actions", "", `{"action": "pass"}`)
	wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
}

// TestStateKeepsUpWithEvents checks that a client that hears of an event
// and then asks for the game's state finds the event there: the state is
// never behind what was broadcast, and once the end is heard the game is
// finished, its seed revealed.
func TestStateKeepsUpWithEvents(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for game := range 3 {
		g := ts.create(fourHumans)
		spectator := ts.dial(g.ID, "", 0)
		errs := make(chan error, 4)
		for i, s := range g.Seats {
			c := ts.dial(g.ID, s.Token, 0)
			go func() { errs <- c.playUntilOver(rand.New(rand.NewPCG(uint64(game), uint64(i)))) }()
		}
		for {
			e := spectator.next()
			if e.Seq == 0 {
				continue
			}
			st := ts.state(g.ID)
			if st.Seq < e.Seq {
				t.Fatalf("heard event %d (%s), then the state is at event %d", e.Seq, e.Kind, st.Seq)
			}
			if e.Kind == server.KindEnd {
				if st.Status != "finished" || st.Seed == "" {
					t.Fatalf("heard the end, then the state says %q with seed %q", st.Status, st.Seed)
				}
				break
			}
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
}
