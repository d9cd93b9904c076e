package rating

import (
	"errors"
	"fmt"
	"math"
)

// Rating is what is believed of one player's skill: a normal distribution
// with mean Mu and standard deviation Sigma, on the model's scale (a
// newcomer is Mu 25, Sigma 25/3 by default).
type Rating struct {
	Mu    float64 `json:"mu"`    // the skill's expected value
	Sigma float64 `json:"sigma"` // the uncertainty of Mu: one standard deviation
}

// The defaults are those of npm's openskill, so that ratings computed here
// and by the reference agree; DefaultProvisionalSigma is this package's own.
const (
	// DefaultMu is a newcomer's Mu.
	DefaultMu = 25.0
	// DefaultSigma is a newcomer's Sigma: a third of DefaultMu, so that a
	// newcomer's Ordinal is 0.
	DefaultSigma = DefaultMu / 3
	// DefaultBeta is the spread of one player's performance about their
	// skill in a single game: half of DefaultSigma.
	DefaultBeta = DefaultSigma / 2
	// DefaultKappa is the least fraction of its variance that one game
	// leaves a player, which keeps Sigma from collapsing to zero.
	DefaultKappa = 1e-4
	// DefaultTau is the deviation added to every player's Sigma before each
	// game, so that a rating can follow a player whose skill changes:
	// a hundredth of DefaultSigma. The reference applies it by default.
	DefaultTau = DefaultMu / 300
	// DefaultProvisionalSigma is the Sigma above which a rating is
	// provisional: 5, three fifths of a newcomer's 8.33, or ±147 points on
	// the display scale. A newcomer playing settled players of random
	// results gets below it after twelve games on average if they are of
	// two sides, sixteen if of four (TestProvisionalGames). A regular
	// player's Sigma settles near 2, where Tau's growth balances what each
	// game takes.
	DefaultProvisionalSigma = 5.0
)

// Model holds the parameters of the Plackett-Luce rating model. Default
// gives the reference's values; a zero Model is not valid.
type Model struct {
	Mu    float64 // a newcomer's Mu (New), and the centre of the display scale (Show)
	Sigma float64 // a newcomer's Sigma (New); must be positive
	// Beta is the deviation of one performance about the player's skill:
	// the larger, the more a game's result is put down to luck, and the
	// less one game moves the ratings. Must be positive.
	Beta float64
	// Kappa, in (0, 1], is the least fraction of a player's variance that
	// one game leaves.
	Kappa float64
	// Tau, zero or more, is added in quadrature to every player's Sigma
	// before the game is rated (Sigma becomes sqrt(Sigma² + Tau²)), so
	// that no rating ever becomes certain.
	Tau float64
	// LimitSigma, when set, keeps a player's Sigma from ending a game
	// above where it began (Tau could otherwise raise it). The reference's
	// limitSigma option, off by default.
	LimitSigma bool
	// ProvisionalSigma is the Sigma above which a rating is provisional
	// (Provisional); must be positive.
	ProvisionalSigma float64
}

// Default returns the model with the reference's parameters: Mu 25,
// Sigma 25/3, Beta 25/6, Kappa 1e-4, Tau 25/300, LimitSigma off, and
// ProvisionalSigma 5.
func Default() Model {
	return Model{
		Mu:               DefaultMu,
		Sigma:            DefaultSigma,
		Beta:             DefaultBeta,
		Kappa:            DefaultKappa,
		Tau:              DefaultTau,
		ProvisionalSigma: DefaultProvisionalSigma,
	}
}

// New returns a newcomer's rating: the model's Mu and Sigma.
func (m Model) New() Rating {
	return Rating{Mu: m.Mu, Sigma: m.Sigma}
}

// Validate reports the first of the model's parameters that is out of
// range, naming it and its value.
func (m Model) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !finite(m.Mu):
		return fmt.Errorf("rating: model Mu %v is not a finite number", m.Mu)
	case !finite(m.Sigma) || m.Sigma <= 0:
		return fmt.Errorf("rating: model Sigma %v is not a positive finite number", m.Sigma)
	case !finite(m.Beta) || m.Beta <= 0:
		return fmt.Errorf("rating: model Beta %v is not a positive finite number", m.Beta)
	case !(m.Kappa > 0 && m.Kappa <= 1):
		return fmt.Errorf("rating: model Kappa %v is not in (0, 1]", m.Kappa)
	case !finite(m.Tau) || m.Tau < 0:
		return fmt.Errorf("rating: model Tau %v is not a finite number of zero or more", m.Tau)
	case !finite(m.ProvisionalSigma) || m.ProvisionalSigma <= 0:
		return fmt.Errorf("rating: model ProvisionalSigma %v is not a positive finite number", m.ProvisionalSigma)
	}
	return nil
}

