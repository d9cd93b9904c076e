package pgn4

import (
	"fmt"

	"github.com/chaturaji/chaturaji/rules"
)

// chess.com draws Chaturaji's 8x8 board inside its four-player 14x14 grid:
// files d to k and ranks 4 to 11, the box its FEN4 marks with 'x' around.
// The engine's a1 is chess.com's d4, its h8 chess.com's k11.
const (
	fileOffset = 3 // a -> d
	rankOffset = 3 // rank 1 -> rank 4
	gridSize   = 14
)

// SquareName returns the name chess.com gives the engine's square sq on its
// 14x14 grid: "d4" for a1, "k11" for h8.
func SquareName(sq rules.Square) string {
	return fmt.Sprintf("%c%d", 'a'+fileOffset+sq.File(), sq.Rank()+rankOffset+1)
}

// ParseSquare reads a square of chess.com's 14x14 grid (files a to n, ranks
// 1 to 14) and returns the engine's square. A square of the grid outside
// Chaturaji's board (d4 to k11) is an error that says so.
func ParseSquare(name string) (rules.Square, error) {
	f, r, ok := gridSquare(name)
	if !ok {
		return rules.NoSquare, fmt.Errorf("pgn4: invalid square %q: want a file a to n and a rank 1 to 14, like g5", name)
	}
	return boardSquare(f, r, name)
}

// gridSquare reads a square of the 14x14 grid as its file and rank from 0.
func gridSquare(name string) (f, r int, ok bool) {
	if len(name) < 2 || len(name) > 3 || name[0] < 'a' || name[0] >= 'a'+gridSize {
		return 0, 0, false
	}
	n := 0
	for i := 1; i < len(name); i++ {
		c := name[i]
		if c < '0' || c > '9' || i == 1 && c == '0' {
			return 0, 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > gridSize {
		return 0, 0, false
	}
	return int(name[0] - 'a'), n - 1, true
}

// boardSquare returns the engine's square at file f and rank r (from 0) of
// the 14x14 grid, or an error if it is outside Chaturaji's board.
func boardSquare(f, r int, name string) (rules.Square, error) {
	f, r = f-fileOffset, r-rankOffset
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return rules.NoSquare, fmt.Errorf("pgn4: square %s is outside chess.com's Chaturaji board (files d to k, ranks 4 to 11)", name)
	}
	return rules.SquareAt(f, r), nil
}

// colours are chess.com's colours in its turn order, red first, and the
// engine's seats that play them: the armies stand where §1.3 of
// docs/rules.md puts them, so red is South, blue West, yellow North and
// green East. Their letters in FEN4 (r, b, y, g) are not the engine's
// colour letters (b, y, g, r), which name the same seats.
var colours = [rules.NumSeats]struct {
	name   string
	letter byte // the FEN4 letter (lower case) and the turn letter (upper case)
	seat   rules.Seat
}{
	{"Red", 'r', rules.South},
	{"Blue", 'b', rules.West},
	{"Yellow", 'y', rules.North},
	{"Green", 'g', rules.East},
}

// colourOf returns the index in colours of seat s.
func colourOf(s rules.Seat) int {
	for i, c := range colours {
		if c.seat == s {
			return i
		}
	}
	return -1
}

// colourOfLetter returns the index in colours of the FEN4 letter c (either
// case), or -1.
func colourOfLetter(c byte) int {
	c |= 0x20
	for i, col := range colours {
		if col.letter == c {
			return i
		}
	}
	return -1
}

// pieceLetters are chess.com's letters for the engine's kinds in this
// preset: the sailboat is written R, the knight N, the bishop B.
var pieceLetters = [rules.NumKinds]byte{
	rules.Pawn:     'P',
	rules.Boat:     'R',
	rules.Horse:    'N',
	rules.Elephant: 'B',
	rules.King:     'K',
}

// kindOfLetter returns the kind chess.com's piece letter c names, or
// rules.NoKind.
func kindOfLetter(c byte) rules.Kind {
	for k, l := range pieceLetters {
		if l != 0 && l == c {
			return rules.Kind(k)
		}
	}
	return rules.NoKind
}
