package naive

import (
	"fmt"
	"sort"
	"strings"
)

// ChesscomChaturaji is chess.com's Chaturaji (docs/rules.md §6.12): no
// dice; the letters are the default's, B a sailboat sliding like a rook, E a
// bishop sliding diagonally, H a knight; points pawn 1, knight 3, king 3,
// bishop 5, sailboat 5, nothing for a dead army's piece but its king;
// 1 point for a move after which two live enemy kings are attacked anew,
// 5 for three; pawns promote to sailboats on the far edge; an army is dead
// once its king is taken or its seat played resign or timeout (the king
// then stands, written dead=); the game ends when one army lives (it takes
// 3 for every other king standing), when the last two's leader claims
// (the other dies), when nobody can catch the leader, or after 200 quiet
// turns (2 for each live army).
const ChesscomChaturaji = "chesscom-chaturaji"

// chesscomPoints is what capturing a live piece of each kind scores.
func chesscomPoints(kind byte) int {
	switch kind {
	case Pawn:
		return 1
	case Horse, King:
		return 3
	case Boat, Elephant:
		return 5
	}
	panic("naive: chess.com points of " + string(kind))
}

// alive reports whether seat's army lives: its king on the board and no
// resign or timeout.
func (p *Position) alive(seat int) bool { return p.hasKind(seat, King) && !p.Dead[seat] }

// aliveCount counts the live armies.
func (p *Position) aliveCount() int {
	n := 0
	for _, s := range clockwise {
		if p.alive(s) {
			n++
		}
	}
	return n
}

// chesscomTargets returns the squares the piece on from moves to: a pawn
// one step forward onto an empty square or one step diagonally forward onto
// another seat's piece; a knight or king by its steps; a sailboat along
// ranks and files, a bishop along diagonals, up to and including the first
// piece on the way (if it is another seat's). Never onto its own army.
func (p *Position) chesscomTargets(from int) []int {
	pc := p.Board[from]
	f, r := from%8, from/8
	var out []int
	land := func(nf, nr int, take, quiet bool) bool {
		if !onBoard(nf, nr) {
			return false
		}
		t := p.Board[square(nf, nr)]
		switch {
		case t.Kind == Empty && quiet, t.Kind != Empty && t.Seat != pc.Seat && take:
			out = append(out, square(nf, nr))
		}
		return t.Kind == Empty
	}
	switch pc.Kind {
	case Pawn:
		df, dr := pawnForward(pc.Seat)
		land(f+df, r+dr, false, true)
		land(f+df+dr, r+dr+df, true, false)
		land(f+df-dr, r+dr-df, true, false)
	case Horse:
		for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			land(f+d[0], r+d[1], true, true)
		}
	case King:
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			land(f+d[0], r+d[1], true, true)
		}
	case Boat, Elephant:
		dirs := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
		if pc.Kind == Elephant {
			dirs = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
		}
		for _, d := range dirs {
			for i := 1; land(f+i*d[0], r+i*d[1], true, true); i++ {
			}
		}
	}
	return out
}

// chesscomActions lists the seat's moves, or pass if it has none, and claim
// when it may claim, sorted. Resign and timeout are not listed.
func (p *Position) chesscomActions() []string {
	var acts []string
	for sq, pc := range p.Board {
		if pc.Kind == Empty || pc.Seat != p.Seat {
			continue
		}
		for _, to := range p.chesscomTargets(sq) {
			acts = append(acts, squareName(sq)+squareName(to))
		}
	}
	if len(acts) == 0 {
		acts = append(acts, "pass")
	}
	if p.mayClaimGame() {
		acts = append(acts, "claim")
	}
	sort.Strings(acts)
	return acts
}

// mayClaimGame: two armies live, and the seat to act scores more than every
// other seat.
func (p *Position) mayClaimGame() bool {
	if p.aliveCount() != 2 {
		return false
	}
	for _, s := range clockwise {
		if s != p.Seat && p.Scores[s] >= p.Scores[p.Seat] {
			return false
		}
	}
	return true
}

// attackedFrom returns the squares of seat by's pieces, if its army lives,
// that could move onto sq (where another seat's king stands).
func (p *Position) attackedFrom(sq, by int) map[int]bool {
	out := map[int]bool{}
	if !p.alive(by) {
		return out
	}
	for from, pc := range p.Board {
		if pc.Kind == Empty || pc.Seat != by {
			continue
		}
		for _, to := range p.chesscomTargets(from) {
			if to == sq {
				out[from] = true
			}
		}
	}
	return out
}

