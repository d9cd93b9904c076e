package server

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Profiles and leaderboards: GET /api/players/{name} (a player's ratings
// with their history, and recent games) and GET /api/leaderboard?rules=
// (a ruleset's best players), read from store.Ratings. A rating is shown
// as package rating shows it: one number on a 1,500 scale, its deviation,
// and whether it is still provisional.

// Profile is the answer of GET /api/players/{name}.
type Profile struct {
	Name    string          `json:"name"`    // the username as its holder wrote it
	Ratings []ProfileRating `json:"ratings"` // one per ruleset played rated, most recently played first
	Games   []ProfileGame   `json:"games"`   // the most recent first
}

// Shown is a rating as a person sees it (rating.Model.Show).
type Shown struct {
	Rating      int  `json:"rating"`      // on the 1,500 scale
	Deviation   int  `json:"deviation"`   // one standard deviation of Rating
	Provisional bool `json:"provisional"` // too uncertain yet to be taken at its word
}

// ProfileRating is a player's rating in one ruleset.
type ProfileRating struct {
	Rules string `json:"rules"` // the ruleset: a preset's name with its house rules
	Shown
	Games      int           `json:"games"`       // rated games played
	FirstRate  float64       `json:"first_rate"`  // the share of them ended first (a tie for first counts)
	MeanScore  float64       `json:"mean_score"`  // the mean of its scores in them
	LastPlayed time.Time     `json:"last_played"` // the end of its last rated game
	History    []RatingPoint `json:"history"`     // the last points, oldest first, for a graph
}

// RatingPoint is a player's rating after one rated game.
type RatingPoint struct {
	Game string    `json:"game"` // the game's id
	At   time.Time `json:"at"`   // when the game ended
	Shown
	Change int `json:"change"` // Rating less the rating before the game
	Rank   int `json:"rank"`   // the player's place, 1 the best
	Score  int `json:"score"`  // the seat's score
}

// ProfileGame is one of a player's recent games.
type ProfileGame struct {
	ID      string    `json:"id"`               // the game's id, for its replay
	Rules   string    `json:"rules"`            // its ruleset
	Seat    string    `json:"seat"`             // the seat the player held: "South", ...
	Status  string    `json:"status"`           // "live" or "finished"
	Result  string    `json:"result,omitempty"` // the record's Result tag, once finished
	Rated   bool      `json:"rated"`            // the game counts for ratings
	Rank    int       `json:"rank,omitempty"`   // the player's place once known, 1 the best
	Score   *int      `json:"score,omitempty"`  // the seat's score once known
	Change  *int      `json:"change,omitempty"` // the rating's change, once a rated game is rated
	Created time.Time `json:"created"`          // when it was made
	Updated time.Time `json:"updated"`          // its last event
}

// Leaderboard is the answer of GET /api/leaderboard.
type Leaderboard struct {
	Rules      string   `json:"rules"`       // the ruleset, as rules.Lookup names it
	MinGames   int      `json:"min_games"`   // the fewest rated games to be listed
	ActiveDays int      `json:"active_days"` // the last rated game within so many days
	Offset     int      `json:"offset"`      // the places skipped before the first listed
	Players    []Leader `json:"players"`     // best first
}

// Leader is one place of a leaderboard.
type Leader struct {
	Place int    `json:"place"` // from 1
	Name  string `json:"name"`  // the player's username
	Shown
	Games      int       `json:"games"`       // rated games played in the ruleset
	FirstRate  float64   `json:"first_rate"`  // the share of them ended first
	MeanScore  float64   `json:"mean_score"`  // the mean of its scores in them
	LastPlayed time.Time `json:"last_played"` // the end of its last rated game
}

// show returns r as a person sees it.
func show(mu, sigma float64) Shown {
	d := ratingModel.Show(rating.Rating{Mu: mu, Sigma: sigma})
	return Shown{Rating: d.Number, Deviation: d.Deviation, Provisional: d.Provisional}
}

// profileQuery is what GET /api/players/{name} asks for.
type profileQuery struct {
	games int // recent games
}

// parseProfileQuery reads GET /api/players/{name}'s query: ?games=N, 1
// to Config.MaxProfileGames (store.DefaultRecent if absent).
func parseProfileQuery(q url.Values, cfg Config) (profileQuery, error) {
	pq := profileQuery{games: min(store.DefaultRecent, cfg.MaxProfileGames)}
	for k := range q {
		if k != "games" {
			return pq, Errorf(EINVALID, "unknown query parameter %q: the endpoint takes games", k)
		}
	}
	if v, ok := q["games"]; ok {
		n, err := queryInt(v, "games", 1, cfg.MaxProfileGames)
		if err != nil {
			return pq, err
		}
		pq.games = n
	}
	return pq, nil
}

// leaderQuery is what GET /api/leaderboard asks for.
type leaderQuery struct {
	rules         string // canonical, as rules.Lookup names it
	offset, limit int
}

// parseLeaderQuery reads GET /api/leaderboard's query: ?rules=NAME
// (required), ?offset=N (0 to Config.MaxLeaderOffset), ?limit=N (1 to
// Config.MaxLeaders, store.DefaultLeaders if absent).
func parseLeaderQuery(q url.Values, cfg Config) (leaderQuery, error) {
	lq := leaderQuery{limit: min(store.DefaultLeaders, cfg.MaxLeaders)}
	for k := range q {
		switch k {
		case "rules", "offset", "limit":
		default:
			return lq, Errorf(EINVALID, "unknown query parameter %q: the endpoint takes rules, offset and limit", k)
		}
	}
	v, ok := q["rules"]
	if !ok || len(v) != 1 || v[0] == "" {
		return lq, Errorf(EINVALID, "rules: name one ruleset, such as ?rules=chaturaji")
	}
	if len(v[0]) > maxRulesName {
		return lq, Errorf(EINVALID, "rules: %d bytes, over the limit of %d", len(v[0]), maxRulesName)
	}
	pr, err := rules.Lookup(v[0])
	if err != nil {
		return lq, Errorf(EINVALID, "rules: %s", strings.TrimPrefix(err.Error(), "rules: "))
	}
	lq.rules = pr.Name
	if v, ok := q["offset"]; ok {
		if lq.offset, err = queryInt(v, "offset", 0, cfg.MaxLeaderOffset); err != nil {
			return lq, err
		}
	}
	if v, ok := q["limit"]; ok {
		if lq.limit, err = queryInt(v, "limit", 1, cfg.MaxLeaders); err != nil {
			return lq, err
		}
	}
	return lq, nil
}

// maxRulesName bounds the length of a ruleset's name in a query, in bytes.
const maxRulesName = 200

// queryInt reads one whole number from lo to hi of a query parameter.
func queryInt(v []string, name string, lo, hi int) (int, error) {
	if len(v) != 1 {
		return 0, Errorf(EINVALID, "%s: given %d times; give it once", name, len(v))
	}
	n, err := strconv.Atoi(v[0])
	if err != nil || n < lo || n > hi {
		return 0, Errorf(EINVALID, "%s %q: want a whole number from %d to %d", name, v[0], lo, hi)
	}
	return n, nil
}

// handleProfile answers GET /api/players/{name}.
func (s *Server) handleProfile(w http.ResponseWriter, r *http.Request) {
	ratings := store.RatingsOf(s.store)
	accounts := store.AccountsOf(s.store)
	if ratings == nil || accounts == nil {
		s.fail(w, r, Errorf(ENOTFOUND, "this server keeps no accounts"))
		return
	}
	q, err := parseProfileQuery(r.URL.Query(), s.cfg)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	raw := r.PathValue("name")
	name, err := account.ParseName(raw)
	if err != nil {
		s.fail(w, r, Errorf(ENOTFOUND, "no player %q: %s", raw, strings.TrimPrefix(err.Error(), "account: ")))
		return
	}
	acc, err := accounts.AccountNamed(r.Context(), name.Folded)
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, Errorf(ENOTFOUND, "no player %q", raw))
		return
	} else if err != nil {
		s.fail(w, r, s.storeError("", err))
		return
	}
	rs, err := ratings.AccountRatings(r.Context(), acc.ID)
	if err != nil {
		s.fail(w, r, s.storeError("", err))
		return
	}
	p := Profile{Name: acc.Name, Ratings: []ProfileRating{}, Games: []ProfileGame{}}
	for i, rt := range rs {
		pr, err := profileRating(r.Context(), ratings, rt, i < s.cfg.MaxProfileRulesets, s.cfg.MaxProfileHistory)
		if err != nil {
			s.fail(w, r, s.storeError("", err))
			return
		}
		p.Ratings = append(p.Ratings, pr)
	}
	games, err := ratings.RecentGames(r.Context(), acc.ID, q.games)
	if err != nil {
		s.fail(w, r, s.storeError("", err))
		return
	}
	for _, g := range games {
		p.Games = append(p.Games, profileGame(g))
	}
	writeJSON(w, http.StatusOK, p)
}

