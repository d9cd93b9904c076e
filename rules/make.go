package rules

// Make plays action a, which must be legal, in place, recording in u what it
// changed. It applies every automatic effect of docs/rules.md §4's order of
// events: the capture and its points, the boat triumph, the mover's own
// promotion, the clock, the turn passing (with the waiting promotions of each
// visited seat) and the end of the game. With two-dice turns the seat acts
// again while a die remains.
func (p *Position) Make(a Action, u *Undo) {
	u.action, u.saved, u.n = a, p.state, 0
	pr := p.preset
	if pr.teamPlay {
		p.makeTeam(a, u)
		return
	}
	mover := p.seat
	first := p.roll.Len() == pr.Dice // the turn's first action
	reset := false                   // a capture or a pawn move resets the clock
	endTurn := true
	switch a.Type() {
	case Move:
		if pr.checks {
			reset = p.moveChecking(u, mover, a)
		} else {
			reset = p.move(u, mover, a)
		}
		if pr.Dice > 1 {
			p.useDie(u.changes[0].old.Kind()) // the journal's first entry is the piece that left its square
			endTurn = p.roll.Len() == 0
		}
	case Retire:
		p.remove(u, lowest(p.bySeat[mover]&p.byKind[King]))
	default:
		p.callEnd(a.Type(), mover)
	}
	// The clock changes once a turn: reset as soon as an action resets it,
	// else one more on the turn's first action (docs/rules.md §5.2).
	switch {
	case pr.oneActionTurns: // the common case, decided once
		if reset {
			p.clock = 0
		} else {
			p.clock++
		}
	case pr.TurnClock:
		if first {
			p.clock++
		}
	case reset:
		p.clock = 0
	case first:
		p.clock++
	}
	if endTurn {
		p.hash ^= rollKey(p.rolled, p.roll)
		p.roll, p.rolled = Roll{}, false
		p.passTurn(u, mover)
	}
	p.done = p.isOver()
	if p.done {
		p.end()
	}
}

// end applies what the end of the game does: an unused die is lost, the
// last king's owner is raised, the ends of dead armies are scored.
func (p *Position) end() {
	pr := p.preset
	if p.rolled {
		p.hash ^= rollKey(p.rolled, p.roll)
		p.roll, p.rolled = Roll{}, false
	}
	if pr.Raise > 0 {
		if kings := p.byKind[King]; popcount(kings) == 1 {
			owner := p.board[lowest(kings)].Seat()
			if p.scores[owner] < int32(pr.Raise) {
				p.scores[owner] = int32(pr.Raise)
			}
		}
	}
	if pr.Dead {
		p.settle()
	}
}

// useDie takes from the roll the first remaining die, in ascending face
// order, that allows a piece of kind k.
func (p *Position) useDie(k Kind) {
	for i := range p.roll.Len() {
		if p.preset.faceKinds[p.roll.Face(i)].Has(k) {
			p.hash ^= rollKey(true, p.roll)
			p.roll = p.roll.without(i)
			p.hash ^= rollKey(true, p.roll)
			return
		}
	}
}

// move plays a move of seat s and reports whether it captured or moved a
// pawn.
func (p *Position) move(u *Undo, s Seat, a Action) bool {
	pr := p.preset
	from, to := a.From(), a.To()
	pc := p.remove(u, from)
	reset := false
	if p.board[to] != NoPiece {
		captured := p.remove(u, to)
		if pr.Dead {
			p.scores[s] += p.worth(captured)
			if captured.Kind() == King && p.dead&(1<<captured.Seat()) != 0 {
				p.bury(captured.Seat())
			}
		} else {
			p.scores[s] += int32(pr.Pieces[captured.Kind()].Points)
		}
		reset = true
	}
	k := pc.Kind()
	switch {
	case k == Pawn:
		reset = true
		if pr.lastLines[s]&to.bit() != 0 {
			promo := a.Promotion()
			if promo == NoKind {
				promo = pr.promoteTo[s][to]
			}
			if promo != NoKind && (!pr.Promotion.OnlyIfLacking || p.lacks(s, promo)) {
				pc = MakePiece(s, promo)
			}
		}
	case k == King && pr.KingLeap && knightLeaps[from]&to.bit() != 0:
		p.leaps |= 1 << s
		p.hash ^= leapKeys[s]
	}
	p.put(u, to, pc)
	if k == Boat && pr.Triumph && p.triumph(u, s, to) {
		reset = true
	}
	return reset
}

// triumph plays the boat triumph of seat s's boat arriving on sq: every boat
// not the mover's in a fully occupied 2x2 block of boats containing sq is
// captured. It reports whether any was.
func (p *Position) triumph(u *Undo, s Seat, sq Square) bool {
	boats := p.byKind[Boat]
	var won uint64
	for _, block := range blocks[sq] {
		if block != 0 && boats&block == block {
			won |= block
		}
	}
	won &^= p.bySeat[s]
	for w := won; w != 0; w &= w - 1 {
		p.remove(u, lowest(w))
		p.scores[s] += int32(p.preset.Pieces[Boat].Points)
	}
	return won != 0
}

// blocks lists, for each square, the 2x2 blocks of squares that contain it.
var blocks [64][4]uint64

var blocksReady = initBlocks()

