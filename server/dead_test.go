package server_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// The tests of dead armies (dead.go): in chesscom-chaturaji a resignation
// is the rules' `resign` and a player out of time plays `timeout`; the
// army dies, its pieces standing.

// deadTo reports whether the army of a seat's colour letter is dead by
// resign or timeout in a position: the extra field's dead=... lists it.
func deadTo(position, letter string) bool {
	f := strings.Fields(position)
	if len(f) < 6 {
		return false
	}
	for _, kv := range strings.Split(f[5], ";") {
		if v, ok := strings.CutPrefix(kv, "dead="); ok {
			return strings.Contains(v, letter)
		}
	}
	return false
}

// finishedRecord waits for a game to end and checks its record: it
// replays, under the rules alone, to the end the server saved, and its
// moves hold each action wanted.
func finishedRecord(t *testing.T, ts *testServer, id string, want ...string) {
	t.Helper()
	st := ts.waitState(id, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	r := ts.record(id)
	if _, err := r.Verify(nil); err != nil {
		t.Fatalf("the record does not verify: %v", err)
	}
	g, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if g.Position().String() != st.Position || !g.Finished() {
		t.Fatalf("record replays to %s (finished %v), the server ended at %s", g.Position(), g.Finished(), st.Position)
	}
	var acts []string
	for _, turn := range r.Turns {
		for _, a := range turn.Actions {
			acts = append(acts, a.Format(g.Preset()))
		}
	}
	for _, w := range want {
		if !slices.Contains(acts, w) {
			t.Errorf("the record's moves have no %s: %v", w, acts)
		}
	}
}

// TestDeadArmyResignAtTurn checks that South resigning at its decision
// plays the rules' resign: South's army is dead, its king still on the
// board, the seat still its holder's and out of play; the bots play the
// game out, and the record, resign included, verifies.
func TestDeadArmyResignAtTurn(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"rules": "chesscom-chaturaji", "seats": ["human", "bot:random", "bot:random", "bot:random"]}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	open := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
	if slices.Contains(open.Actions, "resign") || slices.Contains(open.Actions, "timeout") {
		t.Fatalf("South's actions %v list resign or timeout, which are no moves", open.Actions)
	}
	south.send(server.Message{Kind: server.KindResign})
	e := south.until(func(e server.Event) bool { return e.Seq > open.Seq })
	if e.Kind != server.KindAction || e.Seat != "South" || e.Action != "resign" || e.By != server.ByPlayer {
		t.Fatalf("South's resign is %+v, want the action resign by the player", e)
	}
	if !deadTo(e.Position, "b") || !strings.Contains(strings.Fields(e.Position)[0], "bK") || !slices.Contains(e.OutOfPlay, "South") {
		t.Fatalf("after the resign: position %s, out of play %v; want South's army dead, its king standing", e.Position, e.OutOfPlay)
	}
	if st := ts.state(g.ID); st.Seats[0].Player != server.Human {
		t.Fatalf("after the resign South is played by %s, want its holder still", st.Seats[0].Player)
	}
	finishedRecord(t, ts, g.ID, "resign")
}

