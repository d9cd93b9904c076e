package pgn4_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseOne parses text that holds one game.
func parseOne(t testing.TB, text string) *pgn4.Game {
	t.Helper()
	games, err := pgn4.ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("got %d games, want 1", len(games))
	}
	return games[0]
}

func TestSquares(t *testing.T) {
	// The engine's squares and chess.com's names for them: the corners
	// and thrones of the setup (docs/rules.md §1.3) against the mapping
	// manfredmirsch/chaturaji-engine tests (d4 a1, g4 d1, d11 a8, k4 h1,
	// h11 e8).
	for _, c := range []struct{ engine, chesscom string }{
		{"a1", "d4"}, {"d1", "g4"}, {"a8", "d11"}, {"h1", "k4"}, {"e8", "h11"}, {"h8", "k11"}, {"a5", "d8"}, {"h4", "k7"},
	} {
		sq, err := rules.ParseSquare(c.engine)
		if err != nil {
			t.Fatal(err)
		}
		if got := pgn4.SquareName(sq); got != c.chesscom {
			t.Errorf("SquareName(%s) = %s, want %s", c.engine, got, c.chesscom)
		}
		back, err := pgn4.ParseSquare(c.chesscom)
		if err != nil || back != sq {
			t.Errorf("ParseSquare(%s) = %v, %v; want %s", c.chesscom, back, err, c.engine)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"a1", "outside chess.com's Chaturaji board"},
		{"d3", "outside"},
		{"l4", "outside"},
		{"k12", "outside"},
		{"o5", "want a file a to n"},
		{"d15", "want a file a to n and a rank 1 to 14"},
		{"d0", "invalid square"},
		{"d04", "invalid square"},
		{"D4", "invalid square"},
		{"d", "invalid square"},
	} {
		if _, err := pgn4.ParseSquare(c.name); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSquare(%q) = %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// The games of testdata, written by hand from the format (docs/pgn4.md),
// with what the rules make of them, worked out by hand from docs/rules.md
// §6.12.
var handGames = []struct {
	file     string
	moves    int
	result   string // the record's Result
	end      rules.End
	position string // the final position in the engine's notation, "" not checked
	names    [4]string
	date     string
}{
	{
		// Green takes Red's king in round 6; Blue resigns, Yellow runs out
		// of time: Green is the last live army and scores 3 for each king
		// still standing (Blue's, Yellow's): 4 + 6.
		file: "resign-timeout.pgn4", moves: 26, result: "4,1,0,10", end: rules.LastAlive,
		names: [4]string{"ann", "bob", "cy", "di"}, date: "2018.11.28",
	},
	{
		// Red leaves its king to Green's knight in round 3 and Green takes
		// it (3 points); Blue resigns, Yellow runs out of time: Green is the
		// last live army and scores 3 for each king still standing (Blue's,
		// Yellow's): 3 + 6. The game whose review marks Red's blunder
		// (cmd/chaturaji, web).
		file: "blunder.pgn4", moves: 14, result: "0,0,0,9", end: rules.LastAlive,
		names: [4]string{"ann", "bob", "cy", "di"},
	},
	{
		// Red's d-pawn walks to d8 and becomes a sailboat, which Yellow's
		// king takes at once (5 points); the game goes on.
		file: "promotion.pgn4", moves: 24, result: "*", end: rules.NotOver,
		position: "yByP1gK1gE1gB/yHyP2gPgPgPgP/yEyP5gH/yKyP6/6rPrK/6rPrE/bPbPbP3rPrH/bBbHbEbK2rPrB b - 0,0,5,0 1",
		names:    [4]string{"ann", "bob", "cy", "di"},
	},
	{
		// The first two rounds of resign-timeout.pgn4, in every form the
		// reader skips.
		file: "syntax.pgn4", moves: 8, result: "*", end: rules.NotOver,
		position: "yByP2gKgEgHgB/yHyP4gPgP/yE1yP1gPgP2/yK1yP5/5rP1rK/2bPbP1rP1rE/bPbP4rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0",
		names:    [4]string{"ann \"the first\""},
	},
}

func TestHandGames(t *testing.T) {
	for _, c := range handGames {
		t.Run(c.file, func(t *testing.T) {
			g := parseOne(t, readFile(t, c.file))
			if len(g.Moves) != c.moves {
				t.Fatalf("%d moves, want %d", len(g.Moves), c.moves)
			}
			rec, err := g.Record()
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := rec.Tags.Get("Result"); got != c.result {
				t.Errorf("Result %s, want %s", got, c.result)
			}
			for i, s := range []string{"South", "West", "North", "East"} {
				if got, _ := rec.Tags.Get(s); got != c.names[i] {
					t.Errorf("%s %q, want %q", s, got, c.names[i])
				}
			}
			if got, _ := rec.Tags.Get("Date"); got != c.date {
				t.Errorf("Date %q, want %q", got, c.date)
			}
			// The record replays by itself, to the same end.
			game, err := rec.Replay()
			if err != nil {
				t.Fatalf("the imported record does not replay: %v\n%s", err, rec)
			}
			p := game.Position()
			if p.EndReason() != c.end {
				t.Errorf("end %v, want %v", p.EndReason(), c.end)
			}
			if c.position != "" && p.String() != c.position {
				t.Errorf("final position\n %s, want\n %s", p, c.position)
			}
			// Export and import again: the same game.
			back := roundTrip(t, rec)
			if !slices.EqualFunc(back.Turns, rec.Turns, sameTurn) {
				t.Errorf("round trip changed the turns:\n%s\nthen\n%s", rec, back)
			}
			for _, name := range []string{"Result", "South", "West", "North", "East", "Date", "Site", "GameNr"} {
				a, _ := rec.Tags.Get(name)
				b, _ := back.Tags.Get(name)
				if a != b {
					t.Errorf("round trip changed tag %s from %q to %q", name, a, b)
				}
			}
		})
	}
}

func sameTurn(a, b rules.Turn) bool { return a.Seat == b.Seat && slices.Equal(a.Actions, b.Actions) }

// roundTrip writes rec in PGN4 and reads it back as a record.
func roundTrip(t testing.TB, rec *record.Record) *record.Record {
	t.Helper()
	pg, err := pgn4.FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	text := pg.String()
	back, err := parseOne(t, text).Record()
	if err != nil {
		t.Fatalf("the exported game does not import: %v\n%s", err, text)
	}
	return back
}

func TestManyGamesInAFile(t *testing.T) {
	var text strings.Builder
	for _, c := range handGames {
		text.WriteString(readFile(t, c.file))
		text.WriteString("\n")
	}
	games, err := pgn4.ParseString(text.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(handGames) {
		t.Fatalf("%d games, want %d", len(games), len(handGames))
	}
	for i, g := range games {
		if g.Number != i+1 || len(g.Moves) != handGames[i].moves {
			t.Errorf("game %d: number %d, %d moves; want %d moves", i+1, g.Number, len(g.Moves), handGames[i].moves)
		}
	}
}

// TestRandomGamesRoundTrip exports and imports again games the rules
// engine plays at random, to their end: every kind of move, capture,
// promotion, check, dead army, pass and claim the random player meets,
// with resigns and timeouts mixed in.
func TestRandomGamesRoundTrip(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 20
	}
	rng := rand.New(rand.NewPCG(24, 4))
	kinds := map[string]int{}
	for i := range n {
		g := rules.NewGame(rules.ChesscomChaturaji, rules.Seed{})
		for !g.Finished() {
			acts := g.Actions(nil)
			a := acts[rng.IntN(len(acts))]
			switch rng.IntN(400) {
			case 0:
				a = rules.ResignAction
			case 1:
				a = rules.TimeoutAction
			}
			if err := g.Play(a); err != nil {
				t.Fatal(err)
			}
			kinds[a.Format(rules.ChesscomChaturaji)[:min(4, len(a.Format(rules.ChesscomChaturaji)))]]++
		}
		rec := record.FromGame(g, record.Tag{Name: "South", Value: "s"}, record.Tag{Name: "East", Value: "e"})
		back := roundTrip(t, rec)
		if !slices.EqualFunc(back.Turns, rec.Turns, sameTurn) || !slices.Equal(back.Tags, rec.Tags) {
			t.Fatalf("game %d: round trip changed the game:\n%s\nthen\n%s", i, rec, back)
		}
	}
	for _, k := range []string{"resi", "time", "clai"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in %d random games: the test does not cover it", k, n)
		}
	}
}
