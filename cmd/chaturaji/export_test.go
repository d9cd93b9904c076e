package main

import (
	"context"
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
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{BotTime: 10 * time.Millisecond, MinTime: time.Millisecond}, st, nil)
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	for _, body := range []string{
		`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"]}`,
		`{"rules": "chaturanga-2p", "seats": ["bot:random", "bot:random"]}`,
		`{"seats": ["human", "human", "bot:random", "bot:random"]}`, // stays live
	} {
		c := createFor(t, hs.URL, body)
		if strings.Contains(body, "human") {
			continue
		}
		waitFor(t, hs.URL, c.ID, func(s *server.State) bool { return s.Status == "finished" })
	}
	resp, err := http.Get(hs.URL + "/api/records?status=finished")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()

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
