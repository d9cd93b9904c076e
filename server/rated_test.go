package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/account"
	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

// ratedConfig is testConfig with leaderboards of one game.
func ratedConfig() server.Config {
	cfg := testConfig()
	cfg.LeaderGames = 1
	return cfg
}

// mustAccount creates an account named name in st, returning its id.
func mustAccount(t *testing.T, st store.Store, name string) string {
	t.Helper()
	n, err := account.ParseName(name)
	if err != nil {
		t.Fatal(err)
	}
	id := "id-of-" + name
	acc := &store.Account{ID: id, Name: n.Display, Folded: n.Folded, Created: time.Now()}
	if err := store.AccountsOf(st).CreateAccount(context.Background(), acc, nil); err != nil {
		t.Fatal(err)
	}
	return id
}

// ratedGame makes a rated game through the server's own create path, the
// creator holding every human seat, and returns it.
func ratedGame(t *testing.T, ts *testServer, rules string, seats, accounts []string) *server.Created {
	t.Helper()
	var hosts []string
	for i, s := range seats {
		if s == server.Human {
			hosts = append(hosts, []string{"South", "West", "North", "East"}[i])
		}
	}
	g, err := ts.srv.CreateGame(context.Background(), &server.NewGame{
		Rules: rules, Seats: seats, HostSeats: hosts, Accounts: accounts, Rated: true, AutoPass: new(bool),
	})
	if err != nil {
		t.Fatalf("creating a rated game of %v held by %v: %v", seats, accounts, err)
	}
	return g
}

