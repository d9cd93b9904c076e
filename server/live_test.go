package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// step plays one random legal action for the seat to act, over HTTP, and
// returns the state after it.
func (ts *testServer) step(id string, tokens map[string]string, rng *rand.Rand) *server.State {
	ts.t.Helper()
	st := ts.state(id)
	if st.Status != "live" || len(st.Actions) == 0 {
		ts.t.Fatalf("no action to play: %+v", st)
	}
	a := st.Actions[rng.IntN(len(st.Actions))]
	status, body := ts.request("POST", "/api/games/"+id+"/actions", tokens[st.ToAct], `{"action": "`+a+`", "seq": `+itoa(st.Seq)+`}`)
	if status != http.StatusOK {
		ts.t.Fatalf("action %s: %d %s", a, status, body)
	}
	return ts.state(id)
}

func tokensOf(g *server.Created) map[string]string {
	m := map[string]string{}
	for _, s := range g.Seats {
		m[s.Seat] = s.Token
	}
	return m
}

// TestReconnect checks that a client that reconnects with its last event
// number gets exactly the events it missed, then the live ones, with no
// gap and no duplicate.
func TestReconnect(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	tokens := tokensOf(g)
	rng := rand.New(rand.NewPCG(3, 4))
	spectator := ts.dial(g.ID, "", 0)
	south := ts.dial(g.ID, tokens["South"], 0)
	st := ts.step(g.ID, tokens, rng)
	for south.lastSeq() < st.Seq {
		south.next()
	}
	seen := south.lastSeq()
	south.conn.Close(websocket.StatusNormalClosure, "")
	for range 10 {
		st = ts.step(g.ID, tokens, rng)
	}
	back := ts.dial(g.ID, tokens["South"], seen)
	if h := back.hello; h.Last != st.Seq || h.Position != st.Position || h.ToAct != st.ToAct || !slicesEqual(h.Actions, st.Actions) {
		t.Fatalf("hello %+v, want the state at event %d: %+v", h, st.Seq, st)
	}
	for back.lastSeq() < st.Seq {
		back.next()
	}
	for spectator.lastSeq() < st.Seq {
		spectator.next()
	}
	if back.events[0].Seq != seen+1 {
		t.Fatalf("first event after reconnecting: %d, want %d", back.events[0].Seq, seen+1)
	}
	eventsEqual(t, back.events, spectator.events[seen:])
	// Then the live events follow on, with nothing repeated.
	st = ts.step(g.ID, tokens, rng)
	e := back.next()
	if e.Seq != seen+int64(len(back.events)) || back.lastSeq() > st.Seq {
		t.Fatalf("next live event %d after %d", e.Seq, seen+int64(len(back.events))-1)
	}
}

