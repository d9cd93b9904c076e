package store

import (
	"context"
	"time"
)

// Ratings keeps the players' ratings (package rating): one per account and
// ruleset, a point of history per rated game and account, and which rated
// games have been rated. SQLite's and PostgreSQL's stores implement it
// (RatingsOf).
//
// A ruleset is a game's Rules: the preset's name with its house-rule
// options, as rules.Lookup names it, since a house rule changes what wins
// (and the lobby pairs by the same name).
//
// A game is rated exactly once: RateGame marks it rated in the same
// transaction that writes every one of its players' new ratings, and
// refuses a game marked already, so that a retry, a node that restarts
// between a game's end and its rating, or two nodes rating it at once
// cannot rate it twice or half.
type Ratings interface {
	// RateGame rates finished game id: in one transaction it checks
	// that the game is rated (Game.Rated), finished and not yet rated,
	// reads the ratings in game.Rules of the accounts named (each read
	// after any other game's rating that holds them has committed),
	// calls rate with them (an account with none yet is left out of
	// the map), writes what rate returns (one Played per account rated)
	// and marks the game rated, all or nothing. ErrNotFound if there is
	// no such game; ErrConflict if it is rated already, not finished or
	// not a rated game. An error from rate is returned, and nothing is
	// written. rate may return no points: the game is then marked rated
	// with no rating changed (an aborted game).
	RateGame(ctx context.Context, id string, accounts []string, rate func(before map[string]Rating) ([]Played, error)) error
	// Unrated returns the ids of finished rated games not yet rated,
	// oldest finished first, at most limit (DefaultUnrated if 0).
	Unrated(ctx context.Context, limit int) ([]string, error)
	// AccountRatings returns an account's ratings, one per ruleset it
	// has played rated, most recently played first.
	AccountRatings(ctx context.Context, account string) ([]Rating, error)
	// RatingHistory returns an account's last limit points in a
	// ruleset (DefaultHistory if 0), oldest first.
	RatingHistory(ctx context.Context, account, rules string, limit int) ([]Played, error)
	// RecentGames returns the last limit games (DefaultRecent if 0)
	// with a seat the account held, rated or not, most recently
	// updated first, with the account's result in the rated ones.
	RecentGames(ctx context.Context, account string, limit int) ([]PlayedGame, error)
	// Leaderboard returns the ratings in q.Rules of accounts not
	// deleted that played at least q.MinGames rated games, the last
	// since q.Since, best first (by Mu, then account id), from the
	// q.Offset-th, at most q.Limit (DefaultLeaders if 0).
	Leaderboard(ctx context.Context, q LeaderQuery) ([]Leader, error)
}

// The defaults of the Ratings queries' limits.
const (
	DefaultUnrated = 100
	DefaultHistory = 500
	DefaultRecent  = 20
	DefaultLeaders = 50
)

// Rating is an account's rating in one ruleset, as the store keeps it.
type Rating struct {
	Account string    // the account's id
	Rules   string    // the ruleset (Game.Rules)
	Mu      float64   // package rating's Mu
	Sigma   float64   // package rating's Sigma
	Games   int       // rated games played in the ruleset
	Firsts  int       // of them, the games it ended first in (a tie for first counts)
	Score   int64     // the sum of its scores in them
	Played  time.Time // when its last rated game in the ruleset ended
}

// Played is one account's rating in one rated game: a point of its
// history.
type Played struct {
	Account     string    // the account's id
	Game        string    // the game's id
	Rules       string    // the game's ruleset
	At          time.Time // when the game ended
	MuBefore    float64   // before the game
	SigmaBefore float64   // before the game
	Mu          float64   // after the game
	Sigma       float64   // after the game
	Rank        int       // its place, 1 the best; equal for a tie
	Score       int       // its seat's score at the end
}

// PlayedGame is one game of an account's, as RecentGames lists it.
type PlayedGame struct {
	Game    string    // the game's id
	Rules   string    // its ruleset
	Seat    int       // the index of the seat it held, South first
	Status  Status    // Live or Finished
	Result  string    // the record's Result tag once finished
	Rated   bool      // the game counts for ratings
	Created time.Time // when the game was created
	Updated time.Time // its last event
	// Point is the account's point of rating history in the game, once
	// rated; nil for a game not rated (yet).
	Point *Played
}

// LeaderQuery asks for a page of a ruleset's leaderboard.
type LeaderQuery struct {
	Rules    string    // the ruleset
	MinGames int       // the fewest rated games to be listed
	Since    time.Time // the last rated game on or after it
	Offset   int       // places to skip, from the best
	Limit    int       // at most this many; DefaultLeaders if 0
}

// Leader is one place of a leaderboard: a rating and its account's name.
type Leader struct {
	Rating
	Name string // the account's name
}

// RatingsOf returns st's Ratings, looking through wrappers such as Sealed,
// or nil if st keeps no ratings.
func RatingsOf(st Store) Ratings {
	for {
		if r, ok := st.(Ratings); ok {
			return r
		}
		u, ok := st.(interface{ Unwrap() Store })
		if !ok {
			return nil
		}
		st = u.Unwrap()
	}
}
