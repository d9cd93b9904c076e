package server_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/server"
)

// TestBotGameQuota checks the limits on live games of bots alone: so many
// from one client address, so many on the server, a game with a human
// counted once bots hold all its seats, refusals that name their limit and
// create nothing, and counts that hold across a restart.
func TestBotGameQuota(t *testing.T) {
	path := t.TempDir() + "/games.db"
	cfg := testConfig()
	cfg.MaxBotGamesPerClient, cfg.MaxBotGames = 2, 3
	// The first bot to think holds the one worker until the server stops,
	// so that every game stays live.
	cfg.BotWorkers, cfg.BotTime = 1, time.Hour
	cfg.MaxTakeoverLevel = 8 // a takeover bot that searches, as strong
	ts := newTestServer(t, cfg, openStore(t, path))
	const bots = `{"seats": ["bot:strong", "bot:strong", "bot:strong", "bot:strong"]}`

	wantStatus(t, ts, "127.0.0.1", bots, http.StatusCreated, "")
	// South is a human who never comes: at South's first decision (quick
	// bots play the others) a bot takes the seat, and the game counts as
	// one of bots alone from then on; that bot waits for the worker.
	g := ts.create(`{"seats": ["human", "bot:random", "bot:random", "bot:random"], "abandon_ms": 10, "takeover": "level:8"}`)
	ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Seats[0].Player != server.Human })
	wantStatus(t, ts, "127.0.0.1", bots, http.StatusTooManyRequests, "the limit is 2 live at once")
	// Humans are welcome still.
	wantStatus(t, ts, "127.0.0.1", `{"seats": ["human", "bot:strong", "bot:strong", "bot:strong"]}`, http.StatusCreated, "")

	wantStatus(t, ts, "127.0.0.2", bots, http.StatusCreated, "")
	wantStatus(t, ts, "127.0.0.3", bots, http.StatusServiceUnavailable, "the server has 3 live games without a human seat, its limit")

	// A restart counts the same games, their creators included.
	ts.stop()
	ts = newTestServer(t, cfg, openStore(t, path))
	wantStatus(t, ts, "127.0.0.1", bots, http.StatusTooManyRequests, "the limit is 2 live at once")
	wantStatus(t, ts, "127.0.0.3", bots, http.StatusServiceUnavailable, "its limit")
}

// wantStatus creates a game from the client address ip (one of 127/8) and
// checks the answer's status and, for a refusal, that its message holds
// msg and that no game was stored.
func wantStatus(t *testing.T, ts *testServer, ip, body string, status int, msg string) {
	t.Helper()
	before := countGames(t, ts.store)
	code, data := postFrom(t, ts, ip, body)
	if code != status {
		t.Fatalf("from %s: %d: %s, want status %d", ip, code, data, status)
	}
	if status == http.StatusCreated {
		return
	}
	var e struct{ Error server.Error }
	if err := json.Unmarshal(data, &e); err != nil || !strings.Contains(e.Error.Message, msg) {
		t.Fatalf("from %s: refused with %s, want a message with %q", ip, data, msg)
	}
	if n := countGames(t, ts.store); n != before {
		t.Fatalf("from %s: refused, but %d games stored, %d before", ip, n, before)
	}
}

// postFrom creates a game from the client address ip (one of 127/8) and
// returns the answer's status and body.
func postFrom(t *testing.T, ts *testServer, ip, body string) (int, []byte) {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	defer client.CloseIdleConnections()
	resp, err := client.Post(ts.URL+"/api/games", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

// createFrom creates a game from the client address ip and fails the test
// if it cannot.
func createFrom(t *testing.T, ts *testServer, ip, body string) *server.Created {
	t.Helper()
	status, data := postFrom(t, ts, ip, body)
	if status != http.StatusCreated {
		t.Fatalf("from %s: POST /api/games %s: %d %s", ip, body, status, data)
	}
	var c server.Created
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}