// applyChesscom plays a legal action (or resign or timeout).
func (p *Position) applyChesscom(action string) *Position {
	q := p.copyPos()
	mover := p.Seat
	reset := false
	switch action {
	case "pass":
	case "resign", "timeout":
		q.Dead[mover] = true
	case "claim":
		for _, s := range clockwise {
			if s != mover && q.alive(s) {
				q.Dead[s] = true
			}
		}
	default:
		m, _ := parseMove(action)
		pc, target := q.Board[m.from], q.Board[m.to]
		reset = pc.Kind == Pawn
		if target.Kind != Empty {
			reset = true
			if target.Kind == King || q.alive(target.Seat) {
				q.Scores[mover] += chesscomPoints(target.Kind)
			}
			if target.Kind == King {
				q.Dead[target.Seat] = false // dead for want of a king; dead= names standing kings only
			}
		}
		q.Board[m.to], q.Board[m.from] = pc, Piece{}
		if pc.Kind == Pawn && onLastLine(mover, m.to) {
			q.Board[m.to].Kind = Boat
		}
		// The check bonus: live enemy kings attacked after the move from a
		// square, by a seat, that did not attack them before.
		anew := 0
		for _, c := range clockwise {
			if c == mover || !q.alive(c) {
				continue
			}
			k := q.kingSquare(c)
			for _, d := range clockwise {
				if d == c {
					continue
				}
				before := p.attackedFrom(k, d)
				found := false
				for from := range q.attackedFrom(k, d) {
					if !before[from] {
						found = true
					}
				}
				if found {
					anew++
					break
				}
			}
		}
		switch anew {
		case 2:
			q.Scores[mover]++
		case 3:
			q.Scores[mover] += 5
		}
	}
	if reset {
		q.Clock = 0
	} else {
		q.Clock++
	}
	order := clockwise
	at := indexOf(order, mover)
	for i := 1; i <= len(order); i++ {
		if s := order[(at+i)%len(order)]; q.alive(s) {
			q.Seat = s
			break
		}
	}
	if q.Finished() {
		switch {
		case q.aliveCount() <= 1:
			for _, s := range clockwise {
				if !q.alive(s) {
					continue
				}
				for _, pc := range q.Board {
					if pc.Kind == King && pc.Seat != s {
						q.Scores[s] += 3
					}
				}
			}
		case q.Clock >= 200:
			for _, s := range clockwise {
				if q.alive(s) {
					q.Scores[s] += 2
				}
			}
		}
	}
	return q
}

// kingSquare returns the square of seat's king.
func (p *Position) kingSquare(seat int) int {
	for sq, pc := range p.Board {
		if pc.Kind == King && pc.Seat == seat {
			return sq
		}
	}
	panic(fmt.Sprintf("naive: seat %d has no king", seat))
}

// chesscomFinished: at most one army lives, 200 quiet turns, or nobody can
// catch the leader.
func (p *Position) chesscomFinished() bool {
	return p.aliveCount() <= 1 || p.Clock >= 200 || p.leaderUncaught()
}

// leaderUncaught reports whether, with at most two armies alive, one seat
// scores more than any other could still reach: a dead army its score; a
// live one its score, 2 for the clock, and every other seat's piece on the
// board (3 a king, live or dead; 5 a live pawn, which could promote; a live
// piece its points; nothing a dead army's other pieces).
func (p *Position) leaderUncaught() bool {
	if p.aliveCount() > 2 {
		return false
	}
	best := South
	for _, s := range clockwise {
		if p.Scores[s] > p.Scores[best] {
			best = s
		}
	}
	for _, s := range clockwise {
		if s == best {
			continue
		}
		reach := p.Scores[s]
		if p.alive(s) {
			reach += 2
			for _, pc := range p.Board {
				switch {
				case pc.Kind == Empty || pc.Seat == s:
				case pc.Kind == King:
					reach += 3
				case !p.alive(pc.Seat):
				case pc.Kind == Pawn:
					reach += 5
				default:
					reach += chesscomPoints(pc.Kind)
				}
			}
		}
		if reach >= p.Scores[best] {
			return false
		}
	}
	return true
}

// formatDead returns the extra field "dead=<letters>", "" if no army died
// by resign or timeout.
func (p *Position) formatDead() string {
	var b []byte
	for _, s := range clockwise {
		if p.Dead[s] {
			b = append(b, seatLetters[s])
		}
	}
	if len(b) == 0 {
		return ""
	}
	return "dead=" + string(b)
}

// parseDead reads "dead=<letters>": seats in seat order, each with its king
// on the board.
func parseDead(f string, p *Position) error {
	letters, ok := strings.CutPrefix(f, "dead=")
	if !ok || letters == "" {
		return fmt.Errorf("naive: bad extra field %q", f)
	}
	prev := -1
	for i := 0; i < len(letters); i++ {
		s := strings.IndexByte(seatLetters, letters[i])
		if s <= prev || !p.hasKind(s, King) {
			return fmt.Errorf("naive: bad extra field %q", f)
		}
		p.Dead[s] = true
		prev = s
	}
	return nil
}
