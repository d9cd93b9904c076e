package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/review"
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

// TestAnalyzeImported imports pgn4/testdata/blunder.pgn4, a chess.com game
// written by hand without dice in which Red (South) leaves its king to
// Green's knight, Green takes it, and Blue and Yellow end the game by a
// resignation and a timeout, then reviews the record with analyze: every
// decision of the live armies is judged, each with the expected scores of
// the best action and of the one played, South's king left en prise is a
// blunder whose best action takes the knight, the two ends of play are not
// judged, and the review with --nodes is the same each time.
func TestAnalyzeImported(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "blunder.txt")
	status, _, stderr := runCommand("import", "--out", rec, filepath.Join("..", "..", "pgn4", "testdata", "blunder.pgn4"))
	if status != 0 {
		t.Fatalf("import: status %d, stderr %q", status, stderr)
	}
	status, out, stderr := runCommand("analyze", "--nodes", "2000", "--json", rec)
	if status != 0 {
		t.Fatalf("analyze: status %d, stderr %q", status, stderr)
	}
	var rp review.Report
	if err := json.Unmarshal([]byte(out), &rp); err != nil {
		t.Fatalf("analyze --json: %v\n%s", err, out)
	}
	if rp.Rules != "chesscom-chaturaji" || !rp.Complete || rp.Total != 14 || len(rp.Decisions) != 14 {
		t.Fatalf("rules %q, complete %v, %d of %d decisions; want chesscom-chaturaji, all 14", rp.Rules, rp.Complete, len(rp.Decisions), rp.Total)
	}
	// South's turns are skipped once its king has fallen (turn 3's East).
	seats := []string{"South", "West", "North", "East", "South", "West", "North", "East", "South", "West", "North", "East", "West", "North"}
	for i, d := range rp.Decisions {
		if d.Seat != seats[i] || len(d.Before) != 4 || len(d.After) != 4 || d.Best == "" || d.Withheld {
			t.Errorf("decision %d: %+v; want %s's, judged, with each seat's expected scores", i+1, d, seats[i])
		}
		s := slices.Index(rp.Seats, d.Seat)
		if s < 0 {
			t.Fatalf("decision %d: seat %q not among %v", i+1, d.Seat, rp.Seats)
		}
		if d.Best == d.Played && i < 12 && !slices.Equal(d.Before, d.After) {
			t.Errorf("decision %d: %s played as best, yet expected %v before and %v after", i+1, d.Played, d.Before, d.After)
		}
		if d.Loss < 0 || d.Loss > d.Before[s]-d.After[s]+0.02 {
			t.Errorf("decision %d: loss %.2f, from %.2f to %.2f", i+1, d.Loss, d.Before[s], d.After[s])
		}
	}
	blunder := rp.Decisions[8]
	if blunder.Turn != 9 || blunder.Played != "c2c3" || blunder.Best != "d2e3" || blunder.Mark != "??" || blunder.Loss < 4 {
		t.Errorf("South's c2c3 (its king left to the knight on e3): %+v; want a blunder (??, a loss of 4 or more), best d2e3", blunder)
	}
	// The resignation and the timeout are no moves: not judged, and the
	// scores after them are the game's.
	for _, d := range rp.Decisions[12:] {
		if d.Played != d.Best || d.Loss != 0 || d.Mark != "" {
			t.Errorf("%s's %s judged: %+v", d.Seat, d.Played, d)
		}
	}
	// After Yellow's timeout the game is over: the final scores, Green's 3
	// for South's king and 3 for each of the two kings left standing.
	if last := rp.Decisions[13]; !slices.Equal(last.After, []float64{0, 0, 0, 9}) {
		t.Errorf("after the last decision %v, want the final scores 0,0,0,9", last.After)
	}

	_, text, _ := runCommand("analyze", "--nodes", "2000", rec)
	if !regexp.MustCompile(`(?m)^turn +9 +South +c2c3 \?\? +best d2e3 +loss +\d+\.\d\d `).MatchString(text) {
		t.Errorf("analyze does not mark turn 9 (South's c2c3) a blunder:\n%s", text)
	}
	// The same again, but for the time the first line says it took.
	took := regexp.MustCompile(` in [^ ]+\n`)
	if _, again, _ := runCommand("analyze", "--nodes", "2000", rec); took.ReplaceAllString(again, "\n") != took.ReplaceAllString(text, "\n") {
		t.Errorf("analyze --nodes gave\n%s\nthen\n%s", text, again)
	}
}
