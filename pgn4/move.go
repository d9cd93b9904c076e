package pgn4

import (
	"fmt"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// MoveKind says what a move of PGN4's movetext is.
type MoveKind uint8

// The kinds of move. Resign, Timeout, Checkmate and Stalemate are chess.com's
// one-letter tokens that take a player's turn; Pass and Claim are this
// package's own words, for the two actions of the preset that chess.com's
// files do not show (see the package comment).
const (
	Ordinary  MoveKind = iota // a piece moves: g5-g6, Nf6xe8+, e10-d10=R
	Resign                    // R: the player resigns
	Timeout                   // T: the player's time ran out
	Checkmate                 // #: the player is checkmated (four-player chess; never in Chaturaji)
	Stalemate                 // S: the player is stalemated (four-player chess; never in Chaturaji)
	Pass                      // pass: the player has no move (ours)
	Claim                     // claim: the player claims the win (ours)
)

// words are the moves written as one word.
var words = map[string]MoveKind{"R": Resign, "T": Timeout, "#": Checkmate, "S": Stalemate, "pass": Pass, "claim": Claim}

// Move is one move of PGN4's movetext, as written: a piece moving in
// chess.com's long algebraic notation, or a word that takes the turn.
type Move struct {
	Kind     MoveKind     // a piece's move (Ordinary), or a word that takes the turn
	Piece    rules.Kind   // the piece named: its letter, or none for a pawn (rules.Pawn)
	From, To rules.Square // the engine's squares
	Capture  bool         // written with x
	Captured rules.Kind   // the piece named after the x; rules.NoKind if none (a pawn, or not said)
	Promote  bool         // written with =R: a pawn becomes a sailboat
	Checks   int          // the + marks after it, 0 to 3

	Round int // the move number it was written under, 0 if none
	Line  int // the line of the file where it is, from 1
}

// String returns the move in the form the writer uses: the piece's letter
// (none for a pawn), the squares joined by - or by x and the captured
// piece's letter (none for a pawn), =R for a promotion, then the + marks.
func (m Move) String() string {
	if m.Kind != Ordinary {
		for w, k := range words {
			if k == m.Kind {
				return w
			}
		}
	}
	var b strings.Builder
	if m.Piece != rules.Pawn {
		b.WriteByte(pieceLetters[m.Piece])
	}
	b.WriteString(SquareName(m.From))
	if m.Capture {
		b.WriteByte('x')
		if m.Captured != rules.NoKind && m.Captured != rules.Pawn {
			b.WriteByte(pieceLetters[m.Captured])
		}
	} else {
		b.WriteByte('-')
	}
	b.WriteString(SquareName(m.To))
	if m.Promote {
		b.WriteString("=R")
	}
	b.WriteString(strings.Repeat("+", m.Checks))
	return b.String()
}

// ParseMove reads one move as chess.com writes it: an optional piece letter
// (K, N, B, R; P or none for a pawn), the from square, - or x with an
// optional letter of the piece captured, the to square, an optional =R,
// then + marks (up to three) or #, and the annotation marks ! and ?, which
// are dropped; or one of the words R, T, #, S, pass and claim.
func ParseMove(s string) (Move, error) {
	if k, ok := words[s]; ok {
		return Move{Kind: k}, nil
	}
	m := Move{Piece: rules.Pawn}
	t := strings.TrimRight(s, "!?")
	if t == "" {
		return m, fmt.Errorf("pgn4: invalid move %q: want a move like g5-g6 or Nf6xe8, or R (resigns) or T (time out)", s)
	}
	bad := func(why string) (Move, error) {
		return Move{}, fmt.Errorf("pgn4: invalid move %q: %s", s, why)
	}
	for len(t) > 0 && t[len(t)-1] == '+' {
		m.Checks++
		t = t[:len(t)-1]
	}
	if m.Checks > 3 {
		return bad("at most three + marks (three kings in check)")
	}
	if m.Checks == 0 && strings.HasSuffix(t, "#") {
		t = t[:len(t)-1] // a king taken or a mate marked: nothing to check
	}
	if k, ok := strings.CutSuffix(t, "=R"); ok {
		m.Promote, t = true, k
	} else if i := strings.IndexByte(t, '='); i >= 0 {
		return bad(fmt.Sprintf("a pawn promotes to a sailboat only, written =R, not %s", t[i:]))
	}
	if t != "" && t[0] >= 'A' && t[0] <= 'Z' {
		if m.Piece = kindOfLetter(t[0]); m.Piece == rules.NoKind {
			return bad(fmt.Sprintf("%q is not a piece of chess.com's Chaturaji (K, N, B, R, or none for a pawn)", t[:1]))
		}
		t = t[1:]
	}
	i := strings.IndexAny(t, "-x")
	if i < 0 {
		return bad("want the two squares joined by - (a move) or x (a capture), like g5-g6")
	}
	from, to := t[:i], t[i+1:]
	m.Capture = t[i] == 'x'
	if to != "" && to[0] >= 'A' && to[0] <= 'Z' {
		if !m.Capture {
			return bad("a captured piece's letter follows x, not -")
		}
		if m.Captured = kindOfLetter(to[0]); m.Captured == rules.NoKind {
			return bad(fmt.Sprintf("%q is not a piece of chess.com's Chaturaji (K, N, B, R, P)", to[:1]))
		}
		to = to[1:]
	}
	var err error
	if m.From, err = ParseSquare(from); err != nil {
		return bad(strings.TrimPrefix(err.Error(), "pgn4: "))
	}
	if m.To, err = ParseSquare(to); err != nil {
		return bad(strings.TrimPrefix(err.Error(), "pgn4: "))
	}
	if m.From == m.To {
		return bad("the from and to squares are the same")
	}
	return m, nil
}
