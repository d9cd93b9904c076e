package server

import (
	"context"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/rating"
)

// seekerRating returns the rating of the account with id accountID in
// the ruleset rules, for the lobby to seat it with players of about its
// strength: a newcomer's (rating.Default) until ratings are kept.
func (s *Server) seekerRating(ctx context.Context, accountID, rules string) (mu, sigma float64) {
	r := rating.Default().New()
	return r.Mu, r.Sigma
}

// shownRating is a rating as the lobby compares and shows it: the number
// of rating.Display, on the Elo-like scale of the bots' levels.
func shownRating(mu, sigma float64) float64 {
	return float64(rating.Default().Show(rating.Rating{Mu: mu, Sigma: sigma}).Number)
}

// botLevels returns the bots' levels that may fill a lobby table's seats,
// from 1 to max, with the rating each plays at: estimates, 150 points a
// level below a newcomer's 1500 at level 4, until they are measured from
// the bots' games.
func botLevels(max int) []lobby.Level {
	levels := make([]lobby.Level, max)
	for i := range levels {
		levels[i] = lobby.Level{Level: i + 1, Rating: 1050 + 150*float64(i)}
	}
	return levels
}
