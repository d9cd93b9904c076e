package rules

import "math/bits"

// Actions appends to buf[:0] every legal action of the seat to act and
// returns it. It returns no actions for a finished game or one awaiting its
// roll. Pass a buffer of MaxActions to avoid allocation.
func (p *Position) Actions(buf []Action) []Action {
	buf = buf[:0]
	if p.done || p.AwaitingRoll() {
		return buf
	}
	buf = p.appendMoves(buf, p.seat, p.allowed())
	if len(buf) == 0 {
		buf = append(buf, PassAction)
	}
	if p.mayRetire() {
		buf = append(buf, RetireAction)
	}
	return buf
}

// CountActions returns len(p.Actions(buf)) without listing them.
func (p *Position) CountActions() int {
	if p.done || p.AwaitingRoll() {
		return 0
	}
	n := p.countMoves(p.seat, p.allowed())
	if n == 0 {
		n = 1
	}
	if p.mayRetire() {
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
	extra := 0
	if p.mayRetire() {
		extra = 1
	}
	var total uint64
	for _, r := range pr.outcomes {
		n := 0
		for i := range r.Len() {
			for ks := pr.faceKinds[r.Face(i)]; ks != 0; ks &= ks - 1 {
				n += per[lowestKind(ks)]
			}
		}
		if n == 0 {
			n = 1
		}
		total += uint64(n + extra)
	}
	return total
}

// allowed returns the kinds the remaining dice let the seat move.
func (p *Position) allowed() KindSet {
	pr := p.preset
	if pr.Die == nil {
		return ^KindSet(0)
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
	return p.preset.Retire && own&p.byKind[King] == own && own != 0
}

// capturable returns the squares a piece of kind k owned by seat s may
// capture on.
func (p *Position) capturable(s Seat, k Kind) uint64 {
	c := p.occ &^ p.bySeat[s]
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

// appendMoves appends the moves of seat s's pieces of the given kinds.
func (p *Position) appendMoves(buf []Action, s Seat, ks KindSet) []Action {
	for ; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		pieces := p.bySeat[s] & p.byKind[k]
		if pieces == 0 {
			continue
		}
		capt := p.capturable(s, k)
		for ; pieces != 0; pieces &= pieces - 1 {
			from := lowest(pieces)
			for t := p.moveTargets(s, k, from, capt); t != 0; t &= t - 1 {
				buf = append(buf, MoveAction(from, lowest(t)))
			}
		}
	}
	return buf
}

// countMoves counts the moves appendMoves would append.
func (p *Position) countMoves(s Seat, ks KindSet) int {
	n := 0
	for ; ks != 0; ks &= ks - 1 {
		k := lowestKind(ks)
		pieces := p.bySeat[s] & p.byKind[k]
		if pieces == 0 {
			continue
		}
		capt := p.capturable(s, k)
		for ; pieces != 0; pieces &= pieces - 1 {
			n += popcount(p.moveTargets(s, k, lowest(pieces), capt))
		}
	}
	return n
}

// lowestKind returns the smallest kind in a non-empty set.
func lowestKind(ks KindSet) Kind { return Kind(bits.TrailingZeros16(uint16(ks))) }

// IsLegal reports whether a is a legal action of the seat to act.
func (p *Position) IsLegal(a Action) bool {
	var buf [MaxActions]Action
	for _, b := range p.Actions(buf[:]) {
		if a == b {
			return true
		}
	}
	return false
}
