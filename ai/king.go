package ai

import "github.com/chaturaji/chaturaji/rules"

// The kings: who is likely to hold the last one, and how exposed each is.

// lastChances estimates each living seat's chance of holding the last king:
// equal shares, shifted toward the bigger armies and away from exposed kings.
func (e *evaluator) lastChances(p *rules.Position, a *[rules.NumSeats]army, alive int, totalMat float64) {
	seats := e.pr.Seats()
	avgMat := totalMat / float64(alive)
	sum := 0.0
	for _, s := range seats {
		as := &a[s]
		if !as.crowned {
			continue
		}
		w := 1.0
		if avgMat > 0 {
			w += e.w.Strength * (as.mat - avgMat) / avgMat
		}
		x := 0.0
		if k := p.Pieces(s, rules.King); k != 0 {
			x = e.exposure(p, a, s, lowest(k))
		}
		if e.w.Hazard > 0 {
			w /= e.w.Hazard + x
		} else {
			w -= x
		}
		if w < 0.01 {
			w = 0.01
		}
		as.last = w
		sum += w
	}
	for _, s := range seats {
		a[s].last /= sum
	}
}

// exposure measures the danger to seat s's king on sq: the kinds of enemy
// pieces that attack it now, and those that could attack it after one move.
// Each needs its roll, and the king moves only on its own, so a king with
// enemies about is taken sooner or later. It also records the squares of
// the king's attackers.
func (e *evaluator) exposure(p *rules.Position, a *[rules.NumSeats]army, s rules.Seat, sq rules.Square) float64 {
	var occ uint64
	for _, o := range e.pr.Seats() {
		occ |= p.Army(o)
	}
	now, soon, far := 0, 0, 0
	var from [rules.NumKinds]uint64 // squares a piece of each kind attacks sq from
	for k := rules.Boat; k < rules.Kind(rules.NumKinds); k++ {
		if e.moves[k] != 0 {
			from[k] = takes(e.moves[k], s, sq, occ)
		}
	}
	for _, o := range e.pr.Seats() {
		ao := &a[o]
		if o == s || !ao.acts || e.safeFrom(p, o)&(1<<uint(sq)) != 0 {
			continue
		}
		for k := rules.Pawn; k < rules.Kind(rules.NumKinds); k++ {
			f := from[k]
			if k == rules.Pawn {
				f = takes(e.moves[k], o^2, sq, occ) // a pawn's attack runs backwards from the seat opposite
			}
			if att := p.Pieces(o, k) & f; att != 0 {
				a[s].attackers |= att
				now++
			} else if ao.reach[k]&f != 0 {
				soon++
			}
			if e.moves[k] == rules.LeapAlfil {
				// A boat on the king's lattice gets to it some day; a boat
				// off it never does.
				far += popcount(p.Pieces(o, k) & alfilLattice[sq])
			}
		}
	}
	return e.w.Exposure*float64(now) + e.w.Approach*float64(soon) + e.w.Lattice*float64(far)
}