// TestBotsAlone plays a game of four bots to the end, with no client.
func TestBotsAlone(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["bot:random", "bot:greedy", "bot:1", "bot:strong"]}`)
	st := ts.waitState(g.ID, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	if len(st.Ranks) != 4 || st.Seed == "" {
		t.Fatalf("final state %+v", st)
	}
	checkRecord(t, ts, g.ID, st)
}

// checkRecord checks a finished game's record: it replays to the final
// position and its dice follow from its seed.
func checkRecord(t *testing.T, ts *testServer, id string, st *server.State) *record.Record {
	t.Helper()
	r := ts.record(id)
	game, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.VerifyDice(); err != nil {
		t.Fatal(err)
	}
	if st != nil && game.Position().String() != st.Position {
		t.Fatalf("record replays to %s, want %s", game.Position(), st.Position)
	}
	return r
}

// TestBotsDoNotBlock checks that a game of humans goes on at once while
// other games' strong bots think.
func TestBotsDoNotBlock(t *testing.T) {
	cfg := testConfig()
	cfg.BotTime = 500 * time.Millisecond
	cfg.BotWorkers = 1
	ts := newTestServer(t, cfg, nil)
	for range 3 {
		ts.create(`{"seats": ["bot:strong", "bot:strong", "bot:strong", "bot:strong"]}`)
	}
	g := ts.create(fourHumans)
	tokens := tokensOf(g)
	rng := rand.New(rand.NewPCG(5, 6))
	start := time.Now()
	for range 20 {
		ts.step(g.ID, tokens, rng)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("20 actions took %v while bots thought", d)
	}

	// Quick bots do not queue behind the searches: a human's turn comes
	// back at once after three random bots.
	g = ts.create(`{"seats": ["human", "bot:random", "bot:greedy", "bot:level:random"], "auto_pass": false}`)
	tokens = tokensOf(g)
	// The bots may end the game early (greedy takes kings at once), or
	// take South's king, after which South never acts again.
	southOut := func(s *server.State) bool {
		board, _, _ := strings.Cut(s.Position, " ")
		return !strings.Contains(board, "bK")
	}
	start = time.Now()
	for range 5 {
		st := ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool {
			return s.ToAct == "South" && len(s.Actions) > 0 || s.Status != "live" || southOut(s)
		})
		if st.Status != "live" || southOut(st) {
			break
		}
		ts.step(g.ID, tokens, rng)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("5 rounds against quick bots took %v while strong bots thought", d)
	}
}

// TestAbandoned checks that a bot takes a human seat whose holder is away
// for the table's grace, and plays on.
func TestAbandoned(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	// The grace runs from the game's creation, which nobody holding South
	// has joined: the time is counted from before it, not from the
	// spectator's dial, which a loaded machine may take 200 ms over.
	start := time.Now()
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "abandon_ms": 300, "takeover": "random"}`)
	spectator := ts.dial(g.ID, "", 0)
	e := spectator.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("seat taken after %v, before the grace of 300ms", d)
	}
	if e.Seat != "South" || e.Player != "bot:random" || e.Reason != server.ReasonAbandoned {
		t.Fatalf("seat event %+v", e)
	}
	spectator.until(func(e server.Event) bool {
		return e.Kind == server.KindAction && e.Seat == "South" && e.By == server.ByBot
	})
	st := ts.state(g.ID)
	if st.Seats[0].Player != "bot:random" {
		t.Fatalf("seat %+v", st.Seats[0])
	}
	// The former holder can no longer act.
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "pass"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
}

// playThenTimeOut plays n random actions, then lets the seat to act run
// out of time, and returns that seat once the takeover bot has acted for
// it.
func (ts *testServer) playThenTimeOut(id string, tokens map[string]string, rng *rand.Rand, n int) string {
	ts.t.Helper()
	for range n {
		ts.step(id, tokens, rng)
	}
	late := ts.state(id).ToAct
	spectator := ts.dial(id, "", 0)
	spectator.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
	spectator.until(func(e server.Event) bool { return e.Kind == server.KindAction && e.Seat == late })
	return late
}