// ErrNoTeams is returned by Rate for a game with no teams.
var ErrNoTeams = errors.New("rating: the game has no teams")

// Rate returns the ratings of the players of one game after it: teams[i]
// are the ratings of team i's players before the game, and ranks[i] is
// team i's place at the end, lower for better, equal for a tie (only the
// order of the ranks counts, so 1, 2, 2, 4 and 0, 5, 5, 9 are the same
// result). To rate by scores where more is better, pass the negated
// scores as ranks. The result has the shape of teams; teams is not
// changed.
//
// A game needs two teams or more, each of one player or more, with one
// rank per team, and every rating's Mu finite and Sigma positive and
// finite; the error otherwise names what was wrong.
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := check(teams, ranks); err != nil {
		return nil, err
	}

	// Each player's variance after the dynamics, and each team's skill
	// (the sum of its players' Mu) and variance (the sum of theirs).
	n := len(teams)
	variance := make([][]float64, n)
	teamMu := make([]float64, n)
	teamVar := make([]float64, n)
	c2 := 0.0
	for i, team := range teams {
		variance[i] = make([]float64, len(team))
		for j, r := range team {
			variance[i][j] = r.Sigma*r.Sigma + m.Tau*m.Tau
			teamMu[i] += r.Mu
			teamVar[i] += variance[i][j]
		}
		c2 += teamVar[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)

	// strength[i] is exp(teamMu[i]/c), the weight of team i in the
	// Plackett-Luce model, here divided by the strongest team's so that no
	// exponent overflows: the model uses only ratios of strengths.
	top := teamMu[0]
	for _, mu := range teamMu {
		top = max(top, mu)
	}
	strength := make([]float64, n)
	for i, mu := range teamMu {
		strength[i] = math.Exp((mu - top) / c)
	}
	// Of the teams placed at or below team q: the sum of their strengths
	// (C_q in the paper) and the number tied with q (A_q).
	below := make([]float64, n)
	tied := make([]float64, n)
	for q := range n {
		for s := range n {
			if ranks[s] >= ranks[q] {
				below[q] += strength[s]
			}
			if ranks[s] == ranks[q] {
				tied[q]++
			}
		}
	}

	out := make([][]Rating, n)
	for i, team := range teams {
		// Team i's standing is compared with every team q placed at or
		// above it: q's place was contested among the teams from q's rank
		// down, i among them; i won it (q = i) or lost it (q above i).
		// A tie shares each place among the A_q teams that hold it.
		var omega, delta float64
		for q := range n {
			if ranks[q] > ranks[i] {
				continue
			}
			p := strength[i] / below[q] // the chance that i takes q's place
			if q == i {
				omega += (1 - p) / tied[q]
			} else {
				omega -= p / tied[q]
			}
			delta += p * (1 - p) / tied[q]
		}
		gamma := math.Sqrt(teamVar[i]) / c
		omega *= teamVar[i] / c
		delta *= gamma * teamVar[i] / c2

		out[i] = make([]Rating, len(team))
		for j, r := range team {
			share := variance[i][j] / teamVar[i]
			sigma := math.Sqrt(variance[i][j]) * math.Sqrt(max(1-share*delta, m.Kappa))
			if m.LimitSigma {
				sigma = min(sigma, r.Sigma)
			}
			out[i][j] = Rating{Mu: r.Mu + share*omega, Sigma: sigma}
		}
	}
	return out, nil
}

// check reports the first thing wrong with a game's teams and ranks.
func check(teams [][]Rating, ranks []int) error {
	if len(teams) == 0 {
		return ErrNoTeams
	}
	if len(teams) == 1 {
		return errors.New("rating: the game has one team; a game needs two or more")
	}
	if len(ranks) != len(teams) {
		return fmt.Errorf("rating: %d ranks for %d teams; give one rank per team", len(ranks), len(teams))
	}
	for i, team := range teams {
		if len(team) == 0 {
			return fmt.Errorf("rating: team %d has no players", i)
		}
		for j, r := range team {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) {
				return fmt.Errorf("rating: team %d player %d: Mu %v is not a finite number", i, j, r.Mu)
			}
			if math.IsNaN(r.Sigma) || math.IsInf(r.Sigma, 0) || r.Sigma <= 0 {
				return fmt.Errorf("rating: team %d player %d: Sigma %v is not a positive finite number", i, j, r.Sigma)
			}
		}
	}
	return nil
}
