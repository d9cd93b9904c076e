package naive

import "sort"

// biruni (docs/rules.md §6, [encyclopedia]): chaturaji-2dice (two cube dice a turn, each
// for himself, points, the 54 raise) with the sinhasana: a king that moves
// onto the throne of the seat opposite its own commands both armies until
// it leaves that throne or that seat gets a king back. The commander decides
// both seats' turns with that turn's dice and may move pieces of both
// armies; while the command lasts, the two armies cannot capture each
// other, not even in a boat triumph; a kingless army under command takes
// its turns. Points go to the player who decided. The extra field
// "command=" lists the commanders.

// birunaTruce reports whether seats a and b are opposite seats under a
// command.
func (p *Position) biruniTruce(a, b int) bool {
	return b == partner(a) && (p.Command[a] || p.Command[b])
}

// biruniActions: the moves of the pieces of the commanded armies whose kind
// a remaining die allows, "pass" always, "retire" while the decider's own
// king is its only piece on its own turn.
func (p *Position) biruniActions() []string {
	t := p.Seat
	d := p.deciderOf(t)
	var acts []string
	for sq := 0; sq < 64; sq++ {
		pc := p.Board[sq]
		if pc.Kind == Empty || p.dieFor(pc.Kind) < 0 {
			continue
		}
		if pc.Seat != d && !(pc.Seat == partner(d) && p.Command[d]) {
			continue
		}
		for _, m := range p.pieceMoves(sq) {
			acts = append(acts, m.String())
		}
	}
	acts = append(acts, "pass")
	if d == t && p.loneKing(t) {
		acts = append(acts, "retire")
	}
	sort.Strings(acts)
	return acts
}

// applyBiruni performs a legal action of a biruni turn.
func (p *Position) applyBiruni(action string) *Position {
	q := p.copyPos()
	t := q.Seat
	d := q.deciderOf(t)
	first := q.Dice[1] != 0
	reset := false
	endTurn := true
	switch action {
	case "pass":
	case "retire":
		q.Board[q.kingOf(t)] = Piece{}
	default:
		m, _ := parseMove(action)
		pc := q.Board[m.from]
		q.useDie(pc.Kind)
		endTurn = q.Dice[0] == 0
		reset = pc.Kind == Pawn
		if target := q.Board[m.to]; target.Kind != Empty {
			q.Scores[d] += points(target.Kind)
			reset = true
		}
		q.Board[m.from] = Piece{}
		q.Board[m.to] = pc
		if pc.Kind == Pawn && onLastLine(pc.Seat, m.to) {
			if k := promotionKind(pc.Seat, m.to); !q.hasKind(pc.Seat, k) {
				q.Board[m.to].Kind = k
				if k == King {
					q.Command[partner(pc.Seat)] = false
				}
			}
		}
		if pc.Kind == King && m.to == thrones[partner(pc.Seat)] {
			q.Command[pc.Seat] = true
		}
		if pc.Kind == Boat && q.biruniTriumph(d, pc.Seat, m.to) {
			reset = true
		}
	}
	for c := 0; c < 4; c++ {
		if q.Command[c] && q.Board[thrones[partner(c)]] != (Piece{Seat: c, Kind: King}) {
			q.Command[c] = false
		}
	}
	if !endTurn && !q.hasKind(t, King) && !q.Command[partner(t)] {
		endTurn = true // the command over t ended with a die left: t is frozen, the die lost
	}
	switch {
	case reset:
		q.Clock = 0
	case first:
		q.Clock++
	}
	if endTurn {
		q.Dice = [2]int{}
		q.Seat = t
		for i := 1; i <= 4; i++ {
			s := (t + i) % 4
			had := q.hasKind(s, King)
			q.promoteWaiting(s)
			if !had && q.hasKind(s, King) {
				q.Command[partner(s)] = false
			}
			if q.hasKind(s, King) || (q.pieceCount(s) > 0 && q.Command[partner(s)]) {
				q.Seat = s
				break
			}
		}
	} else if q.Finished() {
		q.Dice = [2]int{}
	}
	q.lastKingRaise()
	return q
}

// biruniTriumph: the boats of full 2x2 blocks around dest that are neither
// the owner's nor (under a truce) the opposite seat's are captured, d
// scoring 2 each.
func (q *Position) biruniTriumph(d, owner, dest int) bool {
	file, rank := dest%8, dest/8
	var in [64]bool
	for cf := file - 1; cf <= file; cf++ {
		for cr := rank - 1; cr <= rank; cr++ {
			if !onBoard(cf, cr) || !onBoard(cf+1, cr+1) {
				continue
			}
			sqs := [4]int{square(cf, cr), square(cf+1, cr), square(cf, cr+1), square(cf+1, cr+1)}
			if q.Board[sqs[0]].Kind == Boat && q.Board[sqs[1]].Kind == Boat && q.Board[sqs[2]].Kind == Boat && q.Board[sqs[3]].Kind == Boat {
				for _, sq := range sqs {
					in[sq] = true
				}
			}
		}
	}
	took := false
	for sq := range in {
		if in[sq] && q.Board[sq].Seat != owner && !q.biruniTruce(owner, q.Board[sq].Seat) {
			q.Board[sq] = Piece{}
			q.Scores[d] += points(Boat)
			took = true
		}
	}
	return took
}
