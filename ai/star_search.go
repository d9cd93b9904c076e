package ai

import (
	"math"

	"github.com/chaturaji/chaturaji/rules"
)

// The recursion of the expectimax search. Values are the root seat's
// Objective value of a Utility; every function also fills in the expected
// utility of the line it chose, for Analyze. A function that returns after
// the stopper fired returns garbage, which the caller must discard.

// leaf evaluates p statically.
func (s *starSearch) leaf(p *rules.Position, out *Utility) float64 {
	*out = s.val.utility(p)
	return s.obj.value(out, s.root)
}

// after continues the search from the position a move of mover has just
// produced.
func (s *starSearch) after(p *rules.Position, mover rules.Seat, depth, ply int, alpha, beta float64, out *Utility) float64 {
	if s.mode == paranoid || p.Finished() {
		return s.chance(p, depth, ply, alpha, beta, out)
	}
	if s.obj.sameSide(mover, s.root) {
		return s.replies(p, depth, ply, alpha, beta, out)
	}
	// Best-reply search: the other opponents pass until the root's side is
	// to act again.
	sp := s.sp
	for n := 0; n < rules.NumSeats && !p.Finished() && !s.obj.sameSide(p.Seat(), s.root) && skippable(p); n++ {
		s.push(p, rules.PassAction)
	}
	var v float64
	if p.Finished() || s.obj.sameSide(p.Seat(), s.root) || !skippable(p) {
		v = s.chance(p, depth, ply, alpha, beta, out)
	} else {
		// The root's side is frozen: nothing it decides remains.
		s.pvLen[ply] = 0
		v = s.leaf(p, out)
	}
	for s.sp > sp {
		s.pop(p)
	}
	return v
}

// skippable reports whether best-reply search may let the seat to act in p
// pass: not while it owes a decision such as accepting a king exchange.
func skippable(p *rules.Position) bool { return p.Pending() == "" }

// replies is the opponents' layer of best-reply search: the opponent whose
// reply, averaged over its roll, leaves the root's side the least.
func (s *starSearch) replies(p *rules.Position, depth, ply int, alpha, beta float64, out *Utility) float64 {
	if depth <= 0 || p.Finished() {
		return s.chance(p, depth, ply, alpha, beta, out)
	}
	sp := s.sp
	best := math.Inf(1)
	var u Utility
	s.scrLen[ply][replySlot] = 0
	for n := 0; n < rules.NumSeats && !p.Finished() && !s.obj.sameSide(p.Seat(), s.root); n++ {
		v := s.chance(p, depth, ply, alpha, beta, &u)
		if s.stop.stopped {
			break
		}
		if v < best {
			best, *out = v, u
			s.keepLine(ply, replySlot)
		}
		if v < beta {
			beta = v
		}
		if alpha >= beta || !skippable(p) {
			break
		}
		s.push(p, rules.PassAction)
	}
	for s.sp > sp {
		s.pop(p)
	}
	if math.IsInf(best, 1) {
		// Nobody could reply (the game ended on a pass): a leaf.
		s.pvLen[ply] = 0
		return s.leaf(p, out)
	}
	s.restoreLine(ply, replySlot)
	return best
}

// The scratch slots of a ply: one per roll of a chance node, for the first
// lineSlots rolls, and one for the best opponent of a reply layer.
const (
	lineSlots   = 7
	replySlot   = 7
	maxOutcomes = 128 // martian's two pairs of d4: 10 x 10
)

// keepLine saves the line at ply into scratch slot i; restoreLine puts it
// back.
func (s *starSearch) keepLine(ply, i int) {
	n := s.pvLen[ply]
	copy(s.scratch[ply][i][:n], s.pv[ply][:n])
	s.scrLen[ply][i] = n
}

func (s *starSearch) restoreLine(ply, i int) {
	n := s.scrLen[ply][i]
	copy(s.pv[ply][:n], s.scratch[ply][i][:n])
	s.pvLen[ply] = n
}

