package rules

import "slices"

// D4 is Martian Chaturaji's four-sided die [Martian]: 1 monarch, 2 paladin,
// 3 raven, 4 squire (the kinds King, Horse, Elephant and Pawn of the
// martian preset). With the preset's CountUp a face names the first kind at
// or above it that the army still has.
var D4 = &Die{
	Name:  "d4",
	Faces: []int{1, 2, 3, 4},
	Kinds: [8]KindSet{1: kinds(King), 2: kinds(Horse), 3: kinds(Elephant), 4: kinds(Pawn)},
	Words: [8]string{1: "monarch", 2: "paladin", 3: "raven", 4: "squire"},
}

// Martian is Nate Straight's Martian Chaturaji [Martian]: teams, its own pieces
// in the right-hand corners, two d4 a turn with the count-upwards rule,
// throne control, the unkindness of ravens and the monarchs' return.
var Martian = &Preset{
	Name:   "martian",
	Title:  "two teams of partners sitting opposite; Martian pieces; two d4 a turn; take both enemy monarchs",
	Source: "Nate Straight's Martian Chaturaji",
	Order:  []Seat{South, West, North, East},
	Start:  "gRgPgM3rSrR/gSgSgS3rSrP/6rSrM/8/8/yMyS6/yPyS3bSbSbS/yRyS3bMbPbR - - 0,0,0,0 0",
	Pieces: [NumKinds]PieceRule{
		Pawn:     {Letter: 'S', Name: "squire", Moves: PawnPush | PawnTakeDiag | PawnDouble},
		Horse:    {Letter: 'P', Name: "paladin", Moves: LeapKnight | SlideDiagonal},
		Elephant: {Letter: 'R', Name: "raven", Moves: SlideOrth | LeapAlfil},
		King:     {Letter: 'M', Name: "monarch", Moves: SlideOrth | SlideDiagonal},
	},
	Die:        D4,
	Dice:       2,
	PassAlways: true,
	Goal:       KingsGoal,
	Promotion:  Promotion{Rule: PromoteByChoice, Choices: kinds(King, Horse, Elephant), OnlyIfLacking: true},
	ClockLimit: 200,
	Team: TeamRules{
		Partners:   true,
		Safe:       kinds(Pawn, Horse, Elephant, King),
		Control:    true,
		Unkindness: true,
		Return:     true,
	},
	Colours: [NumSeats]string{"blue", "yellow", "green", "red"},
	RollOff: true,
	CountUp: true,
	Options: optionsNamed("clock"),
}

// rollOffOutcomes are the roll-off's outcomes: face 1, South's team starts;
// face 2, West's team.
var rollOffOutcomes = []Roll{pair(1), pair(2)}

var rollOffChances = []Chance{{rollOffOutcomes[0], 0.5}, {rollOffOutcomes[1], 0.5}}

// AwaitingRollOff reports whether the game's first seat is still to be
// decided by the roll-off (martian); the seat field is then `-`.
func (p *Position) AwaitingRollOff() bool { return p.rollOff }

// Outcomes returns every distinct roll the seat to act may make now: the
// preset's outcomes, both pairs' product under martian's throne control, the
// two outcomes of a roll-off (face 1: South's team starts, face 2: West's);
// nil when no roll is awaited.
func (p *Position) Outcomes() []Roll {
	switch {
	case !p.AwaitingRoll():
		return nil
	case p.rollOff:
		return rollOffOutcomes
	case p.preset.Team.Control && p.controlTarget(p.seat) != NoSeat:
		return p.preset.pairOutcomes
	}
	return p.preset.outcomes
}

// Chances returns Outcomes with their probabilities.
func (p *Position) Chances() []Chance {
	switch {
	case !p.AwaitingRoll():
		return nil
	case p.rollOff:
		return rollOffChances
	case p.preset.Team.Control && p.controlTarget(p.seat) != NoSeat:
		return p.preset.pairChances
	}
	return p.preset.chances
}

// isOutcome reports whether r is one of Outcomes.
func (p *Position) isOutcome(r Roll) bool { return slices.Contains(p.Outcomes(), r) }

// controlTarget returns the monarchless seat on whose throne s's king
// stands (martian's throne control), NoSeat if none.
func (p *Position) controlTarget(s Seat) Seat {
	pr := p.preset
	for _, c := range pr.seats {
		if c != s && p.board[pr.thrones[c]] == MakePiece(s, King) && !p.HasKing(c) {
			return c
		}
	}
	return NoSeat
}

// Controlled returns the army that the seat to act controls this turn
// through a throne (martian), NoSeat if none.
func (p *Position) Controlled() Seat {
	if p.ctrl == 0 {
		return NoSeat
	}
	return Seat(p.ctrl - 1)
}

// setSpecialRoll resolves a roll-off, or sets a martian roll: each die
// names the first kind at or above its face that its army still has, or is
// lost; the clock counts the turn now (a capture or squire move resets it).
func (p *Position) setSpecialRoll(r Roll) {
	if p.rollOff {
		p.hash ^= rollOffKey
		p.rollOff = false
		if r.Face(0) == 2 {
			p.setSeat(West)
		} else {
			p.setSeat(South)
		}
		return
	}
	p.hash ^= rollKey(p.rolled, p.roll)
	own := p.countUp(p.seat, r.own())
	if c := p.controlTarget(p.seat); c != NoSeat {
		ctrl, _ := r.Control()
		own = own.WithControl(p.countUp(c, ctrl))
		p.setControl(c)
	} else if own.Len() == 0 {
		own = own.WithControl(Roll{}) // every die lost: the field shows "/"
	}
	p.roll, p.rolled = own, true
	p.hash ^= rollKey(p.rolled, p.roll)
	p.clock++
}

