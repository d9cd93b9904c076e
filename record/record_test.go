package record_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

var update = flag.Bool("update", false, "rewrite the generated files in testdata")

// playGame plays a game of the default preset with dice from seed n and
// random actions, stopping after limit turns if limit > 0. With rolled, a
// stopped game is left with its last roll made but not acted on.
func playGame(tb testing.TB, n uint64, limit int, rolled bool) *rules.Game {
	tb.Helper()
	g := rules.NewGame(rules.Chaturaji, rules.SeedFromInt(n))
	rng := rand.New(rand.NewPCG(n, 0))
	var buf [rules.MaxActions]rules.Action
	for turns := 0; !g.Finished(); turns++ {
		if limit > 0 && turns == limit && !rolled {
			break
		}
		if _, err := g.Roll(); err != nil {
			tb.Fatal(err)
		}
		if limit > 0 && turns == limit {
			break
		}
		acts := g.Position().Actions(buf[:])
		if err := g.Play(acts[rng.IntN(len(acts))]); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

func names(date string) []record.Tag {
	return []record.Tag{
		{Name: "Date", Value: date},
		{Name: "South", Value: "random"},
		{Name: "West", Value: "random"},
		{Name: "North", Value: "random"},
		{Name: "East", Value: "random"},
	}
}

// generated are the valid records made by this test's own self-play; the
// others in testdata/valid are written by hand.
func generated(t *testing.T) map[string][]*record.Record {
	live := record.FromGame(playGame(t, 2, 9, true), names("2025.01.03")...)
	live.Tags.Delete("Seed") // the seed stays secret while the game is live
	// A game from a later position: the start of game 3 after 40 turns.
	mid := playGame(t, 3, 40, false).Position()
	g := rules.NewGameFrom(mid, rules.SeedFromInt(4))
	rng := rand.New(rand.NewPCG(4, 0))
	var buf [rules.MaxActions]rules.Action
	for !g.Finished() {
		g.Roll()
		acts := g.Position().Actions(buf[:])
		g.Play(acts[rng.IntN(len(acts))])
	}
	return map[string][]*record.Record{
		"selfplay-1.cgn": {record.FromGame(playGame(t, 1, 0, false), names("2025.01.02")...)},
		"two-games.cgn":  {record.FromGame(playGame(t, 5, 0, false), names("2025.01.03")...), live},
		"start-tag.cgn":  {record.FromGame(g, names("2025.01.04")...)},
	}
}

func TestGenerated(t *testing.T) {
	for name, recs := range generated(t) {
		var b strings.Builder
		if err := record.WriteAll(&b, recs); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "valid", name)
		if *update {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("%s: self-play no longer writes the same records; run go test -update if that is intended", path)
		}
	}
}

// TestValid reads every record of testdata/valid: each file is canonical,
// so it prints back unchanged, and each game replays with its dice.
func TestValid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "valid", "*.cgn"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/valid")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := record.ParseString(string(data))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			record.WriteAll(&b, recs)
			if b.String() != string(data) {
				t.Errorf("not printed back unchanged:\n%s", b.String())
			}
			for _, r := range recs {
				if _, err := r.Replay(); err != nil {
					t.Error(err)
				}
				if err := r.VerifyDice(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestLoose reads non-canonical but valid text (comments, CRLF, odd
// spacing) and checks its canonical form against the .golden file beside it.
func TestLoose(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "loose", "*.cgn"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/loose")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := record.ParseString(string(data))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				if _, err := r.Replay(); err != nil {
					t.Error(err)
				}
			}
			var b strings.Builder
			record.WriteAll(&b, recs)
			golden := strings.TrimSuffix(path, ".cgn") + ".golden"
			if *update {
				os.WriteFile(golden, []byte(b.String()), 0o644)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("canonical form:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}

// TestInvalid checks that each file of testdata/invalid fails, when parsed,
// replayed and its dice verified, with the error its first line names:
// `; want: <substring of the error>`.
func TestInvalid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "invalid", "*.cgn"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/invalid")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "; want: ")
			if !ok {
				t.Fatal(`the first line must be "; want: <error substring>"`)
			}
			err = check(string(data))
			if err == nil {
				t.Fatalf("no error; want %q", want)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q\ndoes not contain %q", err, want)
			}
		})
	}
}

// check parses text, replays every game and verifies its dice.
func check(text string) error {
	recs, err := record.ParseString(text)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if _, err := r.Replay(); err != nil {
			return err
		}
		if err := r.VerifyDice(); err != nil {
			return err
		}
	}
	return nil
}

// TestRoundTripSelfPlay writes, reads and replays many random games, some
// stopped midway, and checks that nothing is lost on the way.
func TestRoundTripSelfPlay(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	var recs []*record.Record
	var games []*rules.Game
	for i := range n {
		limit := 0
		if i%5 == 4 {
			limit = 7 * i
		}
		g := playGame(t, uint64(1000+i), limit, i%2 == 0)
		games = append(games, g)
		recs = append(recs, record.FromGame(g, names("2025.02.03")...))
	}
	var b strings.Builder
	if err := record.WriteAll(&b, recs); err != nil {
		t.Fatal(err)
	}
	back, err := record.ParseString(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(recs) {
		t.Fatalf("read %d records, wrote %d", len(back), len(recs))
	}
	for i, r := range back {
		if !r.Equal(recs[i]) {
			t.Fatalf("game %d changed on the way:\n%s\nread back as:\n%s", i+1, recs[i], r)
		}
		g, err := r.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.VerifyDice(); err != nil {
			t.Fatal(err)
		}
		if !g.Position().Equal(games[i].Position()) {
			t.Fatalf("game %d replays to %s, not %s", i+1, g.Position(), games[i].Position())
		}
	}
}

func TestTags(t *testing.T) {
	var ts record.Tags
	ts.Set("Rules", "chaturaji")
	ts.Set("South", `ann "the boat" \ co`)
	ts.Set("Rules", "chaturaji")
	if len(ts) != 2 {
		t.Fatalf("Set of an existing tag added one: %v", ts)
	}
	if got := ts[1].String(); got != `[South "ann \"the boat\" \\ co"]` {
		t.Errorf("escaped as %s", got)
	}
	ts.Delete("Rules")
	if _, ok := ts.Get("Rules"); ok || len(ts) != 1 {
		t.Errorf("Delete left %v", ts)
	}
}

func TestFromGameLeavesOutZeroSeed(t *testing.T) {
	g := rules.NewGame(rules.Chaturaji, rules.Seed{})
	r := record.FromGame(g, record.Tag{Name: "Seed", Value: "forged"}, record.Tag{Name: "Rules", Value: "chess"})
	want := "[Rules \"chaturaji\"]\n[Result \"*\"]\n"
	if r.String() != want {
		t.Errorf("got\n%s\nwant\n%s", r, want)
	}
}

func TestErrorsNameTheLine(t *testing.T) {
	text := "[Rules \"chaturaji\"]\n\nb 5 d2d3  y 3 a7c6\n  g 3 g8h6  r 5 h1f3\n"
	recs, err := record.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	_, err = recs[0].Replay()
	want := `record: game 1: line 4: turn 4 "h1f3": `
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want prefix %q", err, want)
	}
	if recs[0].TurnLine(2) != 4 || recs[0].Number() != 1 {
		t.Errorf("TurnLine(2) = %d, Number() = %d", recs[0].TurnLine(2), recs[0].Number())
	}
}
