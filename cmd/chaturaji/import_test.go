package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
)

// TestExportPGN4 has a real server play games of chesscom-chaturaji and of
// the default preset into an SQLite file, then exports the database with
// --format pgn4: only the chesscom-chaturaji games are written, and
// importing them gives the records plain export writes, turn for turn.
func TestExportPGN4(t *testing.T) {
	dsn, hs, stop := sqliteServer(t)
	for _, body := range []string{
		`{"rules": "chesscom-chaturaji", "seats": ["bot:random", "bot:greedy", "bot:random", "bot:random"]}`,
		`{"rules": "chesscom-chaturaji", "seats": ["bot:greedy", "bot:random", "bot:greedy", "bot:random"]}`,
		`{"seats": ["bot:random", "bot:random", "bot:random", "bot:random"]}`,
	} {
		c := createFor(t, hs, body)
		waitFor(t, hs, c.ID, func(s *server.State) bool { return s.Status == "finished" })
	}
	stop()

	out := filepath.Join(t.TempDir(), "games.pgn4")
	status, _, stderr := runCommand("export", "--db", dsn, "--format", "pgn4", "--out", out)
	if status != 0 || !strings.Contains(stderr, "exported 2 games to "+out) {
		t.Fatalf("export --format pgn4: status %d, stderr %q", status, stderr)
	}
	status, imported, stderr := runCommand("import", out)
	if status != 0 {
		t.Fatalf("import: status %d, stderr %q", status, stderr)
	}
	status, plain, stderr := runCommand("export", "--db", dsn, "--rules", "chesscom-chaturaji")
	if status != 0 {
		t.Fatalf("export: status %d, stderr %q", status, stderr)
	}
	got, err := record.ParseString(imported)
	if err != nil {
		t.Fatal(err)
	}
	want, err := record.ParseString(plain)
	if err != nil || len(want) != 2 || len(got) != 2 {
		t.Fatalf("%d records imported, %d exported: %v", len(got), len(want), err)
	}
	for i := range want {
		same := slices.EqualFunc(got[i].Turns, want[i].Turns, func(a, b rules.Turn) bool {
			return a.Seat == b.Seat && slices.Equal(a.Actions, b.Actions)
		})
		gr, _ := got[i].Tags.Get("Result")
		wr, _ := want[i].Tags.Get("Result")
		if !same || gr != wr || wr == "*" {
			t.Errorf("game %d: imported\n%s\nexported\n%s", i+1, got[i], want[i])
		}
		for _, seat := range []string{"South", "West", "North", "East"} {
			g, _ := got[i].Tags.Get(seat)
			w, _ := want[i].Tags.Get(seat)
			if g != w || w == "" {
				t.Errorf("game %d: %s %q, want %q", i+1, seat, g, w)
			}
		}
	}
}
