package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

// outageConfig is testConfig with the store's retries, heartbeat and
// repeated logs in tenths of a second, so that an outage of a second or
// two shows them all.
func outageConfig() server.Config {
	cfg := testConfig()
	cfg.RetryMin = 50 * time.Millisecond
	cfg.RetryMax = 400 * time.Millisecond
	cfg.Heartbeat = 100 * time.Millisecond
	cfg.ReadyTimeout = time.Second
	cfg.RepeatLog = time.Second
	return cfg
}

// get sends a GET and returns the answer, its body read.
func (ts *testServer) get(path string) (*http.Response, []byte) {
	ts.t.Helper()
	resp, err := http.Get(ts.URL + path)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return resp, body
}

// readiness returns the answer of GET /readyz.
func (ts *testServer) readiness() (int, server.Readiness) {
	ts.t.Helper()
	resp, body := ts.get("/readyz")
	var r server.Readiness
	if err := json.Unmarshal(body, &r); err != nil {
		ts.t.Fatalf("GET /readyz: %d %q: %v", resp.StatusCode, body, err)
	}
	if (resp.StatusCode == http.StatusOK) != r.Ready || (!r.Ready && r.Reason == "") {
		ts.t.Fatalf("GET /readyz: %d %s", resp.StatusCode, body)
	}
	return resp.StatusCode, r
}

// waitReady waits until GET /readyz says ready is what it is.
func (ts *testServer) waitReady(ready bool) server.Readiness {
	ts.t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, r := ts.readiness(); r.Ready == ready {
			return r
		}
		if time.Now().After(end) {
			ts.t.Fatalf("GET /readyz did not say ready=%v in 30s", ready)
		}
	}
}

