package rules_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/chaturaji/chaturaji/rules"
)

// Random games for the cross-check, the invariants and the fuzz corpus: how
// to choose actions, and random positions to start from.

// A policy chooses among the legal actions; biased policies steer random
// games toward rules that uniform play rarely reaches (triumphs, peace, the
// clock, retirement).
type policy struct {
	name   string
	bias   float64 // how often to choose among the preferred actions, if any
	prefer func(p *rules.Position, a rules.Action) bool
	avoid  func(p *rules.Position, a rules.Action) bool // never chosen while something else is legal
}

func isCapture(p *rules.Position, a rules.Action) bool {
	return a.Type() == rules.Move && p.At(a.To()) != rules.NoPiece
}

func movesKind(p *rules.Position, a rules.Action, k rules.Kind) bool {
	return a.Type() == rules.Move && p.At(a.From()).Kind() == k
}

var policies = []policy{
	{name: "uniform"},
	{"captures", 0.9, isCapture, nil},
	{"pawns", 0.8, func(p *rules.Position, a rules.Action) bool { return movesKind(p, a, rules.Pawn) }, nil},
	{"boats", 0.9, func(p *rules.Position, a rules.Action) bool { return movesKind(p, a, rules.Boat) }, nil},
	{"quiet", 0.98, func(p *rules.Position, a rules.Action) bool {
		return !isCapture(p, a) && !movesKind(p, a, rules.Pawn) && a.Type() != rules.Retire
	}, nil},
	{"spare kings", 0.95, func(p *rules.Position, a rules.Action) bool {
		return isCapture(p, a) && p.At(a.To()).Kind() != rules.King
	}, func(p *rules.Position, a rules.Action) bool {
		return isCapture(p, a) && p.At(a.To()).Kind() == rules.King || a.Type() == rules.Retire
	}},
	{"retire", 1, func(p *rules.Position, a rules.Action) bool { return a.Type() == rules.Retire }, nil},
}

func (pol policy) choose(p *rules.Position, acts []rules.Action, rng *rand.Rand) rules.Action {
	if pol.prefer != nil && rng.Float64() < pol.bias {
		if a, ok := pickWhere(p, acts, rng, pol.prefer); ok {
			return a
		}
	}
	if pol.avoid != nil {
		if a, ok := pickWhere(p, acts, rng, func(p *rules.Position, a rules.Action) bool { return !pol.avoid(p, a) }); ok {
			return a
		}
	}
	return acts[rng.IntN(len(acts))]
}

// pickWhere chooses uniformly among the actions that satisfy ok, if any.
func pickWhere(p *rules.Position, acts []rules.Action, rng *rand.Rand, ok func(*rules.Position, rules.Action) bool) (rules.Action, bool) {
	var pick rules.Action
	n := 0
	for _, a := range acts {
		if ok(p, a) {
			n++
			if rng.IntN(n) == 0 { // reservoir sampling
				pick = a
			}
		}
	}
	return pick, n > 0
}

// lastLineSquares lists each seat's last line (docs/rules.md §1).
func lastLineSquares(s rules.Seat) []rules.Square {
	var out []rules.Square
	for sq := rules.Square(0); sq < 64; sq++ {
		if onLastLine(s, sq) {
			out = append(out, sq)
		}
	}
	return out
}

// randomPosition writes a random position of the default preset in notation,
// without the engine: at most one king per seat and at least two on the
// board, a few of each other kind, pawns often waiting on their last line,
// boats often near the centre (for triumphs), a frozen army now and then, a
// clock sometimes near 200.
func randomPosition(rng *rand.Rand) string {
	var board [64]rules.Piece
	put := func(pc rules.Piece, from []rules.Square) {
		for range 20 {
			sq := from[rng.IntN(len(from))]
			if board[sq] == rules.NoPiece {
				board[sq] = pc
				return
			}
		}
	}
	var all, centre []rules.Square
	for sq := rules.Square(0); sq < 64; sq++ {
		all = append(all, sq)
		if f, r := sq.File(), sq.Rank(); f >= 2 && f <= 5 && r >= 2 && r <= 5 {
			centre = append(centre, sq)
		}
	}
	var kinged []rules.Seat
	for _, s := range turnOrder {
		if rng.IntN(4) != 0 {
			put(rules.MakePiece(s, rules.King), all)
		}
		for range rng.IntN(3) {
			put(rules.MakePiece(s, rules.Boat), centre)
		}
		for range rng.IntN(2) {
			put(rules.MakePiece(s, rules.Boat), all)
		}
		for range rng.IntN(3) {
			put(rules.MakePiece(s, rules.Horse), all)
		}
		for range rng.IntN(3) {
			put(rules.MakePiece(s, rules.Elephant), all)
		}
		for range rng.IntN(6) {
			if rng.IntN(3) == 0 {
				put(rules.MakePiece(s, rules.Pawn), lastLineSquares(s))
			} else {
				put(rules.MakePiece(s, rules.Pawn), all)
			}
		}
	}
	hasKing := func(s rules.Seat) bool { return slices.Contains(board[:], rules.MakePiece(s, rules.King)) }
	for len(kinged) < 2 {
		kinged = kinged[:0]
		for _, s := range turnOrder {
			if hasKing(s) {
				kinged = append(kinged, s)
			}
		}
		if s := turnOrder[rng.IntN(4)]; len(kinged) < 2 && !hasKing(s) {
			put(rules.MakePiece(s, rules.King), all)
		}
	}
	put(rules.MakePiece(turnOrder[rng.IntN(4)], rules.Elephant), all) // not only kings
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			pc := board[rules.SquareAt(f, r)]
			if pc == rules.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	dice := "-"
	if rng.IntN(5) != 0 {
		dice = fmt.Sprint(2 + rng.IntN(4))
	}
	clock := rng.IntN(30)
	if rng.IntN(4) == 0 {
		clock = 185 + rng.IntN(15)
	}
	seat := kinged[rng.IntN(len(kinged))]
	return fmt.Sprintf("%s %c %s %d,%d,%d,%d %d", b.String(), seat.Letter(), dice,
		rng.IntN(50), rng.IntN(50), rng.IntN(50), rng.IntN(50), clock)
}
