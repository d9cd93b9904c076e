package pgn4_test

import (
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/rules"
)

// fen4s are FEN4s and the engine's notation of the same positions, worked
// out by hand square by square (docs/pgn4.md has the mapping).
var fen4s = []struct{ name, fen4, engine string }{
	{
		// chess.com's start of Chaturaji, as the engines' tests keep it;
		// the engine's start is docs/rules.md §7's.
		"the start", "testdata/chaturaji.fen4:1",
		"yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0",
	},
	{
		// A position from a chess.com game, as Anurag-Baundwal's
		// 4pc-ffa-chaturaji-mcts keeps it: Yellow's and Green's kings
		// taken, their pieces dead (d); Blue to move.
		"two armies dead", "testdata/chaturaji.fen4:2",
		"1yPyHbE1gE1gB/1yK1yP3gP/2yP1gP3/8/2bP5/1bP1bP3rE/bP1bH3yBrH/1bK5rB y - 4,3,14,0 0",
	},
	{
		// Written by hand in the wikibook's form (no options, corners
		// counted as empty squares): Blue resigned, its king standing.
		"blue resigned", "testdata/chaturaji.fen4:3",
		"yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB g - 7,0,2,11 31 dead=y",
	},
}

func fen4Line(t *testing.T, ref string) string {
	t.Helper()
	file, n, _ := strings.Cut(ref, ":")
	lines := strings.Split(readFile(t, strings.TrimPrefix(file, "testdata/")), "\n")
	i := int(n[0] - '1')
	return lines[i]
}

func TestFEN4(t *testing.T) {
	for _, c := range fen4s {
		t.Run(c.name, func(t *testing.T) {
			fen := fen4Line(t, c.fen4)
			p, err := pgn4.ParseFEN4(fen)
			if err != nil {
				t.Fatal(err)
			}
			if p.String() != c.engine {
				t.Errorf("ParseFEN4 =\n %s, want\n %s", p, c.engine)
			}
			want := rules.MustParsePosition(rules.ChesscomChaturaji, c.engine)
			out, err := pgn4.FormatFEN4(want)
			if err != nil {
				t.Fatal(err)
			}
			back, err := pgn4.ParseFEN4(out)
			if err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			if !back.Equal(want) {
				t.Errorf("FormatFEN4 then ParseFEN4: %s, want %s", back, want)
			}
			if strings.Contains(fen, "'dim'") && out != fen {
				t.Errorf("FormatFEN4 =\n %s, want chess.com's\n %s", out, fen)
			}
		})
	}
}

func TestFEN4Refused(t *testing.T) {
	start := fen4Line(t, "testdata/chaturaji.fen4:1")
	head, board, _ := strings.Cut(start, "-{'dim':'8x8','boxOffset':1}-")
	rank := func(i int, s string) string { // replace rank i (14 first) of the start
		r := strings.Split(board, "/")
		r[14-i] = s
		return head + "-" + strings.Join(r, "/")
	}
	for _, c := range []struct{ name, fen, want string }{
		{"too few fields", "R-0,0,0,0-0,0,0,0", "want the fields"},
		{"a colour that does not exist", "X" + start[1:], `turn: "X"`},
		{"three eliminated flags", strings.Replace(start, "R-0,0,0,0-", "R-0,0,0-", 1), "eliminated"},
		{"castling", strings.Replace(start, "R-0,0,0,0-0,0,0,0-", "R-0,0,0,0-0,1,0,0-", 1), "no castling"},
		{"negative points", strings.Replace(start, "-0,0,0,0-0-{", "-0,0,0,a-0-{", 1), `"a" is not a whole number`},
		{"a 14x14 board", strings.Replace(start, "'8x8'", "'14x14'", 1), "the 8x8 board"},
		{"unclosed options", strings.Replace(start, "}", "", 1), "must be closed"},
		{"13 ranks", head + "-" + board[strings.Index(board, "/")+1:], "want 14 ranks"},
		{"15 squares in a rank", rank(14, "x,x,x,x,x,x,x,x,x,x,x,x,x,x,x"), "more than 14 squares"},
		{"13 squares in a rank", rank(8, "x,x,x,6,gP,gK,x,x"), "rank 8 has 13 squares"},
		{"a piece in a corner", rank(1, "rK,x,x,x,x,x,x,x,x,x,x,x,x,x"), "off the 8x8 board"},
		{"x on the board", rank(8, "x,x,x,x,5,gP,gK,x,x,x"), "x marks a square off the board"},
		{"a queen", rank(4, "x,x,x,rR,rN,rB,rQ,2,gP,gR,x,x,x"), `"Q" is not a piece of chess.com's Chaturaji`},
		{"a dead piece of a live army", rank(4, "x,x,x,drR,rN,rB,rK,2,gP,gR,x,x,x"), "Red is not eliminated"},
		{"no king and not eliminated", rank(4, "x,x,x,rR,rN,rB,1,2,gP,gR,x,x,x"), "Red is not eliminated but has no king"},
		{"two kings", rank(4, "x,x,x,rR,rN,rK,rK,2,gP,gR,x,x,x"), "Red has two kings"},
		{"a count of 0", rank(9, "x,x,x,0,8,x,x,x"), "not a count of empty squares"},
		{"a dead army to move", strings.Replace(start, "R-0,0,0,0-", "B-0,1,0,0-", 1), "dead, so its turn is skipped"},
		{"too long", start + strings.Repeat(" ", pgn4.MaxFEN4), "longer than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := pgn4.ParseFEN4(c.fen)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseFEN4(%q) = %v, want an error with %q", c.fen, err, c.want)
			}
		})
	}
}