// profileRating returns an account's rating in a ruleset as a profile
// shows it, with its last points of history, at most limit, if history.
func profileRating(ctx context.Context, ratings store.Ratings, rt store.Rating, history bool, limit int) (ProfileRating, error) {
	pr := ProfileRating{Rules: rt.Rules, Shown: show(rt.Mu, rt.Sigma), Games: rt.Games, LastPlayed: rt.Played, History: []RatingPoint{}}
	if rt.Games > 0 {
		pr.FirstRate = float64(rt.Firsts) / float64(rt.Games)
		pr.MeanScore = float64(rt.Score) / float64(rt.Games)
	}
	if !history {
		return pr, nil
	}
	hist, err := ratings.RatingHistory(ctx, rt.Account, rt.Rules, limit)
	if err != nil {
		return pr, err
	}
	for _, h := range hist {
		after := show(h.Mu, h.Sigma)
		pr.History = append(pr.History, RatingPoint{Game: h.Game, At: h.At, Shown: after,
			Change: after.Rating - show(h.MuBefore, h.SigmaBefore).Rating, Rank: h.Rank, Score: h.Score})
	}
	return pr, nil
}

// profileGame returns one of an account's games as a profile lists it.
func profileGame(g store.PlayedGame) ProfileGame {
	pg := ProfileGame{ID: g.Game, Rules: g.Rules, Status: string(g.Status), Result: g.Result, Rated: g.Rated, Created: g.Created, Updated: g.Updated}
	if pr, err := rules.Lookup(g.Rules); err == nil && g.Seat < pr.NumSeats() {
		pg.Seat = pr.Seats()[g.Seat].String()
	}
	switch {
	case g.Point != nil:
		change := show(g.Point.Mu, g.Point.Sigma).Rating - show(g.Point.MuBefore, g.Point.SigmaBefore).Rating
		pg.Rank, pg.Score, pg.Change = g.Point.Rank, &g.Point.Score, &change
	case g.Status == store.Finished:
		if rank, score, ok := resultPlace(g.Result, g.Seat); ok {
			pg.Rank, pg.Score = rank, &score
		}
	}
	return pg
}