// TestDatabaseOutage stops a PostgreSQL server of the test's own under a
// running server, as a crash would, and starts it again. During the
// outage the reads that need the database answer 503 EUNAVAILABLE with
// Retry-After, /healthz says the process lives and /readyz that it is not
// ready; once the database is back, a game of bots and a game run by its
// clocks go on by themselves, without anyone asking for them, and /readyz
// says ready again.
func TestDatabaseOutage(t *testing.T) {
	pg := pgtest.NewCluster(t)
	st, err := store.Open(t.Context(), pg.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg := outageConfig()
	cfg.BotTime = 100 * time.Millisecond
	ts := newTestServer(t, cfg, st)
	bots := ts.create(`{"seats": ["bot:strong", "bot:strong", "bot:strong", "bot:strong"]}`)
	timed := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 100, "auto_pass": false}`)
	games := []string{bots.ID, timed.ID}
	for _, id := range games {
		ts.waitState(id, 30*time.Second, func(s *server.State) bool { return s.Seq >= 6 })
	}
	ts.waitReady(true)

	down := make(map[string]int64) // each game's last event before the database stopped
	for _, id := range games {
		st := ts.state(id)
		if st.Status != "live" {
			t.Fatalf("game %s is over before the outage", id)
		}
		down[id] = st.Seq
	}
	pg.Stop()
	time.Sleep(time.Second) // the outage: every game's write fails meanwhile

	for _, path := range []string{"/api/games/" + bots.ID + "/events", "/api/games/" + timed.ID + "/record", "/api/games", "/api/records"} {
		resp, body := ts.get(path)
		wantError(t, resp.StatusCode, body, http.StatusServiceUnavailable, server.EUNAVAILABLE)
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("GET %s: 503 without Retry-After", path)
		}
	}
	// An action is refused, and changes nothing.
	now := ts.state(timed.ID)
	status, body := ts.request("POST", "/api/games/"+timed.ID+"/actions", tokensOf(timed)[now.ToAct], `{"action": "`+now.Actions[0]+`"}`)
	wantError(t, status, body, http.StatusServiceUnavailable, server.EUNAVAILABLE)
	if after := ts.state(timed.ID); after.Seq != now.Seq {
		t.Errorf("a refused action moved the game from event %d to %d", now.Seq, after.Seq)
	}
	if resp, body := ts.get("/healthz"); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz during the outage: %d %s, want 200 (the process serves)", resp.StatusCode, body)
	}
	if status, r := ts.readiness(); status != http.StatusServiceUnavailable || !strings.Contains(r.Reason, "database") {
		t.Errorf("GET /readyz during the outage: %d %+v, want 503 naming the database", status, r)
	}

	pg.Start()
	// Nobody asks the server for the games: the test watches the
	// database itself.
	conn, err := pgx.Connect(t.Context(), pg.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, id := range games {
		for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			var last int64
			var status string
			if err := conn.QueryRow(t.Context(), `SELECT last_event, status FROM games WHERE id = $1`, id).Scan(&last, &status); err != nil {
				t.Fatal(err)
			}
			if last >= down[id]+3 || status == "finished" {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("game %s: at event %d 30s after the database came back, %d when it stopped", id, last, down[id])
			}
		}
	}
	ts.waitReady(true)
	// What the games saved replays: nothing was lost or saved twice.
	for _, id := range games {
		ts.record(id)
	}
}

// TestFullDisk fills the disk of a server's SQLite database while twenty
// games run by their clocks. Every game's writes fail for as long as it
// lasts, yet the log says so in a few lines a second, not one per game per
// try; /readyz says the database refuses writes. Once there is room again,
// the games go on by themselves.
func TestFullDisk(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	cfg := outageConfig()
	ts := newTestServerLogged(t, cfg, st, slog.New(slog.NewJSONHandler(&logs, nil)))
	const n = 20
	var ids []string
	for range n {
		g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 50, "auto_pass": false}`)
		ids = append(ids, g.ID)
	}
	for _, id := range ids {
		ts.waitState(id, 30*time.Second, func(s *server.State) bool { return s.Seq >= 4 })
	}

	if _, err := st.SetMaxPages(t.Context(), 1); err != nil { // full at the pages it has
		t.Fatal(err)
	}
	// A game may fill the room left in its pages first; the disk is full
	// for all once none has saved anything for ten of its turns. Then it
	// stays full for 3s.
	last := make(map[string]int64)
	for still := time.Now(); time.Since(still) < 500*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		for _, id := range ids {
			g, err := st.Game(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if g.LastEvent != last[id] {
				last[id], still = g.LastEvent, time.Now()
			}
		}
	}
	full := time.Now()
	before := len(logs.String())
	time.Sleep(3 * time.Second)
	if status, r := ts.readiness(); status != http.StatusServiceUnavailable || !strings.Contains(r.Reason, "writes") {
		t.Errorf("GET /readyz on a full disk: %d %+v, want 503 saying writes are refused", status, r)
	}
	elapsed := time.Since(full)
	lines, kinds := logLines(t, logs.String()[before:])
	// A player out of time is the game's own news, not the outage's: a
	// deadline may fall in these seconds on a slow machine.
	lines -= kinds["out of time"]
	delete(kinds, "out of time")
	// Of each kind (a failure to save, what a game that saved says, the
	// time given back, the database answering again when one did), a line
	// for the first, then one a RepeatLog at most.
	bound := 4 * (int(elapsed/cfg.RepeatLog) + 2)
	if lines > bound || len(kinds) > 4 {
		t.Errorf("%d lines of %d kinds %v in %v of a full disk, want at most %d (%d games):\n%s",
			lines, len(kinds), kinds, elapsed.Round(time.Millisecond), bound, n, logs.String()[before:])
	}
	if !strings.Contains(logs.String(), "database or disk is full") || !strings.Contains(logs.String()[before:], `"repeated"`) {
		t.Errorf("the log does not say the disk is full, and how often:\n%s", logs.String())
	}

	if _, err := st.SetMaxPages(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		was := ts.state(id).Seq
		// A game's random moves, its players out of time, may end it.
		ts.waitState(id, 30*time.Second, func(s *server.State) bool { return s.Seq > was+2 || s.Status == "finished" })
	}
	ts.waitReady(true)
	for _, id := range ids {
		ts.record(id)
	}
}

