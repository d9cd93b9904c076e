package rules

// Chance is one outcome of a preset's dice and its probability.
type Chance struct {
	Roll Roll
	P    float64
}

// Chances returns every distinct roll of the preset's dice with its
// probability, or nil for a diceless preset. The probabilities sum to 1.
func (pr *Preset) Chances() []Chance {
	if pr.Die == nil {
		return nil
	}
	out := make([]Chance, 0, len(pr.outcomes))
	p := 1 / float64(len(pr.outcomes))
	for _, r := range pr.outcomes {
		out = append(out, Chance{Roll: r, P: p})
	}
	return out
}

// Decider returns the seat that chooses the next action: the seat to act,
// unless another seat decides for it (in presets with command or decisions
// such as accepting an exchange). Servers check a player's right to act
// against the decider.
func (p *Position) Decider() Seat { return p.seat }

// Ranks returns each playing seat's rank by score, 1 for the highest; equal
// scores share a rank (1, 1, 3, 4). Seats that do not play rank 0.
func (p *Position) Ranks() [NumSeats]int {
	var ranks [NumSeats]int
	for _, s := range p.preset.seats {
		ranks[s] = 1
		for _, o := range p.preset.seats {
			if p.scores[o] > p.scores[s] {
				ranks[s]++
			}
		}
	}
	return ranks
}
