package server_test

import (
	"crypto/ed25519"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
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