// TestTakeoverInRecord checks that a game's record says which seats bots
// took and from which turn, and still names the seats' first players: while
// the game goes on, after a restart (the record rebuilt from the store) and
// once it is over.
func TestTakeoverInRecord(t *testing.T) {
	path := t.TempDir() + "/games.db"
	ts := newTestServer(t, testConfig(), openStore(t, path))
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "names": ["Ann", "", "Bo", ""], "turn_ms": 1000, "on_timeout": "bot", "takeover": "random", "auto_pass": false}`)
	tokens := tokensOf(g)
	rng := rand.New(rand.NewPCG(11, 12))
	const played = 5 // turns, of one action each in this preset
	late := ts.playThenTimeOut(g.ID, tokens, rng, played)

	want := map[string]string{"South": "Ann", "West": "human", "North": "Bo", "East": "human",
		"Takeover": late + ": bot:random from turn " + itoa(played+1) + " (timeout)"}
	check := func(when string, r *record.Record) {
		t.Helper()
		for name, value := range want {
			if got, _ := r.Tags.Get(name); got != value {
				t.Errorf("%s: tag %s is %q, want %q", when, name, got, value)
			}
		}
		if len(r.Turns) <= played || r.Turns[played].Seat.String() != late {
			t.Errorf("%s: turn %d is not %s's: %v", when, played+1, late, r.Turns)
		}
	}
	check("live", ts.record(g.ID))

	ts.stop()
	ts2 := newTestServer(t, testConfig(), openStore(t, path))
	check("after a restart", ts2.record(g.ID))

	// The humans play the game out; the bot plays its seat.
	for {
		st := ts2.waitState(g.ID, 10*time.Second, func(s *server.State) bool {
			return s.Status != "live" || s.ToAct != late && len(s.Actions) > 0
		})
		if st.Status != "live" {
			break
		}
		ts2.step(g.ID, tokens, rng)
	}
	check("over", checkRecord(t, ts2, g.ID, nil))
}

// TestTakeoverDiceless checks the Takeover tag's turn without dice, where
// no roll opens a turn group: the bot's first action opens the next one.
func TestTakeoverDiceless(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"rules": "chaturanga-2p", "seats": ["human", "human"], "host_seats": ["South", "North"], "turn_ms": 1000, "on_timeout": "bot", "takeover": "random"}`)
	const played = 3
	late := ts.playThenTimeOut(g.ID, tokensOf(g), rand.New(rand.NewPCG(13, 14)), played)
	r := ts.record(g.ID)
	if got, _ := r.Tags.Get("Takeover"); got != late+": bot:random from turn "+itoa(played+1)+" (timeout)" {
		t.Errorf("Takeover %q, after %d turns", got, played)
	}
	if len(r.Turns) <= played || r.Turns[played].Seat.String() != late {
		t.Errorf("turn %d is not %s's: %v", played+1, late, r.Turns)
	}
}

