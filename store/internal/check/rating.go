package check

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// Rated checks the points a game's rating gives (Ratings.RateGame) and
// sets what the store fills in: each point's Game and Rules are the
// game's, and a zero At becomes now, as Time keeps it. Every point must be
// of one of the accounts named, at most one per account, with finite Mu,
// positive finite Sigma (before and after) and a rank from 1.
func Rated(id, rules string, accounts []string, points []store.Played, now time.Time) error {
	for i := range points {
		p := &points[i]
		switch {
		case !slices.Contains(accounts, p.Account):
			return fmt.Errorf("a point of account %q, which the game's rating did not name", p.Account)
		case slices.ContainsFunc(points[:i], func(q store.Played) bool { return q.Account == p.Account }):
			return fmt.Errorf("two points of account %q", p.Account)
		case !finite(p.MuBefore) || !finite(p.Mu):
			return fmt.Errorf("account %q: Mu %v before and %v after; want finite numbers", p.Account, p.MuBefore, p.Mu)
		case !finite(p.SigmaBefore) || !finite(p.Sigma) || p.SigmaBefore <= 0 || p.Sigma <= 0:
			return fmt.Errorf("account %q: Sigma %v before and %v after; want positive finite numbers", p.Account, p.SigmaBefore, p.Sigma)
		case p.Rank < 1:
			return fmt.Errorf("account %q: rank %d; want 1 or more", p.Account, p.Rank)
		}
		if p.Game != "" && p.Game != id || p.Rules != "" && p.Rules != rules {
			return fmt.Errorf("account %q: a point of game %q in %q, rating game %q in %q", p.Account, p.Game, p.Rules, id, rules)
		}
		p.Game, p.Rules = id, rules
		if p.At.IsZero() {
			p.At = now
		}
		p.At = Time(p.At)
	}
	return nil
}

// RateAccounts checks the accounts a game's rating names: none empty,
// none twice.
func RateAccounts(accounts []string) error {
	for i, a := range accounts {
		if a == "" {
			return errors.New("an empty account id")
		}
		if slices.Contains(accounts[:i], a) {
			return fmt.Errorf("account %q named twice", a)
		}
	}
	return nil
}

// RatingLimit returns limit, or def if it is 0 or less.
func RatingLimit(limit, def int) int {
	if limit <= 0 {
		return def
	}
	return limit
}

// Leaders checks a leaderboard's query and fills in its defaults.
func Leaders(q *store.LeaderQuery) error {
	switch {
	case q.Rules == "":
		return errors.New("a leaderboard needs a ruleset")
	case q.Offset < 0:
		return fmt.Errorf("offset %d; want 0 or more", q.Offset)
	case q.MinGames < 0:
		return fmt.Errorf("minimum of %d games; want 0 or more", q.MinGames)
	}
	q.Limit = RatingLimit(q.Limit, store.DefaultLeaders)
	q.Since = Time(q.Since)
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
