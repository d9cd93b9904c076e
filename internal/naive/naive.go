// Package naive is a deliberately simple reference implementation of the
// default "chaturaji" ruleset (RULES.md sections 1-4 and 6). It exists only to
// cross-check the fast engine in tests: it favours plain, obviously correct
// code over speed (a [64] array of squares, explicit direction walks, no
// bitboards, no precomputed tables).
package naive

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Seats in turn order (clockwise): South, West, North, East. The same order is
// used in the scores field.
const (
	South = 0
	West  = 1
	North = 2
	East  = 3
)

// seatLetters gives each seat's colour letter, indexed by seat.
const seatLetters = "bygr"

// Piece kinds, by their notation letters. Empty marks an empty square.
const (
	Empty    byte = 0
	King     byte = 'K'
	Elephant byte = 'E'
	Horse    byte = 'H'
	Boat     byte = 'B'
	Pawn     byte = 'P'
)

// Piece is the content of one square: the owner's seat and the kind.
// Kind == Empty means the square is empty (Seat is then meaningless).
type Piece struct {
	Seat int
	Kind byte
}

// Position is one position of the default preset.
type Position struct {
	Board  [64]Piece // a1=0, b1=1, ..., h1=7, a2=8, ..., h8=63
	Seat   int       // the seat to act (South..East)
	Die    int       // 0 while awaiting the roll, else the rolled face 2..5
	Scores [4]int    // in seat order South, West, North, East
	Clock  int       // turns since the last capture or pawn move
}

// square returns the index of (file, rank), both 0..7.
func square(file, rank int) int { return rank*8 + file }

// onBoard reports whether (file, rank) is inside the board.
func onBoard(file, rank int) bool { return file >= 0 && file < 8 && rank >= 0 && rank < 8 }

// squareName returns the algebraic name of square index sq, e.g. "d2".
func squareName(sq int) string {
	return string([]byte{byte('a' + sq%8), byte('1' + sq/8)})
}

// points is what capturing a piece of each kind scores (section 2).
func points(kind byte) int {
	switch kind {
	case King:
		return 5
	case Elephant:
		return 4
	case Horse:
		return 3
	case Boat:
		return 2
	case Pawn:
		return 1
	}
	panic("naive: points of an empty square")
}

// Start returns the default start position, awaiting South's roll.
func Start() *Position {
	p, err := Parse("yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0")
	if err != nil {
		panic(err)
	}
	return p
}

// ---------------------------------------------------------------------------
// Notation

// Parse reads a position string "<board> <seat> <dice> <scores> <clock>".
// It is strict: exactly five fields separated by single spaces; eight ranks
// of eight squares each (empty runs may be non-canonical, like "44", but each
// digit must be 1..8); seat one of b, y, g, r; dice "-" or one face 2..5;
// four scores joined by ","; scores and clock are non-negative decimal
// integers without sign or leading zeros. It does not check that the position
// is reachable.
func Parse(s string) (*Position, error) {
	fields := strings.Split(s, " ")
	if len(fields) != 5 {
		return nil, fmt.Errorf("naive: want 5 space-separated fields, got %d in %q", len(fields), s)
	}
	p := &Position{}
	if err := parseBoard(fields[0], p); err != nil {
		return nil, err
	}
	if len(fields[1]) != 1 || strings.IndexByte(seatLetters, fields[1][0]) < 0 {
		return nil, fmt.Errorf("naive: bad seat %q", fields[1])
	}
	p.Seat = strings.IndexByte(seatLetters, fields[1][0])
	switch d := fields[2]; {
	case d == "-":
		p.Die = 0
	case len(d) == 1 && d[0] >= '2' && d[0] <= '5':
		p.Die = int(d[0] - '0')
	default:
		return nil, fmt.Errorf("naive: bad dice %q", d)
	}
	scores := strings.Split(fields[3], ",")
	if len(scores) != 4 {
		return nil, fmt.Errorf("naive: want 4 scores, got %q", fields[3])
	}
	for i, sc := range scores {
		v, err := parseCount(sc)
		if err != nil {
			return nil, fmt.Errorf("naive: bad score %q: %v", sc, err)
		}
		p.Scores[i] = v
	}
	clock, err := parseCount(fields[4])
	if err != nil {
		return nil, fmt.Errorf("naive: bad clock %q: %v", fields[4], err)
	}
	p.Clock = clock
	return p, nil
}