// playHumans plays every human seat of g with random legal actions over
// WebSockets until the game is over, and returns its final state.
func playHumans(t *testing.T, ts *testServer, g *server.Created, seed uint64) *server.State {
	t.Helper()
	var wg sync.WaitGroup
	for i, s := range g.Seats {
		if s.Token == "" {
			continue
		}
		c := ts.dial(g.ID, s.Token, 0)
		wg.Go(func() {
			if err := c.playUntilOver(rand.New(rand.NewPCG(seed, uint64(i)))); err != nil {
				t.Errorf("seat %s: %v", s.Seat, err)
			}
		})
	}
	wg.Wait()
	return ts.waitState(g.ID, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
}

// waitRated waits until the store has rated game id.
func waitRated(t *testing.T, st store.Store, id string) {
	t.Helper()
	r := store.RatingsOf(st)
	end := time.Now().Add(30 * time.Second)
	for {
		ids, err := r.Unrated(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(ids, id) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("game %s not rated in 30 s", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// expected computes, apart from the server, the ratings a game's accounts
// should have after it: the sides are the seats (partners together when
// teams), ranked by their scores (the sum of the partners'), ties as
// ties, a side with a player who left last; bots at rating.Bots; accounts
// at before, or a newcomer's rating.
func expected(t *testing.T, players, accounts []string, scores []int, teams bool, left []bool, before map[string]rating.Rating) map[string]rating.Rating {
	t.Helper()
	accounts = append(slices.Clone(accounts), make([]string, len(players)-len(accounts))...)
	type sideOf struct {
		seats []int
		score int
		gone  bool
	}
	var sides []sideOf
	if teams {
		sides = []sideOf{{seats: []int{0, 2}}, {seats: []int{1, 3}}}
	} else {
		for i := range players {
			sides = append(sides, sideOf{seats: []int{i}})
		}
	}
	m := rating.Default()
	in := make([][]rating.Rating, len(sides))
	for k := range sides {
		for _, i := range sides[k].seats {
			sides[k].score += scores[i]
			sides[k].gone = sides[k].gone || left != nil && left[i]
			r, ok := before[accounts[i]]
			switch {
			case accounts[i] == "":
				r, ok = rating.Bot(strings.TrimPrefix(players[i], "bot:"))
				if !ok {
					t.Fatalf("bot %s has no rating", players[i])
				}
			case !ok:
				r = m.New()
			}
			in[k] = append(in[k], r)
		}
	}
	ranks := make([]int, len(sides))
	for k, s := range sides {
		ranks[k] = 1
		for _, o := range sides {
			if o.score > s.score && !s.gone && !o.gone || s.gone && !o.gone {
				ranks[k]++
			}
		}
		if s.gone {
			ranks[k] = len(sides) + 1
		}
	}
	out, err := m.Rate(in, ranks)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]rating.Rating{}
	for k, s := range sides {
		for j, i := range s.seats {
			if accounts[i] != "" {
				want[accounts[i]] = out[k][j]
			}
		}
	}
	return want
}

// checkRatings checks that the store holds exactly want for rules, each
// account's rating after games rated games.
func checkRatings(t *testing.T, st store.Store, rules string, want map[string]rating.Rating, games int) {
	t.Helper()
	for id, w := range want {
		rs, err := store.RatingsOf(st).AccountRatings(context.Background(), id)
		if err != nil || len(rs) != 1 {
			t.Fatalf("ratings of %s: %+v, %v; want one", id, rs, err)
		}
		r := rs[0]
		if r.Rules != rules || r.Games != games || math.Abs(r.Mu-w.Mu) > 1e-9 || math.Abs(r.Sigma-w.Sigma) > 1e-9 {
			t.Errorf("rating of %s: %s, %d games, Mu %.9f Sigma %.9f; want %s, %d games, Mu %.9f Sigma %.9f",
				id, r.Rules, r.Games, r.Mu, r.Sigma, rules, games, w.Mu, w.Sigma)
		}
	}
}

// TestRatedGame plays rated games to the end over WebSockets, two people
// and two bots, and checks that each moved its players' ratings exactly
// as package rating computes them from the final scores, the second from
// the first's ratings; that the profiles show the games and ratings, and
// the leaderboard lists the players, best first.
func TestRatedGame(t *testing.T) {
	st := openStore(t, "")
	ts := newTestServer(t, ratedConfig(), st)
	ann, bo := mustAccount(t, st, "Ann"), mustAccount(t, st, "Bo_2")
	players := []string{"human", "bot:1", "human", "bot:greedy"}
	accounts := []string{ann, "", bo, ""}
	before := map[string]rating.Rating{}
	var lastGame string
	for round := range 2 {
		g := ratedGame(t, ts, "chaturaji", players, accounts)
		end := playHumans(t, ts, g, uint64(round))
		waitRated(t, st, g.ID)
		want := expected(t, players, accounts, end.Scores, false, nil, before)
		checkRatings(t, st, "chaturaji", want, round+1)
		before, lastGame = want, g.ID
	}

	status, body := ts.request("GET", "/api/players/ann", "", "") // another case
	if status != http.StatusOK {
		t.Fatalf("GET /api/players/ann: %d %s", status, body)
	}
	var p server.Profile
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	m := rating.Default()
	shown := m.Show(before[ann])
	if p.Name != "Ann" || len(p.Ratings) != 1 || p.Ratings[0].Rules != "chaturaji" || p.Ratings[0].Rating != shown.Number ||
		p.Ratings[0].Deviation != shown.Deviation || p.Ratings[0].Provisional != shown.Provisional || p.Ratings[0].Games != 2 ||
		len(p.Ratings[0].History) != 2 {
		t.Fatalf("profile of Ann: %s; want her rating in chaturaji, %v, after 2 games, with 2 points of history", body, shown)
	}
	if h := p.Ratings[0].History[1]; h.Game != lastGame || h.Rating != shown.Number {
		t.Errorf("Ann's last point %+v: want game %s at %d", h, lastGame, shown.Number)
	}
	if len(p.Games) != 2 || p.Games[0].ID != lastGame || !p.Games[0].Rated || p.Games[0].Seat != "South" ||
		p.Games[0].Rank < 1 || p.Games[0].Score == nil || p.Games[0].Change == nil {
		t.Errorf("Ann's recent games %s: want the two rated games, the last first, at South with rank, score and change", body)
	}

	status, body = ts.request("GET", "/api/leaderboard?rules=chaturaji", "", "")
	if status != http.StatusOK {
		t.Fatalf("GET /api/leaderboard: %d %s", status, body)
	}
	var lb server.Leaderboard
	if err := json.Unmarshal(body, &lb); err != nil {
		t.Fatal(err)
	}
	names := []string{"Ann", "Bo_2"}
	if before[bo].Mu > before[ann].Mu {
		names = []string{"Bo_2", "Ann"}
	}
	if len(lb.Players) != 2 || lb.Players[0].Name != names[0] || lb.Players[1].Name != names[1] || lb.Players[0].Place != 1 || lb.Players[0].Games != 2 {
		t.Errorf("leaderboard %s: want %v, best first, 2 games each", body, names)
	}
}

// TestRatedCheck checks that a rated game is refused, saying why, unless
// every human seat is held by an account, one seat each, and every bot is
// one of a measured rating; POST /api/games, which holds seats for no
// account, cannot make one.
func TestRatedCheck(t *testing.T) {
	st := openStore(t, "")
	ts := newTestServer(t, ratedConfig(), st)
	for _, tc := range []struct {
		name     string
		seats    []string
		accounts []string
		want     string
	}{
		{"a human seat without an account", []string{"human", "human", "bot:1", "bot:2"}, []string{"a", ""}, "seat 2 (West): a rated game needs every human seat held by a signed-in account"},
		{"one account at two seats", []string{"human", "bot:1", "human", "bot:2"}, []string{"a", "", "a"}, "seats 1 and 3: one account holds both"},
		{"a bot of no measured rating", []string{"human", "bot:8", "bot:1", "bot:2"}, []string{"a"}, "seat 2 (West): bot:8 has no measured rating"},
		{"the strong bot", []string{"human", "bot:1", "bot:strong", "bot:2"}, []string{"a"}, "seat 3 (North): bot:strong has no measured rating"},
		{"bots alone", []string{"bot:1", "bot:1", "bot:2", "bot:2"}, nil, "a rated game needs at least one seat held by a signed-in account"},
	} {
		_, err := ts.srv.CreateGame(context.Background(), &server.NewGame{Seats: tc.seats, Accounts: tc.accounts, Rated: true})
		if server.ErrorCode(err) != server.EINVALID || !strings.Contains(server.ErrorMessage(err), tc.want) {
			t.Errorf("%s: %v; want EINVALID saying %q", tc.name, err, tc.want)
		}
	}
	if games, err := st.Games(context.Background(), store.Filter{}); err != nil || len(games) != 0 {
		t.Errorf("games stored: %d, %v; want none", len(games), err)
	}
	status, body := ts.request("POST", "/api/games", "", `{"seats": ["human", "bot:1", "bot:2", "bot:3"], "rated": true}`)
	wantError(t, status, body, http.StatusBadRequest, server.EINVALID)
	if !strings.Contains(string(body), "signed-in account") {
		t.Errorf("POST /api/games rated: %s; want it refused for want of an account", body)
	}
	// Unrated, the same seats are a game.
	if _, err := ts.srv.CreateGame(context.Background(), &server.NewGame{Seats: []string{"human", "bot:8", "bot:1", "bot:2"}}); err != nil {
		t.Errorf("an unrated game: %v", err)
	}
}

// noRatings is a store that keeps no ratings: a server on it rates
// nothing, as a node that stops between a game's end and its rating.
type noRatings struct{ store.Store }

// TestRatedAfterRestart ends a rated game on a server that cannot rate
// it, as if its node stopped between the end and the rating, and checks
// that the next server on the database rates it when it starts, exactly
// once: a second game rated later, after many sweeps, finds the first
// game's rating and its one point of history as they were.
func TestRatedAfterRestart(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { ratedAfterRestart(t, sqliteDatabase(t)) })
	t.Run("postgres", func(t *testing.T) { ratedAfterRestart(t, postgresDatabase(t)) })
}

func ratedAfterRestart(t *testing.T, db database) {
	open := func() store.Store {
		st, err := store.Open(context.Background(), db.dsn)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	cfg := ratedConfig()
	first := open()
	ann := mustAccount(t, first, "Ann")
	players, accounts := []string{"bot:2", "human", "bot:1", "bot:random"}, []string{"", ann}
	ts := newTestServer(t, cfg, noRatings{first})
	g := ratedGame(t, ts, "chaturaji", players, accounts)
	end := playHumans(t, ts, g, 7)
	ts.stop()

	st := open()
	if ids, err := store.RatingsOf(st).Unrated(context.Background(), 0); err != nil || !slices.Equal(ids, []string{g.ID}) {
		t.Fatalf("rated games still to rate after the first server: %v, %v; want %s", ids, err, g.ID)
	}
	cfg.RateSweep = 10 * time.Millisecond
	ts = newTestServer(t, cfg, st)
	waitRated(t, st, g.ID)
	want := expected(t, players, accounts, end.Scores, false, nil, nil)
	checkRatings(t, st, "chaturaji", want, 1)

	g2 := ratedGame(t, ts, "chaturaji", players, accounts)
	end2 := playHumans(t, ts, g2, 8)
	waitRated(t, st, g2.ID)
	checkRatings(t, st, "chaturaji", expected(t, players, accounts, end2.Scores, false, nil, want), 2)
	h, err := store.RatingsOf(st).RatingHistory(context.Background(), ann, "chaturaji", 0)
	if err != nil || len(h) != 2 || h[0].Game != g.ID || h[1].Game != g2.ID || h[1].MuBefore != h[0].Mu {
		t.Errorf("Ann's history: %+v, %v; want one point of each game, the second from the first", h, err)
	}
}

// TestRatedLeaver checks that a player who resigns a rated game, whose
// seat a bot then plays to the end, is ranked last whatever the seat
// scores, below the bots, which are ranked by their scores.
func TestRatedLeaver(t *testing.T) {
	st := openStore(t, "")
	ts := newTestServer(t, ratedConfig(), st)
	ann := mustAccount(t, st, "Ann")
	players, accounts := []string{"human", "bot:1", "bot:2", "bot:3"}, []string{ann}
	g := ratedGame(t, ts, "chaturaji", players, accounts)
	c := ts.dial(g.ID, g.Seats[0].Token, 0)
	c.send(server.Message{Kind: server.KindResign})
	c.until(func(e server.Event) bool { return e.Kind == server.KindSeat && e.Seat == "South" })
	end := ts.waitState(g.ID, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	waitRated(t, st, g.ID)
	checkRatings(t, st, "chaturaji", expected(t, players, accounts, end.Scores, false, []bool{true, false, false, false}, nil), 1)
	h, err := store.RatingsOf(st).RatingHistory(context.Background(), ann, "chaturaji", 0)
	if err != nil || len(h) != 1 || h[0].Rank != 4 || h[0].Mu >= h[0].MuBefore {
		t.Errorf("Ann's history %+v, %v: want one point, ranked 4th, her Mu down", h, err)
	}
}

// TestRatedAbort checks that a rated game aborted in its first round is
// marked rated with no rating changed, and shows as rated with no result
// on the profile.
func TestRatedAbort(t *testing.T) {
	st := openStore(t, "")
	ts := newTestServer(t, ratedConfig(), st)
	ann, bo := mustAccount(t, st, "Ann"), mustAccount(t, st, "Bob")
	g := ratedGame(t, ts, "chaturaji", []string{"human", "human", "bot:1", "bot:2"}, []string{ann, bo})
	c := ts.dial(g.ID, g.Seats[1].Token, 0)
	c.send(server.Message{Kind: server.KindAbort})
	c.until(func(e server.Event) bool { return e.Kind == server.KindEnd })
	ts.waitState(g.ID, 10*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	waitRated(t, st, g.ID)
	for _, id := range []string{ann, bo} {
		if rs, err := store.RatingsOf(st).AccountRatings(context.Background(), id); err != nil || len(rs) != 0 {
			t.Errorf("ratings of %s after an aborted game: %+v, %v; want none", id, rs, err)
		}
	}
	var p server.Profile
	status, body := ts.request("GET", "/api/players/bob", "", "")
	if err := json.Unmarshal(body, &p); status != http.StatusOK || err != nil || len(p.Games) != 1 || p.Games[0].Rank != 0 || p.Games[0].Change != nil || !p.Games[0].Rated || p.Games[0].Seat != "West" {
		t.Errorf("profile of Bob: %d %s; want the aborted game, rated, at West, with no rank or change", status, body)
	}
}

// TestRatedTeams plays a rated game of chaturaji-teams, partners Ann and
// Bo against two bots, and checks that the ratings moved as package rating
// computes them for two teams ranked by their points.
func TestRatedTeams(t *testing.T) {
	st := openStore(t, "")
	ts := newTestServer(t, ratedConfig(), st)
	ann, bo := mustAccount(t, st, "Ann"), mustAccount(t, st, "Bob")
	players, accounts := []string{"human", "bot:1", "human", "bot:4"}, []string{ann, "", bo}
	g := ratedGame(t, ts, "chaturaji-teams", players, accounts)
	end := playHumans(t, ts, g, 3)
	waitRated(t, st, g.ID)
	checkRatings(t, st, "chaturaji-teams", expected(t, players, accounts, end.Scores, true, nil, nil), 1)
}

// TestRatedLeaverOutOfPlay checks that a player who leaves a rated game
// once out of it (South's lone king retired, with 60 points) is ranked by
// the score, not last: there was nothing left to play for.
func TestRatedLeaverOutOfPlay(t *testing.T) {
	const (
		// South has its king alone and 60 points, more than a bot can reach
		// (the raise is 54); West is to roll.
		start = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/6rPrH/3bK2rPrB y - 60,0,0,0 0"
		token = "the-token-of-south-in-this-test"
	)
	st := openStore(t, "")
	ann := mustAccount(t, st, "Ann")
	seed := rules.NewSeed()
	hash := sha256.Sum256([]byte(token))
	now := time.Now().UTC().Truncate(time.Millisecond)
	players := []string{"human", "bot:greedy", "bot:greedy", "bot:greedy"}
	err := st.CreateGame(context.Background(), &store.Game{
		ID: "annleavesout", Rules: "chaturaji", Seed: seed[:], SeedHash: seed.Commitment(), Start: start,
		Seats:    []store.Seat{{Player: server.Human, Name: "Ann", Account: ann, TokenHash: hash[:]}, {Player: "bot:greedy"}, {Player: "bot:greedy"}, {Player: "bot:greedy"}},
		Settings: []byte(`{"turn_ms": 0, "on_timeout": "pass", "help": true, "abandon_ms": 3600000, "takeover": "greedy", "auto_pass": true, "bot_delay_ms": 0, "rated": true, "hosts": [0]}`),
		Status:   store.Live, Created: now, Updated: now, Rated: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, ratedConfig(), st)
	south := ts.dial("annleavesout", token, 0)
	turn := south.until(func(e server.Event) bool { return e.ToAct == "South" && slices.Contains(e.Actions, "retire") })
	south.send(server.Message{Kind: "action", Action: "retire", Seq: turn.Seq})
	south.until(func(e server.Event) bool {
		return e.Kind == server.KindAction && e.Seat == "South" && slices.Contains(e.OutOfPlay, "South")
	})
	south.send(server.Message{Kind: server.KindLeave})
	south.until(func(e server.Event) bool {
		return e.Kind == server.KindSeat && e.Seat == "South" && e.Reason == server.ReasonLeft
	})
	end := ts.waitState("annleavesout", 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	waitRated(t, st, "annleavesout")
	checkRatings(t, st, "chaturaji", expected(t, players, []string{ann}, end.Scores, false, nil, nil), 1)
	h, err := store.RatingsOf(st).RatingHistory(context.Background(), ann, "chaturaji", 0)
	if err != nil || len(h) != 1 || h[0].Rank != end.Ranks[0] {
		t.Errorf("Ann's history %+v, %v: want one point, at the game's rank for South, %d (scores %v)", h, err, end.Ranks[0], end.Scores)
	}
	t.Logf("South left with 60 points; the game ended %v, South ranked %d", end.Scores, end.Ranks[0])
}
