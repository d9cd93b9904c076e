package ai

import "github.com/chaturaji/chaturaji/rules"

// playout plays on from q with the playout policy until the game ends or
// the horizon is reached, and returns the estimated final scores: the
// scores themselves if the game ended, else the evaluation's utility.
func (m *MCTS) playout(q *rules.Position) Utility {
	var u rules.Undo
	for i := 0; (m.opts.Horizon == 0 || i < m.opts.Horizon) && !q.Finished(); i++ {
		for q.AwaitingRoll() { // a roll-off is followed by a roll
			q.SetRoll(q.RandomRoll(m.rng))
		}
		acts := q.Actions(m.buf[:])
		q.Make(m.playoutAction(q, acts), &u)
	}
	return m.val.utility(q)
}

// playoutAction is the playout policy: with probability Epsilon a random
// action; otherwise the capture of the most valuable piece (a king above
// all), ties broken at random, or a random action if nothing can be taken.
func (m *MCTS) playoutAction(q *rules.Position, acts []rules.Action) rules.Action {
	if len(acts) == 1 || m.rng.Float64() < m.opts.Epsilon {
		return acts[m.rng.IntN(len(acts))]
	}
	best, bestVal, ties := acts[0], -1.0, 0
	for _, a := range acts {
		if a.Type() != rules.Move {
			continue
		}
		victim := q.At(a.To())
		if victim == rules.NoPiece {
			continue
		}
		v := m.ev.value[victim.Kind()]
		if victim.Kind() == rules.King {
			v += 100
		}
		switch {
		case v > bestVal:
			best, bestVal, ties = a, v, 1
		case v == bestVal:
			ties++
			if m.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	if ties == 0 {
		return acts[m.rng.IntN(len(acts))]
	}
	return best
}