// parseCount parses a non-negative decimal integer in canonical form.
func parseCount(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("not a decimal digit")
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, errors.New("leading zero")
	}
	return strconv.Atoi(s)
}

// parseBoard fills p.Board from the board field (ranks 8 down to 1).
func parseBoard(b string, p *Position) error {
	ranks := strings.Split(b, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("naive: want 8 ranks, got %d in %q", len(ranks), b)
	}
	for i, r := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(r); {
			c := r[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
				j++
			case strings.IndexByte(seatLetters, c) >= 0:
				if j+1 >= len(r) || strings.IndexByte("KEHBP", r[j+1]) < 0 {
					return fmt.Errorf("naive: bad piece in rank %q", r)
				}
				if file >= 8 {
					return fmt.Errorf("naive: rank %q is longer than 8 squares", r)
				}
				p.Board[square(file, rank)] = Piece{Seat: strings.IndexByte(seatLetters, c), Kind: r[j+1]}
				file++
				j += 2
			default:
				return fmt.Errorf("naive: bad character %q in rank %q", c, r)
			}
			if file > 8 {
				return fmt.Errorf("naive: rank %q is longer than 8 squares", r)
			}
		}
		if file != 8 {
			return fmt.Errorf("naive: rank %q has %d squares, want 8", r, file)
		}
	}
	return nil
}

// String prints the position in canonical notation.
func (p *Position) String() string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		if rank != 7 {
			sb.WriteByte('/')
		}
		run := 0
		for file := 0; file < 8; file++ {
			pc := p.Board[square(file, rank)]
			if pc.Kind == Empty {
				run++
				continue
			}
			if run > 0 {
				sb.WriteByte(byte('0' + run))
				run = 0
			}
			sb.WriteByte(seatLetters[pc.Seat])
			sb.WriteByte(pc.Kind)
		}
		if run > 0 {
			sb.WriteByte(byte('0' + run))
		}
	}
	sb.WriteByte(' ')
	sb.WriteByte(seatLetters[p.Seat])
	sb.WriteByte(' ')
	if p.Die == 0 {
		sb.WriteByte('-')
	} else {
		sb.WriteString(strconv.Itoa(p.Die))
	}
	sb.WriteByte(' ')
	for i, sc := range p.Scores {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(sc))
	}
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.Clock))
	return sb.String()
}

// ---------------------------------------------------------------------------
// Queries

// copyPos returns an independent copy (Position holds only arrays and ints).
func (p *Position) copyPos() *Position {
	q := *p
	return &q
}

// AwaitingRoll reports whether the seat to act has not rolled yet.
func (p *Position) AwaitingRoll() bool { return p.Die == 0 }

// WithRoll returns a copy of p with the die set to face (2..5). It panics on
// any other face. It does not promote anything: a position awaiting its roll
// has already had its seat's promotions.
func (p *Position) WithRoll(face int) *Position {
	if face < 2 || face > 5 {
		panic(fmt.Sprintf("naive: WithRoll(%d): face must be 2..5", face))
	}
	q := p.copyPos()
	q.Die = face
	return q
}

// countKings returns how many kings stand on the board.
func (p *Position) countKings() int {
	n := 0
	for _, pc := range p.Board {
		if pc.Kind == King {
			n++
		}
	}
	return n
}

// onlyKings reports whether every piece on the board is a king.
func (p *Position) onlyKings() bool {
	for _, pc := range p.Board {
		if pc.Kind != Empty && pc.Kind != King {
			return false
		}
	}
	return true
}

