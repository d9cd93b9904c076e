package match

import (
	"errors"
	"fmt"
	"slices"

	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
)

// Fitted is one spec's rating fitted to the games of matches (Fit).
type Fitted struct {
	Spec   string        // the player's spec
	Rating rating.Rating // Mu on the anchored scale, and its uncertainty
	Games  int           // the games it played, which the rating rests on
}

// Fit rates the specs of matches from their games with the Weng-Lin
// model m, as the server rates people: every spec starts as m's newcomer,
// and the games are rated one after another, match by match and in the
// order played, each seat a team of its own (partners one team in team
// presets), ranked by the game's final ranks (ties as ties). Tau is taken
// as 0 for the fit: a bot's strength does not change.
//
// The ratings are then shifted, all by the same amount, so that anchor's
// displayed rating (m.Show) is at: the model depends only on differences
// of Mu, so the shift changes no prediction and pins what the numbers
// mean. Fit returns the specs in the order of their first appearance; an
// error if there are no games or anchor played none.
func Fit(m rating.Model, results []*Result, anchor string, at int) ([]Fitted, error) {
	m.Tau = 0
	if err := m.Validate(); err != nil {
		return nil, err
	}
	var specs []string
	ratings := map[string]rating.Rating{}
	played := map[string]int{}
	for _, res := range results {
		l := res.Config.Lineup
		for _, g := range res.Games {
			seats := g.Game.Preset().Seats()
			names := make([]string, len(seats))
			for k := range seats {
				names[k] = l.Distinct[l.SpecIndex(g.Players[k])]
				if _, ok := ratings[names[k]]; !ok {
					specs = append(specs, names[k])
					ratings[names[k]] = m.New()
				}
			}
			teams, ranks := teamsOf(g.Game)
			in := make([][]rating.Rating, len(teams))
			for i, team := range teams {
				for _, k := range team {
					in[i] = append(in[i], ratings[names[k]])
				}
			}
			out, err := m.Rate(in, ranks)
			if err != nil {
				return nil, fmt.Errorf("match: fit: deal %d, rotation %d: %w", g.Deal+1, g.Rotation+1, err)
			}
			// A spec met twice in one game (greedy and greedy#2) keeps
			// the last of its two updates.
			for i, team := range teams {
				for j, k := range team {
					ratings[names[k]] = out[i][j]
					played[names[k]]++
				}
			}
		}
	}
	if len(specs) == 0 {
		return nil, errors.New("match: fit: no games")
	}
	a, ok := ratings[anchor]
	if !ok {
		return nil, fmt.Errorf("match: fit: the anchor %q played no game (players: %v)", anchor, specs)
	}
	shift := m.Mu + float64(at-1500)/m.Scale() - a.Mu
	fits := make([]Fitted, len(specs))
	for i, s := range specs {
		r := ratings[s]
		r.Mu += shift
		fits[i] = Fitted{Spec: s, Rating: r, Games: played[s]}
	}
	return fits, nil
}

// teamsOf returns the seat indices of a finished game's teams (each seat
// alone, or partners together in team presets) and each team's rank.
func teamsOf(g *rules.Game) ([][]int, []int) {
	pr := g.Preset()
	seats := pr.Seats()
	ranks := g.Position().Ranks()
	var teams [][]int
	var teamRanks []int
	for k, s := range seats {
		i := slices.IndexFunc(teams, func(t []int) bool { return pr.Teammates(seats[t[0]], s) })
		if i < 0 {
			teams = append(teams, []int{k})
			teamRanks = append(teamRanks, ranks[s])
			continue
		}
		teams[i] = append(teams[i], k)
	}
	return teams, teamRanks
}
