// Package naive is a deliberately simple reference implementation of
// Chaturaji rules, written from docs/rules.md only. It exists to cross-check the
// fast engine in tests: it favours plain, obviously correct code over speed
// (a [64] array of squares, explicit direction walks, no bitboards, no
// precomputed tables).
//
// It knows every preset (see presets.go): the default "chaturaji" (docs/rules.md
// §1-§4 and §7), "chaturaji-ranks", "chaturaji-2dice", "ludii",
// "chaturanga-2p" and "chesscom-chaturaji". Parse, Start and the Position fields Board, Seat, Die,
// Scores and Clock keep their meaning for the default preset.
package naive

import (
	"errors"
	"fmt"
	"sort"
)

// Seats, by their place at the table. The scores field lists them in this
// order (two-player games: South, North); the turn order is the preset's.
const (
	South = 0
	West  = 1
	North = 2
	East  = 3
)

// seatLetters gives each seat's colour letter, indexed by seat.
const seatLetters = "bygr"

// Piece kinds, by their notation letters. Empty marks an empty square.
// Vizir exists only in chaturanga-2p.
const (
	Empty    byte = 0
	King     byte = 'K'
	Elephant byte = 'E'
	Horse    byte = 'H'
	Boat     byte = 'B'
	Pawn     byte = 'P'
	Vizir    byte = 'V'
)

// Piece is the content of one square: the owner's seat and the kind.
// Kind == Empty means the square is empty (Seat is then meaningless).
type Piece struct {
	Seat int  // the owner, South..East
	Kind byte // the notation letter (King..Vizir), or Empty
}

// Position is one position of a preset.
type Position struct {
	Board  [64]Piece // a1=0, b1=1, ..., h1=7, a2=8, ..., h8=63
	Seat   int       // the seat to act (South..East)
	Die    int       // one-die presets: 0 while awaiting the roll, else the rolled face 2..5
	Scores [4]int    // indexed by seat (South, West, North, East)
	Clock  int       // turns since the last capture or pawn move (ludii: turns since the start)

	// Rules is the preset's name; "" is the default "chaturaji".
	Rules string
	// Dice holds chaturaji-2dice's unused faces (1..6), ascending, zeros
	// last; both zero while awaiting the roll.
	Dice [2]int
	// Leaps marks the seats that have used their rajah leap (chaturanga-2p).
	Leaps [4]bool

	// Team presets (teams.go): seats commanding through the partner's
	// throne, thrones whose bonus was paid, seats whose king retired, a
	// pending exchange step ("" if none) and whose turn it then is.
	Command, Thrones, Retired [4]bool
	Exchange                  string // "propose", "accept", "drop", "back" (fr2); martian: "decide", "place"
	Turn                      int    // the seat whose turn the pending step interrupted

	// winther (winther.go): seats holding a drop right, and kings each
	// seat lost (at most 2 counted).
	DropRight [4]bool
	Lost      [4]int // kings each seat has lost, at most 2

	// martian (martian.go): the roll-off still to come, whether the seat
	// has rolled, its own pair's unused faces and the controlled army's
	// (seat + 1 in ControlSeat, 0 for none). Board kinds are the engine's
	// roles: K monarch, H paladin, E raven, P squire.
	RollOff     bool
	Rolled      bool   // the seat to act has rolled this turn
	Own, Ctrl   [2]int // ascending, 0 for no face
	ControlSeat int    // the controlled army's seat + 1; 0 for none

	// chesscom-chaturaji (chesscom.go): the seats whose army died by
	// resign or timeout, their kings standing.
	Dead [4]bool
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
	panic("naive: points of " + string(kind))
}

// Start returns the default start position, awaiting South's roll.
func Start() *Position { return StartOf(Chaturaji) }

// ---------------------------------------------------------------------------
// Queries

// copyPos returns an independent copy (Position holds only arrays, ints and
// a string).
func (p *Position) copyPos() *Position {
	q := *p
	return &q
}

// AwaitingRoll reports whether the seat to act has not rolled yet. It is
// always false in a diceless preset.
func (p *Position) AwaitingRoll() bool {
	if p.Exchange != "" {
		return false
	}
	if p.Rules == Martian {
		return p.RollOff || !p.Rolled
	}
	switch p.preset().dice {
	case longDie, cubeBlank:
		return p.Die == 0
	case twoCubes, twoLong:
		return p.Dice[0] == 0
	}
	return false
}

