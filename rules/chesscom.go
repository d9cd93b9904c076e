package rules

// ChesscomChaturaji is the Chaturaji that chess.com plays (docs/rules.md
// §6.12): no dice; a sliding bishop where the elephant stands and a sailboat
// that slides like a rook in the boat's corner; chess.com's points, check
// bonuses, and live and dead armies; the game ends when one army lives, when
// the leader of the last two claims it or cannot be caught, or by the clock.
//
// Its kinds keep the engine's letters (B the sailboat, H the knight, E the
// bishop), as chaturanga-2p keeps them for its own names; PGN4 and FEN4 map
// chess.com's letters (R, N, B) onto them.
var ChesscomChaturaji = &Preset{
	Name:   "chesscom-chaturaji",
	Title:  "four players, each for himself, as chess.com plays it: no dice; points and check bonuses; dead armies",
	Source: "chess.com's Chaturaji rules, as its players publish them; the open engines that replay chess.com's games",
	Order:  []Seat{South, West, North, East},
	Start:  chaturajiStart,
	Pieces: [NumKinds]PieceRule{
		Pawn:     {Letter: 'P', Name: "pawn", Points: 1, Moves: PawnPush | PawnTakeDiag},
		Boat:     {Letter: 'B', Name: "sailboat", Points: 5, Moves: SlideOrth},
		Horse:    {Letter: 'H', Name: "knight", Points: 3, Moves: LeapKnight},
		Elephant: {Letter: 'E', Name: "bishop", Points: 5, Moves: SlideDiagonal},
		King:     {Letter: 'K', Name: "king", Points: 3, Moves: StepAny},
	},
	Colours: [NumSeats]string{"red", "blue", "yellow", "green"},
	Goal:    PointsGoal,
	Promotion: Promotion{
		Rule:     PromoteBySquare,
		BySquare: [8]Kind{Boat, Boat, Boat, Boat, Boat, Boat, Boat, Boat},
	},
	Checks:     [NumSeats]int{2: 1, 3: 5},
	Dead:       true,
	DrawPoints: 2,
	Claim:      true,
	ClockLimit: 200,
	Options:    optionsNamed("clock"),
}

func init() { register(ChesscomChaturaji) }

// live reports whether seat s's army lives: its king is on the board and it
// has not resigned or run out of time.
func (p *Position) live(s Seat) bool { return p.HasKing(s) && p.dead&(1<<s) == 0 }

// Dead reports whether seat s's army is dead: its king taken, or its seat
// resigned or out of time.
func (p *Position) Dead(s Seat) bool { return !p.live(s) }

// liveArmies returns how many armies live.
func (p *Position) liveArmies() int {
	n := 0
	for _, s := range p.preset.seats {
		if p.live(s) {
			n++
		}
	}
	return n
}

// fillAttackFrom fills attackFrom: the squares from which a piece of each
// kind and seat captures on a square without sliding (the steps, read
// backwards).
func (pr *Preset) fillAttackFrom() {
	for ks := pr.used; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		for _, s := range pr.Order {
			for from := range Square(64) {
				st := &pr.steps[k][s][from]
				for t := st.takes | st.either; t != 0; t &= t - 1 {
					pr.attackFrom[k][s][lowest(t)] |= from.bit()
				}
			}
		}
	}
}

// attackers returns the squares of the pieces, of any seat, that could
// capture on sq, where a king stands, by one ordinary move. Only pawns
// attack differently by seat.
func (p *Position) attackers(sq Square) uint64 {
	pr := p.preset
	var a uint64
	for ks := pr.used; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		pieces := p.byKind[k]
		if pieces == 0 || pr.Pieces[k].CannotTake.Has(King) {
			continue
		}
		m := pr.Pieces[k].Moves
		if m.lines(sq)&pieces != 0 { // a slider on the king's lines: look for blockers
			a |= m.slides(sq, p.occ) & pieces
		}
		if m&(PawnPush|PawnTakeDiag|PawnTakeAhead) == 0 {
			a |= pr.attackFrom[k][pr.Order[0]][sq] & pieces
			continue
		}
		for _, s := range pr.Order {
			a |= pr.attackFrom[k][s][sq] & pieces & p.bySeat[s]
		}
	}
	return a
}

// kingThreats are the attackers of each live enemy king of a mover, by the
// king's seat and the attacking seat (live armies only).
type kingThreats [NumSeats][NumSeats]uint64

// threats fills t for mover's live enemy kings and returns how many there
// are.
func (p *Position) threats(mover Seat, t *kingThreats) int {
	var live [NumSeats]bool
	for _, s := range p.preset.seats {
		live[s] = p.live(s)
	}
	n := 0
	for _, c := range p.preset.seats {
		if c == mover || !live[c] {
			continue
		}
		n++
		a := p.attackers(lowest(p.bySeat[c] & p.byKind[King]))
		for _, d := range p.preset.seats {
			if d != c && live[d] {
				t[c][d] = a & p.bySeat[d]
			}
		}
	}
	return n
}

// callEnd plays the actions that are no move of a preset with Dead:
// resign, timeout and claim (pass does nothing).
func (p *Position) callEnd(t ActionType, mover Seat) {
	switch t {
	case Resign, Timeout:
		p.kill(mover)
	case Claim:
		p.claim(mover)
	}
}

// passTurnLive passes the turn from the mover to the next live army in
// turn order, the mover last (presets with Dead: no waiting promotions).
func (p *Position) passTurnLive(mover Seat) {
	pr := p.preset
	n := len(pr.Order)
	i := pr.turnIndex[mover]
	for range n {
		if i++; i == n {
			i = 0
		}
		if s := pr.Order[i]; p.live(s) {
			p.setSeat(s)
			return
		}
	}
	p.setSeat(mover)
}