// chance is a position before its roll: the mean over the outcomes of the
// dice, with Star1 pruning. A leaf or a finished game is evaluated.
func (s *starSearch) chance(p *rules.Position, depth, ply int, alpha, beta float64, out *Utility) float64 {
	s.pvLen[ply] = 0
	if p.Finished() {
		return s.leaf(p, out)
	}
	if depth <= 0 || ply >= maxPly-1 {
		s.stop.tick()
		s.horizon = true
		return s.leaf(p, out)
	}
	if !p.AwaitingRoll() { // a diceless preset
		return s.decide(p, depth, ply, alpha, beta, out)
	}
	key := gameKey(p, s.root, s.clockNear)
	if e, ok := s.probe(key); ok && int(e.depth) >= depth {
		if v, ok := e.cut(alpha, beta); ok {
			e.utility(out)
			s.horizon = true // the stored search may have had one
			return v
		}
	}
	lo, hi := -valueBound, valueBound
	sum, rem := 0.0, 1.0
	var acc, u Utility
	// The position's own chances: martian's throne control rolls two pairs.
	faces := p.Chances()
	var vals [maxOutcomes]float64
	for i, f := range faces {
		rem -= f.P
		if rem < 1e-12 {
			rem = 0
		}
		// The node fails high if this child reaches b and every later one
		// is the lowest value; it fails low if this child stays under a and
		// every later one is the highest.
		a := (alpha - sum - hi*rem) / f.P
		b := (beta - sum - lo*rem) / f.P
		p.SetRoll(f.Roll)
		v := s.decide(p, depth, ply, math.Max(a, lo), math.Min(b, hi), &u)
		p.ClearRoll()
		if s.stop.stopped {
			return 0
		}
		if i < len(vals) {
			vals[i] = v
		}
		if i < lineSlots {
			s.keepLine(ply, i)
		}
		sum += f.P * v
		for j := range acc {
			acc[j] += f.P * u[j]
		}
		if v >= b {
			v := sum + lo*rem
			s.finishChance(ply, i+1, vals[:min(i+1, len(vals))], v, &acc, out, 1-rem)
			s.store(key, depth, v, out, boundLower, 0)
			return v
		}
		if v <= a {
			v := sum + hi*rem
			s.finishChance(ply, i+1, vals[:min(i+1, len(vals))], v, &acc, out, 1-rem)
			s.store(key, depth, v, out, boundUpper, 0)
			return v
		}
	}
	s.finishChance(ply, len(faces), vals[:min(len(faces), len(vals))], sum, &acc, out, 1)
	s.store(key, depth, sum, out, boundExact, 0)
	return sum
}

// finishChance sets a chance node's expected utility (over the rolls
// searched) and its line: that of the roll whose value is nearest the mean.
func (s *starSearch) finishChance(ply, n int, vals []float64, mean float64, acc, out *Utility, mass float64) {
	for j := range acc {
		out[j] = acc[j] / mass
	}
	best, dist := 0, math.Inf(1)
	for i, v := range vals[:min(n, lineSlots)] {
		if d := math.Abs(v - mean); d < dist {
			best, dist = i, d
		}
	}
	s.restoreLine(ply, best)
}

// decide is a position whose seat has rolled: the root's side takes the
// best action for the root, the others the worst.
func (s *starSearch) decide(p *rules.Position, depth, ply int, alpha, beta float64, out *Utility) float64 {
	s.pvLen[ply] = 0
	if s.stop.tick() {
		return 0
	}
	key := gameKey(p, s.root, s.clockNear)
	var ttMove rules.Action
	if e, ok := s.probe(key); ok {
		ttMove = e.move
		if int(e.depth) >= depth {
			if v, ok := e.cut(alpha, beta); ok {
				e.utility(out)
				s.horizon = true
				if ttMove != 0 {
					s.pv[ply][0], s.pvLen[ply] = ttMove, 1
				}
				return v
			}
		}
	}
	acts := p.Actions(s.bufs[ply][:])
	mover := p.Decider()
	maximize := s.obj.sameSide(mover, s.root)
	if len(acts) > 1 {
		s.order(p, acts, ttMove, ply)
	}
	alpha0, beta0 := alpha, beta
	best := math.Inf(1)
	if maximize {
		best = math.Inf(-1)
	}
	var bestMove rules.Action
	var u Utility
	for _, a := range acts {
		s.push(p, a)
		v := s.after(p, mover, depth-1, ply+1, alpha, beta, &u)
		s.pop(p)
		if s.stop.stopped {
			return 0
		}
		better := v > best
		if !maximize {
			better = v < best
		}
		if better {
			best, bestMove, *out = v, a, u
			s.pv[ply][0] = a
			n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
			s.pvLen[ply] = n + 1
		}
		if maximize && v > alpha {
			alpha = v
		}
		if !maximize && v < beta {
			beta = v
		}
		if alpha >= beta {
			s.reward(p, a, depth, ply)
			break
		}
	}
	bound := uint8(boundExact)
	switch {
	case best >= beta0:
		bound = boundLower
	case best <= alpha0:
		bound = boundUpper
	}
	s.store(key, depth, best, out, bound, bestMove)
	return best
}

// cut returns the stored value if it settles a node searched with window
// (alpha, beta).
func (e *entry) cut(alpha, beta float64) (float64, bool) {
	v := float64(e.value)
	switch e.bound {
	case boundExact:
		return v, true
	case boundLower:
		return v, v >= beta
	case boundUpper:
		return v, v <= alpha
	}
	return 0, false
}

func (e *entry) utility(out *Utility) {
	for i := range out {
		out[i] = float64(e.expected[i])
	}
}

// reward remembers a move that caused a cut-off: as a killer at its ply if
// it captured nothing, and in the history of its seat.
func (s *starSearch) reward(p *rules.Position, a rules.Action, depth, ply int) {
	if a.Type() != rules.Move || p.At(a.To()) != rules.NoPiece {
		return
	}
	k := &s.killers[ply]
	if k[0] != a {
		k[1], k[0] = k[0], a
	}
	h := &s.hist[p.Seat()][int(a.From())*64+int(a.To())]
	*h += int32(depth * depth)
	if *h > 1<<20 {
		for i := range s.hist {
			for j := range s.hist[i] {
				s.hist[i][j] /= 2
			}
		}
	}
}
