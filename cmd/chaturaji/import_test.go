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

// TestImportDB loads pgn4/testdata/blunder.pgn4 into an SQLite file with a
// key file, refuses a file whose game is not over (loading nothing), exports
// the database in PGN4 (the same moves come back), then starts `chaturaji
// serve` on the file with that key: the game is listed, finished, with the
// PGN4's players as its seats' names; its events end in its result; its
// record is signed with the key serve prints; and its replay page is served.
func TestImportDB(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	key := filepath.Join(dir, "server.key")
	keygen(t, bin, key)
	db := "sqlite:" + filepath.Join(dir, "games.db")
	game := filepath.Join("..", "..", "pgn4", "testdata", "blunder.pgn4")

	status, out, stderr := runCommand("import", "--db", db, "--key-file", key, game)
	m := regexp.MustCompile(`^game 1: ([a-z2-7]{16}) /replay/([a-z2-7]{16})\n$`).FindStringSubmatch(out)
	if status != 0 || m == nil || m[1] != m[2] || stderr != "imported 1 games into "+db+"\n" {
		t.Fatalf("import --db: status %d, stdout %q, stderr %q", status, out, stderr)
	}
	id := m[1]
	status, out, stderr = runCommand("import", "--db", db, "--key-file", key, filepath.Join("..", "..", "pgn4", "testdata", "promotion.pgn4"))
	if status != 2 || out != "" || !strings.Contains(stderr, "game 1: the game is not over") {
		t.Errorf("import --db of an unfinished game: status %d, stdout %q, stderr %q", status, out, stderr)
	}
	for _, args := range [][]string{{"--db", db, "--out", "x"}, {"--key-file", key}} {
		if status, _, _ := runCommand(append(append([]string{"import"}, args...), game)...); status != 2 {
			t.Errorf("import %q: status %d, want 2", args, status)
		}
	}
	status, pg, stderr := runCommand("export", "--db", db, "--key-file", key, "--format", "pgn4")
	if status != 0 || !strings.Contains(stderr, "exported 1 games") {
		t.Fatalf("export --format pgn4: status %d, stderr %q", status, stderr)
	}
	if !strings.Contains(pg, "3. f5-f6 .. e10-f10 .. j10-j9 .. Nh6xKg4\n4. R .. T") || !strings.Contains(pg, `[Red "ann"]`) {
		t.Errorf("export --format pgn4 of the imported game:\n%s", pg)
	}

	addr := freeAddr(t)
	srv := startBinary(t, bin, addr, db, "--key-file", key)
	base := "http://" + addr
	if list := getText(t, base+"/api/games?status=finished"); !strings.Contains(list, `"`+id+`"`) {
		t.Errorf("GET /api/games does not list %s: %s", id, list)
	}
	st := getState(t, base, id)
	var names []string
	for _, s := range st.Seats {
		names = append(names, s.Name)
	}
	if st.Status != "finished" || st.Rules != "chesscom-chaturaji" || !slices.Equal(names, []string{"ann", "bob", "cy", "di"}) {
		t.Errorf("game %s: %s, %s, names %q; want finished chesscom-chaturaji of ann, bob, cy, di", id, st.Status, st.Rules, names)
	}
	evs := getEvents(t, base, id)
	var end server.Event
	if err := json.Unmarshal(evs[len(evs)-1], &end); err != nil || end.Kind != server.KindEnd || end.Result != "0,0,0,9" {
		t.Errorf("the last of %d events: %s; want the end, 0,0,0,9", len(evs), evs[len(evs)-1])
	}
	text := getText(t, base+"/api/games/"+id+"/record")
	recs, err := record.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := record.ParsePublicKey(srv.key)
	if err != nil {
		t.Fatal(err)
	}
	if err := recs[0].CheckSignature(pub); err != nil || len(recs[0].Turns) != 14 {
		t.Errorf("the record served: %v, %d turns, want 14 signed with serve's key %s:\n%s", err, len(recs[0].Turns), srv.key, text)
	}
	getText(t, base+"/replay/"+id) // fails the test unless 200
}