// TestConnectedNotAbandoned checks that a connected player keeps the seat
// past the grace.
func TestConnectedNotAbandoned(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "abandon_ms": 100, "auto_pass": false}`)
	for _, s := range g.Seats {
		ts.dial(g.ID, s.Token, 0)
	}
	time.Sleep(400 * time.Millisecond)
	st := ts.state(g.ID)
	if st.Seq != 2 || st.Seats[0].Player != "human" || st.Seats[0].Online == nil || !*st.Seats[0].Online {
		t.Fatalf("state %+v", st)
	}
}

// TestTimeout checks both policies for a player out of time: the seat
// passes (or the server moves for it), or a bot takes it.
func TestTimeout(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	t.Run("pass", func(t *testing.T) {
		g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "turn_ms": 200, "auto_pass": false}`)
		south := ts.dial(g.ID, g.Seats[0].Token, 0)
		roll := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
		if roll.Deadline == nil || roll.Deadline.Sub(roll.At) != 200*time.Millisecond {
			t.Fatalf("event %+v: want a deadline 200ms after it", roll)
		}
		e := south.until(func(e server.Event) bool { return e.Kind == server.KindAction })
		if e.Seat != "South" || e.By != server.ByTimeout || e.Reason != server.ReasonTimeout {
			t.Fatalf("action %+v, want South's by timeout, saying so", e)
		}
		if late := time.Since(*roll.Deadline); late < 0 {
			t.Fatalf("played %v before the deadline", -late)
		}
		// The seat stays the player's: its next turn has a deadline again.
		next := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
		if next.Deadline == nil || ts.state(g.ID).Seats[0].Player != "human" {
			t.Fatalf("next turn %+v", next)
		}
	})
	t.Run("bot", func(t *testing.T) {
		g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "turn_ms": 200, "on_timeout": "bot", "takeover": "random", "auto_pass": false}`)
		south := ts.dial(g.ID, g.Seats[0].Token, 0)
		e := south.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
		if e.Seat != "South" || e.Reason != server.ReasonTimeout || e.Player != "bot:random" {
			t.Fatalf("seat event %+v", e)
		}
		south.until(func(e server.Event) bool {
			return e.Kind == server.KindAction && e.Seat == "South" && e.By == server.ByBot
		})
	})
	t.Run("in time", func(t *testing.T) {
		g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 5000, "auto_pass": false}`)
		st := ts.state(g.ID)
		status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "`+st.Actions[0]+`"}`)
		if status != http.StatusOK {
			t.Fatalf("%d %s", status, body)
		}
	})
}

// TestRestart stops a server in the middle of games, starts another on the
// same database, and checks that every game goes on where it was: the same
// events, its bots playing, and its deadline kept, moved on by the time no
// server ran the game.
func TestRestart(t *testing.T) {
	path := t.TempDir() + "/games.db"
	ts := newTestServer(t, testConfig(), openStore(t, path))
	humans := ts.create(fourHumans)
	tokens := tokensOf(humans)
	timed := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 1500, "auto_pass": false}`)
	rng := rand.New(rand.NewPCG(7, 8))
	for range 15 {
		ts.step(humans.ID, tokens, rng)
	}
	before, beforeTimed := ts.state(humans.ID), ts.state(timed.ID)
	spectator := ts.dial(humans.ID, "", 0)
	for spectator.lastSeq() < before.Seq {
		spectator.next()
	}
	stopped := time.Now()
	ts.stop()
	if s := spectator.closed(); s != websocket.StatusGoingAway {
		t.Fatalf("spectator closed with %v, want going away", s)
	}

	ts2 := newTestServer(t, testConfig(), openStore(t, path))
	after := ts2.state(humans.ID)
	sameState(t, before, after)
	back := ts2.dial(humans.ID, "", 0)
	for back.lastSeq() < after.Seq {
		back.next()
	}
	eventsEqual(t, back.events, spectator.events)
	afterTimed := ts2.state(timed.ID)
	down := time.Since(stopped)
	if afterTimed.Deadline == nil || afterTimed.Deadline.Before(*beforeTimed.Deadline) || afterTimed.Deadline.After(beforeTimed.Deadline.Add(down)) {
		t.Fatalf("deadline %v after the restart, %v before, %v down", afterTimed.Deadline, beforeTimed.Deadline, down)
	}
	// The timed game's deadline passes: the server plays for South.
	ts2.waitState(timed.ID, 5*time.Second, func(s *server.State) bool { return s.Seq > afterTimed.Seq })
	if time.Now().Before(*afterTimed.Deadline) {
		t.Fatal("moved before the deadline")
	}
	for ts2.state(humans.ID).Status == "live" {
		ts2.step(humans.ID, tokens, rng)
	}
	checkRecord(t, ts2, humans.ID, ts2.state(humans.ID))
}

// TestPages checks /healthz and /metrics.
func TestPages(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	ts.step(g.ID, tokensOf(g), rand.New(rand.NewPCG(1, 1)))
	ts.dial(g.ID, "", 0)
	for _, c := range []struct{ path, want string }{
		{"/healthz", "ok"},
		{"/metrics", "chaturaji_games_live 1\n"},
		{"/metrics", "chaturaji_games_total 1\n"},
		{"/metrics", "chaturaji_actions_total "},
		{"/metrics", "chaturaji_ws_connections 1\n"},
		{"/metrics", `chaturaji_action_latency_seconds_bucket{le="+Inf"} 1`},
		{"/metrics", "process_resident_memory_bytes "},
		{"/metrics", "go_memory_classes_total_bytes "},
	} {
		status, body := ts.request("GET", c.path, "", "")
		if status != http.StatusOK || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d, want %q in:\n%s", c.path, status, c.want, body)
		}
	}
}

// TestShutdownRefuses checks that a server shutting down refuses new games
// and says so on /healthz.
func TestShutdownRefuses(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	status, body := ts.request("POST", "/api/games", "", fourHumans)
	wantError(t, status, body, http.StatusServiceUnavailable, server.EUNAVAILABLE)
	if status, _ := ts.request("GET", "/healthz", "", ""); status != http.StatusServiceUnavailable {
		t.Fatalf("healthz: %d", status)
	}
}

