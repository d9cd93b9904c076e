package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/store"
)

// Rated games. A table made with Rated counts for its players' ratings
// (package rating, one per account and ruleset, kept by store.Ratings).
// Every human seat of it is held by an account, no account holds two,
// and every bot is of a level whose strength was measured (rating.Bots):
// checkRated, which every way of making a game passes through (open).
//
// When a rated game's end is saved and the game marked finished, its loop
// asks the server's rater to rate it and goes on: the rating never holds
// up a game. The rater reads the game back from the store and rates it in
// one transaction of the store's, which refuses a game rated already
// (store.Ratings.RateGame): if the node stops between the end and the
// rating, the game is rated when a node starts or next sweeps for finished
// rated games not yet rated (Config.RateSweep), whichever node that is.
//
// The ranking is the game's own (rules.Position.Ranks, ties as ties), one
// side a seat, or a team of partners in team presets. A player whose seat
// a bot took over after they left it (away past the grace, out of time
// with the table's on_timeout "bot", or resigned) is ranked last, below
// everyone who stayed, with their team in team presets; but a resignation
// in a preset with dead armies is the rules' (dead.go), and ranks by the
// score as every dead army does. Bots take part at
// their fixed ratings, which do not change. A game that ended with no
// result (aborted before everyone's first move, or abandoned by the
// server) changes no rating: it is only marked rated.

// ratingModel is the model of every rating the server keeps.
var ratingModel = rating.Default()

// checkRated refuses a rated table whose seats cannot be rated: a human
// seat without an account, an account at two seats, a bot without a
// measured rating, or no account at all.
func checkRated(pr *rules.Preset, rated bool, players, accounts []string) error {
	if !rated {
		return nil
	}
	held := 0
	for i, p := range players {
		seat := pr.Seats()[i]
		account := ""
		if i < len(accounts) {
			account = accounts[i]
		}
		if p != Human {
			if _, ok := botRating(p); !ok {
				return Errorf(EINVALID, "seat %d (%s): %s has no measured rating; a rated game takes the bots %s", i+1, seat, p, strings.Join(rating.BotSpecs(), ", "))
			}
			continue
		}
		if account == "" {
			return Errorf(EINVALID, "seat %d (%s): a rated game needs every human seat held by a signed-in account", i+1, seat)
		}
		if j := slices.Index(accounts[:i], account); j >= 0 && players[j] == Human {
			return Errorf(EINVALID, "seats %d and %d: one account holds both; in a rated game each account holds one seat", j+1, i+1)
		}
		held++
	}
	if held == 0 {
		return Errorf(EINVALID, "a rated game needs at least one seat held by a signed-in account")
	}
	return nil
}

// botRating returns the fixed rating of a seat's bot ("bot:3",
// "bot:level:3", "bot:greedy"), and whether it has one.
func botRating(player string) (rating.Rating, bool) {
	spec, ok := botSpec(player)
	if !ok {
		return rating.Rating{}, false
	}
	return rating.Bot(strings.TrimPrefix(spec, "level:"))
}

// rateRequests bounds the games waiting for the rater; a game that finds
// it full is rated at the next sweep.
const rateRequests = 256

// rater rates finished rated games: those the loops hand it as they end,
// and at start and every Config.RateSweep those the store says are still
// to rate. It stops with the server.
func (s *Server) rater(ratings store.Ratings) {
	defer s.wg.Done()
	sweep := time.NewTicker(s.cfg.RateSweep)
	defer sweep.Stop()
	s.rateUnrated(ratings)
	for {
		select {
		case <-s.ctx.Done():
			return
		case id := <-s.toRate:
			s.rateGame(ratings, id)
		case <-sweep.C:
			s.rateUnrated(ratings)
		}
	}
}

// startRater starts the rater if the store keeps ratings.
func (s *Server) startRater() {
	ratings := store.RatingsOf(s.store)
	if ratings == nil || !s.track() {
		return
	}
	go s.rater(ratings)
}

// rateLater hands a rated game that has just finished to the rater,
// without waiting: if it is busy, the next sweep finds the game.
func (s *Server) rateLater(id string) {
	select {
	case s.toRate <- id:
	default:
	}
}

// rateUnrated rates the finished rated games the store says are still to
// rate.
func (s *Server) rateUnrated(ratings store.Ratings) {
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	ids, err := ratings.Unrated(ctx, 0)
	cancel()
	if err != nil {
		if s.ctx.Err() == nil {
			s.repeats.Error("listing the rated games still to rate", "err", err)
		}
		return
	}
	for _, id := range ids {
		if s.ctx.Err() != nil {
			return
		}
		s.rateGame(ratings, id)
	}
}