func initBlocks() bool {
	for sq := Square(0); sq < 64; sq++ {
		i := 0
		for df := -1; df <= 0; df++ {
			for dr := -1; dr <= 0; dr++ {
				f, r := sq.File()+df, sq.Rank()+dr
				if f >= 0 && f < 7 && r >= 0 && r < 7 {
					c := SquareAt(f, r)
					blocks[sq][i] = c.bit() | (c + 1).bit() | (c + 8).bit() | (c + 9).bit()
					i++
				}
			}
		}
	}
	return true
}

// passTurn passes the turn on from the mover: seats are visited in turn order
// from the one after the mover, the mover last; each visited seat first
// promotes its waiting pawns, then takes the turn if it has a king.
func (p *Position) passTurn(u *Undo, mover Seat) {
	pr := p.preset
	if pr.Dead {
		p.passTurnLive(mover)
		return
	}
	n := len(pr.Order)
	i := pr.turnIndex[mover]
	for range n {
		i++
		if i == n {
			i = 0
		}
		s := pr.Order[i]
		if pr.Promotion.Wait {
			p.promoteWaiting(u, s)
		}
		if pr.Kingless || p.HasKing(s) {
			p.setSeat(s)
			return
		}
	}
	p.setSeat(mover)
}

// promoteWaiting promotes seat s's waiting pawns whose kind the army lacks,
// in ascending square order.
func (p *Position) promoteWaiting(u *Undo, s Seat) {
	pr := p.preset
	for w := p.bySeat[s] & p.byKind[Pawn] & pr.lastLines[s]; w != 0; w &= w - 1 {
		sq := lowest(w)
		k := pr.promoteTo[s][sq]
		if k != NoKind && p.lacks(s, k) {
			p.replace(u, sq, MakePiece(s, k))
		}
	}
}

// isOver reports whether the game has ended.
func (p *Position) isOver() bool {
	pr, kings := p.preset, p.byKind[King]
	if pr.kingEnds && kings&(kings-1) != 0 && p.occ != kings && int(p.clock) < pr.ClockLimit {
		return false // the common case, decided inline: two kings or more, other pieces, time left
	}
	return p.endReason() != NotOver
}

// End says why a game ended.
type End uint8

// The ends of a game.
const (
	NotOver    End = iota // the game goes on
	LastKing              // at most one king is left on the board
	Peace                 // only kings are left (honourable peace)
	ClockOut              // the clock reached the preset's limit
	LastArmy              // only one army has pieces left (Ludii)
	KingsTaken            // a side has no king left (king presets)
	Stripped              // a team has nothing but kings left (chaturanga-fr2)
	Stalled               // no seat can take a turn: a draw (chaturanga-fr2)
	LastAlive             // at most one army lives (presets with Dead)
	Uncaught              // nobody can catch the leader any more (presets with Claim)
)

var endNames = [...]string{"not over", "one king left", "only kings left", "clock", "one army left", "kings taken", "nothing but kings", "no army can move", "one army alive", "the leader cannot be caught"}

// String describes the end in a few words, such as "one king left".
func (e End) String() string { return endNames[e] }

// EndReason says why the game is over, NotOver while it goes on.
func (p *Position) EndReason() End {
	if !p.done {
		return NotOver
	}
	return p.endReason()
}

func (p *Position) endReason() End {
	pr := p.preset
	kings := p.byKind[King]
	switch {
	case p.step != noStep:
		return NotOver // a king exchange is being decided
	case pr.Dead:
		switch {
		case p.liveArmies() <= 1:
			return LastAlive
		case int(p.clock) >= pr.ClockLimit:
			return ClockOut
		case pr.Claim && p.uncaught() != NoSeat:
			return Uncaught
		}
		return NotOver
	case pr.LastArmy && p.armies() <= 1:
		return LastArmy
	case pr.Team.LastForces:
		if p.teamPieces(0) == 0 || p.teamPieces(1) == 0 {
			return LastArmy
		}
		if !p.anySeatPlays() {
			return Stalled
		}
	case pr.Team.Stakes:
		if p.losingTeam() >= 0 || p.strippedTeams() == 2 {
			return Stripped
		}
		if !p.anySeatPlays() {
			return Stalled
		}
	case pr.Team.Partners:
		if a, b := p.teamKings(); a == 0 || b == 0 {
			return KingsTaken
		}
	case pr.Goal == KingsGoal && p.sideWithoutKing():
		return KingsTaken
	case pr.Goal == PointsGoal && !pr.Kingless && popcount(kings) <= 1:
		return LastKing
	}
	switch {
	case pr.PeaceEnds && p.occ == kings:
		return Peace
	case int(p.clock) >= pr.ClockLimit && !p.midTurn():
		// Not in the middle of a two-dice turn: there the clock shows what
		// it will be if the turn ends now.
		return ClockOut
	}
	return NotOver
}

// midTurn reports whether the seat to act has used some of its dice.
func (p *Position) midTurn() bool { return p.rolled && p.roll.Len() < p.preset.Dice }

// armies returns how many seats have pieces on the board.
func (p *Position) armies() int {
	n := 0
	for _, s := range p.preset.seats {
		if p.bySeat[s] != 0 {
			n++
		}
	}
	return n
}

// sideWithoutKing reports whether a seat has lost every king.
func (p *Position) sideWithoutKing() bool {
	for _, s := range p.preset.seats {
		if !p.HasKing(s) {
			return true
		}
	}
	return false
}
