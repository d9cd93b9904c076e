package server_test

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// TestRecordsKept checks that a finished game's record is built once and
// kept: once its events are damaged behind the server's back, the record
// (one by one, in bulk, after a restart) is still served, as it was, which
// it could not be if it were rebuilt from the events. A finished game with
// no record kept is rebuilt at its first request, and kept from then on. A
// server with another key rebuilds a record to sign it with its own.
func TestRecordsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	cfg := testConfig()
	_, cfg.SigningKey, _ = ed25519.GenerateKey(nil)
	ts := newTestServer(t, cfg, openStore(t, path))
	finish := func() string {
		g := ts.create(`{"seats": ["bot:random", "bot:random", "bot:greedy", "bot:random"]}`)
		ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
		return g.ID
	}
	kept, legacy := finish(), finish()
	text := func(ts *testServer, id string) string {
		t.Helper()
		status, body := ts.request("GET", "/api/games/"+id+"/record", "", "")
		if status != http.StatusOK {
			t.Fatalf("GET the record of %s: %d %s", id, status, body)
		}
		return string(body)
	}
	bulk := func(ts *testServer) string {
		t.Helper()
		status, body := ts.request("GET", "/api/records?status=finished", "", "")
		if status != http.StatusOK {
			t.Fatalf("GET /api/records: %d %s", status, body)
		}
		return string(body)
	}
	damage := func(id string) {
		sqliteExec(t, path, `UPDATE events SET data = json_set(data, '$.action', 'a1a1') WHERE game_id = '`+id+`'
			AND seq = (SELECT max(seq) FROM events WHERE game_id = '`+id+`' AND kind = 'action')`)
	}
	first := text(ts, kept)
	if _, err := record.ParseString(first); err != nil {
		t.Fatal(err)
	}

	// The legacy game has no record kept: its first request builds it.
	sqliteExec(t, path, `DELETE FROM records WHERE game_id = '`+legacy+`'`)
	legacyText := text(ts, legacy)

	damage(kept)
	damage(legacy)
	for _, id := range []string{kept, legacy} {
		status, body := ts.request("GET", "/api/games/"+id, "", "")
		if status == http.StatusOK {
			t.Fatalf("game %s: its events were damaged, and its state still rebuilds: %s", id, body)
		}
	}
	if got := text(ts, kept); got != first {
		t.Errorf("the kept record changed:\n%s\nit was\n%s", got, first)
	}
	if got := text(ts, legacy); got != legacyText {
		t.Errorf("the legacy game's record, kept at its first request, changed:\n%s\nit was\n%s", got, legacyText)
	}
	if got := bulk(ts); got != first+"\n"+legacyText {
		t.Errorf("GET /api/records:\n%s\nwant the two kept records", got)
	}

	// After a restart, the same.
	ts.stop()
	ts = newTestServer(t, cfg, openStore(t, path))
	if got := bulk(ts); got != first+"\n"+legacyText {
		t.Errorf("GET /api/records after a restart:\n%s\nwant the two kept records", got)
	}

	// A server with another key signs with its own: it rebuilds the
	// records, which it can only do for a sound game.
	ts.stop()
	sound := finish2(t, path)
	other := testConfig()
	_, other.SigningKey, _ = ed25519.GenerateKey(nil)
	ts = newTestServer(t, other, openStore(t, path))
	r, err := record.ParseString(text(ts, sound))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r[0].Verify(other.SigningKey.Public().(ed25519.PublicKey)); err != nil {
		t.Errorf("a record served by a server with a new key: %v", err)
	}
	if status, body := ts.request("GET", "/api/games/"+kept+"/record", "", ""); status != http.StatusInternalServerError || !strings.Contains(string(body), kept) {
		t.Errorf("a damaged game's record, kept signed by another key: %d %s, want an error naming it", status, body)
	}
}