// resultPlace reads a seat's score and place from a points game's Result
// tag, the scores in seat order joined by commas ("12,54,3,0"): the place
// is 1 plus the seats that scored more. Not ok for any other Result (a
// king preset's winners, an aborted game's "*").
func resultPlace(result string, seat int) (rank, score int, ok bool) {
	parts := strings.Split(result, ",")
	if len(parts) < 2 || seat < 0 || seat >= len(parts) {
		return 0, 0, false
	}
	scores := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p != strconv.Itoa(n) {
			return 0, 0, false
		}
		scores[i] = n
	}
	rank = 1
	for _, o := range scores {
		if o > scores[seat] {
			rank++
		}
	}
	return rank, scores[seat], true
}

// handleLeaderboard answers GET /api/leaderboard.
func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	ratings := store.RatingsOf(s.store)
	if ratings == nil {
		s.fail(w, r, Errorf(ENOTFOUND, "this server keeps no ratings"))
		return
	}
	q, err := parseLeaderQuery(r.URL.Query(), s.cfg)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ls, err := ratings.Leaderboard(r.Context(), store.LeaderQuery{
		Rules: q.rules, MinGames: s.cfg.LeaderGames, Since: time.Now().Add(-s.cfg.LeaderActive),
		Offset: q.offset, Limit: q.limit,
	})
	if err != nil {
		s.fail(w, r, s.storeError("", err))
		return
	}
	b := Leaderboard{Rules: q.rules, MinGames: s.cfg.LeaderGames, ActiveDays: int(s.cfg.LeaderActive / (24 * time.Hour)), Offset: q.offset, Players: []Leader{}}
	for i, l := range ls {
		b.Players = append(b.Players, Leader{
			Place: q.offset + i + 1, Name: l.Name, Shown: show(l.Mu, l.Sigma), Games: l.Games,
			FirstRate: float64(l.Firsts) / float64(max(l.Games, 1)), MeanScore: float64(l.Score) / float64(max(l.Games, 1)),
			LastPlayed: l.Played,
		})
	}
	writeJSON(w, http.StatusOK, b)
}
