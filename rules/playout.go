package rules

import "math/rand/v2"

// RandomRoll returns a roll of the preset's dice drawn from rng, each die
// independently.
func (pr *Preset) RandomRoll(rng *rand.Rand) Roll {
	if pr.Die == nil {
		return Roll{}
	}
	f := uint32(pr.Die.Faces[rng.IntN(len(pr.Die.Faces))])
	if pr.Dice == 1 {
		return Roll{1 | f<<2}
	}
	g := uint32(pr.Die.Faces[rng.IntN(len(pr.Die.Faces))])
	return Roll{2 | min(f, g)<<2 | max(f, g)<<5}
}

// RandomRoll returns a roll drawn from rng for the seat to act: the
// preset's dice, both pairs under martian's throne control, or a roll-off's
// outcome.
func (p *Position) RandomRoll(rng *rand.Rand) Roll {
	if !p.preset.specialRolls {
		return p.preset.RandomRoll(rng)
	}
	o := p.Chances()
	x := rng.Float64()
	for _, c := range o {
		if x < c.P {
			return c.Roll
		}
		x -= c.P
	}
	return o[len(o)-1].Roll
}

// PlayRandom plays random rolls and uniformly random legal actions from p
// until the game ends, changing p in place, and returns the number of actions
// played. It does not allocate.
func PlayRandom(p *Position, rng *rand.Rand) int {
	var buf [MaxActions]Action
	var u Undo
	n := 0
	for !p.done {
		// A roll-off is followed by the first seat's own roll.
		for p.AwaitingRoll() {
			if p.preset.specialRolls {
				p.SetRoll(p.RandomRoll(rng))
			} else {
				p.SetRoll(p.preset.RandomRoll(rng))
			}
		}
		acts := p.Actions(buf[:])
		p.Make(acts[rng.IntN(len(acts))], &u)
		n++
	}
	return n
}
