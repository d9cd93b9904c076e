package naive

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// martian (docs/rules.md §6, [Martian]): South and North against West and East.
// Pieces: M monarch (a queen), P paladin (knight or bishop), R raven (rook,
// or exactly two squares diagonally, jumping), S squire (a chess pawn with
// its double first step, no en passant), in the right-hand corners. Before
// the game a roll-off (seat field "-") decides whether South's or West's
// team starts. Each turn rolls two d4 (1 monarch, 2 paladin, 3 raven, 4
// squire); at the roll a die counts upwards to the first kind the army
// still has, or is lost. A player whose monarch stands, at his roll, on the
// throne of a monarchless seat rolls a second pair for that army (dice field
// "13/24", the extra field "control="); controlled pieces take no piece of
// the controller's team or of their own team. Partners never take each
// other's pieces, except by the unkindness of ravens. Squires promote on
// the opposite home row to a lacking M, P or R (the player chooses), else
// stay squires. A monarchless seat is frozen unless its partner's monarch
// stands on its throne. After a monarch capture that leaves both teams a
// monarch, while the capturer's team lacks one, the capturer plays
// noreturn, return=us or return=them ("return=decide"), and the owners
// place their monarchs with M@sq ("return=place"), then the turn goes on.
// The clock counts each turn at its roll. The team without monarchs loses.

// Martian names the preset.
const Martian = "martian"

const martianStart = "gRgPgM3rSrR/gSgSgS3rSrP/6rSrM/8/8/yMyS6/yPyS3bSbSbS/yRyS3bMbPbR - - 0,0,0,0 0"

// martianThrones are the monarchs' starting squares: f1, a3, c8, h6.
var martianThrones = [4]int{5, 16, 58, 47}

// Martian kinds by the d4's faces.
var martianFace = [5]byte{0, King, Horse, Elephant, Pawn}

// Martian letters in notation for the kinds (the board keeps the kinds).
func martianLetter(kind byte) byte {
	return map[byte]byte{King: 'M', Horse: 'P', Elephant: 'R', Pawn: 'S'}[kind]
}

func martianKind(letter byte) byte {
	return map[byte]byte{'M': King, 'P': Horse, 'R': Elephant, 'S': Pawn}[letter]
}

// martianRolls lists the rolls of the position: the roll-off's two, the ten
// pairs, or with throne control the hundred pairs of pairs.
func (p *Position) martianRolls() [][]int {
	if p.RollOff {
		return [][]int{{1}, {2}}
	}
	var pairs [][]int
	for a := 1; a <= 4; a++ {
		for b := a; b <= 4; b++ {
			pairs = append(pairs, []int{a, b})
		}
	}
	if p.controlTargetOf(p.Seat) < 0 {
		return pairs
	}
	var out [][]int
	for _, x := range pairs {
		for _, y := range pairs {
			out = append(out, []int{x[0], x[1], y[0], y[1]})
		}
	}
	return out
}

// controlTargetOf returns the monarchless seat on whose throne seat's
// monarch stands, or -1.
func (p *Position) controlTargetOf(seat int) int {
	for c := 0; c < 4; c++ {
		if c != seat && p.Board[martianThrones[c]] == (Piece{Seat: seat, Kind: King}) && !p.hasKind(c, King) {
			return c
		}
	}
	return -1
}

// countUpFaces maps faces to the first face at or above each that names a
// kind seat has on the board, dropping those with none; sorted.
func (p *Position) countUpFaces(seat int, faces []int) []int {
	var out []int
	for _, f := range faces {
		for g := f; g <= 4; g++ {
			if p.hasKind(seat, martianFace[g]) {
				out = append(out, g)
				break
			}
		}
	}
	sort.Ints(out)
	return out
}

// withMartianRoll sets a roll: the roll-off's face, or the dice.
func (p *Position) withMartianRoll(faces []int) *Position {
	q := p.copyPos()
	if q.RollOff {
		q.RollOff = false
		q.Seat = South
		if faces[0] == 2 {
			q.Seat = West
		}
		return q
	}
	q.Rolled = true
	q.Clock++
	q.Own = pack(q.countUpFaces(q.Seat, faces[:2]))
	q.Ctrl = [2]int{}
	q.ControlSeat = 0
	if c := q.controlTargetOf(q.Seat); c >= 0 {
		q.ControlSeat = c + 1
		q.Ctrl = pack(q.countUpFaces(c, faces[2:]))
	}
	return q
}

