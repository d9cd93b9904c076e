package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParsePosition reads a position of preset pr in the notation of docs/rules.md
// §7 (docs/notation.md §2 in full): `<board> <seat> <dice> <scores> <clock> [<extra>]`. It is
// strict: an error names the field and the text that is wrong.
func ParsePosition(pr *Preset, s string) (*Position, error) {
	return parsePosition(pr, s)
}

// MustParsePosition is ParsePosition for positions known to be valid; it
// panics on an error.
func MustParsePosition(pr *Preset, s string) *Position {
	p, err := ParsePosition(pr, s)
	if err != nil {
		panic(err)
	}
	return p
}

// PositionError is a malformed position string.
type PositionError struct {
	Field string // position (the whole string), board, seat, dice, scores, clock or extra
	Text  string // the offending text
	Why   string // what is wrong with it
}

// Error returns `rules: position FIELD "TEXT": WHY`.
func (e *PositionError) Error() string {
	return fmt.Sprintf("rules: position %s %q: %s", e.Field, e.Text, e.Why)
}

func parsePosition(pr *Preset, s string) (*Position, error) {
	fields := strings.Split(s, " ")
	if slices.Contains(fields, "") {
		return nil, &PositionError{"position", s, "fields are separated by single spaces, with none before the first or after the last"}
	}
	if len(fields) != 5 && len(fields) != 6 {
		return nil, &PositionError{"position", s, fmt.Sprintf("want 5 or 6 fields separated by single spaces (board seat dice scores clock [extra]), got %d", len(fields))}
	}
	p := &Position{preset: pr}
	if len(fields) == 6 {
		if err := p.parseExtra(fields[5]); err != nil {
			return nil, err
		}
	}
	if err := p.parseBoard(fields[0]); err != nil {
		return nil, err
	}
	if pr.RollOff && fields[1] == "-" {
		p.rollOff = true // the roll-off decides who starts
	} else {
		seat, err := pr.parseSeat(fields[1])
		if err != nil {
			return nil, err
		}
		p.seat = seat
	}
	if fields[2] != "-" {
		if pr.Die == nil {
			return nil, &PositionError{"dice", fields[2], fmt.Sprintf("preset %s has no dice: the field is always -", pr.Name)}
		}
		r, err := ParseRoll(fields[2])
		c, split := r.Control()
		if err != nil || r.Len() > pr.Dice || c.Len() > pr.Dice || split && !pr.CountUp {
			return nil, &PositionError{"dice", fields[2], fmt.Sprintf("want - or up to %d faces of the %s die %v, ascending", pr.Dice, pr.Die.Name, pr.Die.Faces)}
		}
		for i := range r.Len() + c.Len() {
			f := 0
			if i < r.Len() {
				f = r.Face(i)
			} else {
				f = c.Face(i - r.Len())
			}
			if !pr.Die.hasFace(f) {
				return nil, &PositionError{"dice", fields[2], fmt.Sprintf("%d is not a face of the %s die %v", f, pr.Die.Name, pr.Die.Faces)}
			}
		}
		if fields[2] != r.String() {
			return nil, &PositionError{"dice", fields[2], "faces must be in ascending order"}
		}
		p.roll, p.rolled = r, true
	}
	scores := strings.Split(fields[3], ",")
	if len(scores) != pr.NumSeats() {
		return nil, &PositionError{"scores", fields[3], fmt.Sprintf("want %d integers joined by commas, one per seat", pr.NumSeats())}
	}
	for i, t := range scores {
		v, err := strconv.ParseInt(t, 10, 32)
		if err != nil || t != strconv.FormatInt(v, 10) {
			return nil, &PositionError{"scores", fields[3], fmt.Sprintf("%q is not an integer", t)}
		}
		p.scores[pr.seats[i]] = int32(v)
	}
	clock, err := strconv.ParseInt(fields[4], 10, 32)
	if err != nil || clock < 0 || fields[4] != strconv.FormatInt(clock, 10) {
		return nil, &PositionError{"clock", fields[4], "want a whole number of turns, 0 or more"}
	}
	p.clock = int32(clock)
	p.done = p.isOver()
	if p.done && p.rolled {
		return nil, &PositionError{"dice", fields[2], "the game is over, so no roll can be pending"}
	}
	if p.done && p.step != noStep {
		return nil, &PositionError{"extra", fields[5], "the game is over, so no decision can be pending"}
	}
	if !p.done && p.step == noStep && !p.rollOff && !pr.Kingless && !p.HasKing(p.seat) && !(pr.teamPlay && p.takesTurn(p.seat)) {
		return nil, &PositionError{"seat", fields[1], "that seat has no king, so its turn is skipped: it cannot be the seat to act"}
	}
	if !p.done && p.dead&(1<<p.seat) != 0 {
		return nil, &PositionError{"seat", fields[1], "that seat's army is dead, so its turn is skipped: it cannot be the seat to act"}
	}
	if p.step != noStep && p.step < stepReturn && p.rolled {
		return nil, &PositionError{"dice", fields[2], "a decision is pending: the dice of the turn are used"}
	}
	if p.rollOff && (p.rolled || p.done || p.step != noStep) {
		return nil, &PositionError{"seat", fields[1], "before the roll-off nothing has happened: no dice, no decision"}
	}
	if c, split := p.roll.Control(); p.ctrl != 0 && !split || c.Len() > 0 && p.ctrl == 0 {
		return nil, &PositionError{"extra", s, "control= names the army the second pair of dice moves: both or neither"}
	}
	if err := p.checkPending(); err != nil {
		return nil, &PositionError{"extra", fields[5], err.Error()}
	}
	p.hash = p.computeHash()
	return p, nil
}