// Finished reports whether the game is over: at most one king on the board,
// only kings on the board ("honourable peace"), or a clock of 200 or more.
func (p *Position) Finished() bool {
	return p.countKings() <= 1 || p.onlyKings() || p.Clock >= 200
}

// hasKind reports whether seat has at least one piece of kind on the board.
func (p *Position) hasKind(seat int, kind byte) bool {
	for _, pc := range p.Board {
		if pc.Kind == kind && pc.Seat == seat {
			return true
		}
	}
	return false
}

// pieceCount returns how many pieces seat has on the board.
func (p *Position) pieceCount(seat int) int {
	n := 0
	for _, pc := range p.Board {
		if pc.Kind != Empty && pc.Seat == seat {
			n++
		}
	}
	return n
}

// ---------------------------------------------------------------------------
// Pawns and promotion

// pawnForward returns the (file, rank) step of a pawn of seat.
func pawnForward(seat int) (df, dr int) {
	switch seat {
	case South:
		return 0, 1
	case West:
		return 1, 0
	case North:
		return 0, -1
	default: // East
		return -1, 0
	}
}

// onLastLine reports whether sq is on seat's last line, where its pawns
// promote (or wait).
func onLastLine(seat, sq int) bool {
	file, rank := sq%8, sq/8
	switch seat {
	case South:
		return rank == 7
	case West:
		return file == 7
	case North:
		return rank == 0
	default: // East
		return file == 0
	}
}

// promotionKind is the kind named by a square on seat's last line: its
// position along the line counted from the nearer corner gives boat, horse,
// elephant, then king for the two middle squares.
func promotionKind(seat, sq int) byte {
	file, rank := sq%8, sq/8
	along := file // South and North last lines are ranks: position = file
	if seat == West || seat == East {
		along = rank // their last lines are files: position = rank
	}
	fromCorner := along
	if 7-along < fromCorner {
		fromCorner = 7 - along
	}
	return [4]byte{Boat, Horse, Elephant, King}[fromCorner]
}

// promoteWaiting promotes seat's waiting pawns whose kind is free, in
// ascending square index; each promotion takes its kind, so a later pawn
// waiting for the same kind keeps waiting.
func (p *Position) promoteWaiting(seat int) {
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind != Pawn || pc.Seat != seat || !onLastLine(seat, sq) {
			continue
		}
		kind := promotionKind(seat, sq)
		if !p.hasKind(seat, kind) {
			p.Board[sq].Kind = kind
		}
	}
}

// ---------------------------------------------------------------------------
// Move generation

// move is one ordinary move, from and to square indices.
type move struct{ from, to int }

func (m move) String() string { return squareName(m.from) + squareName(m.to) }

// canLand reports whether a piece of seat may end a move on sq (given as
// file, rank): the square must be on the board and empty or hold another
// seat's piece. Boats additionally may not capture boats (checked by the
// boat generator).
func (p *Position) canLand(seat, file, rank int) bool {
	if !onBoard(file, rank) {
		return false
	}
	target := p.Board[square(file, rank)]
	return target.Kind == Empty || target.Seat != seat
}

