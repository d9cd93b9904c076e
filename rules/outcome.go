package rules

// Chance is one outcome of a preset's dice and its probability.
type Chance struct {
	Roll Roll    // the roll
	P    float64 // its probability, above 0
}

// Chances returns every distinct roll of the preset's dice with its
// probability, or nil for a diceless preset. The probabilities sum to 1.
func (pr *Preset) Chances() []Chance { return pr.chances }

// Decider returns the seat that chooses the next action: the seat to act,
// unless another seat decides for it (in presets with command or decisions
// such as accepting an exchange). Servers check a player's right to act
// against the decider.
func (p *Position) Decider() Seat {
	if p.step != noStep || !p.preset.teamPlay {
		return p.seat
	}
	return p.decider(p.seat)
}

// Ranks returns each playing seat's rank, 1 for the best; seats that do not
// play rank 0. In points presets the rank is by score, equal scores sharing
// a rank (1, 1, 3, 4); a game drawn by a turn limit ranks everyone 1. In king
// presets the side that still has a king when the game ends ranks 1 and the
// other 2; while the game goes on, or after a draw, everyone ranks 1.
func (p *Position) Ranks() [NumSeats]int {
	pr := p.preset
	var ranks [NumSeats]int
	end := p.EndReason()
	for _, s := range pr.seats {
		ranks[s] = 1
		switch {
		case pr.Team.Partners:
			ranks[s] = p.teamRank(s, end)
		case pr.Goal == KingsGoal:
			if end == KingsTaken && !p.HasKing(s) {
				ranks[s] = 2
			}
		case end == ClockOut && pr.TurnClock:
		default:
			for _, o := range pr.seats {
				if p.scores[o] > p.scores[s] {
					ranks[s]++
				}
			}
		}
	}
	return ranks
}

// TeamScore returns the score of seat s's team: both partners' points in
// team presets, s's own otherwise.
func (p *Position) TeamScore(s Seat) int {
	if p.preset.Team.Partners {
		return int(p.scores[s] + p.scores[Partner(s)])
	}
	return int(p.scores[s])
}

// teamRank ranks seat s's team: in king presets the team that still has a
// king when a team has none ranks 1 and the other 2; in points presets the
// higher team score ranks 1, except in an honourable peace; otherwise 1.
func (p *Position) teamRank(s Seat, end End) int {
	if p.preset.Team.Stakes {
		if end == Stripped && p.losingTeam() == teamOf(s) {
			return 2
		}
		return 1
	}
	if p.preset.Team.LastForces {
		if end == LastArmy && p.teamPieces(teamOf(s)) == 0 {
			return 2
		}
		return 1
	}
	if p.preset.Goal == KingsGoal {
		if end == KingsTaken && !p.HasKing(s) && !p.HasKing(Partner(s)) {
			return 2
		}
		return 1
	}
	if end == Peace {
		return 1
	}
	if p.TeamScore(s^1) > p.TeamScore(s) { // s^1 is an enemy seat
		return 2
	}
	return 1
}