func (d *Die) hasFace(f int) bool {
	for _, x := range d.Faces {
		if x == f {
			return true
		}
	}
	return false
}

func (pr *Preset) parseSeat(t string) (Seat, error) {
	if len(t) == 1 {
		if s, ok := SeatOfLetter(t[0]); ok && pr.plays(s) {
			return s, nil
		}
	}
	return NoSeat, &PositionError{"seat", t, fmt.Sprintf("want the colour letter of a seat of %s (%s)", pr.Name, pr.seatLetters())}
}

// plays reports whether seat s takes part in the preset's games.
func (pr *Preset) plays(s Seat) bool {
	for _, o := range pr.Order {
		if o == s {
			return true
		}
	}
	return false
}

func (pr *Preset) seatLetters() string {
	var b strings.Builder
	for s := range Seat(NumSeats) {
		if pr.plays(s) {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteByte(s.Letter())
		}
	}
	return b.String()
}

func (p *Position) parseBoard(t string) error {
	pr := p.preset
	ranks := strings.Split(t, "/")
	if len(ranks) != 8 {
		return &PositionError{"board", t, fmt.Sprintf("want 8 ranks separated by /, got %d", len(ranks))}
	}
	for i, rank := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(rank); j++ {
			c := rank[j]
			switch {
			case c >= '1' && c <= '8':
				f += int(c - '0')
			case j+1 < len(rank):
				s, ok := SeatOfLetter(c)
				if !ok || !pr.plays(s) {
					return &PositionError{"board", rank, fmt.Sprintf("%q is neither a run of empty squares nor a seat colour of %s (%s)", c, pr.Name, pr.seatLetters())}
				}
				l := rank[j+1]
				k := NoKind
				if l < 128 {
					k = pr.letterKind[l]
				}
				if k == NoKind {
					return &PositionError{"board", rank, fmt.Sprintf("%q is not a piece letter of %s", l, pr.Name)}
				}
				if f < 8 {
					p.place(SquareAt(f, r), MakePiece(s, k))
				}
				f++
				j++
			default:
				return &PositionError{"board", rank, fmt.Sprintf("%q is neither a run of empty squares nor a piece", c)}
			}
			if f > 8 {
				return &PositionError{"board", rank, fmt.Sprintf("rank %d has more than 8 squares", r+1)}
			}
		}
		if f != 8 {
			return &PositionError{"board", rank, fmt.Sprintf("rank %d has %d squares, not 8", r+1, f)}
		}
	}
	return nil
}

// String returns the position in canonical notation.
func (p *Position) String() string {
	pr := p.preset
	var b strings.Builder
	b.Grow(96)
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			pc := p.board[SquareAt(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.Seat().Letter())
			b.WriteByte(pr.Pieces[pc.Kind()].Letter)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	if p.rollOff {
		b.WriteByte('-')
	} else {
		b.WriteByte(p.seat.Letter())
	}
	b.WriteByte(' ')
	b.WriteString(p.roll.String())
	b.WriteByte(' ')
	for i, s := range pr.seats {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(p.scores[s])))
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.clock)))
	if extra := p.formatExtra(); extra != "" {
		b.WriteByte(' ')
		b.WriteString(extra)
	}
	return b.String()
}

// computeHash returns the Zobrist hash computed from scratch.
func (p *Position) computeHash() uint64 {
	var h uint64
	for sq, pc := range p.board {
		if pc != NoPiece {
			h ^= pieceKeys[pc][sq]
		}
	}
	for s := range Seat(NumSeats) {
		if p.leaps&(1<<s) != 0 {
			h ^= leapKeys[s]
		}
	}
	if p.ctrl != 0 { // kept by setControl, outside the team hash
		h ^= controlKeys[p.ctrl-1]
	}
	if p.rollOff {
		h ^= rollOffKey
	}
	for s := range Seat(NumSeats) {
		if p.dead&(1<<s) != 0 {
			h ^= deadKeys[s]
		}
	}
	return h ^ seatKeys[p.seat] ^ rollKey(p.rolled, p.roll) ^ p.teamHash()
}