// martianMoves returns the moves of the piece on from, whatever the dice;
// canTake says which targets it may take.
func (p *Position) martianMoves(from int, canTake func(Piece) bool) []move {
	pc := p.Board[from]
	file, rank := from%8, from/8
	var out []move
	land := func(f, r int) bool { // adds the move if possible; reports whether the square was empty
		if !onBoard(f, r) {
			return false
		}
		t := p.Board[square(f, r)]
		if t.Kind == Empty || canTake(t) {
			out = append(out, move{from, square(f, r)})
		}
		return t.Kind == Empty
	}
	slideAll := func(dirs [][2]int) {
		for _, d := range dirs {
			for f, r := file+d[0], rank+d[1]; onBoard(f, r); f, r = f+d[0], r+d[1] {
				if !land(f, r) {
					break
				}
			}
		}
	}
	diag := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	orth := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	switch pc.Kind {
	case King: // monarch: a queen
		slideAll(append(orth, diag...))
	case Horse: // paladin: knight or bishop
		for _, d := range knightSteps {
			land(file+d[0], rank+d[1])
		}
		slideAll(diag)
	case Elephant: // raven: rook, or two squares diagonally, jumping
		slideAll(orth)
		for _, d := range alfilSteps {
			land(file+d[0], rank+d[1])
		}
	case Pawn: // squire
		df, dr := pawnForward(pc.Seat)
		if onBoard(file+df, rank+dr) && p.Board[square(file+df, rank+dr)].Kind == Empty {
			out = append(out, move{from, square(file+df, rank+dr)})
			// Double step from the second line: the square behind is on the
			// board, the one behind that is not.
			if onBoard(file-df, rank-dr) && !onBoard(file-2*df, rank-2*dr) &&
				p.Board[square(file+2*df, rank+2*dr)].Kind == Empty {
				out = append(out, move{from, square(file+2*df, rank+2*dr)})
			}
		}
		for _, side := range [2]int{1, -1} {
			f, r := file+df+side*dr, rank+dr+side*df
			if onBoard(f, r) {
				if t := p.Board[square(f, r)]; t.Kind != Empty && canTake(t) {
					out = append(out, move{from, square(f, r)})
				}
			}
		}
	}
	return out
}

// faceAllows reports whether some face of dice names kind.
func faceAllows(dice []int, kind byte) bool {
	for _, f := range dice {
		if martianFace[f] == kind {
			return true
		}
	}
	return false
}

// martianActions lists the actions of a martian position, sorted.
func (p *Position) martianActions() []string {
	var acts []string
	switch p.Exchange {
	case "decide":
		return []string{"noreturn", "return=them", "return=us"}
	case "place":
		for _, sq := range p.placeSquares(p.Seat) {
			acts = append(acts, "M@"+squareName(sq))
		}
		sort.Strings(acts)
		return acts
	}
	t := p.Seat
	armies := []struct {
		seat int
		dice []int
		safe func(Piece) bool
	}{{t, unpack(p.Own), func(x Piece) bool { return x.Seat == t || x.Seat == partner(t) }}}
	if c := p.ControlSeat - 1; c >= 0 {
		armies = append(armies, struct {
			seat int
			dice []int
			safe func(Piece) bool
		}{c, unpack(p.Ctrl), func(x Piece) bool {
			return x.Seat == c || x.Seat == partner(c) || x.Seat == t || x.Seat == partner(t)
		}})
	}
	for _, a := range armies {
		for sq := 0; sq < 64; sq++ {
			pc := p.Board[sq]
			if pc.Kind == Empty || pc.Seat != a.seat || !faceAllows(a.dice, pc.Kind) {
				continue
			}
			safe := a.safe
			for _, m := range p.martianMoves(sq, func(x Piece) bool { return !safe(x) }) {
				if pc.Kind == Pawn && onLastLine(pc.Seat, m.to) {
					chose := false
					for _, k := range []byte{King, Horse, Elephant} {
						if !p.hasKind(pc.Seat, k) {
							acts = append(acts, m.String()+"="+string(martianLetter(k)))
							chose = true
						}
					}
					if chose {
						continue
					}
				}
				acts = append(acts, m.String())
			}
		}
	}
	acts = append(acts, "pass")
	sort.Strings(acts)
	return acts
}

