package rating_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rating"
)

// near reports whether a and b agree to within tol.
func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// rate rates one game with the default model and fails the test on an
// error.
func rate(t *testing.T, teams [][]rating.Rating, ranks []int) [][]rating.Rating {
	t.Helper()
	out, err := rating.Default().Rate(teams, ranks)
	if err != nil {
		t.Fatalf("Rate(%v, %v): %v", teams, ranks, err)
	}
	return out
}

// solo returns a free-for-all's teams: one player each.
func solo(rs ...rating.Rating) [][]rating.Rating {
	teams := make([][]rating.Rating, len(rs))
	for i, r := range rs {
		teams[i] = []rating.Rating{r}
	}
	return teams
}

// TestTwoNewcomersByHand works Algorithm 4 of Weng and Lin (2011) through
// by hand for two newcomers, one beating the other, with the defaults.
//
// Each Sigma² after the dynamics is (25/3)² + (25/300)² = 625·10001/90000;
// c² = Σ(σ² + β²) = 2·625·10001/90000 + 2·(25/6)² = 173.625 exactly.
// The Mus are equal, so the winner takes first place with p = 1/2.
// Winner: q ranges over itself only: Ω = σ²/c·(1 - 1/2), Δ = γ·σ²/c²·(1/2)(1/2)
// with γ = σ/c. Loser: q = the winner gives Ω = -σ²/c·1/2 and the same Δ;
// q = itself, last, has p = 1 and adds nothing. Both Sigmas become
// σ·√(1 - Δ).
func TestTwoNewcomersByHand(t *testing.T) {
	s2 := 625.0 * 10001 / 90000
	c := math.Sqrt(173.625)
	omega := s2 / c / 2
	delta := math.Sqrt(s2) / c * s2 / (c * c) / 4
	sigma := math.Sqrt(s2 * (1 - delta))
	// The same worked on a calculator: 27.6353895, 22.3646105, 8.0659014.
	if !near(25+omega, 27.6353895, 1e-7) || !near(25-omega, 22.3646105, 1e-7) || !near(sigma, 8.0659014, 1e-7) {
		t.Fatalf("the hand computation is wrong: Mu %v and %v, Sigma %v", 25+omega, 25-omega, sigma)
	}

	n := rating.Default().New()
	out := rate(t, solo(n, n), []int{1, 2})
	want := []rating.Rating{{Mu: 25 + omega, Sigma: sigma}, {Mu: 25 - omega, Sigma: sigma}}
	for i, w := range want {
		if got := out[i][0]; !near(got.Mu, w.Mu, 1e-12) || !near(got.Sigma, w.Sigma, 1e-12) {
			t.Errorf("player %d: got %+v, by hand %+v", i, got, w)
		}
	}
}

// TestTwoNewcomersDrawByHand: in a tie each place is shared by the A = 2
// teams that hold it, so each newcomer's Ω is ((1 - 1/2) - 1/2)/2 = 0 and
// Δ is twice (1/2)(1/2)/2 times γ·σ²/c², the same as in a win.
func TestTwoNewcomersDrawByHand(t *testing.T) {
	s2 := 625.0 * 10001 / 90000
	c := math.Sqrt(173.625)
	delta := math.Sqrt(s2) / c * s2 / (c * c) / 4
	sigma := math.Sqrt(s2 * (1 - delta))

	n := rating.Default().New()
	out := rate(t, solo(n, n), []int{1, 1})
	for i := range out {
		if got := out[i][0]; got.Mu != 25 || !near(got.Sigma, sigma, 1e-12) {
			t.Errorf("player %d: got %+v, by hand {Mu:25 Sigma:%v}", i, got, sigma)
		}
	}
}