// moveChecking plays a move as move does, and scores its check bonus,
// recorded in u.
func (p *Position) moveChecking(u *Undo, mover Seat, a Action) bool {
	u.bonus = 0
	var before kingThreats
	if p.threats(mover, &before) < 2 {
		return p.move(u, mover, a)
	}
	reset := p.move(u, mover, a)
	u.bonus = int32(p.checkBonus(mover, &before))
	p.scores[mover] += u.bonus
	return reset
}

// checkBonus returns the points of mover's move by the kings it threatens
// anew: the live enemy kings attacked now from a square, by a seat, that
// did not attack them before the move (before).
func (p *Position) checkBonus(mover Seat, before *kingThreats) int {
	var after kingThreats
	p.threats(mover, &after)
	n := 0
	for _, c := range p.preset.seats {
		if c == mover || !p.live(c) {
			continue
		}
		for d := range after[c] {
			if after[c][d]&^before[c][d] != 0 {
				n++
				break
			}
		}
	}
	return p.preset.Checks[n]
}

// worth returns the points for capturing pc: nothing for a piece of a dead
// army, except its king.
func (p *Position) worth(pc Piece) int32 {
	pr := p.preset
	if pr.Dead && pc.Kind() != King && !p.live(pc.Seat()) {
		return 0
	}
	return int32(pr.Pieces[pc.Kind()].Points)
}

// kill makes seat s's army dead, its king standing.
func (p *Position) kill(s Seat) {
	if p.dead&(1<<s) == 0 {
		p.dead |= 1 << s
		p.hash ^= deadKeys[s]
	}
}

// bury forgets that seat s resigned or ran out of time, once its king is
// taken: the army stays dead for want of a king.
func (p *Position) bury(s Seat) {
	p.dead &^= 1 << s
	p.hash ^= deadKeys[s]
}

// mayResign reports whether the seat to act may resign or time out now.
func (p *Position) mayResign() bool {
	return p.preset.Dead && !p.done && p.step == noStep && !p.AwaitingRoll()
}

// mayClaim reports whether the seat to act may claim the game: two armies
// live, and its score is above every other seat's.
func (p *Position) mayClaim() bool {
	if !p.preset.Claim || p.liveArmies() != 2 {
		return false
	}
	for _, s := range p.preset.seats {
		if s != p.seat && p.scores[s] >= p.scores[p.seat] {
			return false
		}
	}
	return true
}

// claim ends the game for the claimer: the other live army dies, and the
// end then gives the claimer every standing king's points.
func (p *Position) claim(claimer Seat) {
	for _, s := range p.preset.seats {
		if s != claimer && p.live(s) {
			p.kill(s)
		}
	}
}

// settle adds the points of the end of a game with dead armies: the one
// live army takes the points of every other king standing; the clock gives
// each live army DrawPoints.
func (p *Position) settle() {
	pr := p.preset
	switch p.endReason() {
	case LastAlive:
		for _, s := range pr.seats {
			if !p.live(s) {
				continue
			}
			for k := p.byKind[King] &^ p.bySeat[s]; k != 0; k &= k - 1 {
				p.scores[s] += int32(pr.Pieces[King].Points)
			}
		}
	case ClockOut:
		for _, s := range pr.seats {
			if p.live(s) {
				p.scores[s] += int32(pr.DrawPoints)
			}
		}
	}
}

// uncaught returns the seat whose score nobody can reach any more, NoSeat
// if there is none. While three armies live each can still score check
// bonuses without end.
func (p *Position) uncaught() Seat {
	pr := p.preset
	if p.liveArmies() > 2 {
		return NoSeat
	}
	best := NoSeat
	for _, s := range pr.seats {
		if best == NoSeat || p.scores[s] > p.scores[best] {
			best = s
		}
	}
	for _, s := range pr.seats {
		if s != best && p.reach(s) >= int(p.scores[best]) {
			return NoSeat
		}
	}
	return best
}

// reach returns the most seat s could still score: nothing more for a dead
// army; for a live one its score, the clock's DrawPoints, and the worth of
// every piece of another seat on the board, a live army's pawn counted as
// the best piece it could promote to. A check bonus it could still score
// makes the reach unbounded.
func (p *Position) reach(s Seat) int {
	pr := p.preset
	if !p.live(s) {
		return int(p.scores[s])
	}
	enemies := 0
	for _, c := range pr.seats {
		if c != s && p.live(c) {
			enemies++
		}
	}
	for n := 1; n <= enemies; n++ {
		if pr.Checks[n] > 0 {
			return int(^uint(0) >> 1)
		}
	}
	pawn := pr.Pieces[Pawn].Points
	for _, k := range pr.Promotion.BySquare {
		pawn = max(pawn, pr.Pieces[k].Points)
	}
	for ks := pr.Promotion.Choices; ks != 0; ks &= ks - 1 {
		pawn = max(pawn, pr.Pieces[lowestKind(ks)].Points)
	}
	r := int(p.scores[s]) + pr.DrawPoints
	for b := p.occ &^ p.bySeat[s]; b != 0; b &= b - 1 {
		pc := p.board[lowest(b)]
		switch {
		case pc.Kind() == King:
			r += pr.Pieces[King].Points
		case !p.live(pc.Seat()):
		case pc.Kind() == Pawn:
			r += pawn
		default:
			r += pr.Pieces[pc.Kind()].Points
		}
	}
	return r
}
