package server

import (
	"net/http"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/store"
)

// AccountData is the answer of GET /api/account/export ("download my
// data"): everything kept about the account (package account's Data:
// the account, its passkeys and sessions), with its games and its
// ratings.
type AccountData struct {
	*account.Data
	// Games are the games a seat of which the account held, rated or not,
	// the most recently updated first: at most Config.MaxExportGames.
	Games []ProfileGame `json:"games"`
	// GamesLeftOut is true if the account held seats in more games than
	// Games lists: the oldest are left out.
	GamesLeftOut bool `json:"games_left_out,omitempty"`
	// Ratings are its ratings, one per ruleset played rated, the most
	// recently played first, each with its last Config.MaxProfileHistory
	// points of history.
	Ratings []DataRating `json:"ratings"`
}

// DataRating is a rating as the export gives it: as a profile shows it,
// and the model's own numbers.
type DataRating struct {
	ProfileRating
	Mu    float64 `json:"mu"`    // package rating's Mu
	Sigma float64 `json:"sigma"` // package rating's Sigma
}

// handleExport is GET /api/account/export: everything kept about the
// account, as a JSON file to download.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	a, _, ok := s.mustSignIn(w, r)
	if !ok {
		return
	}
	d, err := s.accounts.Export(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, s.accountError(err))
		return
	}
	out := AccountData{Data: d, Games: []ProfileGame{}, Ratings: []DataRating{}}
	if ratings := store.RatingsOf(s.store); ratings != nil {
		// One more than the cap, to tell whether some were left out.
		games, err := ratings.RecentGames(r.Context(), a.ID, s.cfg.MaxExportGames+1)
		if err != nil {
			s.fail(w, r, s.storeError("", err))
			return
		}
		if len(games) > s.cfg.MaxExportGames {
			games, out.GamesLeftOut = games[:s.cfg.MaxExportGames], true
		}
		for _, g := range games {
			out.Games = append(out.Games, profileGame(g))
		}
		rs, err := ratings.AccountRatings(r.Context(), a.ID)
		if err != nil {
			s.fail(w, r, s.storeError("", err))
			return
		}
		for _, rt := range rs {
			pr, err := profileRating(r.Context(), ratings, rt, true, s.cfg.MaxProfileHistory)
			if err != nil {
				s.fail(w, r, s.storeError("", err))
				return
			}
			out.Ratings = append(out.Ratings, DataRating{ProfileRating: pr, Mu: rt.Mu, Sigma: rt.Sigma})
		}
	}
	w.Header().Set("Content-Disposition", `attachment; filename="chaturaji-account.json"`)
	writeJSON(w, http.StatusOK, out)
}