// TestResultsMoveRatings checks, on random games, what any rating must
// do: the lone winner's Mu rises, the lone last's falls, every Sigma
// ends below where the dynamics put it, and the input is not changed.
func TestResultsMoveRatings(t *testing.T) {
	m := rating.Default()
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 500 {
		teams := make([][]rating.Rating, 2+rng.IntN(3))
		ranks := make([]int, len(teams))
		for i := range teams {
			teams[i] = make([]rating.Rating, 1+rng.IntN(2))
			for j := range teams[i] {
				teams[i][j] = rating.Rating{Mu: 10 + 30*rng.Float64(), Sigma: 0.5 + 8*rng.Float64()}
			}
			ranks[i] = rng.IntN(len(teams))
		}
		before := make([][]rating.Rating, len(teams))
		for i := range teams {
			before[i] = slices.Clone(teams[i])
		}
		out := rate(t, teams, ranks)
		for i := range teams {
			if !slices.Equal(teams[i], before[i]) {
				t.Fatalf("game %d: Rate changed its input: team %d was %v, is %v", k, i, before[i], teams[i])
			}
		}
		best, worst := slices.Min(ranks), slices.Max(ranks)
		for i := range teams {
			alone := func(r int) bool { return ranks[i] == r && count(ranks, r) == 1 }
			for j, r := range teams[i] {
				got := out[i][j]
				if alone(best) && !(got.Mu > r.Mu) {
					t.Errorf("game %d (ranks %v): the winner's Mu went from %v to %v", k, ranks, r.Mu, got.Mu)
				}
				if alone(worst) && !(got.Mu < r.Mu) {
					t.Errorf("game %d (ranks %v): the last's Mu went from %v to %v", k, ranks, r.Mu, got.Mu)
				}
				if limit := math.Hypot(r.Sigma, m.Tau); !(got.Sigma < limit) {
					t.Errorf("game %d: team %d player %d: Sigma went from %v (%v with Tau) to %v", k, i, j, r.Sigma, limit, got.Sigma)
				}
			}
		}
	}
}

// count returns how many of xs are x.
func count(xs []int, x int) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// TestTies checks that equal players who tie stay equal, wherever the tie
// falls.
func TestTies(t *testing.T) {
	n := rating.Default().New()
	r := rating.Rating{Mu: 31, Sigma: 3}
	for _, tc := range []struct {
		name  string
		teams [][]rating.Rating
		ranks []int
		equal [][2]int // pairs of teams whose first players must end equal
		keep  []int    // teams whose Mu must not move
	}{
		{"three newcomers all tie and keep their Mu", solo(n, n, n), []int{1, 1, 1}, [][2]int{{0, 1}, {1, 2}}, []int{0, 1, 2}},
		{"four equal players all tie and keep their Mu", solo(r, r, r, r), []int{2, 2, 2, 2}, [][2]int{{0, 1}, {0, 2}, {0, 3}}, []int{0, 1, 2, 3}},
		{"two tied for first of four", solo(r, r, n, n), []int{1, 1, 3, 4}, [][2]int{{0, 1}}, nil},
		{"two tied in the middle of four", solo(n, r, r, n), []int{1, 2, 2, 4}, [][2]int{{1, 2}}, nil},
		{"two tied for last of three", solo(n, r, r), []int{1, 3, 3}, [][2]int{{1, 2}}, nil},
		{"two teams of two tie", [][]rating.Rating{{n, r}, {n, r}}, []int{1, 1}, [][2]int{{0, 1}}, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := rate(t, tc.teams, tc.ranks)
			for _, p := range tc.equal {
				a, b := out[p[0]][0], out[p[1]][0]
				if !near(a.Mu, b.Mu, 1e-12) || !near(a.Sigma, b.Sigma, 1e-12) {
					t.Errorf("teams %d and %d tied as equals but ended %+v and %+v", p[0], p[1], a, b)
				}
			}
			for _, i := range tc.keep {
				for j, r := range tc.teams[i] {
					if !near(out[i][j].Mu, r.Mu, 1e-12) {
						t.Errorf("team %d player %d: Mu went from %v to %v in a tie of equals", i, j, r.Mu, out[i][j].Mu)
					}
				}
			}
		})
	}
}

// TestRanksByOrder checks that only the order of the ranks counts, and
// that the order the teams are listed in does not.
func TestRanksByOrder(t *testing.T) {
	teams := solo(rating.Rating{Mu: 20, Sigma: 6}, rating.Rating{Mu: 30, Sigma: 2}, rating.Rating{Mu: 27, Sigma: 4}, rating.Rating{Mu: 25, Sigma: 8})
	out := rate(t, teams, []int{1, 2, 2, 4})
	same := rate(t, teams, []int{-7, 5, 5, 90})
	// Listed backwards, and scored (more is better) as Rate's doc says:
	// negated scores as ranks.
	backwards := rate(t, solo(teams[3][0], teams[2][0], teams[1][0], teams[0][0]), []int{-10, -40, -40, -50})
	for i := range teams {
		if out[i][0] != same[i][0] {
			t.Errorf("team %d: ranks 1,2,2,4 give %+v, ranks -7,5,5,90 %+v", i, out[i][0], same[i][0])
		}
		if b := backwards[3-i][0]; !near(out[i][0].Mu, b.Mu, 1e-12) || !near(out[i][0].Sigma, b.Sigma, 1e-12) {
			t.Errorf("team %d: listed in order %+v, listed backwards %+v", i, out[i][0], b)
		}
	}
}

