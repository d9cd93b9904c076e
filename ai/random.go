package ai

import (
	"context"
	"math/rand/v2"

	"github.com/chaturaji/chaturaji/rules"
)

// Random plays a uniformly random legal action.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a random player seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose returns a uniformly random legal action.
func (r *Random) Choose(_ context.Context, p *rules.Position, _ Budget) (rules.Action, error) {
	var buf [rules.MaxActions]rules.Action
	acts := p.Actions(buf[:])
	if len(acts) == 0 {
		return 0, errNoActions(p)
	}
	return acts[r.rng.IntN(len(acts))], nil
}