// TestDeadArmyResignOffTurn checks that West, resigning while South
// decides, gives the seat to the bot with the reason resigned, and that
// the bot never moves for West: at West's next decision the server plays
// resign for it, by the player, with the reason resigned. The game goes
// on for South, and the record verifies.
func TestDeadArmyResignOffTurn(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"rules": "chesscom-chaturaji", "seats": ["human", "human", "bot:random", "bot:random"], "takeover": "random"}`)
	south := ts.dial(g.ID, g.Seats[0].Token, 0)
	west := ts.dial(g.ID, ts.mustClaim(g.ID, "West", g.Seats[1].Invite), 0)
	open := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
	west.send(server.Message{Kind: server.KindResign})
	seat := south.until(func(e server.Event) bool { return e.Seq > open.Seq })
	if seat.Kind != server.KindSeat || seat.Seat != "West" || seat.Reason != server.ReasonResigned || seat.ToAct != "South" {
		t.Fatalf("West's resign off its turn is %+v, want a seat event, resigned, South still to act", seat)
	}
	if deadTo(seat.Position, "y") {
		t.Fatalf("West's army is dead before its turn: %s", seat.Position)
	}
	west.send(server.Message{Kind: server.KindResign})
	west.wantErrorMsg(server.ECONFLICT) // the token acts no more
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", g.Seats[0].Token, `{"action": "`+seat.Actions[0]+`", "seq": `+itoa(seat.Seq)+`}`)
	if status != http.StatusOK {
		t.Fatalf("South's %s: %d %s", seat.Actions[0], status, body)
	}
	e := south.until(func(e server.Event) bool { return e.Kind == server.KindAction && e.Seat == "West" })
	if e.Action != "resign" || e.By != server.ByPlayer || e.Reason != server.ReasonResigned {
		t.Fatalf("West's first action after resigning is %+v, want resign by the player, resigned", e)
	}
	if !deadTo(e.Position, "y") || !slices.Contains(e.OutOfPlay, "West") {
		t.Fatalf("after West's resign: position %s, out of play %v", e.Position, e.OutOfPlay)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	if err := south.playUntilOver(rng); err != nil {
		t.Fatal(err)
	}
	finishedRecord(t, ts, g.ID, "resign")
	if takeover, _ := ts.record(g.ID).Tags.Get("Takeover"); !strings.HasPrefix(takeover, "West: bot:random from turn ") || !strings.HasSuffix(takeover, "(resigned)") {
		t.Errorf("Takeover tag %q: want West's, resigned", takeover)
	}
}

// TestDeadArmyTimeout checks that a player out of time plays the rules'
// timeout whatever the table's on_timeout: the army dies, the seat stays
// its holder's, and the record verifies. A player cannot send timeout.
func TestDeadArmyTimeout(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	for _, policy := range []string{server.TimeoutPass, server.TimeoutBot} {
		t.Run(policy, func(t *testing.T) {
			g := ts.create(`{"rules": "chesscom-chaturaji", "seats": ["human", "bot:random", "bot:random", "bot:random"], "turn_ms": 300, "on_timeout": "` + policy + `"}`)
			south := ts.dial(g.ID, g.Seats[0].Token, 0)
			open := south.until(func(e server.Event) bool { return e.ToAct == "South" && len(e.Actions) > 0 })
			south.send(server.Message{Kind: "action", Action: "timeout", Seq: open.Seq})
			south.wantErrorMsg(server.EINVALID)
			e := south.until(func(e server.Event) bool { return e.Kind != server.KindError && e.Seq > open.Seq })
			if e.Kind != server.KindAction || e.Seat != "South" || e.Action != "timeout" || e.By != server.ByTimeout || e.Reason != server.ReasonTimeout {
				t.Fatalf("South out of time: %+v, want the action timeout by the server", e)
			}
			if !deadTo(e.Position, "b") || !slices.Contains(e.OutOfPlay, "South") {
				t.Fatalf("after the timeout: position %s, out of play %v", e.Position, e.OutOfPlay)
			}
			if st := ts.state(g.ID); st.Seats[0].Player != server.Human {
				t.Fatalf("after the timeout South is played by %s, want its holder still", st.Seats[0].Player)
			}
			finishedRecord(t, ts, g.ID, "timeout")
		})
	}
}

// TestDeadArmyClaim checks that claim, a player's action of
// chesscom-chaturaji, is offered in the state's actions exactly when the
// rules allow it (two armies live, the claimer's score above every
// other's), and that claiming ends the game with the claimer first. South
// captures whenever it can (never a king), the others never; once South
// leads, North resigns off its turn and East at its own.
func TestDeadArmyClaim(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	g := ts.create(`{"rules": "chesscom-chaturaji", "seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "takeover": "random"}`)
	tokens := tokensOf(g)
	rng := rand.New(rand.NewPCG(7, 8))
	resigned := map[string]bool{}
	act := func(seat, body string) {
		t.Helper()
		if status, b := ts.request("POST", "/api/games/"+g.ID+"/actions", tokens[seat], body); status != http.StatusOK {
			t.Fatalf("%s's %s: %d %s", seat, body, status, b)
		}
	}
	for range 400 {
		st := ts.state(g.ID)
		if st.Status != "live" {
			t.Fatalf("the game ended (%s) before South could claim", st.End)
		}
		leads := st.Scores[0] > slices.Max(st.Scores[1:])
		if slices.Contains(st.Actions, "claim") != (leads && len(resigned) == 2 && st.ToAct == "South") {
			t.Fatalf("%s to act, scores %v, resigned %v: actions %v", st.ToAct, st.Scores, resigned, st.Actions)
		}
		if leads && !resigned["North"] && st.ToAct != "North" {
			act("North", `{"kind": "resign"}`)
			resigned["North"] = true
			continue
		}
		if leads && resigned["North"] && !resigned["East"] && st.ToAct == "East" {
			act("East", `{"kind": "resign"}`)
			resigned["East"] = true
			continue
		}
		if st.ToAct == "South" && slices.Contains(st.Actions, "claim") {
			act("South", `{"action": "claim", "seq": `+itoa(st.Seq)+`}`)
			end := ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Status == "finished" })
			if end.Ranks[0] != 1 || slices.Contains(end.Ranks[1:], 1) {
				t.Fatalf("after South's claim: ranks %v, scores %v; want South alone first", end.Ranks, end.Scores)
			}
			// The claimer scores 3 for each king still standing: all three.
			if end.Scores[0] != st.Scores[0]+9 {
				t.Fatalf("South's score %d before the claim, %d after; want 9 more", st.Scores[0], end.Scores[0])
			}
			finishedRecord(t, ts, g.ID, "claim", "resign")
			return
		}
		board := boardOf(st.Position)
		var takes, quiet []string
		for _, a := range st.Actions {
			switch target := board[a[2:4]]; {
			case len(a) < 4:
			case target == "":
				quiet = append(quiet, a)
			case !strings.HasSuffix(target, "K"):
				takes = append(takes, a)
			}
		}
		choice := quiet
		if st.ToAct == "South" && len(takes) > 0 || len(quiet) == 0 {
			choice = takes
		}
		if len(choice) == 0 {
			choice = st.Actions
		}
		act(st.ToAct, `{"action": "`+choice[rng.IntN(len(choice))]+`", "seq": `+itoa(st.Seq)+`}`)
	}
	t.Fatal("400 decisions without South's claim")
}