// TestTeamsAsTeams checks that a team is rated as one side, its update
// shared by its players' variances: the less certain teammate moves more,
// and a team of two is not two players of one.
func TestTeamsAsTeams(t *testing.T) {
	sure := rating.Rating{Mu: 25, Sigma: 2}
	unsure := rating.Rating{Mu: 25, Sigma: 7}
	n := rating.Default().New()
	out := rate(t, [][]rating.Rating{{sure, unsure}, {n, n}}, []int{1, 2})
	gainSure, gainUnsure := out[0][0].Mu-sure.Mu, out[0][1].Mu-unsure.Mu
	if !(gainSure > 0 && gainUnsure > gainSure) {
		t.Errorf("winning teammates of Sigma 2 and 7 gained %v and %v: both should gain, the less certain more", gainSure, gainUnsure)
	}
	// Variance shares: each gain over its player's Sigma², with Tau, is the same.
	tau := rating.Default().Tau
	if a, b := gainSure/(sure.Sigma*sure.Sigma+tau*tau), gainUnsure/(unsure.Sigma*unsure.Sigma+tau*tau); !near(a, b, 1e-12) {
		t.Errorf("the team's gain is not shared by variance: %v and %v per unit of variance", a, b)
	}
	// The same four as a free-for-all rate differently.
	ffa := rate(t, solo(sure, unsure, n, n), []int{1, 1, 2, 2})
	if near(ffa[0][0].Mu, out[0][0].Mu, 1e-6) {
		t.Errorf("a team of two rated like two tied players of one: Mu %v both ways", out[0][0].Mu)
	}
}