// rateGame rates finished game id, once: a game rated already (by another
// node, or by a sweep) is left as it is.
func (s *Server) rateGame(ratings store.Ratings, id string) {
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	defer cancel()
	r, err := readGame(ctx, s.store, id)
	if err != nil {
		if s.ctx.Err() == nil {
			s.repeats.Error("reading a rated game to rate it", "game", id, "err", err)
		}
		return
	}
	sides, err := rankSides(r)
	if err != nil {
		s.log.Error("rating a game", "game", id, "err", err)
		return
	}
	var accounts []string
	for _, sd := range sides {
		for _, m := range sd.members {
			if m.account != "" {
				accounts = append(accounts, m.account)
			}
		}
	}
	err = ratings.RateGame(ctx, id, accounts, func(before map[string]store.Rating) ([]store.Played, error) {
		return rateSides(sides, before, r.last.At)
	})
	switch {
	case err == nil:
		s.log.Info("game rated", "game", id, "accounts", len(accounts), "sides", len(sides))
	case errors.Is(err, store.ErrConflict):
		// Rated already, by another node or an earlier try.
	case s.ctx.Err() == nil:
		s.repeats.Error("rating a game", "game", id, "err", err)
	}
}

// side is one side of a game's ranking: a seat, or partners.
type side struct {
	rank    int // its place, 1 the best, equal for a tie
	members []member
}

// member is one seat of a side.
type member struct {
	account string        // the account that held the seat; "" for a bot's
	bot     rating.Rating // a bot's fixed rating
	score   int           // the seat's score at the end
}

// rankSides returns the sides of finished game r with their places: the
// game's ranks, one side a seat (partners one side in team presets), and
// the sides of players who left while still in play ranked last. None if the game ended with
// no result: it changes no rating.
func rankSides(r *replayed) ([]side, error) {
	if r.last == nil || r.last.Kind != KindEnd {
		return nil, fmt.Errorf("game %s has no end", r.info.ID)
	}
	if r.last.End == EndAborted || !r.game.Finished() {
		return nil, nil
	}
	pr := r.game.Preset()
	seats := pr.Seats()
	p := r.game.Position()
	ranks := p.Ranks()
	left := make([]bool, len(seats))  // a person left the seat while in play: ranked last
	taken := make([]bool, len(seats)) // a person held the seat, then a bot
	for _, t := range r.takeovers {
		if t.from == Human {
			i := seatIndex(pr, t.seat)
			taken[i] = true
			// A player who leaves with nothing left to play for (a
			// fallen king) keeps the place the score gives.
			left[i] = left[i] || !t.out
		}
	}
	var sides []side
	var ofSeat []int // each seat's side
	gone := make([]bool, 0, len(seats))
	for i, seat := range seats {
		k := slices.IndexFunc(seats[:i], func(o rules.Seat) bool { return pr.Teammates(o, seat) })
		if k < 0 {
			k = len(sides)
			sides = append(sides, side{rank: ranks[seat]})
			gone = append(gone, false)
		} else {
			k = ofSeat[k]
		}
		ofSeat = append(ofSeat, k)
		m := member{account: r.info.Seats[i].Account, score: p.Score(seat)}
		if m.account == "" || r.info.Seats[i].Player != Human && !taken[i] {
			// A bot's seat from the start (a seat a bot took over stays
			// its account's).
			b, ok := botRating(r.info.Seats[i].Player)
			if !ok {
				return nil, fmt.Errorf("game %s: seat %s: %s has no measured rating", r.info.ID, seat, r.info.Seats[i].Player)
			}
			m = member{bot: b, score: m.score}
		}
		sides[k].members = append(sides[k].members, m)
		gone[k] = gone[k] || left[i]
	}
	last := len(sides) + 1
	for k := range sides {
		if gone[k] {
			sides[k].rank = last
		}
	}
	// Places from the ranks: 1 plus the sides ranked better.
	places := make([]int, len(sides))
	for k := range sides {
		places[k] = 1
		for _, o := range sides {
			if o.rank < sides[k].rank {
				places[k]++
			}
		}
	}
	for k := range sides {
		sides[k].rank = places[k]
	}
	return sides, nil
}

// rateSides computes the points of a game's accounts from their ratings
// before it: newcomers start at the model's New, bots at their fixed
// ratings.
func rateSides(sides []side, before map[string]store.Rating, at time.Time) ([]store.Played, error) {
	teams := make([][]rating.Rating, len(sides))
	ranks := make([]int, len(sides))
	for k, sd := range sides {
		ranks[k] = sd.rank
		for _, m := range sd.members {
			r := m.bot
			if m.account != "" {
				r = ratingModel.New()
				if b, ok := before[m.account]; ok {
					r = rating.Rating{Mu: b.Mu, Sigma: b.Sigma}
				}
			}
			teams[k] = append(teams[k], r)
		}
	}
	if len(teams) == 0 {
		return nil, nil
	}
	after, err := ratingModel.Rate(teams, ranks)
	if err != nil {
		return nil, err
	}
	var points []store.Played
	for k, sd := range sides {
		for j, m := range sd.members {
			if m.account == "" {
				continue
			}
			points = append(points, store.Played{
				Account: m.account, At: at,
				MuBefore: teams[k][j].Mu, SigmaBefore: teams[k][j].Sigma,
				Mu: after[k][j].Mu, Sigma: after[k][j].Sigma,
				Rank: sd.rank, Score: m.score,
			})
		}
	}
	return points, nil
}