// pieceMoves returns the ordinary moves of the piece on from.
func (p *Position) pieceMoves(from int) []move {
	pc := p.Board[from]
	file, rank := from%8, from/8
	var out []move
	add := func(f, r int) { out = append(out, move{from, square(f, r)}) }
	switch pc.Kind {
	case King:
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if (df != 0 || dr != 0) && p.canLand(pc.Seat, file+df, rank+dr) {
					add(file+df, rank+dr)
				}
			}
		}
	case Horse:
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if p.canLand(pc.Seat, file+d[0], rank+d[1]) {
				add(file+d[0], rank+d[1])
			}
		}
	case Elephant:
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			f, r := file+d[0], rank+d[1]
			for onBoard(f, r) {
				target := p.Board[square(f, r)]
				if target.Kind == Empty {
					add(f, r)
				} else {
					if target.Seat != pc.Seat {
						add(f, r)
					}
					break // no jumping
				}
				f, r = f+d[0], r+d[1]
			}
		}
	case Boat:
		for _, d := range [4][2]int{{2, 2}, {2, -2}, {-2, 2}, {-2, -2}} {
			f, r := file+d[0], rank+d[1]
			// A boat jumps (the middle square does not matter) but never
			// takes a boat by an ordinary move.
			if p.canLand(pc.Seat, f, r) && p.Board[square(f, r)].Kind != Boat {
				add(f, r)
			}
		}
	case Pawn:
		if onLastLine(pc.Seat, from) {
			return nil // a waiting pawn cannot move
		}
		df, dr := pawnForward(pc.Seat)
		if onBoard(file+df, rank+dr) && p.Board[square(file+df, rank+dr)].Kind == Empty {
			add(file+df, rank+dr)
		}
		// Diagonally forward: the forward step plus one sideways step.
		sf, sr := dr, df // perpendicular to forward
		for _, side := range [2]int{1, -1} {
			f, r := file+df+side*sf, rank+dr+side*sr
			if onBoard(f, r) {
				target := p.Board[square(f, r)]
				if target.Kind != Empty && target.Seat != pc.Seat {
					add(f, r)
				}
			}
		}
	}
	return out
}

// dieAllows reports whether the rolled face lets a piece of kind move.
func dieAllows(face int, kind byte) bool {
	switch face {
	case 2:
		return kind == Boat
	case 3:
		return kind == Horse
	case 4:
		return kind == Elephant
	case 5:
		return kind == King || kind == Pawn
	}
	return false
}

// Actions returns every legal action of a rolled position, sorted in byte
// order: the moves of the seat's pieces of the rolled kind, or "pass" if
// there are none, plus "retire" when the king is the seat's only piece.
// It returns nil for a finished position and panics if the position is
// awaiting its roll (call WithRoll first).
func (p *Position) Actions() []string {
	if p.AwaitingRoll() {
		panic("naive: Actions called on a position awaiting its roll")
	}
	if p.Finished() {
		return nil
	}
	var acts []string
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || pc.Seat != p.Seat || !dieAllows(p.Die, pc.Kind) {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
		}
	}
	if len(acts) == 0 {
		acts = append(acts, "pass")
	}
	if p.pieceCount(p.Seat) == 1 && p.hasKind(p.Seat, King) {
		acts = append(acts, "retire")
	}
	sort.Strings(acts)
	return acts
}

// ---------------------------------------------------------------------------
// Applying actions

// Apply returns a new position after action, with every automatic effect
// (boat triumph, promotion or waiting, clock, turn passing with waiting
// promotions and frozen-seat skipping, the 54 raise). It returns an error if
// action is not legal, including when p is awaiting its roll or finished.
func (p *Position) Apply(action string) (*Position, error) {
	if p.AwaitingRoll() {
		return nil, errors.New("naive: Apply on a position awaiting its roll")
	}
	for _, a := range p.Actions() {
		if a == action {
			return p.apply(action), nil
		}
	}
	return nil, fmt.Errorf("naive: illegal action %q in %s", action, p)
}

// apply performs a legal action, following the order of events of
// section 4: the action itself, the clock, the turn passing, the end check.
func (p *Position) apply(action string) *Position {
	q := p.copyPos()
	mover := p.Seat
	resetClock := false
	switch action {
	case "pass":
	case "retire":
		q.removeKing(mover)
	default:
		resetClock = q.doMove(parseMove(action))
	}
	if resetClock {
		q.Clock = 0
	} else {
		q.Clock++
	}
	q.passTurn(mover)
	if q.countKings() == 1 {
		q.raiseLastKing()
	}
	return q
}

// parseMove turns "d2d3" into square indices; apply only sees legal moves.
func parseMove(s string) move {
	sq := func(t string) int { return square(int(t[0]-'a'), int(t[1]-'1')) }
	return move{sq(s[0:2]), sq(s[2:4])}
}

