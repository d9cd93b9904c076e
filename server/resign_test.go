package server_test

import (
	"crypto/ed25519"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
)

// TestResign checks that a player who resigns off its turn leaves the
// seat to the table's bot, which plays on, with the reason said to every
// client and written in the record; the token acts no more; a spectator
// cannot resign.
func TestResign(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"seats": ["human", "human", "bot:random", "bot:random"], "names": ["ann"], "takeover": "random", "auto_pass": false}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	west := ts.dial(g.ID, ts.mustClaim(g.ID, "West", g.Seats[1].Invite), 0)
	spectator := ts.dial(g.ID, "", 0)
	spectator.send(server.Message{Kind: server.KindResign})
	spectator.wantErrorMsg(server.EUNAUTHORIZED)

	// West resigns while South decides.
	south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
	west.send(server.Message{Kind: server.KindResign})
	seat := spectator.until(func(e server.Event) bool { return e.Kind == server.KindSeat })
	if seat.Seat != "West" || seat.Player != "bot:random" || seat.Reason != server.ReasonResigned {
		t.Fatalf("seat event %+v: want West to bot:random, resigned", seat)
	}
	st := ts.state(g.ID)
	if st.Seats[1].Player != "bot:random" || st.ToAct != "South" {
		t.Fatalf("after the resign: seats %+v, %s to act; want West a bot's, South still to act", st.Seats, st.ToAct)
	}
	west.send(server.Message{Kind: server.KindResign})
	west.wantErrorMsg(server.ECONFLICT)
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", "", `{"kind": "resign"}`)
	wantError(t, status, body, http.StatusUnauthorized, server.EUNAUTHORIZED)
	for _, bad := range []string{`{"kind": "resign", "action": "pass"}`, `{"kind": "abort", "seq": 2}`, `{"kind": "concede"}`} {
		status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, bad)
		wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
	}
	// South plays on; the bot plays West's turns.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		st := ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Status != "live" || s.ToAct == "South" })
		if st.Status != "live" {
			break
		}
		a := st.Actions[rng.IntN(len(st.Actions))]
		status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "`+a+`", "seq": `+itoa(st.Seq)+`}`)
		if status != http.StatusOK {
			t.Fatalf("South's %s: %d %s", a, status, body)
		}
	}
	takeover, _ := ts.record(g.ID).Tags.Get("Takeover")
	if !strings.HasPrefix(takeover, "West: bot:random from turn ") || !strings.HasSuffix(takeover, " (resigned)") {
		t.Errorf("Takeover tag %q: want West's bot, resigned", takeover)
	}
}

// TestResignRetires checks that a lone king resigns by the rules' own
// retire, at its decision: the army leaves the board and the seat stays
// its holder's. Four players steer games until South is left with its
// king alone.
func TestResignRetires(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	rng := rand.New(rand.NewPCG(5, 6))
	for games := 0; ; games++ {
		if games == 30 {
			t.Fatal("30 games without a lone king of South")
		}
		g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "auto_pass": false}`)
		tokens := tokensOf(g)
		st := ts.state(g.ID)
		for st.Status == "live" && !(st.ToAct == "South" && slices.Contains(st.Actions, "retire")) {
			a := hound(st, rng)
			status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", tokens[st.ToAct], `{"action": "`+a+`", "seq": `+itoa(st.Seq)+`}`)
			if status != http.StatusOK {
				t.Fatalf("%s's %s: %d %s", st.ToAct, a, status, body)
			}
			st = ts.state(g.ID)
		}
		if st.Status != "live" {
			continue
		}
		c := ts.dial(g.ID, tokens["South"], st.Seq)
		c.send(server.Message{Kind: server.KindResign})
		e := c.until(func(e server.Event) bool { return e.Seq > st.Seq })
		if e.Kind != server.KindAction || e.Seat != "South" || e.Action != "retire" || e.By != server.ByPlayer {
			t.Fatalf("South's resign as a lone king is %+v, want its retire", e)
		}
		if after := ts.state(g.ID); after.Seats[0].Player != "human" || strings.Contains(strings.Fields(after.Position)[0], "bK") {
			t.Fatalf("after the retire: South played by %s, position %s; want South's king gone, its seat its own", after.Seats[0].Player, after.Position)
		}
		t.Logf("South's lone king retired after %d games", games+1)
		return
	}
}

// hound picks an action that takes South's army apart: the others capture
// South's pieces but its king, South captures nothing, and nobody takes a
// king.
func hound(st *server.State, rng *rand.Rand) string {
	board := boardOf(st.Position)
	var best, quiet []string
	for _, a := range st.Actions {
		target := ""
		if len(a) >= 4 && a[2] >= 'a' && a[2] <= 'h' {
			target = board[a[2:4]]
		}
		switch {
		case target == "":
			quiet = append(quiet, a)
		case st.ToAct != "South" && target[0] == 'b' && target[1] != 'K':
			best = append(best, a)
		case target[1] != 'K' && st.ToAct != "South":
			quiet = append(quiet, a)
		}
	}
	for _, list := range [][]string{best, quiet, st.Actions} {
		if len(list) > 0 {
			return list[rng.IntN(len(list))]
		}
	}
	return ""
}