// WithRoll returns a copy of p with the roll set: one face 2..5 for the
// one-die presets, two faces 1..6 (in any order) for chaturaji-2dice. It
// panics on anything else, and in a diceless preset. It does not promote
// anything: a position awaiting its roll has already had its seat's
// promotions.
func (p *Position) WithRoll(faces ...int) *Position {
	if p.Rules == Martian {
		return p.withMartianRoll(faces)
	}
	q := p.copyPos()
	switch p.preset().dice {
	case longDie:
		if len(faces) != 1 || faces[0] < 2 || faces[0] > 5 {
			panic(fmt.Sprintf("naive: WithRoll(%v): want one face 2..5", faces))
		}
		q.Die = faces[0]
	case cubeBlank:
		if len(faces) != 1 || faces[0] < 1 || faces[0] > 6 {
			panic(fmt.Sprintf("naive: WithRoll(%v): want one face 1..6", faces))
		}
		q.Die = faces[0]
	case twoCubes, twoLong:
		lo := 1
		if p.preset().dice == twoLong {
			lo = 2
		}
		if len(faces) != 2 || faces[0] < lo || faces[0] > 6 || faces[1] < lo || faces[1] > 6 || (lo == 2 && max(faces[0], faces[1]) > 5) {
			panic(fmt.Sprintf("naive: WithRoll(%v): want two faces of the preset's dice", faces))
		}
		q.Dice = [2]int{min(faces[0], faces[1]), max(faces[0], faces[1])}
	default:
		panic("naive: WithRoll in a diceless preset")
	}
	return q
}

// WithRollString is WithRoll with the roll written as in the dice field
// ("5", "15").
func (p *Position) WithRollString(roll string) *Position {
	var faces []int
	for i := 0; i < len(roll); i++ {
		if roll[i] == '/' { // martian: the controlled army's pair follows
			continue
		}
		if roll[i] < '0' || roll[i] > '9' {
			panic(fmt.Sprintf("naive: WithRollString(%q): not a roll", roll))
		}
		faces = append(faces, int(roll[i]-'0'))
	}
	return p.WithRoll(faces...)
}

// countKings returns how many kings stand on the board.
func (p *Position) countKings() int { return p.countKind(-1, King) }

