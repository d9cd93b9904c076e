package ai

import (
	"context"
	"math/rand/v2"

	"github.com/chaturaji/chaturaji/rules"
)

// Greedy takes the action that gains the most points at once for the seat
// that decides (its team, in team presets), or that wins a game won by
// taking kings; among equals, a random one.
type Greedy struct {
	rng *rand.Rand
}

// NewGreedy returns a greedy player seeded with seed.
func NewGreedy(seed uint64) *Greedy {
	return &Greedy{rng: rand.New(rand.NewPCG(seed, 0x6ead))}
}

// Name returns "greedy".
func (*Greedy) Name() string { return "greedy" }

// Choose returns an action of the highest immediate gain.
func (g *Greedy) Choose(_ context.Context, p *rules.Position, _ Budget) (rules.Action, error) {
	var buf [rules.MaxActions]rules.Action
	acts := p.Actions(buf[:])
	if len(acts) == 0 {
		return 0, errNoActions(p)
	}
	me := p.Decider()
	q := *p
	before := q.TeamScore(me)
	best, ties := acts[0], 0
	bestGain := -1 << 30
	var u rules.Undo
	for _, a := range acts {
		q.Make(a, &u)
		gain := q.TeamScore(me) - before
		if q.Finished() && q.Preset().Goal == rules.KingsGoal {
			// A game won by taking kings: nothing gains more than its end,
			// nothing less than losing it.
			gain += outcome(&q, me) << 20
		}
		q.Unmake(&u)
		switch {
		case gain > bestGain:
			best, bestGain, ties = a, gain, 1
		case gain == bestGain:
			// Reservoir sampling keeps a uniform choice among the ties.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	return best, nil
}

// outcome is +1 if seat me won the finished game q, -1 if it lost, 0 after
// a draw.
func outcome(q *rules.Position, me rules.Seat) int {
	ranks := q.Ranks()
	for _, s := range q.Preset().Seats() {
		if ranks[s] != 1 {
			if ranks[me] == 1 {
				return 1
			}
			return -1
		}
	}
	return 0
}