// removeKing takes seat's king off the board (retire: nobody scores).
func (p *Position) removeKing(seat int) {
	for sq := range p.Board {
		if p.Board[sq].Kind == King && p.Board[sq].Seat == seat {
			p.Board[sq] = Piece{}
		}
	}
}

// doMove plays an ordinary move of the seat to act: capture and points, boat
// triumph, the moving pawn's own promotion. It reports whether the clock
// resets (a capture, a triumph, or any pawn move).
func (p *Position) doMove(m move) bool {
	mover := p.Seat
	pc := p.Board[m.from]
	reset := pc.Kind == Pawn
	if target := p.Board[m.to]; target.Kind != Empty {
		p.Scores[mover] += points(target.Kind)
		reset = true
	}
	p.Board[m.to] = pc
	p.Board[m.from] = Piece{}
	if pc.Kind == Boat && p.boatTriumph(m.to) {
		reset = true
	}
	if pc.Kind == Pawn && onLastLine(mover, m.to) {
		kind := promotionKind(mover, m.to)
		if !p.hasKind(mover, kind) {
			p.Board[m.to].Kind = kind
		} // else the pawn waits on its last line
	}
	return reset
}

// boatTriumph looks at every 2x2 block containing the boat's destination
// that is fully occupied by boats (any owner), and captures, once each, every
// boat of those blocks that is not the mover's, for 2 points each. It reports
// whether anything was captured.
func (p *Position) boatTriumph(dest int) bool {
	mover := p.Seat
	file, rank := dest%8, dest/8
	var victims [64]bool
	// A block is named by its lower-left corner; dest is in the blocks whose
	// corner is dest itself or one file and/or one rank below.
	for cf := file - 1; cf <= file; cf++ {
		for cr := rank - 1; cr <= rank; cr++ {
			if !onBoard(cf, cr) || !onBoard(cf+1, cr+1) {
				continue
			}
			block := [4]int{square(cf, cr), square(cf+1, cr), square(cf, cr+1), square(cf+1, cr+1)}
			full := true
			for _, sq := range block {
				if p.Board[sq].Kind != Boat {
					full = false
				}
			}
			if !full {
				continue
			}
			for _, sq := range block {
				if p.Board[sq].Seat != mover {
					victims[sq] = true
				}
			}
		}
	}
	captured := false
	for sq, v := range victims {
		if v {
			p.Scores[mover] += points(Boat)
			p.Board[sq] = Piece{}
			captured = true
		}
	}
	return captured
}

// passTurn visits the seats clockwise from the one after mover, mover last.
// At each, its waiting pawns promote where they can; the first seat that then
// has a king takes the turn (awaiting its roll). If no seat has a king, the
// turn stays with the mover (the last seat visited); such a position is
// finished anyway.
func (p *Position) passTurn(mover int) {
	p.Die = 0
	p.Seat = mover
	for i := 1; i <= 4; i++ {
		seat := (mover + i) % 4
		p.promoteWaiting(seat)
		if p.hasKind(seat, King) {
			p.Seat = seat
			return
		}
	}
}

// raiseLastKing raises the score of the owner of the only king left on the
// board to 54 if it is lower.
func (p *Position) raiseLastKing() {
	for _, pc := range p.Board {
		if pc.Kind == King && p.Scores[pc.Seat] < 54 {
			p.Scores[pc.Seat] = 54
		}
	}
}

// ---------------------------------------------------------------------------
// Perft

// Perft counts the leaves of the game tree to depth (section 6): 1 at depth
// 0; 0 for a finished position at depth > 0; at a position awaiting its roll,
// the sum over the four faces at the same depth; otherwise the sum over every
// legal action of perft of the position after it at depth-1.
func Perft(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.Finished() {
		return 0
	}
	if p.AwaitingRoll() {
		var n uint64
		for face := 2; face <= 5; face++ {
			n += Perft(p.WithRoll(face), depth)
		}
		return n
	}
	var n uint64
	for _, a := range p.Actions() {
		n += Perft(p.apply(a), depth-1)
	}
	return n
}