// placeSquares are the squares a returning monarch of seat may be placed
// on: its home row's empty squares, else its second row's, else any empty.
func (p *Position) placeSquares(seat int) []int {
	df, dr := pawnForward(seat)
	var home, second, any []int
	for sq := 0; sq < 64; sq++ {
		if p.Board[sq].Kind != Empty {
			continue
		}
		f, r := sq%8, sq/8
		switch {
		case !onBoard(f-df, r-dr):
			home = append(home, sq)
		case !onBoard(f-2*df, r-2*dr):
			second = append(second, sq)
		}
		any = append(any, sq)
	}
	switch {
	case len(home) > 0:
		return home
	case len(second) > 0:
		return second
	}
	return any
}

// applyMartian performs a legal action of a martian position.
func (p *Position) applyMartian(action string) *Position {
	q := p.copyPos()
	switch {
	case action == "noreturn":
		q.Exchange = ""
		q.goOn()
		return q
	case action == "return=us" || action == "return=them":
		team := q.Turn % 2
		if action == "return=them" {
			team = 1 - team
		}
		q.Exchange = "place"
		q.Seat = q.kinglessOf(team)
		return q
	case strings.HasPrefix(action, "M@"):
		q.Board[square(int(action[2]-'a'), int(action[3]-'1'))] = Piece{Seat: q.Seat, Kind: King}
		if o := q.kinglessOf((q.Seat + 1) % 4); !q.hasKind(o, King) {
			q.Seat = o
			return q
		}
		q.Exchange = ""
		q.goOn()
		return q
	case action == "pass":
		q.endMartianTurn()
		return q
	}
	t := q.Seat
	m, choice := parseMove(action)
	pc := q.Board[m.from]
	// The die: the first (ascending) of the mover's army's pair naming the kind.
	dice := &q.Own
	if pc.Seat != t {
		dice = &q.Ctrl
	}
	left := unpack(*dice)
	for i, f := range left {
		if martianFace[f] == pc.Kind {
			*dice = pack(append(append([]int{}, left[:i]...), left[i+1:]...))
			break
		}
	}
	target := q.Board[m.to]
	q.Board[m.from] = Piece{}
	q.Board[m.to] = pc
	reset := pc.Kind == Pawn || target.Kind != Empty
	if choice != Empty {
		q.Board[m.to].Kind = martianKind(choice)
	}
	if pc.Kind == Elephant && pc.Seat == t && target.Kind == Empty && q.unkindnessOfRavens(m.to) {
		reset = true
	}
	if reset {
		q.Clock = 0
	}
	if target.Kind == King && q.teamKings(0) > 0 && q.teamKings(1) > 0 &&
		(!q.hasKind(t, King) || !q.hasKind(partner(t), King)) {
		q.Exchange, q.Turn = "decide", t
		if q.Own[0] == 0 && q.Ctrl[0] == 0 { // no die left for after the decision
			q.Rolled, q.ControlSeat = false, 0
		}
		return q
	}
	if q.Own[0] == 0 && q.Ctrl[0] == 0 {
		q.endMartianTurn()
	} else if q.Finished() { // an unused die is lost
		q.Rolled, q.Own, q.Ctrl, q.ControlSeat = false, [2]int{}, [2]int{}, 0
	}
	return q
}

// unkindnessOfRavens: a raven of the mover arrived on the empty centre
// square dest; if the other three hold ravens of the three other seats,
// they are captured.
func (q *Position) unkindnessOfRavens(dest int) bool {
	centre := []int{27, 28, 35, 36}
	seen := map[int]bool{q.Seat: true}
	var others []int
	for _, sq := range centre {
		if sq == dest {
			continue
		}
		pc := q.Board[sq]
		if pc.Kind != Elephant || seen[pc.Seat] {
			return false
		}
		seen[pc.Seat] = true
		others = append(others, sq)
	}
	if len(others) != 3 || (dest != 27 && dest != 28 && dest != 35 && dest != 36) {
		return false
	}
	for _, sq := range others {
		q.Board[sq] = Piece{}
	}
	return true
}