// TestLimitSigma checks that with LimitSigma no Sigma ends above where it
// began, where without it Tau raises the Sigma of a player whose game says
// almost nothing: a settled player far stronger than the others.
func TestLimitSigma(t *testing.T) {
	m := rating.Default()
	m.Tau = 0.5
	teams := solo(rating.Rating{Mu: 60, Sigma: 0.1}, rating.Rating{Mu: 0, Sigma: 8})
	out, err := m.Rate(teams, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !(out[0][0].Sigma > 0.1) {
		t.Fatalf("without LimitSigma, Tau 0.5 should raise Sigma 0.1, got %v", out[0][0].Sigma)
	}
	m.LimitSigma = true
	out, err = m.Rate(teams, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if out[0][0].Sigma != 0.1 {
		t.Errorf("with LimitSigma, Sigma 0.1 became %v", out[0][0].Sigma)
	}
}

// TestRateErrors checks that each kind of bad input is refused, naming
// what was wrong.
func TestRateErrors(t *testing.T) {
	n := rating.Default().New()
	bad := func(m func(*rating.Model)) rating.Model {
		d := rating.Default()
		m(&d)
		return d
	}
	for _, tc := range []struct {
		name  string
		model rating.Model
		teams [][]rating.Rating
		ranks []int
		want  string
	}{
		{"no teams", rating.Default(), nil, nil, "no teams"},
		{"one team", rating.Default(), solo(n), []int{1}, "one team"},
		{"an empty team", rating.Default(), [][]rating.Rating{{n}, {}}, []int{1, 2}, "team 1 has no players"},
		{"too few ranks", rating.Default(), solo(n, n, n), []int{1, 2}, "2 ranks for 3 teams"},
		{"too many ranks", rating.Default(), solo(n, n), []int{1, 2, 3}, "3 ranks for 2 teams"},
		{"NaN Sigma", rating.Default(), solo(n, rating.Rating{Mu: 25, Sigma: math.NaN()}), []int{1, 2}, "team 1 player 0: Sigma NaN"},
		{"negative Sigma", rating.Default(), [][]rating.Rating{{n, {Mu: 25, Sigma: -1}}, {n}}, []int{1, 2}, "team 0 player 1: Sigma -1"},
		{"zero Sigma", rating.Default(), solo(n, rating.Rating{Mu: 25}), []int{1, 2}, "team 1 player 0: Sigma 0"},
		{"infinite Sigma", rating.Default(), solo(rating.Rating{Mu: 25, Sigma: math.Inf(1)}, n), []int{1, 2}, "team 0 player 0: Sigma +Inf"},
		{"NaN Mu", rating.Default(), solo(n, rating.Rating{Mu: math.NaN(), Sigma: 1}), []int{1, 2}, "team 1 player 0: Mu NaN"},
		{"zero model", rating.Model{}, solo(n, n), []int{1, 2}, "model Sigma 0"},
		{"zero Beta", bad(func(m *rating.Model) { m.Beta = 0 }), solo(n, n), []int{1, 2}, "model Beta 0"},
		{"zero Kappa", bad(func(m *rating.Model) { m.Kappa = 0 }), solo(n, n), []int{1, 2}, "model Kappa 0"},
		{"Kappa above 1", bad(func(m *rating.Model) { m.Kappa = 2 }), solo(n, n), []int{1, 2}, "model Kappa 2"},
		{"negative Tau", bad(func(m *rating.Model) { m.Tau = -0.1 }), solo(n, n), []int{1, 2}, "model Tau -0.1"},
		{"NaN ProvisionalSigma", bad(func(m *rating.Model) { m.ProvisionalSigma = math.NaN() }), solo(n, n), []int{1, 2}, "model ProvisionalSigma NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.model.Rate(tc.teams, tc.ranks)
			if err == nil {
				t.Fatalf("Rate(%v, %v) = %v, want an error naming %q", tc.teams, tc.ranks, out, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "rating: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want one naming %q", err, tc.want)
			}
		})
	}
}

// TestDisplay checks the number people see: a newcomer is a provisional
// 1500 ± 246, and 400 points between two settled players of a two-sided
// game are Elo's odds of 10 to 1.
func TestDisplay(t *testing.T) {
	m := rating.Default()
	d := m.Show(m.New())
	// 400/(ln 10·√2·25/6) = 29.48 points a unit of Mu; 25/3 of them is 245.6.
	if d != (rating.Display{Number: 1500, Deviation: 246, Provisional: true}) || d.String() != "1500?" {
		t.Errorf("a newcomer shows as %+v (%q), want 1500 ± 246, provisional (\"1500?\")", d, d)
	}
	settled := rating.Rating{Mu: 25 + 400/m.Scale(), Sigma: 1e-4}
	if d := m.Show(settled); d != (rating.Display{Number: 1900, Deviation: 0}) || d.String() != "1900" {
		t.Errorf("a settled player 400/Scale above a newcomer shows as %+v (%q), want 1900", d, d)
	}
	// The Plackett-Luce chance that the first of two wins is
	// 1/(1 + exp(-ΔMu/c)), with c² the sum of both variances and 2·β².
	c := math.Sqrt(2*1e-8 + 2*m.Beta*m.Beta)
	if p := 1 / (1 + math.Exp(-(400/m.Scale())/c)); !near(p, 10.0/11, 1e-6) {
		t.Errorf("400 display points between settled players are a chance of %v to win, Elo's is 10/11", p)
	}
	if o := rating.Ordinal(m.New()); o != 0 {
		t.Errorf("a newcomer's Ordinal is %v, want 0", o)
	}
	if o := rating.Ordinal(rating.Rating{Mu: 30, Sigma: 2}); o != 24 {
		t.Errorf("Ordinal of Mu 30, Sigma 2 is %v, want 24", o)
	}
}

// TestProvisionalGames checks that DefaultProvisionalSigma says what its
// doc says: a newcomer playing settled players of random results stops
// being provisional after twelve games of two sides or sixteen of four,
// on average (between 8 and 20 here), and a regular player's Sigma
// settles near 2.
func TestProvisionalGames(t *testing.T) {
	m := rating.Default()
	for _, sides := range []int{2, 4} {
		rng := rand.New(rand.NewPCG(uint64(sides), 22))
		const newcomers = 20
		total := 0
		var regular rating.Rating
		for range newcomers {
			r := m.New()
			games := 0
			for g := 1; g <= 300; g++ {
				teams := solo(r)
				ranks := []int{rng.IntN(sides)}
				for range sides - 1 {
					teams = append(teams, []rating.Rating{{Mu: 25 + 5*rng.NormFloat64(), Sigma: 2}})
					ranks = append(ranks, rng.IntN(sides))
				}
				out, err := m.Rate(teams, ranks)
				if err != nil {
					t.Fatal(err)
				}
				r = out[0][0]
				if games == 0 && !m.Provisional(r) {
					games = g
				}
			}
			if games == 0 {
				t.Fatalf("%d sides: a newcomer is still provisional after 300 games: %+v", sides, r)
			}
			total += games
			regular = r
		}
		mean := float64(total) / newcomers
		t.Logf("%d sides: a newcomer is provisional for %.1f games on average; after 300 games Sigma is %.2f", sides, mean, regular.Sigma)
		if mean < 8 || mean > 20 {
			t.Errorf("%d sides: a newcomer is provisional for %.1f games on average, want 8 to 20", sides, mean)
		}
		if regular.Sigma < 1.5 || regular.Sigma > 2.5 {
			t.Errorf("%d sides: a regular player's Sigma is %.2f after 300 games, want near 2", sides, regular.Sigma)
		}
	}
}
