package rules

import (
	"math/bits"
	"slices"
	"strings"
)

// Actions appends to buf[:0] every legal action of the seat to act and
// returns it. It returns no actions for a finished game or one awaiting its
// roll. Pass a buffer of MaxActions to avoid allocation.
func (p *Position) Actions(buf []Action) []Action {
	buf = buf[:0]
	if p.done || p.AwaitingRoll() {
		return buf
	}
	if p.preset.teamPlay {
		return p.teamActions(buf)
	}
	buf = p.appendMoves(buf, p.seat, p.allowed(), p.occ&^p.bySeat[p.seat])
	if len(buf) == 0 || p.preset.PassAlways {
		buf = append(buf, PassAction)
	}
	if p.mayRetire() {
		buf = append(buf, RetireAction)
	}
	if p.preset.Claim && p.mayClaim() {
		buf = append(buf, ClaimAction)
	}
	return buf
}

// CountActions returns len(p.Actions(buf)) without listing them.
func (p *Position) CountActions() int {
	if p.done || p.AwaitingRoll() {
		return 0
	}
	if p.preset.teamPlay {
		var buf [MaxActions]Action
		return len(p.teamActions(buf[:0]))
	}
	return p.withPassAndRetire(p.countMoves(p.seat, p.allowed()))
}

// withPassAndRetire adds to n moves the pass and retire actions legal with
// them.
func (p *Position) withPassAndRetire(n int) int {
	if n == 0 || p.preset.PassAlways {
		n++
	}
	if p.mayRetire() {
		n++
	}
	if p.preset.Claim && p.mayClaim() {
		n++
	}
	return n
}

// countEveryRoll returns the sum over every outcome of the dice of the
// number of actions after that roll: the last ply of perft at a position
// awaiting its roll. Each kind's moves are counted once, not once per roll.
func (p *Position) countEveryRoll() uint64 {
	pr := p.preset
	var per [NumKinds]int
	for ks := pr.used; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		per[k] = p.countMoves(p.seat, 1<<k)
	}
	extra := 0 // pass when always legal, and retire
	if pr.PassAlways {
		extra++
	}
	if p.mayRetire() {
		extra++
	}
	var total uint64
	for _, allowed := range pr.outcomeKinds {
		n := 0
		for ks := allowed; ks != 0; ks &= ks - 1 {
			n += per[lowestKind(ks)]
		}
		if n == 0 && !pr.PassAlways {
			n = 1 // pass
		}
		total += uint64(n + extra)
	}
	return total
}

// allowed returns the kinds the remaining dice let the seat move.
func (p *Position) allowed() KindSet {
	pr := p.preset
	if pr.Die == nil {
		return pr.used
	}
	var ks KindSet
	for i := range p.roll.Len() {
		ks |= pr.faceKinds[p.roll.Face(i)]
	}
	return ks
}

// mayRetire reports whether the seat to act may retire: its king is its only
// piece.
func (p *Position) mayRetire() bool {
	own := p.bySeat[p.seat]
	return p.preset.Retire && own&p.byKind[King] == own && popcount(own) == 1
}

// capturable returns the squares among foes that a piece of kind k may
// capture on.
func (p *Position) capturable(foes uint64, k Kind) uint64 {
	c := foes
	for ks := p.preset.Pieces[k].CannotTake; ks != 0; ks &= ks - 1 {
		c &^= p.byKind[lowestKind(ks)]
	}
	return c
}

// moveTargets returns the squares a piece of kind k owned by s on sq may move
// to, given the squares it may capture on.
func (p *Position) moveTargets(s Seat, k Kind, sq Square, capturable uint64) uint64 {
	pr := p.preset
	st := &pr.steps[k][s][sq]
	either := st.either
	if m := pr.Pieces[k].Moves; m&(SlideOrth|SlideDiagonal) != 0 {
		either |= m.slides(sq, p.occ)
	}
	return (st.quiet|either)&^p.occ | (st.takes|either)&capturable
}

