package storetest

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
)

// What the ratings' suite holds a store.Ratings to, beyond its
// documentation:
//
//   - Ratings and points read back as written: Mu and Sigma exact, times
//     as every store keeps them.
//   - A rating that fails (rate's error, a point the store refuses) leaves
//     no trace: the game is still unrated, no rating or point is written.
//   - Of many ratings of one game at once, through one store or two on
//     the same database, exactly one succeeds; of many games with a player
//     in common rated at once, each reads what the one before wrote, so
//     the player's history is one unbroken chain and no update is lost.

// ratingTest is one test of the ratings' suite, given a store with
// ratings (store.RatingsOf).
type ratingTest = suiteTest[store.Store]

// RunRatings runs the ratings' tests. Each test calls open for a new,
// empty store of its own, and closes it when it ends; open also returns
// again, which opens another store on the same database (or returns the
// same store, for a database only one store may hold). The tests run in
// parallel.
func RunRatings(t *testing.T, open Opener) {
	runSuite(t, open, "store.RatingsOf", withRatings, ratingTests)
}

// withRatings returns s if it keeps ratings, else nil.
func withRatings(s store.Store) store.Store {
	if store.RatingsOf(s) == nil {
		return nil
	}
	return s
}

// rulesRated is the ruleset of the suite's rated games.
const rulesRated = "chaturaji+ranks"

// ratedGame stores a finished rated game whose human seats are held by the
// accounts given (up to three), the last seat a bot's, finished at t0
// plus offset.
func ratedGame(t *testing.T, s store.Store, id string, offset time.Duration, accounts ...string) {
	t.Helper()
	g := newGame(id)
	g.Rules, g.Rated = rulesRated, true
	g.Seats = []store.Seat{{Player: "human"}, {Player: "human"}, {Player: "human"}, {Player: "bot:3"}}
	for i, a := range accounts {
		g.Seats[i].Account = a
	}
	g.Created, g.Updated = t0.Add(offset), t0.Add(offset)
	if err := s.CreateGame(t.Context(), g); err != nil {
		t.Fatalf("CreateGame(%s): %v", id, err)
	}
	mustAppend(t, s, id, 0, events(1, 1, offset))
	if err := s.Finish(t.Context(), id, "1-0-0-0"); err != nil {
		t.Fatalf("Finish(%s): %v", id, err)
	}
}

// accounts creates accounts named after their ids.
func accounts(t *testing.T, s store.Store, ids ...string) {
	t.Helper()
	for _, id := range ids {
		mustAccount(t, store.AccountsOf(s), id, "name of "+id)
	}
}

// step rates every account one point up from its rating before (from 25,
// 8 for a newcomer), rank i+1 and score 10·(i+1) for the i-th, at the
// time given; it records what it was given.
type step struct {
	at     time.Time
	called int
	given  map[string]store.Rating
}

func (st *step) rate(accounts []string) func(map[string]store.Rating) ([]store.Played, error) {
	return func(before map[string]store.Rating) ([]store.Played, error) {
		st.called++
		st.given = before
		var ps []store.Played
		for i, a := range accounts {
			p := store.Played{Account: a, At: st.at, MuBefore: 25, SigmaBefore: 8, Rank: i + 1, Score: 10 * (i + 1)}
			if r, ok := before[a]; ok {
				p.MuBefore, p.SigmaBefore = r.Mu, r.Sigma
			}
			p.Mu, p.Sigma = p.MuBefore+1, p.SigmaBefore*0.9
			ps = append(ps, p)
		}
		return ps, nil
	}
}

