package server

import (
	"context"
	"strconv"

	"github.com/chaturaji/chaturaji/lobby"
	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// seekerRating returns the rating of the account with id accountID in
// the ruleset rules, for the lobby to seat it with players of about its
// strength: as the store keeps it (store.Ratings), or a newcomer's
// (rating.Default) for a guest, an account not yet rated in the ruleset,
// and a store that keeps no ratings or cannot be read now.
func (s *Server) seekerRating(ctx context.Context, accountID, ruleset string) (mu, sigma float64) {
	r := rating.Default().New()
	rs := store.RatingsOf(s.store)
	if accountID == "" || rs == nil {
		return r.Mu, r.Sigma
	}
	if pr, err := rules.Lookup(ruleset); err == nil {
		ruleset = pr.Name // as games keep it
	}
	kept, err := rs.AccountRatings(ctx, accountID)
	if err != nil {
		s.repeats.Error("lobby: reading a seeker's rating", "err", err)
		return r.Mu, r.Sigma
	}
	for _, k := range kept {
		if k.Rules == ruleset {
			return k.Mu, k.Sigma
		}
	}
	return r.Mu, r.Sigma
}

// shownRating is a rating as the lobby compares and shows it: the number
// of rating.Display, on the Elo-like scale of the bots' levels.
func shownRating(mu, sigma float64) float64 {
	return float64(rating.Default().Show(rating.Rating{Mu: mu, Sigma: sigma}).Number)
}

// botLevels returns the bots' levels that may fill a lobby table's seats,
// from 1 to max, with the rating each plays at as measured (rating.Bots):
// a level with no measured rating is left out, so that every bot at a
// rated table has one.
func botLevels(max int) []lobby.Level {
	var levels []lobby.Level
	for i := 1; i <= max; i++ {
		if b, ok := rating.Bot(strconv.Itoa(i)); ok {
			levels = append(levels, lobby.Level{Level: i, Rating: shownRating(b.Mu, b.Sigma)})
		}
	}
	return levels
}