// appendMoves appends the moves of seat s's pieces of the given kinds,
// which may capture on the squares foes.
func (p *Position) appendMoves(buf []Action, s Seat, ks KindSet, foes uint64) []Action {
	pr := p.preset
	for ; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		pieces := p.bySeat[s] & p.byKind[k]
		if pieces == 0 {
			continue
		}
		capt := p.capturable(foes, k)
		if pr.special.Has(k) {
			buf = p.appendSpecial(buf, s, k, pieces, capt)
			continue
		}
		for ; pieces != 0; pieces &= pieces - 1 {
			from := lowest(pieces)
			for t := p.moveTargets(s, k, from, capt); t != 0; t &= t - 1 {
				buf = append(buf, MoveAction(from, lowest(t)))
			}
		}
	}
	return buf
}

// appendSpecial appends the moves of seat s's pieces of kind k standing on
// pieces, for kinds with moves beyond their targets: the king's leap, the
// pawn's choice of promotion.
func (p *Position) appendSpecial(buf []Action, s Seat, k Kind, pieces, capt uint64) []Action {
	pr := p.preset
	for ; pieces != 0; pieces &= pieces - 1 {
		from := lowest(pieces)
		t := p.moveTargets(s, k, from, capt)
		if k == King && pr.KingLeap {
			t |= p.leapTargets(s, from, capt)
		}
		if k == Pawn {
			t |= p.doubleStep(s, from)
		}
		if k == Pawn && pr.Promotion.Rule == PromoteByChoice {
			promo := t & pr.lastLines[s]
			t &^= promo
			for ; promo != 0; promo &= promo - 1 {
				buf = p.appendChoices(buf, s, from, lowest(promo))
			}
		}
		if k == Pawn && pr.Promotion.Rule == PromoteOnEnemyStart && p.privilegedPawn(s) {
			promo := t & pr.privileged[s]
			t &^= promo
			for ; promo != 0; promo &= promo - 1 {
				to := lowest(promo)
				ks := p.lacking(s, kinds(Horse, Elephant, King))
				if ks == 0 {
					buf = append(buf, MoveAction(from, to))
				}
				for ; ks != 0; ks &= ks - 1 {
					buf = append(buf, PromotionAction(from, to, lowestKind(ks)))
				}
			}
		}
		for ; t != 0; t &= t - 1 {
			buf = append(buf, MoveAction(from, lowest(t)))
		}
	}
	return buf
}

// countMoves counts the moves appendMoves would append.
func (p *Position) countMoves(s Seat, ks KindSet) int {
	pr := p.preset
	n := 0
	for ; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		pieces := p.bySeat[s] & p.byKind[k]
		if pieces == 0 {
			continue
		}
		capt := p.capturable(p.occ&^p.bySeat[s], k)
		if pr.special.Has(k) {
			n += p.countSpecial(s, k, pieces, capt)
			continue
		}
		for ; pieces != 0; pieces &= pieces - 1 {
			n += popcount(p.moveTargets(s, k, lowest(pieces), capt))
		}
	}
	return n
}

// countSpecial counts the moves of seat s's pieces of kind k standing on
// pieces, for kinds with moves beyond their targets: the king's leap, the
// pawn's choice of promotion.
func (p *Position) countSpecial(s Seat, k Kind, pieces, capt uint64) int {
	pr := p.preset
	n := 0
	for ; pieces != 0; pieces &= pieces - 1 {
		from := lowest(pieces)
		t := p.moveTargets(s, k, from, capt)
		if k == King && pr.KingLeap {
			t |= p.leapTargets(s, from, capt)
		}
		if k == Pawn {
			t |= p.doubleStep(s, from)
		}
		if k == Pawn && pr.Promotion.Rule == PromoteByChoice {
			promo := t & pr.lastLines[s]
			t &^= promo
			for ; promo != 0; promo &= promo - 1 {
				n += max(1, popcount16(uint16(p.choices(s, lowest(promo)))))
			}
		}
		n += popcount(t)
	}
	return n
}

// appendChoices appends the promotions a pawn of s moving from one square to
// a square of its last line may choose: one per kind of its choices, or the
// plain move if there is none.
func (p *Position) appendChoices(buf []Action, s Seat, from, to Square) []Action {
	ks := p.choices(s, to)
	if ks == 0 {
		return append(buf, MoveAction(from, to))
	}
	for ; ks != 0; ks &= ks - 1 {
		buf = append(buf, PromotionAction(from, to, lowestKind(ks)))
	}
	return buf
}

