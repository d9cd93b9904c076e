package pgn4_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/pgn4"
)

// FuzzParse checks that the PGN4 reader never panics and that what it reads
// it writes back stably: parse, write, parse again gives the same games,
// written the same; and a game that replays replays again from its record.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.pgn4"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(opening + "f8xg7 {c} (1... x) ; c\n*")
	f.Add("1... g5-g6!? $2 .. R .. T .. pass .. claim 1/2-1/2")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := pgn4.ParseString(text)
		if err != nil {
			return
		}
		var out strings.Builder
		if err := pgn4.WriteAll(&out, games); err != nil {
			t.Fatal(err)
		}
		again, err := pgn4.ParseString(out.String())
		if err != nil {
			t.Fatalf("the written games do not parse: %v\n%s", err, out.String())
		}
		if len(again) != len(games) {
			t.Fatalf("%d games, then %d:\n%s", len(games), len(again), out.String())
		}
		for i, g := range games {
			if !slices.Equal(g.Tags, again[i].Tags) || g.Result != again[i].Result || g.String() != again[i].String() {
				t.Fatalf("game %d changed:\n%s\nthen\n%s", i+1, g, again[i])
			}
			for j, m := range g.Moves {
				if m.Round != again[i].Moves[j].Round {
					t.Fatalf("game %d move %d: round %d, then %d", i+1, j+1, m.Round, again[i].Moves[j].Round)
				}
			}
			if rec, err := g.Record(); err == nil {
				if _, err := rec.Replay(); err != nil {
					t.Fatalf("the imported record does not replay: %v\n%s", err, rec)
				}
			}
		}
	})
}

// FuzzFEN4 checks that the FEN4 reader never panics and that a position it
// reads is written and read back to the same position, written the same.
func FuzzFEN4(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "chaturaji.fen4"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := pgn4.ParseFEN4(s)
		if err != nil {
			return
		}
		out, err := pgn4.FormatFEN4(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := pgn4.ParseFEN4(out)
		if err != nil {
			t.Fatalf("FormatFEN4 wrote %q, which does not parse: %v (from %q)", out, err, s)
		}
		if !q.Equal(p) {
			t.Fatalf("%q read as %s, written %q, read as %s", s, p, out, q)
		}
		if again, _ := pgn4.FormatFEN4(q); again != out {
			t.Fatalf("written %q, then %q", out, again)
		}
	})
}