var ratingTests = []ratingTest{
	{"a game is rated once", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		accounts(t, s, "ann", "bo")
		ratedGame(t, s, "g1", 0, "ann", "bo")
		if got, err := s.Game(t.Context(), "g1"); err != nil || !got.Rated {
			t.Fatalf("Game(g1) = Rated %v, %v; want a rated game", got != nil && got.Rated, err)
		}
		if ids, err := r.Unrated(t.Context(), 0); err != nil || !reflect.DeepEqual(ids, []string{"g1"}) {
			t.Fatalf("Unrated = %v, %v; want [g1]", ids, err)
		}
		st := &step{at: t0.Add(time.Hour)}
		if err := r.RateGame(t.Context(), "g1", []string{"ann", "bo"}, st.rate([]string{"ann", "bo"})); err != nil {
			t.Fatalf("RateGame(g1): %v", err)
		}
		if len(st.given) != 0 {
			t.Errorf("rate was given %v for newcomers; want nothing", st.given)
		}
		again := &step{at: t0.Add(2 * time.Hour)}
		err := r.RateGame(t.Context(), "g1", []string{"ann", "bo"}, again.rate([]string{"ann", "bo"}))
		if !errors.Is(err, store.ErrConflict) || again.called != 0 {
			t.Fatalf("RateGame(g1) again = %v, rate called %d times; want ErrConflict, not called", err, again.called)
		}
		if ids, err := r.Unrated(t.Context(), 0); err != nil || len(ids) != 0 {
			t.Errorf("Unrated = %v, %v; want none", ids, err)
		}
		got, err := r.AccountRatings(t.Context(), "bo")
		want := []store.Rating{{Account: "bo", Rules: rulesRated, Mu: 26, Sigma: 8 * 0.9, Games: 1, Firsts: 0, Score: 20, Played: kept(st.at)}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("AccountRatings(bo) = %+v, %v; want %+v", got, err, want)
		}
		h, err := r.RatingHistory(t.Context(), "ann", rulesRated, 0)
		wantH := []store.Played{{Account: "ann", Game: "g1", Rules: rulesRated, At: kept(st.at), MuBefore: 25, SigmaBefore: 8, Mu: 26, Sigma: 8 * 0.9, Rank: 1, Score: 10}}
		if err != nil || !reflect.DeepEqual(h, wantH) {
			t.Errorf("RatingHistory(ann) = %+v, %v; want %+v", h, err, wantH)
		}
	}},

	{"ratings add up game after game", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		accounts(t, s, "ann", "bo")
		for i := range 3 {
			id := fmt.Sprintf("g%d", i)
			ratedGame(t, s, id, time.Duration(i)*time.Minute, "ann", "bo")
			order := []string{"ann", "bo"}
			if i == 1 {
				order = []string{"bo", "ann"}
			}
			st := &step{at: t0.Add(time.Duration(i) * time.Hour)}
			if err := r.RateGame(t.Context(), id, order, st.rate(order)); err != nil {
				t.Fatalf("RateGame(%s): %v", id, err)
			}
			if i > 0 && st.given["ann"].Games != i {
				t.Errorf("game %d: rate was given ann's rating after %d games; want %d", i, st.given["ann"].Games, i)
			}
		}
		got, err := r.AccountRatings(t.Context(), "ann")
		// First, second, first: two firsts, 10+20+10.
		want := []store.Rating{{Account: "ann", Rules: rulesRated, Mu: 28, Sigma: 8 * 0.9 * 0.9 * 0.9, Games: 3, Firsts: 2, Score: 40, Played: kept(t0.Add(2 * time.Hour))}}
		if err != nil || len(got) != 1 || got[0].Games != 3 || got[0].Firsts != 2 || got[0].Score != 40 ||
			math.Abs(got[0].Mu-28) > 1e-12 || math.Abs(got[0].Sigma-want[0].Sigma) > 1e-12 || !got[0].Played.Equal(want[0].Played) {
			t.Errorf("AccountRatings(ann) = %+v, %v; want %+v", got, err, want)
		}
		h, err := r.RatingHistory(t.Context(), "ann", rulesRated, 2)
		if err != nil || len(h) != 2 || h[0].Game != "g1" || h[1].Game != "g2" {
			t.Errorf("RatingHistory(ann, limit 2) = %+v, %v; want the points of g1 and g2, oldest first", h, err)
		}
		if h, err := r.RatingHistory(t.Context(), "ann", "chaturaji", 0); err != nil || len(h) != 0 {
			t.Errorf("RatingHistory(ann) in another ruleset = %+v, %v; want none", h, err)
		}
	}},

	{"a rating that fails changes nothing", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		accounts(t, s, "ann", "bo")
		ratedGame(t, s, "g1", 0, "ann", "bo")
		both := []string{"ann", "bo"}
		good := store.Played{Account: "ann", MuBefore: 25, SigmaBefore: 8, Mu: 26, Sigma: 7, Rank: 1}
		with := func(f func(p *store.Played)) []store.Played {
			p := good
			f(&p)
			return []store.Played{good, p}
		}
		boom := errors.New("the arithmetic failed")
		for _, tc := range []struct {
			name   string
			points []store.Played
			err    error
		}{
			{"rate fails", nil, boom},
			{"an account not named", with(func(p *store.Played) { p.Account = "cy" }), nil},
			{"an account twice", with(func(p *store.Played) {}), nil},
			{"Mu not a number", with(func(p *store.Played) { p.Account, p.Mu = "bo", math.NaN() }), nil},
			{"Sigma zero", with(func(p *store.Played) { p.Account, p.Sigma = "bo", 0 }), nil},
			{"Sigma before infinite", with(func(p *store.Played) { p.Account, p.SigmaBefore = "bo", math.Inf(1) }), nil},
			{"rank 0", with(func(p *store.Played) { p.Account, p.Rank = "bo", 0 }), nil},
			{"another game's point", with(func(p *store.Played) { p.Account, p.Game = "bo", "g2" }), nil},
		} {
			err := r.RateGame(t.Context(), "g1", both, func(map[string]store.Rating) ([]store.Played, error) { return tc.points, tc.err })
			if err == nil || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("%s: RateGame = %v; want an error", tc.name, err)
			}
		}
		if ids, err := r.Unrated(t.Context(), 0); err != nil || !reflect.DeepEqual(ids, []string{"g1"}) {
			t.Errorf("Unrated = %v, %v; want [g1], still to rate", ids, err)
		}
		for _, a := range both {
			if rs, err := r.AccountRatings(t.Context(), a); err != nil || len(rs) != 0 {
				t.Errorf("AccountRatings(%s) = %+v, %v; want none", a, rs, err)
			}
		}
		st := &step{}
		if err := r.RateGame(t.Context(), "g1", both, st.rate(both)); err != nil {
			t.Errorf("RateGame after the failures: %v", err)
		}
	}},

	{"games that are not to rate", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		accounts(t, s, "ann")
		mustCreate(t, s, "casual")
		mustAppend(t, s, "casual", 0, events(1, 1, 0))
		if err := s.Finish(t.Context(), "casual", "1-0"); err != nil {
			t.Fatal(err)
		}
		live := newGame("live")
		live.Rated = true
		if err := s.CreateGame(t.Context(), live); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			id   string
			want error
		}{
			{"nosuchgame", store.ErrNotFound},
			{"casual", store.ErrConflict},
			{"live", store.ErrConflict},
		} {
			st := &step{}
			err := r.RateGame(t.Context(), tc.id, []string{"ann"}, st.rate([]string{"ann"}))
			if !errors.Is(err, tc.want) || st.called != 0 {
				t.Errorf("RateGame(%s) = %v, rate called %d times; want %v, not called", tc.id, err, st.called, tc.want)
			}
		}
		for _, accs := range [][]string{{""}, {"ann", "ann"}} {
			if err := r.RateGame(t.Context(), "live", accs, (&step{}).rate(nil)); err == nil {
				t.Errorf("RateGame with accounts %q: no error", accs)
			}
		}
		if ids, err := r.Unrated(t.Context(), 0); err != nil || len(ids) != 0 {
			t.Errorf("Unrated = %v, %v; want none (a live game is not yet to rate)", ids, err)
		}
		// A game with no points (aborted) is marked rated all the same.
		ratedGame(t, s, "aborted", 0, "ann")
		if err := r.RateGame(t.Context(), "aborted", []string{"ann"}, func(map[string]store.Rating) ([]store.Played, error) { return nil, nil }); err != nil {
			t.Fatalf("RateGame(aborted) with no points: %v", err)
		}
		if ids, err := r.Unrated(t.Context(), 0); err != nil || len(ids) != 0 {
			t.Errorf("Unrated after the aborted game = %v, %v; want none", ids, err)
		}
		if rs, err := r.AccountRatings(t.Context(), "ann"); err != nil || len(rs) != 0 {
			t.Errorf("AccountRatings(ann) = %+v, %v; want none", rs, err)
		}
	}},

	{"unrated games oldest first", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		accounts(t, s, "ann")
		for i, id := range []string{"a", "b", "c"} {
			ratedGame(t, s, id, time.Duration(i)*time.Minute, "ann")
		}
		// Finish moves Updated on to now, in the order finished.
		if ids, err := r.Unrated(t.Context(), 2); err != nil || !reflect.DeepEqual(ids, []string{"a", "b"}) {
			t.Errorf("Unrated(2) = %v, %v; want [a b]", ids, err)
		}
	}},

	{"recent games rated or not", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		accounts(t, s, "ann", "bo")
		ratedGame(t, s, "rated", 0, "bo", "ann")
		st := &step{at: t0}
		if err := r.RateGame(t.Context(), "rated", []string{"bo", "ann"}, st.rate([]string{"bo", "ann"})); err != nil {
			t.Fatal(err)
		}
		casual := newGame("casual") // its first seat is "account of Asha"
		casual.Seats[2].Account = "ann"
		if err := s.CreateGame(t.Context(), casual); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, s, "casual", 0, events(1, 1, time.Since(t0)+time.Hour)) // updated after the rated game finished
		mustCreate(t, s, "other")
		got, err := r.RecentGames(t.Context(), "ann", 0)
		if err != nil || len(got) != 2 {
			t.Fatalf("RecentGames(ann) = %+v, %v; want 2 games", got, err)
		}
		c, g := got[0], got[1]
		if c.Game != "casual" || c.Seat != 2 || c.Status != store.Live || c.Rated || c.Point != nil || c.Rules != casual.Rules {
			t.Errorf("RecentGames(ann)[0] = %+v; want the live casual game, seat 2, no point", c)
		}
		if g.Game != "rated" || g.Seat != 1 || g.Status != store.Finished || g.Result != "1-0-0-0" || !g.Rated || g.Point == nil ||
			g.Point.Rank != 2 || g.Point.Score != 20 || g.Point.Mu != 26 || g.Rules != rulesRated {
			t.Errorf("RecentGames(ann)[1] = %+v (point %+v); want the rated game, seat 1, rank 2, score 20, Mu 26", g, g.Point)
		}
		if got, err := r.RecentGames(t.Context(), "ann", 1); err != nil || len(got) != 1 || got[0].Game != "casual" {
			t.Errorf("RecentGames(ann, 1) = %+v, %v; want the casual game alone", got, err)
		}
		if got, err := r.RecentGames(t.Context(), "nobody", 0); err != nil || len(got) != 0 {
			t.Errorf("RecentGames(nobody) = %+v, %v; want none", got, err)
		}
	}},

	{"leaderboard", func(t *testing.T, s store.Store, _ func() store.Store) {
		r := store.RatingsOf(s)
		// name: games played, Mu, last played (hours after t0).
		players := []struct {
			id    string
			games int
			mu    float64
			hours int
		}{
			{"ann", 3, 30, 10}, {"bo", 3, 35, 10}, {"cy", 1, 40, 10}, {"di", 3, 32, 1}, {"ed", 3, 30, 10}, {"gone", 3, 50, 10},
		}
		for _, p := range players {
			accounts(t, s, p.id)
			for i := range p.games {
				id := fmt.Sprintf("%s%d", p.id, i)
				ratedGame(t, s, id, 0, p.id)
				at := t0.Add(time.Duration(p.hours-p.games+1+i) * time.Hour)
				err := r.RateGame(t.Context(), id, []string{p.id}, func(map[string]store.Rating) ([]store.Played, error) {
					return []store.Played{{Account: p.id, At: at, MuBefore: 25, SigmaBefore: 8, Mu: p.mu, Sigma: 2, Rank: 1}}, nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := store.AccountsOf(s).DeleteAccount(t.Context(), "gone", t0.Add(11*time.Hour)); err != nil {
			t.Fatal(err)
		}
		q := store.LeaderQuery{Rules: rulesRated, MinGames: 2, Since: t0.Add(5 * time.Hour)}
		got, err := r.Leaderboard(t.Context(), q)
		var names []string
		for _, l := range got {
			names = append(names, l.Name)
		}
		// cy has too few games, di played too long ago, gone is deleted;
		// ann and ed tie on Mu and go by account id.
		want := []string{"name of bo", "name of ann", "name of ed"}
		if err != nil || !reflect.DeepEqual(names, want) {
			t.Fatalf("Leaderboard(%+v) = %v, %v; want %v", q, names, err, want)
		}
		if got[0].Account != "bo" || got[0].Games != 3 || got[0].Mu != 35 || !got[0].Played.Equal(kept(t0.Add(10*time.Hour))) {
			t.Errorf("Leaderboard's first = %+v; want bo's rating, 3 games, Mu 35, played at t0+10h", got[0])
		}
		q.Offset, q.Limit = 1, 1
		if got, err := r.Leaderboard(t.Context(), q); err != nil || len(got) != 1 || got[0].Account != "ann" {
			t.Errorf("Leaderboard(%+v) = %+v, %v; want ann alone", q, got, err)
		}
		for _, bad := range []store.LeaderQuery{{}, {Rules: rulesRated, Offset: -1}, {Rules: rulesRated, MinGames: -1}} {
			if _, err := r.Leaderboard(t.Context(), bad); err == nil {
				t.Errorf("Leaderboard(%+v): no error", bad)
			}
		}
	}},

	{"ratings at once", func(t *testing.T, s store.Store, again func() store.Store) {
		// Several stores on one database, each rating every game at
		// once: each game is rated by exactly one of them, and the
		// player they all have in common was rated game after game.
		stores := []store.Store{s, again(), again()}
		accounts(t, s, "ann", "bo", "cy")
		const games = 8
		for i := range games {
			ratedGame(t, s, fmt.Sprintf("g%d", i), 0, "ann", []string{"bo", "cy"}[i%2])
		}
		var mu sync.Mutex
		rated := map[string]int{}
		var wg sync.WaitGroup
		for i := range games {
			for _, st := range stores {
				wg.Go(func() {
					id := fmt.Sprintf("g%d", i)
					accs := []string{"ann", []string{"bo", "cy"}[i%2]}
					err := store.RatingsOf(st).RateGame(t.Context(), id, accs, (&step{at: t0}).rate(accs))
					switch {
					case err == nil:
						mu.Lock()
						rated[id]++
						mu.Unlock()
					case !errors.Is(err, store.ErrConflict):
						t.Errorf("RateGame(%s): %v", id, err)
					}
				})
			}
		}
		wg.Wait()
		for i := range games {
			if id := fmt.Sprintf("g%d", i); rated[id] != 1 {
				t.Errorf("game %s was rated %d times; want once", id, rated[id])
			}
		}
		r := store.RatingsOf(s)
		h, err := r.RatingHistory(t.Context(), "ann", rulesRated, 0)
		if err != nil || len(h) != games {
			t.Fatalf("RatingHistory(ann) = %d points, %v; want %d", len(h), err, games)
		}
		// Every game added 1 to the Mu the one before left: the Mus
		// before are 25 to 32, each once, and the last is 33.
		seen := map[float64]bool{}
		for _, p := range h {
			if p.Mu != p.MuBefore+1 || seen[p.MuBefore] {
				t.Errorf("point of %s: Mu %v after %v; another game read the same rating, or it is not one more", p.Game, p.Mu, p.MuBefore)
			}
			seen[p.MuBefore] = true
		}
		rs, err := r.AccountRatings(t.Context(), "ann")
		if err != nil || len(rs) != 1 || rs[0].Games != games || rs[0].Mu != 25+games {
			t.Errorf("AccountRatings(ann) = %+v, %v; want %d games and Mu %d", rs, err, games, 25+games)
		}
	}},
}