// goOn ends a return decision: the turn goes on with its remaining dice,
// or passes on.
func (q *Position) goOn() {
	q.Seat = q.Turn
	if q.Own[0] == 0 && q.Ctrl[0] == 0 {
		q.endMartianTurn()
	}
}

// endMartianTurn passes the turn on from q.Seat.
func (q *Position) endMartianTurn() {
	t := q.Seat
	q.Rolled, q.Own, q.Ctrl, q.ControlSeat = false, [2]int{}, [2]int{}, 0
	for i := 1; i <= 4; i++ {
		s := (t + i) % 4
		if q.hasKind(s, King) || (q.pieceCount(s) > 0 && q.Board[martianThrones[s]] == (Piece{Seat: partner(s), Kind: King})) {
			q.Seat = s
			return
		}
	}
}

// martianFinished: not while a return is decided; a team without a
// monarch; the clock at 200 between turns.
func (p *Position) martianFinished() bool {
	if p.Exchange != "" || p.RollOff {
		return false
	}
	return p.teamKings(0) == 0 || p.teamKings(1) == 0 || (p.Clock >= 200 && !p.Rolled)
}

// martianDice is the dice field.
func (p *Position) martianDice() string {
	if !p.Rolled {
		return "-"
	}
	s := ""
	for _, f := range unpack(p.Own) {
		s += strconv.Itoa(f)
	}
	if p.ControlSeat > 0 || p.Own[0] == 0 {
		s += "/"
		for _, f := range unpack(p.Ctrl) {
			s += strconv.Itoa(f)
		}
	}
	return s
}

// parseMartianDice reads the dice field.
func parseMartianDice(d string, p *Position) error {
	if d == "-" {
		return nil
	}
	own, ctrl, split := strings.Cut(d, "/")
	read := func(s string) ([]int, error) {
		var out []int
		for i := 0; i < len(s); i++ {
			if s[i] < '1' || s[i] > '4' || (i > 0 && s[i] < s[i-1]) || len(s) > 2 {
				return nil, fmt.Errorf("naive: bad dice %q", d)
			}
			out = append(out, int(s[i]-'0'))
		}
		return out, nil
	}
	o, err := read(own)
	if err != nil {
		return err
	}
	c, err := read(ctrl)
	if err != nil {
		return err
	}
	p.Own, p.Ctrl = pack(o), pack(c)
	if !split && len(o) == 0 {
		return fmt.Errorf("naive: bad dice %q", d)
	}
	p.Rolled = true
	return nil
}

// formatMartianExtra returns the extra field.
func (p *Position) formatMartianExtra() string {
	var pairs []string
	if p.ControlSeat > 0 {
		pairs = append(pairs, "control="+string(seatLetters[p.ControlSeat-1]))
	}
	if p.Exchange != "" {
		pairs = append(pairs, "return="+p.Exchange, "turn="+string(seatLetters[p.Turn]))
	}
	return strings.Join(pairs, ";")
}

// parseMartianExtra reads the extra field.
func parseMartianExtra(f string, p *Position) error {
	for _, pair := range strings.Split(f, ";") {
		key, value, _ := strings.Cut(pair, "=")
		if value == "" {
			return errBadExtra(f)
		}
		seat := strings.IndexByte(seatLetters, value[0])
		switch {
		case key == "control" && len(value) == 1 && seat >= 0:
			p.ControlSeat = seat + 1
		case key == "return" && (value == "decide" || value == "place"):
			p.Exchange = value
		case key == "turn" && len(value) == 1 && seat >= 0:
			p.Turn = seat
		default:
			return errBadExtra(f)
		}
	}
	if p.formatMartianExtra() != f {
		return errBadExtra(f)
	}
	return nil
}

// pack stores up to two faces, ascending, zeros for none.
func pack(faces []int) [2]int {
	var a [2]int
	copy(a[:], faces)
	return a
}

// unpack returns the faces of a pair, without its zeros.
func unpack(a [2]int) []int {
	var out []int
	for _, f := range a {
		if f != 0 {
			out = append(out, f)
		}
	}
	return out
}
