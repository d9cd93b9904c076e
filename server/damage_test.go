package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/postgres/pgtest"
)

// database is a real database the tests can damage behind the store's
// back, with SQL of its own dialect.
type database struct {
	dsn  string
	exec func(t *testing.T, query string)
	json func(path, value string) string // the SQL that sets a field of an event's data
}

func sqliteDatabase(t *testing.T) database {
	path := filepath.Join(t.TempDir(), "games.db")
	return database{
		dsn:  "sqlite:" + path,
		exec: func(t *testing.T, query string) { sqliteExec(t, path, query) },
		json: func(path, value string) string { return fmt.Sprintf(`json_set(data, '$.%s', '%s')`, path, value) },
	}
}

// sqliteExec runs a statement on the SQLite file at path, on a connection
// of its own.
func sqliteExec(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func postgresDatabase(t *testing.T) database {
	u := pgtest.Schema(t)
	return database{
		dsn: u,
		exec: func(t *testing.T, query string) {
			t.Helper()
			conn, err := pgx.Connect(context.Background(), u)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			if _, err := conn.Exec(context.Background(), query); err != nil {
				t.Fatalf("%s: %v", query, err)
			}
		},
		json: func(path, value string) string {
			return fmt.Sprintf(`jsonb_set(data::jsonb, '{%s}', '"%s"')::json`, path, value)
		},
	}
}

// TestDamagedGames damages one row of each of several games in a real
// SQLite file and a real PostgreSQL schema, behind the server's back, and
// starts a server on it: the other games resume; the list, the records
// file and the export go on without the damaged games and name them; a
// damaged game's own endpoints say what is wrong with it; each is logged
// once, however often it is passed by.
func TestDamagedGames(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { damagedGames(t, sqliteDatabase(t)) })
	t.Run("postgres", func(t *testing.T) { damagedGames(t, postgresDatabase(t)) })
}