// boardOf reads the pieces of a position by square, as "bK".
func boardOf(pos string) map[string]string {
	out := map[string]string{}
	field, _, _ := strings.Cut(pos, " ")
	for i, rank := range strings.Split(field, "/") {
		f := 0
		for j := 0; j < len(rank); {
			if c := rank[j]; c >= '1' && c <= '8' {
				f += int(c - '0')
				j++
				continue
			}
			if j+1 < len(rank) {
				out[string(rune('a'+f))+string(rune('8'-i))] = rank[j : j+2]
			}
			f++
			j += 2
		}
	}
	return out
}

// TestAbort checks the abort of a game in its first round: any holder of
// a human seat may call it off until every human seat has played an
// action of its own; the game then ends with no result, every client is
// told, and its signed record, seed revealed, proves its dice and moves
// and says it was aborted. After that round an abort is refused.
func TestAbort(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(nil)
	cfg := testConfig()
	cfg.SigningKey = key
	ts := newTestServer(t, cfg, nil)
	g := ts.create(`{"seats": ["human", "human", "bot:random", "bot:random"], "auto_pass": false}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	spectator := ts.dial(g.ID, "", 0)
	spectator.send(server.Message{Kind: server.KindAbort})
	spectator.wantErrorMsg(server.EUNAUTHORIZED)
	// South moves; West has not come: the game may still be aborted.
	st := ts.waitState(g.ID, 5*time.Second, func(s *server.State) bool { return s.ToAct == "South" && len(s.Actions) > 0 })
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "`+st.Actions[0]+`"}`)
	if status != http.StatusOK {
		t.Fatalf("South's move: %d %s", status, body)
	}
	south.send(server.Message{Kind: server.KindAbort})
	end := spectator.until(func(e server.Event) bool { return e.Kind == server.KindEnd })
	if end.End != server.EndAborted || end.Result != "*" || end.Seat != "South" || end.Seed == "" || end.Status != "finished" || len(end.Ranks) != 0 || end.ToAct != "" {
		t.Fatalf("end event %+v: want aborted by South, no result, no ranks, the seed revealed", end)
	}
	if s := spectator.closed(); s != websocket.StatusNormalClosure {
		t.Fatalf("the spectator's WebSocket closed with %v, want 1000", s)
	}
	after := ts.state(g.ID)
	if after.Status != "finished" || after.End != server.EndAborted || after.Result != "*" || after.Seed != end.Seed {
		t.Fatalf("state after the abort: %s, end %q, result %q", after.Status, after.End, after.Result)
	}
	status, body = ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"kind": "abort"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	if games := ts.list("?status=finished"); len(games) != 1 || games[0].Result != "*" {
		t.Errorf("finished games %+v: want the aborted one, result *", games)
	}

	rec := ts.record(g.ID)
	if term, _ := rec.Tags.Get(record.TerminationTag); term != "aborted by South" {
		t.Errorf("Termination tag %q, want aborted by South", term)
	}
	p, err := rec.Verify(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatalf("the aborted game's record: %v\n%s", err, rec)
	}
	if p.Termination != "aborted by South" || p.Result != "*" || p.Seed != end.Seed || p.Signer == "" {
		t.Errorf("proof %+v", p)
	}

	// Once every human seat has moved, it is too late.
	g2 := ts.create(`{"seats": ["human", "human", "bot:random", "bot:random"], "host_seats": ["South", "West"], "auto_pass": false}`)
	tokens := tokensOf(g2)
	moved := map[string]bool{}
	rng := rand.New(rand.NewPCG(3, 3))
	for !moved["South"] || !moved["West"] {
		st := ts.waitState(g2.ID, 10*time.Second, func(s *server.State) bool { return s.Status != "live" || tokens[s.ToAct] != "" && len(s.Actions) > 0 })
		if st.Status != "live" {
			t.Fatalf("the game ended in its first round: %s", st.End)
		}
		a := st.Actions[rng.IntN(len(st.Actions))]
		if status, body := ts.request("POST", "/api/games/"+g2.ID+"/actions", tokens[st.ToAct], `{"action": "`+a+`", "seq": `+itoa(st.Seq)+`}`); status != http.StatusOK {
			t.Fatalf("%s's %s: %d %s", st.ToAct, a, status, body)
		}
		moved[st.ToAct] = true
	}
	status, body = ts.request("POST", "/api/games/"+g2.ID+"/actions", tokens["West"], `{"kind": "abort"}`)
	wantError(t, status, body, http.StatusConflict, server.ECONFLICT)
	wantMessage(t, body, "too late to abort: every human seat has moved")
	if st := ts.state(g2.ID); st.Status != "live" {
		t.Fatalf("a refused abort ended the game: %s", st.End)
	}
}
