package server_test

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestHelpOff checks a table without engine help: every player and
// spectator is told (the start event, the state), and the server knows
// the game's live position as one not to analyse, whatever its scores,
// clock and dice say, until the game is over; a table with help is not
// in the way.
func TestHelpOff(t *testing.T) {
	ts := newTestServer(t, testConfig(), nil)
	off := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "help": false, "auto_pass": false}`)
	on := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"]}`)
	if off.Table.Help || !on.Table.Help {
		t.Fatalf("created tables %+v and %+v: want help off, then on by default", off.Table, on.Table)
	}
	spectator := ts.dial(off.ID, "", 0)
	start := spectator.until(func(e server.Event) bool { return e.Kind == server.KindStart })
	if start.Table == nil || start.Table.Help {
		t.Fatalf("start event's table %+v: want help off", start.Table)
	}
	if st := ts.state(off.ID); st.Table.Help {
		t.Fatalf("state's table %+v: want help off", st.Table)
	}

	tokens := tokensOf(off)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 { // East has not moved yet: the game may be aborted, below
		st := ts.state(off.ID)
		pos := st.Position
		f := strings.Fields(pos)
		for _, v := range []string{
			pos,
			strings.Join(append([]string{f[0], f[1], "-", "9,9,9,9", "17"}, f[5:]...), " "), // other dice, scores and clock
		} {
			if !ts.srv.HelpOff(v) {
				t.Fatalf("%s: not known as a position without help (the game stands at %s)", v, pos)
			}
		}
		now := ts.step(off.ID, tokens, rng)
		if helpKey(now.Position) != helpKey(pos) && ts.srv.HelpOff(pos) {
			t.Fatalf("%s: still refused help after the game moved on to %s", pos, now.Position)
		}
	}
	// The game with help, at its start, is not in the way.
	if st := ts.state(on.ID); helpKey(st.Position) != helpKey(ts.state(off.ID).Position) && ts.srv.HelpOff(st.Position) {
		t.Fatalf("the position of a game with help is refused help")
	}
	// Over: help is no secret any more.
	status, body := ts.request("POST", "/api/games/"+off.ID+"/actions", tokens["South"], `{"kind": "abort"}`)
	if status != http.StatusOK {
		t.Fatalf("abort: %d %s", status, body)
	}
	st := ts.waitState(off.ID, 5*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	if ts.srv.HelpOff(st.Position) {
		t.Fatalf("the position of a finished game is refused help")
	}
}

// helpKey is the board and the seat to act of a position.
func helpKey(pos string) string {
	f := strings.Fields(pos)
	return f[0] + " " + f[1]
}