// countKind returns how many pieces of kind seat has on the board (any
// seat's when seat is -1).
func (p *Position) countKind(seat int, kind byte) int {
	n := 0
	for _, pc := range p.Board {
		if pc.Kind == kind && (seat < 0 || pc.Seat == seat) {
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

// hasKind reports whether seat has at least one piece of kind on the board.
func (p *Position) hasKind(seat int, kind byte) bool { return p.countKind(seat, kind) > 0 }

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

// promotionKind is the kind named by a square on seat's last line in the
// Chaturaji presets: its position along the line counted from the nearer
// corner gives boat, horse, elephant, then king for the two middle squares.
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

// promotion returns the kind a pawn of seat on its last-line square sq
// becomes now, or Empty if it must wait (or, in chaturanga-2p on the
// rajah's file, wait for ever). Section 4: the square's kind, if the army
// has none on the board. chaturanga-2p: the kind that started on the file,
// if the army has fewer of it than at the start.
func (p *Position) promotion(seat, sq int) byte {
	if p.Rules == Chaturanga2P {
		kind := "EHBVKBHE"[sq%8]
		if kind != King && p.countKind(seat, kind) < twoPlayerStartCount(kind) {
			return kind
		}
		return Empty
	}
	kind := promotionKind(seat, sq)
	if p.hasKind(seat, kind) {
		return Empty
	}
	return kind
}

// promoteWaiting promotes seat's waiting pawns whose kind is free, in
// ascending square index; each promotion takes its kind, so a later pawn
// waiting for the same kind keeps waiting. ludii has no waiting pawns.
func (p *Position) promoteWaiting(seat int) {
	if p.Rules == Ludii {
		return
	}
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind != Pawn || pc.Seat != seat || !onLastLine(seat, sq) {
			continue
		}
		if kind := p.promotion(seat, sq); kind != Empty {
			p.Board[sq].Kind = kind
		}
	}
}

// ---------------------------------------------------------------------------
// Move generation

// move is one ordinary move, from and to square indices.
type move struct{ from, to int }

func (m move) String() string { return squareName(m.from) + squareName(m.to) }

// canTake reports whether piece pc may capture target by an ordinary move:
// target must be another seat's piece, and the preset may forbid the pair.
func (p *Position) canTake(pc, target Piece) bool {
	if target.Kind == Empty || target.Seat == pc.Seat {
		return false
	}
	if p.isTeams() && target.Seat == partner(pc.Seat) {
		return false // partners' pieces are safe
	}
	if p.Rules == Biruni && p.biruniTruce(pc.Seat, target.Seat) {
		return false
	}
	if p.Rules == Winther {
		return !(target.Seat == partner(pc.Seat) && target.Kind == King) // boats take boats; partners' kings are safe
	}
	if p.isFR() {
		minor := pc.Kind == Pawn || pc.Kind == Boat
		return target.Seat != partner(pc.Seat) && !(minor && isMajor(target.Kind))
	}
	switch p.Rules {
	case Ludii, Chaturanga2P:
		return true // boats (elephants) may take boats
	case ChaturajiRanks:
		weak := pc.Kind == Pawn || pc.Kind == Boat
		strong := target.Kind == Horse || target.Kind == Elephant || target.Kind == King
		if weak && strong {
			return false
		}
	}
	// Section 2: a boat never captures a boat by an ordinary move.
	return !(pc.Kind == Boat && target.Kind == Boat)
}

// canLand reports whether piece pc may end a move on (file, rank): on the
// board, and empty or holding a piece pc may take.
func (p *Position) canLand(pc Piece, file, rank int) bool {
	if !onBoard(file, rank) {
		return false
	}
	target := p.Board[square(file, rank)]
	return target.Kind == Empty || p.canTake(pc, target)
}

var (
	kingSteps   = [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}
	knightSteps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	rookDirs    = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	alfilSteps  = [4][2]int{{2, 2}, {2, -2}, {-2, 2}, {-2, -2}}
	ferzSteps   = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// pieceMoves returns the ordinary moves of the piece on from (no rajah
// leap, no promotion choice).
func (p *Position) pieceMoves(from int) []move {
	pc := p.Board[from]
	file, rank := from%8, from/8
	var out []move
	leaps := func(steps [][2]int) {
		for _, d := range steps {
			if p.canLand(pc, file+d[0], rank+d[1]) {
				out = append(out, move{from, square(file+d[0], rank+d[1])})
			}
		}
	}
	switch pc.Kind {
	case King:
		leaps(kingSteps[:])
	case Horse:
		leaps(knightSteps[:])
	case Boat:
		leaps(alfilSteps[:]) // jumps: the middle square does not matter
	case Vizir:
		leaps(ferzSteps[:])
	case Elephant:
		for _, d := range rookDirs {
			f, r := file+d[0], rank+d[1]
			for onBoard(f, r) {
				target := p.Board[square(f, r)]
				if target.Kind == Empty || p.canTake(pc, target) {
					out = append(out, move{from, square(f, r)})
				}
				if target.Kind != Empty {
					break // no jumping
				}
				f, r = f+d[0], r+d[1]
			}
		}
	case Pawn:
		if onLastLine(pc.Seat, from) {
			return nil // a waiting pawn cannot move
		}
		df, dr := pawnForward(pc.Seat)
		if onBoard(file+df, rank+dr) {
			target := p.Board[square(file+df, rank+dr)]
			// chaturanga-2p's soldier also captures straight forward.
			if target.Kind == Empty || ((p.Rules == Chaturanga2P || p.isFR()) && p.canTake(pc, target)) {
				out = append(out, move{from, square(file+df, rank+dr)})
			}
		}
		// Diagonally forward: the forward step plus one sideways step.
		sf, sr := dr, df // perpendicular to forward
		for _, side := range [2]int{1, -1} {
			f, r := file+df+side*sf, rank+dr+side*sr
			if onBoard(f, r) && p.canTake(pc, p.Board[square(f, r)]) {
				out = append(out, move{from, square(f, r)})
			}
		}
	}
	return out
}

// dieAllows reports whether a die face lets a piece of kind move: the long
// die's 2..5, and the cube's 1 (king or pawn) and 6 (elephant) as well.
func dieAllows(face int, kind byte) bool {
	switch face {
	case 2:
		return kind == Boat
	case 3:
		return kind == Horse
	case 4, 6:
		return kind == Elephant
	case 1, 5:
		return kind == King || kind == Pawn
	}
	return false
}

// Actions returns every legal action of a rolled (or diceless) position,
// sorted in byte order. Default preset and chaturaji-ranks: the moves of the
// seat's pieces of the rolled kind, or "pass" if there are none, plus
// "retire" when the king is the seat's only piece. The other presets are in
// their own files. It returns nil for a finished position and panics if the
// position is awaiting its roll (call WithRoll first).
func (p *Position) Actions() []string {
	if p.AwaitingRoll() {
		panic("naive: Actions called on a position awaiting its roll")
	}
	if p.Finished() {
		return nil
	}
	switch p.Rules {
	case Chaturaji2Dice:
		return p.twoDiceActions()
	case Ludii:
		return p.ludiiActions()
	case Chaturanga2P:
		return p.twoPlayerActions()
	case ChaturajiTeams, ChaturajiDiceless, ChaturajiTeamsLF:
		return p.teamActions()
	case Biruni:
		return p.biruniActions()
	case Winther:
		return p.wintherActions()
	case Martian:
		return p.martianActions()
	case ChaturangaFR1, ChaturangaFR2:
		return p.frActions()
	case ChesscomChaturaji:
		return p.chesscomActions()
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
	if p.loneKing(p.Seat) {
		acts = append(acts, "retire")
	}
	sort.Strings(acts)
	return acts
}

// loneKing reports whether seat's king is its only piece.
func (p *Position) loneKing(seat int) bool {
	return p.pieceCount(seat) == 1 && p.hasKind(seat, King)
}

// ---------------------------------------------------------------------------
// Applying actions

// Apply returns a new position after action, with every automatic effect
// (boat triumph, promotion or waiting, clock, turn passing with waiting
// promotions and frozen-seat skipping, the 54 raise, as the preset has
// them). It returns an error if action is not legal, including when p is
// awaiting its roll or finished.
func (p *Position) Apply(action string) (*Position, error) {
	if p.AwaitingRoll() {
		return nil, errors.New("naive: Apply on a position awaiting its roll")
	}
	if p.Rules == ChesscomChaturaji && (action == "resign" || action == "timeout") && !p.Finished() {
		return p.apply(action), nil // legal at every turn, but no move: not in Actions
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
// chaturaji-2dice has its own (twodice.go).
func (p *Position) apply(action string) *Position {
	if p.Rules == Chaturaji2Dice {
		return p.applyTwoDice(action)
	}
	if p.isTeams() {
		return p.applyTeam(action)
	}
	if p.Rules == Biruni {
		return p.applyBiruni(action)
	}
	if p.Rules == Winther {
		return p.applyWinther(action)
	}
	if p.Rules == Martian {
		return p.applyMartian(action)
	}
	if p.isFR() {
		return p.applyFR(action)
	}
	if p.Rules == ChesscomChaturaji {
		return p.applyChesscom(action)
	}
	q := p.copyPos()
	mover := p.Seat
	resetClock := false
	switch action {
	case "pass":
	case "retire":
		q.removeKing(mover)
	default:
		m, choice := parseMove(action)
		resetClock = q.doMove(m, choice)
	}
	if resetClock && p.Rules != Ludii { // ludii's clock counts every turn
		q.Clock = 0
	} else {
		q.Clock++
	}
	q.passTurn(mover)
	q.lastKingRaise()
	return q
}

// parseMove turns "d2d3" or "a7a8=H" into square indices and the chosen
// promotion kind (Empty if none); apply only sees legal moves.
func parseMove(s string) (move, byte) {
	sq := func(t string) int { return square(int(t[0]-'a'), int(t[1]-'1')) }
	m := move{sq(s[0:2]), sq(s[2:4])}
	if len(s) == 6 {
		return m, s[5]
	}
	return m, Empty
}

// removeKing takes seat's king off the board (retire: nobody scores).
func (p *Position) removeKing(seat int) {
	for sq := range p.Board {
		if p.Board[sq].Kind == King && p.Board[sq].Seat == seat {
			p.Board[sq] = Piece{}
		}
	}
}

// doMove plays an ordinary move (or rajah leap) of the seat to act: capture
// and points, boat triumph, the moving pawn's own promotion (choice, when
// the player chose it). It reports whether the clock resets (a capture, a
// triumph, or any pawn move).
func (p *Position) doMove(m move, choice byte) bool {
	mover := p.Seat
	pr := p.preset()
	pc := p.Board[m.from]
	reset := pc.Kind == Pawn
	if target := p.Board[m.to]; target.Kind != Empty {
		if pr.points {
			p.Scores[mover] += points(target.Kind)
		}
		reset = true
	}
	p.Board[m.to] = pc
	p.Board[m.from] = Piece{}
	if pr.leap && pc.Kind == King && isKnightStep(m) {
		p.Leaps[mover] = true
	}
	if pr.triumph && pc.Kind == Boat && p.boatTriumph(m.to) {
		reset = true
	}
	if pc.Kind == Pawn && onLastLine(mover, m.to) {
		switch {
		case choice != Empty:
			p.Board[m.to].Kind = choice
		case p.Rules == Ludii:
			// No kind to choose: the pawn stays a pawn for ever.
		default:
			if kind := p.promotion(mover, m.to); kind != Empty {
				p.Board[m.to].Kind = kind
			} // else the pawn waits on its last line
		}
	}
	return reset
}

// isKnightStep reports whether m is a knight's leap.
func isKnightStep(m move) bool {
	df, dr := m.to%8-m.from%8, m.to/8-m.from/8
	return df*df+dr*dr == 5
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

// passTurn visits the seats in the preset's turn order from the one after
// mover, mover last. At each, its waiting pawns promote where they can; the
// first seat that then has a king takes the turn (awaiting its roll, if the
// preset rolls). If no seat has a king, the turn stays with the mover (the
// last seat visited); such a position is finished anyway. In ludii nobody
// is frozen: the next seat in order always takes the turn.
func (p *Position) passTurn(mover int) {
	p.Die = 0
	p.Dice = [2]int{}
	order := p.preset().order
	at := indexOf(order, mover)
	if p.Rules == Ludii {
		p.Seat = order[(at+1)%len(order)]
		return
	}
	p.Seat = mover
	for i := 1; i <= len(order); i++ {
		seat := order[(at+i)%len(order)]
		p.promoteWaiting(seat)
		if p.hasKind(seat, King) {
			p.Seat = seat
			return
		}
	}
}

// indexOf returns the index of seat in order.
func indexOf(order []int, seat int) int {
	for i, s := range order {
		if s == seat {
			return i
		}
	}
	panic(fmt.Sprintf("naive: seat %d is not in the turn order %v", seat, order))
}

// lastKingRaise raises the score of the owner of the only king left on the
// board to 54 if it is lower, in the presets that have the raise.
func (p *Position) lastKingRaise() {
	if !p.preset().raise54 || p.countKings() != 1 {
		return
	}
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
// the sum over every distinct roll at the same depth (one long die: 4; two
// cube dice: 21 unordered pairs); otherwise the sum over every legal action
// of perft of the position after it at depth-1. It works for every preset.
func Perft(p *Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.Finished() {
		return 0
	}
	if p.AwaitingRoll() {
		var n uint64
		rolls := p.preset().rolls()
		if p.Rules == Martian {
			rolls = p.martianRolls()
		}
		for _, roll := range rolls {
			n += Perft(p.WithRoll(roll...), depth)
		}
		return n
	}
	var n uint64
	for _, a := range p.Actions() {
		n += Perft(p.apply(a), depth-1)
	}
	return n
}

// PerftOf is Perft (kept as a separate name for callers that cross-check
// presets).
func PerftOf(p *Position, depth int) uint64 { return Perft(p, depth) }
