package naive

import "sort"

// chaturaji-2dice (docs/rules.md §5.3 and §6.1): chaturaji with
// two cube dice a turn. While a die remains the same seat acts again, with
// no turn passing and no waiting promotions in between.

// twoDiceActions lists the moves of every piece whose kind one of the
// remaining dice allows (each piece once, whichever die it would use),
// "pass" (always legal: it gives up the rest of the turn) and "retire"
// while the king is the seat's only piece.
func (p *Position) twoDiceActions() []string {
	var acts []string
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || pc.Seat != p.Seat || p.dieFor(pc.Kind) < 0 {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
		}
	}
	acts = append(acts, "pass")
	if p.loneKing(p.Seat) {
		acts = append(acts, "retire")
	}
	sort.Strings(acts)
	return acts
}

// dieFor returns the index in p.Dice of the first remaining die (ascending
// face) that lets a piece of kind move, or -1.
func (p *Position) dieFor(kind byte) int {
	for i, face := range p.Dice {
		if face != 0 && dieAllows(face, kind) {
			return i
		}
	}
	return -1
}

// useDie removes the die that a move of a piece of kind uses.
func (p *Position) useDie(kind byte) {
	i := p.dieFor(kind)
	if i == 0 {
		p.Dice[0] = p.Dice[1]
	}
	p.Dice[1] = 0
}

// applyTwoDice performs a legal action of a two-dice turn. The clock shows
// what it will be if the turn ends now: the turn's first action sets it to
// 0 (a capture or pawn move) or to the previous clock + 1; its second action
// resets it to 0 or leaves it. The end of the game is checked after every
// action; if the game ends while a die remains, that die is lost (the dice
// field becomes "-") and the seat stays the mover's.
func (p *Position) applyTwoDice(action string) *Position {
	q := p.copyPos()
	mover := p.Seat
	first := p.Dice[1] != 0 // both dice still unused
	reset := false
	endTurn := true
	switch action {
	case "pass":
	case "retire":
		q.removeKing(mover)
	default:
		m, _ := parseMove(action)
		q.useDie(q.Board[m.from].Kind) // the kind before any promotion
		reset = q.doMove(m, Empty)
		endTurn = q.Dice[0] == 0
	}
	switch {
	case reset:
		q.Clock = 0
	case first:
		q.Clock++
	}
	if endTurn {
		q.passTurn(mover)
	} else if q.Finished() {
		q.Dice = [2]int{} // the unused die is lost
	}
	q.lastKingRaise()
	return q
}