// TestAllowedOrigin checks that an allowed origin may act and connect from
// a browser, where others may not.
func TestAllowedOrigin(t *testing.T) {
	cfg := testConfig()
	cfg.Origins = []string{"https://client.example/"} // as people write it
	ts := newTestServer(t, cfg, nil)
	status, body := ts.request("POST", "/api/games", "", fourHumans, "Origin", "https://client.example", "Sec-Fetch-Site", "cross-site")
	if status != http.StatusCreated {
		t.Fatalf("create from an allowed origin: %d %s", status, body)
	}
	var g server.Created
	json.Unmarshal(body, &g)
	if _, err := ts.tryDial(g.ID, g.Seats[0].Token, 0, http.Header{"Origin": {"https://client.example"}}); err != nil {
		t.Fatalf("WebSocket from an allowed origin: %v", err)
	}
	status, body = ts.request("POST", "/api/games", "", fourHumans, "Origin", "https://other.example", "Sec-Fetch-Site", "cross-site")
	wantError(t, status, body, http.StatusForbidden, server.EFORBIDDEN)
}

// TestStoreDown checks that when the database fails, a new game and an
// action are refused as unavailable: nothing is acknowledged that is not
// saved.
func TestStoreDown(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(fourHumans)
	st := ts.state(g.ID)
	ts.store.Close()
	status, body := ts.request("POST", "/api/games", "", fourHumans)
	wantError(t, status, body, http.StatusServiceUnavailable, server.EUNAVAILABLE)
	status, body = ts.request("POST", "/api/games/"+g.ID+"/actions", tokensOf(g)[st.ToAct], `{"action": "`+st.Actions[0]+`"}`)
	wantError(t, status, body, http.StatusServiceUnavailable, server.EUNAVAILABLE)
}

// TestCreateWhileShuttingDown creates games while the server shuts down:
// each game is either refused, with nothing stored, or stored with its
// start and first roll, to go on when the server restarts.
func TestCreateWhileShuttingDown(t *testing.T) {
	for round := range 20 {
		st := openStore(t, "")
		ts := newTestServer(t, testConfig(), st)
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", ts.URL+"/api/games", strings.NewReader(fourHumans))
				req.Header.Set("Content-Type", "application/json")
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
			}()
		}
		time.Sleep(time.Duration(round) * 200 * time.Microsecond)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		wg.Wait()
		games, err := st.Games(context.Background(), store.Filter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if g.LastEvent < 2 {
				t.Fatalf("round %d: game %s stored with %d events, not started", round, g.ID, g.LastEvent)
			}
		}
	}
}

// TestLogs checks the structured logs, in JSON as `chaturaji serve
// --log-json` writes them: a game created, a bot taking an abandoned seat
// (named as the API names it) and the game over.
func TestLogs(t *testing.T) {
	var buf lockedBuffer
	ts := newTestServerLogged(t, testConfig(), nil, slog.New(slog.NewJSONHandler(&buf, nil)))
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "abandon_ms": 50, "takeover": "random"}`)
	ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	want := map[string]bool{"game created": false, "bot takes seat": false, "game over": false}
	for line := range strings.Lines(buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		msg, _ := rec["msg"].(string)
		if _, ok := want[msg]; !ok || rec["game"] != g.ID {
			continue
		}
		want[msg] = true
		if msg == "bot takes seat" && (rec["seat"] != "South" || rec["reason"] != server.ReasonAbandoned || rec["bot"] != "bot:random") {
			t.Errorf("log %s", line)
		}
	}
	for msg, seen := range want {
		if !seen {
			t.Errorf("no %q in the log:\n%s", msg, buf.String())
		}
	}
}

// lockedBuffer is a buffer safe for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