func damagedGames(t *testing.T, db database) {
	key := store.NewSeedKey([32]byte{4, 2})
	open := func() store.Store {
		st, err := store.Open(context.Background(), db.dsn)
		if err != nil {
			t.Fatal(err)
		}
		return store.Sealed(st, key)
	}
	ts := newTestServer(t, testConfig(), open())
	rng := rand.New(rand.NewPCG(5, 6))
	tokens := map[string]map[string]string{}
	live := func() string {
		g := ts.create(fourHumans)
		tokens[g.ID] = tokensOf(g)
		for range 5 {
			ts.step(g.ID, tokens[g.ID], rng)
		}
		return g.ID
	}
	finished := func() string {
		g := ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`)
		ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
		return g.ID
	}
	// Games that stay sound, and games damaged below, each its own way.
	good := []string{finished(), live(), finished(), live()}
	roll, rules, seed, settings, action := live(), live(), live(), live(), finished()
	goodBotGame := ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "human"]}`)
	good = append(good, goodBotGame.ID)
	ts.waitState(goodBotGame.ID, 30*time.Second, func(s *server.State) bool { return s.Status != "live" || s.ToAct == "East" })
	ts.stop()

	db.exec(t, fmt.Sprintf(`UPDATE events SET data = %s WHERE game_id = '%s'
		AND seq = (SELECT min(seq) FROM events WHERE game_id = '%s' AND kind = 'roll')`, db.json("roll", "9"), roll, roll))
	db.exec(t, fmt.Sprintf(`UPDATE games SET rules = 'nonsense' WHERE id = '%s'`, rules))
	db.exec(t, fmt.Sprintf(`UPDATE games SET settings = '{"turn_ms": "soon"}' WHERE id = '%s'`, settings))
	// A finished game without its kept record (as before records were
	// kept), one of its actions changed.
	db.exec(t, fmt.Sprintf(`DELETE FROM records WHERE game_id = '%s'`, action))
	db.exec(t, fmt.Sprintf(`UPDATE events SET data = %s WHERE game_id = '%s'
		AND seq = (SELECT max(seq) FROM events WHERE game_id = '%s' AND kind = 'action')`, db.json("action", "a1a1"), action, action))
	raw, err := store.Open(context.Background(), db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	g, err := raw.Game(context.Background(), seed)
	if err != nil {
		t.Fatal(err)
	}
	changed := slices.Clone(g.Seed)
	changed[len(changed)-1] ^= 1
	if err := raw.ReplaceSeed(context.Background(), seed, g.Seed, changed); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	damaged := []string{roll, rules, seed, settings, action}

	var logs lockedBuffer
	ts = newTestServerLogged(t, testConfig(), open(), slog.New(slog.NewJSONHandler(&logs, nil)))

	// The sound games are there, as they were.
	for _, id := range good {
		if st := ts.state(id); st.Seq == 0 {
			t.Errorf("game %s: %+v", id, st)
		}
		ts.record(id)
	}
	// A damaged game's own endpoints say what is wrong with it.
	for _, id := range damaged {
		for _, path := range []string{"/api/games/" + id, "/api/games/" + id + "/record"} {
			status, body := ts.request("GET", path, "", "")
			if status == http.StatusOK || !strings.Contains(string(body), id) {
				t.Errorf("GET %s of a damaged game: %d %s, want an error naming it", path, status, body)
			}
		}
	}

	// The list leaves out what it cannot show (a preset no one has) and
	// names it.
	status, body := ts.request("GET", "/api/games?limit=500", "", "")
	var list server.List
	if err := json.Unmarshal(body, &list); status != http.StatusOK || err != nil {
		t.Fatalf("GET /api/games: %d %s", status, body)
	}
	var listed []string
	for _, s := range list.Games {
		listed = append(listed, s.ID)
	}
	for _, id := range append(slices.Clone(good), roll, seed, settings, action) {
		if !slices.Contains(listed, id) {
			t.Errorf("game %s is not listed: %v", id, listed)
		}
	}
	if len(list.Skipped) != 1 || list.Skipped[0].ID != rules || !strings.Contains(list.Skipped[0].Error, "nonsense") {
		t.Errorf("GET /api/games skipped %+v, want game %s (rules nonsense)", list.Skipped, rules)
	}

	// The records file has every sound game, and names the others at its
	// end; twice, and the log says each damaged game once.
	for range 2 {
		resp, body := ts.get("/api/records?limit=500")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/records: %d %s", resp.StatusCode, body)
		}
		recs, err := record.ParseString(string(body))
		if err != nil {
			t.Fatalf("the records file does not read: %v\n%s", err, body)
		}
		var ids []string
		for _, r := range recs {
			id, _ := r.Tags.Get("Game")
			ids = append(ids, id)
		}
		if slices.Sort(ids); !slices.Equal(ids, slices.Sorted(slices.Values(good))) {
			t.Errorf("records of %v, want those of the sound games %v", ids, good)
		}
		if got := resp.Header.Get(server.SkippedHeader); got != strconv.Itoa(len(damaged)) {
			t.Errorf("%s: %q, want %d", server.SkippedHeader, got, len(damaged))
		}
		for _, id := range damaged {
			if !strings.Contains(string(body), "\n; skipped game "+id+", damaged: ") {
				t.Errorf("the records file does not name the damaged game %s:\n%s", id, body)
			}
		}
	}
	for _, id := range damaged {
		if n := strings.Count(logs.String(), `"msg":"damaged game: lists, records and exports leave it out; repair or remove its rows","game":"`+id+`"`); n != 1 {
			t.Errorf("game %s logged %d times as damaged, want once:\n%s", id, n, logs.String())
		}
	}
	// The live sound games go on.
	for _, id := range []string{good[1], good[3]} {
		before := ts.state(id)
		if after := ts.step(id, tokens[id], rng); after.Seq <= before.Seq {
			t.Errorf("game %s did not go on: at event %d, %d before", id, after.Seq, before.Seq)
		}
	}
}