// logLines counts the lines of a JSON log, and their messages.
func logLines(t *testing.T, log string) (int, map[string]int) {
	t.Helper()
	n, kinds := 0, map[string]int{}
	for line := range strings.Lines(log) {
		var rec struct{ Msg string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		n++
		kinds[rec.Msg]++
	}
	return n, kinds
}

// TestOutageGivesTimeBack stops the database for a few seconds under
// timed games in which nobody acts: in some the open decision's deadline
// falls during the outage, in others after it. No game wrote anything
// when the outage began, so only what the server itself knows dates it
// (its heartbeat). Once the database is back, every one of those
// decisions gets the outage's time back in a clock event, and none is
// forfeited for it.
func TestOutageGivesTimeBack(t *testing.T) {
	pg := pgtest.NewCluster(t)
	st, err := store.Open(t.Context(), pg.URL())
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, outageConfig(), st)
	type open struct {
		id       string
		seq      int64
		seat     string
		deadline time.Time
	}
	var games []open
	// The long ones first, so that the short ones are still open when
	// the database stops, on a loaded machine too.
	for _, turn := range []int{60000, 60000, 60000, 4000, 4000, 4000} {
		g := ts.create(fmt.Sprintf(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": %d, "auto_pass": false}`, turn))
		s := ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Deadline != nil })
		games = append(games, open{g.ID, s.Seq, s.ToAct, *s.Deadline})
	}
	ts.waitReady(true)
	stopped := time.Now()
	for _, g := range games[3:] {
		if !g.deadline.After(stopped) {
			t.Fatalf("game %s: its decision ran out before the outage", g.id)
		}
	}
	pg.Stop()
	time.Sleep(time.Until(games[5].deadline) + 500*time.Millisecond) // every short deadline falls in here
	pg.Start()
	outage := time.Since(stopped)
	ts.waitReady(true)

	conn, err := pgx.Connect(t.Context(), pg.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, g := range games {
		var kind, data string
		for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			err := conn.QueryRow(t.Context(), `SELECT kind, data::text FROM events WHERE game_id = $1 AND seq = $2`, g.id, g.seq+1).Scan(&kind, &data)
			if err == nil {
				break
			}
			if err != pgx.ErrNoRows || time.Now().After(end) {
				t.Fatalf("game %s: event %d after the outage: %v", g.id, g.seq+1, err)
			}
		}
		var e server.Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatal(err)
		}
		if e.Kind != server.KindClock || e.Seat != g.seat || e.Deadline == nil {
			t.Errorf("game %s: after the outage, event %d is %s %s by %s (%s), want a clock event giving %s time back", g.id, e.Seq, e.Kind, e.Action, e.By, e.Seat, g.seat)
			continue
		}
		// The server dates the outage from its last write that went
		// through, at most a heartbeat before the test stopped the
		// database, to its first after the database came back.
		given := e.Deadline.Sub(g.deadline)
		if min := outage - outageConfig().Heartbeat - 500*time.Millisecond; given < min || given > outage+5*time.Second {
			t.Errorf("game %s: %v given back for an outage of %v", g.id, given, outage)
		}
	}
}

// TestActDuringBackoff fills the disk under a timed game until its
// player's deadline passes and the game's timeout cannot be saved, then
// makes room again. The game waits out its retry backoff (long here), and
// meanwhile its player acts: the action is taken, not refused as out of
// time, since the time the game could not be saved is not the player's.
func TestActDuringBackoff(t *testing.T) {
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := outageConfig()
	cfg.RetryMin, cfg.RetryMax = time.Minute, time.Minute
	ts := newTestServer(t, cfg, st)
	g := ts.create(`{"seats": ["human", "human", "human", "human"], "host_seats": ["South", "West", "North", "East"], "turn_ms": 300, "auto_pass": false}`)
	ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Deadline != nil })
	if _, err := st.SetMaxPages(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	// The game may fill the room left in its pages first; the disk is
	// full once its timeouts stop being saved for five of its turns.
	// Then its deadline has passed, and it waits a minute before it
	// tries again.
	open := ts.state(g.ID)
	for still := time.Now(); time.Since(still) < 1500*time.Millisecond; time.Sleep(20 * time.Millisecond) {
		if s := ts.state(g.ID); s.Seq != open.Seq {
			open, still = s, time.Now()
		}
	}
	if open.Status != "live" || open.Deadline == nil || time.Now().Before(*open.Deadline) {
		t.Fatalf("on a full disk the game is %s at event %d, deadline %v: want live, out of time", open.Status, open.Seq, open.Deadline)
	}
	if _, err := st.SetMaxPages(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	status, body := ts.request("POST", "/api/games/"+g.ID+"/actions", tokensOf(g)[open.ToAct], fmt.Sprintf(`{"action": %q, "seq": %d}`, open.Actions[0], open.Seq))
	if status != http.StatusOK {
		t.Fatalf("the player's action while the game waits to try again: %d %s, want 200", status, body)
	}
	evs, err := st.Events(t.Context(), g.ID, open.Seq)
	if err != nil {
		t.Fatal(err)
	}
	var e server.Event
	if len(evs) == 0 || json.Unmarshal(evs[0].Data, &e) != nil || e.Kind != server.KindAction || e.By != server.ByPlayer || e.Action != open.Actions[0] {
		t.Fatalf("after event %d the store holds %d events, the first %s, want the player's %s", open.Seq, len(evs), evs[0].Data, open.Actions[0])
	}
}