// choices returns the kinds a pawn of s arriving on to may choose: those
// its army lacks; none when, under LastArmy, the move takes the last enemy
// piece, for the game ends before the pawn chooses (Ludii checks the end
// after the move and only then offers the promotion).
func (p *Position) choices(s Seat, to Square) KindSet {
	if p.preset.LastArmy && p.occ&^p.bySeat[s] == to.bit() {
		return 0
	}
	return p.lacking(s, p.preset.Promotion.Choices)
}

// doubleStep returns the square a pawn of s on sq reaches by its double
// step, if its movement has one and both squares ahead are empty.
func (p *Position) doubleStep(s Seat, sq Square) uint64 {
	d := pawnDoubles[s][sq]
	if d == 0 || p.preset.Pieces[Pawn].Moves&PawnDouble == 0 || (pawnPushes[s][sq]|d)&p.occ != 0 {
		return 0
	}
	return d
}

// lacking returns the kinds of ks that seat s has fewer pieces of than an
// army starts with.
func (p *Position) lacking(s Seat, ks KindSet) KindSet {
	var out KindSet
	for ; ks != 0; ks &= ks - 1 {
		if k := lowestKind(ks); p.lacks(s, k) {
			out |= 1 << k
		}
	}
	return out
}

// lacks reports whether seat s has fewer pieces of kind k than an army
// starts with.
func (p *Position) lacks(s Seat, k Kind) bool {
	return popcount(p.bySeat[s]&p.byKind[k]) < p.preset.startCount[k]
}

// leapTargets returns the squares the king of s on sq may reach by its
// once-a-game knight's leap, if it may leap now: not used yet, and the king
// not attacked.
func (p *Position) leapTargets(s Seat, sq Square, capt uint64) uint64 {
	if p.leaps&(1<<s) != 0 || p.attacked(sq, s) {
		return 0
	}
	return knightLeaps[sq] & (^p.occ | capt)
}

// attacked reports whether any enemy piece of seat s could capture on sq in
// one ordinary move, whatever the dice: of the kinds LeapAttackers names (all
// if none), and in team presets of an enemy army that can move.
func (p *Position) attacked(sq Square, s Seat) bool {
	pr := p.preset
	target := sq.bit()
	attackers := pr.used
	if pr.LeapAttackers != 0 {
		attackers = pr.LeapAttackers
	}
	for _, e := range pr.seats {
		if pr.Teammates(e, s) || pr.Team.Partners && !p.HasKing(e) && p.command&(1<<Partner(e)) == 0 {
			continue // a partner, or a frozen enemy army
		}
		for ks := attackers; ks != 0; ks &= ks - 1 {
			k := lowestKind(ks)
			if pr.Pieces[k].CannotTake.Has(p.board[sq].Kind()) {
				continue
			}
			for pieces := p.bySeat[e] & p.byKind[k]; pieces != 0; pieces &= pieces - 1 {
				if p.moveTargets(e, k, lowest(pieces), target)&target != 0 {
					return true
				}
			}
		}
	}
	return false
}

// lowestKind returns the smallest kind in a non-empty set.
func lowestKind(ks KindSet) Kind { return Kind(bits.TrailingZeros16(uint16(ks))) }

func popcount16(x uint16) int { return bits.OnesCount16(x) }

// SortActions sorts actions in the byte order of their notation under
// preset pr, the order in which docs/rules.md lists them (moves before pass and
// retire). Actions returns them in an order that is fixed but unspecified.
func SortActions(pr *Preset, acts []Action) {
	slices.SortFunc(acts, func(a, b Action) int { return strings.Compare(a.Format(pr), b.Format(pr)) })
}

// IsLegal reports whether a is a legal action of the seat to act. In
// presets with Dead that includes resign and timeout at every turn, which
// Actions does not list: they end a player's game, they are no move of it.
func (p *Position) IsLegal(a Action) bool {
	if t := a.Type(); t == Resign || t == Timeout {
		return a == Action(uint32(t)<<typeShift) && p.mayResign()
	}
	var buf [MaxActions]Action
	for _, b := range p.Actions(buf[:]) {
		if a == b {
			return true
		}
	}
	return false
}
