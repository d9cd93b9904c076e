package rules

import "math/rand/v2"

// RandomRoll returns a roll of the preset's dice drawn from rng, each die
// independently.
func (pr *Preset) RandomRoll(rng *rand.Rand) Roll {
	var r Roll
	if pr.Die == nil {
		return r
	}
	for range pr.Dice {
		r.faces[r.n] = uint8(pr.Die.Faces[rng.IntN(len(pr.Die.Faces))])
		r.n++
	}
	if r.n == 2 && r.faces[0] > r.faces[1] {
		r.faces[0], r.faces[1] = r.faces[1], r.faces[0]
	}
	return r
}

// PlayRandom plays random rolls and uniformly random legal actions from p
// until the game ends, changing p in place, and returns the number of actions
// played. It does not allocate.
func PlayRandom(p *Position, rng *rand.Rand) int {
	var buf [MaxActions]Action
	var u Undo
	n := 0
	for !p.done {
		if p.AwaitingRoll() {
			p.SetRoll(p.preset.RandomRoll(rng))
		}
		acts := p.Actions(buf[:])
		p.Make(acts[rng.IntN(len(acts))], &u)
		n++
	}
	return n
}
