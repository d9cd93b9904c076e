package main

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/keyfile"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// TestExport plays games on a server with an SQLite file, then exports
// them with `chaturaji export`: the file holds what GET /api/records
// serves, byte for byte, and every game in it replays and proves its dice.
func TestExport(t *testing.T) {
	dsn, hs, stop := sqliteServer(t)
	for _, body := range []string{
		`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"]}`,
		`{"rules": "chaturanga-2p", "seats": ["bot:random", "bot:random"]}`,
		`{"seats": ["human", "human", "bot:random", "bot:random"]}`, // stays live
	} {
		c := createFor(t, hs, body)
		if strings.Contains(body, "human") {
			continue
		}
		waitFor(t, hs, c.ID, func(s *server.State) bool { return s.Status == "finished" })
	}
	resp, err := http.Get(hs + "/api/records?status=finished")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	stop()

	out := filepath.Join(t.TempDir(), "games.cgn")
	status, stdout, stderr := runCommand("export", "--db", dsn, "--out", out)
	if status != 0 || stdout != "" || !strings.Contains(stderr, "exported 2 games to "+out) {
		t.Fatalf("export: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != string(served) {
		t.Fatalf("export wrote\n%s\nthe server serves\n%s", text, served)
	}
	recs, err := record.ParseString(string(text))
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs {
		if _, err := r.Replay(); err != nil {
			t.Error(err)
		}
		if err := r.VerifyDice(); err != nil {
			t.Error(err)
		}
	}

	// With the server's key file, the finished games' records are signed.
	keyPath := filepath.Join(t.TempDir(), "server.key")
	keys, err := keyfile.Create(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr = runCommand("export", "--db", dsn, "--key-file", keyPath)
	signed, err := record.ParseString(stdout)
	if status != 0 || err != nil || len(signed) != 2 {
		t.Fatalf("export --key-file: status %d, %v, stderr %q", status, err, stderr)
	}
	for _, r := range signed {
		if _, err := r.Verify(keys.Public()); err != nil {
			t.Errorf("a record exported with the key file: %v\n%s", err, r)
		}
	}
	status, _, stderr = runCommand("export", "--db", dsn, "--key-file", keyPath+".missing")
	if status != 1 || !strings.Contains(stderr, "does not exist") {
		t.Errorf("export with a key file that is not there: status %d, %q", status, stderr)
	}

	// The live game, to standard output, without its seed.
	status, stdout, stderr = runCommand("export", "--db", dsn, "--status", "live")
	if status != 0 || strings.Count(stdout, "[Game ") != 1 || strings.Contains(stdout, "[Seed ") || !strings.Contains(stderr, "exported 1 games to standard output") {
		t.Fatalf("export --status live: status %d, stderr %q\n%s", status, stderr, stdout)
	}
}

// TestExportDamaged damages two games of a real SQLite file behind the
// server's back (a finished one with no record kept, and a live one) and
// exports every game: the others are written, the damaged ones named on
// standard error and at the end of the file, and export succeeds.
func TestExportDamaged(t *testing.T) {
	dsn, url, stop := sqliteServer(t)
	var ids []string
	for _, body := range []string{
		`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"]}`,
		`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`,
		`{"seats": ["bot:random", "bot:random", "bot:random", "human"]}`,
		`{"seats": ["human", "bot:random", "bot:random", "bot:random"]}`,
	} {
		c := createFor(t, url, body)
		waitFor(t, url, c.ID, func(s *server.State) bool {
			return s.Status == "finished" || s.Seq >= 2 && strings.Contains(body, "human")
		})
		ids = append(ids, c.ID)
	}
	stop()
	db, err := sql.Open("sqlite", strings.TrimPrefix(dsn, "sqlite:"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DELETE FROM records WHERE game_id = '` + ids[1] + `'`,
		`UPDATE events SET data = json_set(data, '$.action', 'a1a1') WHERE game_id = '` + ids[1] + `' AND seq = (SELECT max(seq) FROM events WHERE game_id = '` + ids[1] + `' AND kind = 'action')`,
		`UPDATE events SET data = json_set(data, '$.roll', '9') WHERE game_id = '` + ids[3] + `' AND seq = (SELECT min(seq) FROM events WHERE game_id = '` + ids[3] + `' AND kind = 'roll')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	status, stdout, stderr := runCommand("export", "--db", dsn, "--status", "all")
	if status != 0 || !strings.Contains(stderr, "exported 2 games to standard output") || !strings.Contains(stderr, "skipped 2 damaged games") {
		t.Fatalf("export: status %d, stderr %q", status, stderr)
	}
	recs, err := record.ParseString(stdout)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v\n%s", len(recs), err, stdout)
	}
	for i, id := range []string{ids[0], ids[2]} {
		if got, _ := recs[i].Tags.Get("Game"); got != id {
			t.Errorf("record %d is game %s, want %s", i, got, id)
		}
	}
	for _, c := range []struct{ id, why string }{
		{ids[1], `invalid action "a1a1"`},
		{ids[3], "recorded roll 9"},
	} {
		if !strings.Contains(stderr, "skipped game "+c.id+", damaged: ") || !strings.Contains(stderr, c.why) {
			t.Errorf("standard error does not name the damaged game %s (%s):\n%s", c.id, c.why, stderr)
		}
		if !strings.Contains(stdout, "\n; skipped game "+c.id+", damaged: ") {
			t.Errorf("the file does not name the damaged game %s:\n%s", c.id, stdout)
		}
	}
}

// TestExportChangedRecord plays two games on a server with a key file and
// an SQLite file, edits the signed record the database keeps of one of
// them, and exports: with the key file, and without (the record names its
// signer, whose signature it no longer carries), the changed record is
// not written, standard error and the file name the game and what is
// wrong, and the sound game is written, signed.
func TestExportChangedRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	dsn := "sqlite:" + path
	keyPath := filepath.Join(t.TempDir(), "server.key")
	keys, err := keyfile.Create(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{BotTime: 10 * time.Millisecond, BotDelay: server.NoBotDelay, MinTime: time.Millisecond, SigningKey: keys.Signing}
	srv := server.New(cfg, store.Sealed(st, store.NewSeedKey(keys.Seed)), nil)
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	var ids []string
	for range 2 {
		c := createFor(t, hs.URL, `{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`)
		waitFor(t, hs.URL, c.ID, func(s *server.State) bool { return s.Status == "finished" })
		ids = append(ids, c.ID)
	}
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()
	sound, edited := ids[0], ids[1]
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE records SET text = replace(text, '[Site "chaturaji server"]', '[Site "elsewhere"]') WHERE game_id = ?`, edited)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("editing the kept record: %d rows, %v", n, err)
	}
	db.Close()

	for _, args := range [][]string{{"--key-file", keyPath}, nil} {
		status, stdout, stderr := runCommand(append([]string{"export", "--db", dsn}, args...)...)
		if status != 0 || !strings.Contains(stderr, "exported 1 games") || !strings.Contains(stderr, "skipped 1 damaged games") {
			t.Fatalf("export %v: status %d, stderr %q", args, status, stderr)
		}
		named := "skipped game " + edited + ", damaged: game " + edited + ": its record kept in the database was changed: record: "
		why := `tag Signature "`
		if i := strings.Index(stderr, named); i < 0 || !strings.Contains(stderr[i:], why) || !strings.Contains(stdout, "\n; "+named) {
			t.Errorf("export %v does not name the changed record of %s:\n%s\n%s", args, edited, stderr, stdout)
		}
		recs, err := record.ParseString(stdout)
		if err != nil || len(recs) != 1 {
			t.Fatalf("export %v: %d records, %v\n%s", args, len(recs), err, stdout)
		}
		if id, _ := recs[0].Tags.Get("Game"); id != sound {
			t.Errorf("export %v wrote game %s, want %s", args, id, sound)
		}
		if _, err := recs[0].Verify(keys.Public()); err != nil {
			t.Errorf("export %v: the sound game's record: %v", args, err)
		}
	}
}

// sqliteServer starts a game server, bots quick, on a new SQLite file, and
// returns the file's --db, the server's URL, and stop, which shuts the
// server down and closes the file for the commands to read.
func sqliteServer(t *testing.T) (dsn, url string, stop func()) {
	t.Helper()
	dsn = "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{BotTime: 10 * time.Millisecond, BotDelay: server.NoBotDelay, MinTime: time.Millisecond}, st, nil)
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return dsn, hs.URL, func() {
		if err := srv.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
}