// setControl records c as the army controlled this turn (NoSeat: none).
func (p *Position) setControl(c Seat) {
	if p.ctrl != 0 {
		p.hash ^= controlKeys[p.ctrl-1]
	}
	p.ctrl = 0
	if c != NoSeat {
		p.ctrl = uint8(c) + 1
		p.hash ^= controlKeys[c]
	}
}

// countUp maps each face of r to the first face at or above it whose kind
// seat s has a piece of, dropping the faces with none.
func (p *Position) countUp(s Seat, r Roll) Roll {
	var out []uint8
	for i := range r.Len() {
		for f := r.Face(i); f <= 4; f++ {
			if p.bySeat[s]&p.kindsBits(p.preset.faceKinds[f]) != 0 {
				out = append(out, uint8(f))
				break
			}
		}
	}
	return pair(out...) // counting up keeps the faces ascending
}

// kindsBits returns the squares of every piece of the kinds ks.
func (p *Position) kindsBits(ks KindSet) uint64 {
	var b uint64
	for ; ks != 0; ks &= ks - 1 {
		b |= p.byKind[lowestKind(ks)]
	}
	return b
}

// useMartianDie takes the first die that allows a piece of kind k from the
// own pair, or from the controlled army's pair if ctrl.
func (p *Position) useMartianDie(k Kind, ctrl bool) {
	own := p.roll.own()
	c, split := p.roll.Control()
	pair := &own
	if ctrl {
		pair = &c
	}
	for i := range pair.Len() {
		if p.preset.faceKinds[pair.Face(i)].Has(k) {
			*pair = pair.without(i)
			break
		}
	}
	if split {
		own = own.WithControl(c)
	}
	p.hash ^= rollKey(true, p.roll) ^ rollKey(true, own)
	p.roll = own
}

// martianActions appends the moves of a martian turn: the seat's own pieces
// of the kinds its pair names, the controlled army's of the kinds the
// second pair names (never capturing the controller's team, nor its own),
// and pass.
func (p *Position) martianActions(buf []Action) []Action {
	s := p.seat
	buf = p.appendMoves(buf, s, p.allowed(), p.foes(s))
	if c := p.Controlled(); c != NoSeat {
		ctrl, _ := p.roll.Control()
		var ks KindSet
		for i := range ctrl.Len() {
			ks |= p.preset.faceKinds[ctrl.Face(i)]
		}
		team := p.bySeat[s] | p.bySeat[Partner(s)]
		buf = p.appendMoves(buf, c, ks, p.foes(c)&^team)
	}
	return append(buf, PassAction)
}

// unkindness plays the unkindness of ravens: seat owner's raven (the kind
// Elephant) has moved onto the empty square sq of the centre, whose other
// three squares hold the other three seats' ravens: those are captured. It
// reports whether they were.
func (p *Position) unkindness(u *Undo, owner Seat, sq Square) bool {
	const centre = 1<<27 | 1<<28 | 1<<35 | 1<<36 // d4 e4 d5 e5
	if centre&sq.bit() == 0 {
		return false
	}
	others := uint64(centre) &^ sq.bit()
	ravens := others & p.byKind[Elephant]
	if ravens != others {
		return false
	}
	var seats uint8
	for r := ravens; r != 0; r &= r - 1 {
		seats |= 1 << p.board[lowest(r)].Seat()
	}
	if seats&(1<<owner) != 0 || popcount(uint64(seats)) != 3 {
		return false
	}
	for r := ravens; r != 0; r &= r - 1 {
		p.remove(u, lowest(r))
	}
	return true
}

// homeLine returns seat s's home row, and the row in front of it.
func homeLine(s Seat) (home, second uint64) {
	for _, sq := range lastLine(Partner(s)) {
		home |= sq.bit()
		second |= pawnPushes[s][sq]
	}
	return home, second
}

// returnSquares returns where s may place its returning monarch: an empty
// square of its home row, else of its second row, else any.
func (p *Position) returnSquares(s Seat) uint64 {
	home, second := homeLine(s)
	if e := home &^ p.occ; e != 0 {
		return e
	}
	if e := second &^ p.occ; e != 0 {
		return e
	}
	return ^p.occ
}

// mayReturn reports whether the monarch capture just decided by seat d,
// which did not end the game, offers the monarchs' return: d's team is
// missing a monarch.
func (p *Position) mayReturn(d Seat) bool {
	a, b := p.teamKings()
	if a == 0 || b == 0 {
		return false
	}
	return !p.HasKing(d) || !p.HasKing(Partner(d))
}

// continueTurn ends a decision within a turn: the seat whose turn it is
// plays on with its remaining dice, or the turn passes on.
func (p *Position) continueTurn(u *Undo, turn Seat) {
	p.step = noStep
	if p.rolled && !p.roll.empty() {
		p.setSeat(turn)
		p.checkTeamEnd(turn, kill{})
		return
	}
	p.endTeamTurn(u, turn, turn, kill{})
}
