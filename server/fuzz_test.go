package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// apiError is the body of every refused request.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// checkRefusal fails unless body is a JSON error with a code and a message
// and the status is a client error.
func checkRefusal(t *testing.T, status int, body []byte) {
	t.Helper()
	if status < 400 || status >= 500 {
		t.Fatalf("status %d, want a 4xx refusal; body %s", status, body)
	}
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("refusal body %s is not a JSON error with a code and a message (%v)", body, err)
	}
}

// with is ts reporting to t, for use inside a fuzz target.
func (ts *testServer) with(t *testing.T) *testServer {
	c := *ts
	c.t = t
	return &c
}

// countGames is the number of games in the store.
func countGames(t *testing.T, st store.Store) int {
	t.Helper()
	gs, err := st.Games(context.Background(), store.Filter{Limit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	return len(gs)
}

// FuzzCreateGame sends any body to POST /api/games: the server either
// creates a game it then serves, or refuses with a JSON error and creates
// nothing.
func FuzzCreateGame(f *testing.F) {
	for _, s := range []string{
		fourHumans,
		`{"rules": "chaturanga-2p", "seats": ["human", "bot:random"]}`,
		`{"rules": "chaturaji+ranks+dice=2cube", "seats": ["human", "bot:greedy", "bot:1", "human"], "turn_ms": 5000, "on_timeout": "bot"}`,
		`{"rules": "chaturaji+foo", "seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"]}`,
		`{"seats": ["human"]}`,
		`{"seats": ["bot:nope", "human", "human", "human"]}`,
		`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "names": ["` + string(make([]byte, 100)) + `"]}`,
		`{"seats": null}`,
		`[]`,
		`{"rules": 7}`,
		`{} {}`,
		`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": -1}`,
		`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "abandon_ms": 9223372036854775807}`,
		"\xff\xfe",
		`{"seats": ["human", "bot:1", "bot:1", "bot:1"], "bank_ms": 60000, "increment_ms": 2000, "chat": true}`,
		`{"seats": ["human", "bot:1", "bot:1", "bot:1"], "bank_ms": 60000, "delay_ms": 3000, "turn_ms": 1000}`,
		`{"seats": ["human", "bot:1", "bot:1", "bot:1"], "bank_ms": 9223372036854775807, "delay_ms": -1}`,
		`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": ["West"], "help": false}`,
		`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": ["North"]}`,
		`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": "South"}`,
		`{"seats": ["human", "human", "bot:1", "bot:1"], "host_seats": [], "help": "no"}`,
	} {
		f.Add(s)
	}
	fts := newTestServer(f, testConfig(), nil)
	f.Fuzz(func(t *testing.T, body string) {
		ts := fts.with(t)
		before := countGames(t, ts.store)
		status, b := ts.request("POST", "/api/games", "", body)
		if status == http.StatusCreated {
			var c server.Created
			if err := json.Unmarshal(b, &c); err != nil || c.ID == "" || len(c.SeedHash) != 64 {
				t.Fatalf("created, but the answer %s is not a new game (%v)", b, err)
			}
			if st, b := ts.request("GET", "/api/games/"+c.ID, "", ""); st != http.StatusOK {
				t.Fatalf("GET the new game %s: status %d, %s", c.ID, st, b)
			}
			if after := countGames(t, ts.store); after != before+1 {
				t.Fatalf("created one game, the store went from %d to %d", before, after)
			}
			return
		}
		checkRefusal(t, status, b)
		if after := countGames(t, ts.store); after != before {
			t.Fatalf("refused (%s), yet the store went from %d to %d games", b, before, after)
		}
	})
}

// FuzzAction sends any action and event number for the seat to act: the
// server either plays a legal action or refuses with a JSON error and
// leaves the game as it was.
func FuzzAction(f *testing.F) {
	for _, a := range []string{"d2d3", "d2d5", "pass", "retire", "", "h8h1", "d2d3=K", "K@e4", "propose", "d2d3 d3d4", "\x00", "roll=5"} {
		f.Add(a, int64(0))
	}
	f.Add("d2d3", int64(1))
	f.Add("d2d3", int64(2))
	f.Add("d2d3", int64(-5))
	fts := newTestServer(f, testConfig(), nil)
	g := fts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "auto_pass": false}`)
	f.Fuzz(func(t *testing.T, action string, seq int64) {
		ts := fts.with(t)
		before := ts.state(g.ID)
		if before.Status != "live" {
			t.Skip("the game is over")
		}
		token := ""
		for _, s := range g.Seats {
			if s.Seat == before.ToAct {
				token = s.Token
			}
		}
		body, err := json.Marshal(server.Message{Action: action, Seq: seq})
		if err != nil {
			t.Fatal(err)
		}
		status, b := ts.request("POST", "/api/games/"+g.ID+"/actions", token, string(body))
		after := ts.state(g.ID)
		legal := false
		for _, a := range before.Actions {
			legal = legal || a == action
		}
		if status == http.StatusOK {
			if !legal {
				t.Fatalf("action %q (not among %v) was accepted", action, before.Actions)
			}
			if after.Seq <= before.Seq {
				t.Fatalf("action %q accepted, yet the game stayed at event %d", action, before.Seq)
			}
			return
		}
		checkRefusal(t, status, b)
		if legal && (seq == 0 || seq == before.Seq) {
			t.Fatalf("legal action %q with event number %d refused: %s", action, seq, b)
		}
		if after.Seq != before.Seq || after.Position != before.Position {
			t.Fatalf("refused action %q changed the game: event %d -> %d, %s -> %s", action, before.Seq, after.Seq, before.Position, after.Position)
		}
	})
}