// finish2 plays a game to its end on a server of its own on the database
// at path, and returns its id.
func finish2(t *testing.T, path string) string {
	t.Helper()
	ts := newTestServer(t, testConfig(), openStore(t, path))
	defer ts.stop()
	g := ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`)
	ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	return g.ID
}

// TestChangedRecords changes the records kept of finished games in a real
// SQLite file and a real PostgreSQL schema, behind the server's back: one
// tag of a signed record edited, another game's signed record put in a
// game's place, text that does not read. A server with the signing key
// serves none of them as valid: the game's record answers an error naming
// it and what is wrong, GET /api/records and ExportRecords leave it out
// and name it, and the log names it once. A sound game is served as ever.
func TestChangedRecords(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { changedRecords(t, sqliteDatabase(t)) })
	t.Run("postgres", func(t *testing.T) { changedRecords(t, postgresDatabase(t)) })
}

func changedRecords(t *testing.T, db database) {
	open := func() store.Store {
		st, err := store.Open(context.Background(), db.dsn)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	cfg := testConfig()
	_, cfg.SigningKey, _ = ed25519.GenerateKey(nil)
	key := cfg.SigningKey.Public().(ed25519.PublicKey)
	var logs lockedBuffer
	ts := newTestServerLogged(t, cfg, open(), slog.New(slog.NewJSONHandler(&logs, nil)))
	var ids []string
	for range 4 {
		g := ts.create(`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`)
		ts.waitState(g.ID, 30*time.Second, func(s *server.State) bool { return s.Status == "finished" })
		ids = append(ids, g.ID)
	}
	sound, edited, swapped, unread := ids[0], ids[1], ids[2], ids[3]
	status, soundText := ts.request("GET", "/api/games/"+sound+"/record", "", "")
	if status != http.StatusOK {
		t.Fatalf("GET the record of %s: %d %s", sound, status, soundText)
	}
	db.exec(t, `UPDATE records SET text = replace(text, '[Site "chaturaji server"]', '[Site "elsewhere"]') WHERE game_id = '`+edited+`'`)
	db.exec(t, `UPDATE records SET text = (SELECT text FROM records WHERE game_id = '`+sound+`') WHERE game_id = '`+swapped+`'`)
	db.exec(t, `UPDATE records SET text = '[Game "`+unread+`"' WHERE game_id = '`+unread+`'`)
	changed := []struct{ id, why string }{
		{edited, "tag Signature"},
		{swapped, sound}, // it names the game whose record it is
		{unread, "record: line 1"},
	}

	for _, c := range changed {
		status, body := ts.request("GET", "/api/games/"+c.id+"/record", "", "")
		if status != http.StatusInternalServerError || !strings.Contains(string(body), c.id) || !strings.Contains(string(body), c.why) {
			t.Errorf("GET the changed record of %s: %d %s, want an error naming it and saying %q", c.id, status, body, c.why)
		}
	}
	resp, body := ts.get("/api/records?status=finished")
	if resp.StatusCode != http.StatusOK || resp.Header.Get(server.SkippedHeader) != "3" {
		t.Fatalf("GET /api/records: %d, %s %q\n%s", resp.StatusCode, server.SkippedHeader, resp.Header.Get(server.SkippedHeader), body)
	}
	recs, err := record.ParseString(string(body))
	if err != nil || len(recs) != 1 || recs[0].String() != string(soundText) {
		t.Fatalf("GET /api/records: %d records, %v, want the sound game's alone:\n%s", len(recs), err, body)
	}
	if _, err := recs[0].Verify(key); err != nil {
		t.Errorf("the sound game's record: %v", err)
	}
	var exported strings.Builder
	done, err := server.ExportRecords(context.Background(), ts.store, &exported, server.Export{Key: cfg.SigningKey})
	if err != nil || done.Count != 1 || len(done.Skipped) != 3 {
		t.Fatalf("ExportRecords: %+v, %v", done, err)
	}
	for _, c := range changed {
		line := "\n; skipped game " + c.id + ", damaged: "
		for what, text := range map[string]string{"GET /api/records": string(body), "ExportRecords": exported.String()} {
			if i := strings.Index(text, line); i < 0 || !strings.Contains(text[i:], c.why) {
				t.Errorf("%s does not name the changed record of %s (%s):\n%s", what, c.id, c.why, text)
			}
		}
		if n := strings.Count(logs.String(), `"msg":"damaged game: lists, records and exports leave it out; repair or remove its rows","game":"`+c.id+`"`); n != 1 {
			t.Errorf("game %s logged %d times as damaged, want once:\n%s", c.id, n, logs.String())
		}
	}
}
