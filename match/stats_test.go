package match_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chaturaji/chaturaji/match"
)

func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol
}

func TestElo(t *testing.T) {
	tests := []struct {
		name  string
		score float64
		want  float64
	}{
		{"three quarters is +190.8", 0.75, 190.8485},
		{"an even score is 0", 0.5, 0},
		{"a quarter is -190.8", 0.25, -190.8485},
		{"nine tenths is +381.7", 0.9, 381.6970},
		{"64% is +100", 0.6400649998, 100},
		{"a perfect score is +inf", 1, math.Inf(1)},
		{"no score is -inf", 0, math.Inf(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := match.Elo(tt.score); !near(got, tt.want, 1e-3) {
				t.Errorf("Elo(%v) = %v, want %v", tt.score, got, tt.want)
			}
			if !math.IsInf(tt.want, 0) {
				if got := match.ScoreOfElo(tt.want); !near(got, tt.score, 1e-6) {
					t.Errorf("ScoreOfElo(%v) = %v, want %v", tt.want, got, tt.score)
				}
			}
		})
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		name      string
		successes float64
		n         float64
		lo, hi    float64
	}{
		{"8 of 10", 8, 10, 0.4902, 0.9433},
		{"5 of 10", 5, 10, 0.2366, 0.7634},
		{"0 of 10 stays above 0", 0, 10, 0, 0.2775},
		{"10 of 10 stays below 1", 10, 10, 0.7225, 1},
		{"81 of 263", 81, 263, 0.2553, 0.3662},
		{"a fractional count: 2.5 of 4", 2.5, 4, 0.2194, 0.9081},
		{"no trials", 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iv := match.Wilson(tt.successes, tt.n, match.Z95)
			if !near(iv.Lo, tt.lo, 5e-5) || !near(iv.Hi, tt.hi, 5e-5) {
				t.Errorf("Wilson(%v, %v) = [%.4f, %.4f], want [%.4f, %.4f]", tt.successes, tt.n, iv.Lo, iv.Hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestEstimateElo(t *testing.T) {
	tests := []struct {
		name          string
		scores        []float64
		score, lo, hi float64 // the score and its interval
		elo           float64
	}{
		// mean 0.65, sample sd 0.1291, standard error 0.06455, ±0.1265.
		{"four deals", []float64{0.5, 0.7, 0.6, 0.8}, 0.65, 0.5235, 0.7765, 107.5},
		{"an even match", []float64{0.25, 0.75, 0.5, 0.5}, 0.5, 0.3000, 0.7000, 0},
		{"an interval past 1 is clipped", []float64{1, 1, 1, 0.5}, 0.875, 0.6300, 1, 338.0},
		{"one deal: no interval", []float64{0.75}, 0.75, 0, 1, 190.8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := match.EstimateElo(tt.scores)
			if !near(e.Score, tt.score, 1e-9) || !near(e.ScoreInterval.Lo, tt.lo, 5e-5) || !near(e.ScoreInterval.Hi, tt.hi, 5e-5) {
				t.Errorf("score %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", e.Score, e.ScoreInterval.Lo, e.ScoreInterval.Hi, tt.score, tt.lo, tt.hi)
			}
			if !near(e.Elo, tt.elo, 0.05) {
				t.Errorf("Elo %.2f, want %.1f", e.Elo, tt.elo)
			}
			if lo, hi := match.Elo(tt.lo), match.Elo(tt.hi); !near(e.Interval.Lo, lo, 0.1) || !near(e.Interval.Hi, hi, 0.1) {
				t.Errorf("Elo interval [%.1f, %.1f], want the Elo of the score interval's ends [%.1f, %.1f]", e.Interval.Lo, e.Interval.Hi, lo, hi)
			}
			if e.Samples != len(tt.scores) {
				t.Errorf("Samples %d, want %d", e.Samples, len(tt.scores))
			}
		})
	}
}

func TestSPRTBounds(t *testing.T) {
	lower, upper := match.SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}.Bounds()
	if !near(lower, -2.9444, 1e-4) || !near(upper, 2.9444, 1e-4) {
		t.Errorf("Bounds() = %.4f, %.4f, want ∓2.9444 (ln 19)", lower, upper)
	}
}

func TestSPRTLLR(t *testing.T) {
	test := match.SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	s1 := match.ScoreOfElo(20)
	tests := []struct {
		name   string
		scores []float64
		want   float64
	}{
		{"no deals", nil, 0},
		{"one deal", []float64{1}, 0},
		// mean 0.6, variance 0.01: 4 (s1-0.5)(1.2-0.5-s1)/0.02.
		{"four deals", []float64{0.5, 0.7, 0.5, 0.7}, 4 * (s1 - 0.5) * (1.2 - 0.5 - s1) / 0.02},
		// Every deal scores 1/2: no variance, floored at MinVariance.
		{"identical deals", []float64{0.5, 0.5, 0.5}, 3 * (s1 - 0.5) * (1 - 0.5 - s1) / (2 * match.MinVariance)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := test.LLR(tt.scores); !near(got, tt.want, 1e-9) {
				t.Errorf("LLR = %v, want %v", got, tt.want)
			}
		})
	}
}

// stream draws per-deal scores: each deal the mean of twelve pairwise
// results, won with the probability that elo gives (no draws).
func stream(rng *rand.Rand, elo float64) func() float64 {
	p := match.ScoreOfElo(elo)
	return func() float64 {
		wins := 0
		for range 12 {
			if rng.Float64() < p {
				wins++
			}
		}
		return float64(wins) / 12
	}
}

// runSPRT feeds a stream to the test until it decides, at most limit deals.
func runSPRT(test match.SPRT, next func() float64, limit int) (match.Verdict, int) {
	var scores []float64
	for len(scores) < limit {
		scores = append(scores, next())
		if v := test.Decide(test.LLR(scores), len(scores)); v != match.Inconclusive {
			return v, len(scores)
		}
	}
	return match.Inconclusive, len(scores)
}

func TestSPRTDecides(t *testing.T) {
	test := match.SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name     string
		elo      float64
		want     match.Verdict
		maxDeals int
	}{
		{"a strong advantage accepts H1 quickly", 200, match.AcceptH1, 30},
		{"an even stream accepts H0", 0, match.AcceptH0, 2000},
		{"a clear disadvantage accepts H0 quickly", -200, match.AcceptH0, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(5) {
				v, n := runSPRT(test, stream(rand.New(rand.NewPCG(seed, 1)), tt.elo), tt.maxDeals)
				if v != tt.want {
					t.Errorf("seed %d: %v after %d deals, want %v within %d", seed, v, n, tt.want, tt.maxDeals)
				}
			}
		})
	}
}

// TestSPRTErrorRates checks the error rates the test promises: a stream at
// Elo0 should accept H1 about Alpha of the time, one at Elo1 accept H0 about
// Beta of the time. 400 streams of each with fixed seeds; the bound leaves
// room for the normal approximation and the sampling noise (the standard
// error of a 5% rate over 400 runs is 1.1%).
func TestSPRTErrorRates(t *testing.T) {
	if testing.Short() {
		t.Skip("400 streams")
	}
	test := match.SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}
	const runs = 400
	var falseH1, falseH0, undecided int
	for seed := range uint64(runs) {
		switch v, _ := runSPRT(test, stream(rand.New(rand.NewPCG(seed, 2)), 0), 5000); v {
		case match.AcceptH1:
			falseH1++
		case match.Inconclusive:
			undecided++
		}
		switch v, _ := runSPRT(test, stream(rand.New(rand.NewPCG(seed, 3)), 40), 5000); v {
		case match.AcceptH0:
			falseH0++
		case match.Inconclusive:
			undecided++
		}
	}
	t.Logf("H1 accepted at elo0: %d/%d; H0 accepted at elo1: %d/%d; undecided: %d", falseH1, runs, falseH0, runs, undecided)
	if falseH1 > runs*9/100 || falseH0 > runs*9/100 || undecided > 0 {
		t.Errorf("error rates %.1f%% and %.1f%% (want about 5%%), %d undecided", 100*float64(falseH1)/runs, 100*float64(falseH0)/runs, undecided)
	}
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[match.Verdict]string{match.Inconclusive: "inconclusive", match.AcceptH0: "H0 accepted", match.AcceptH1: "H1 accepted"} {
		if v.String() != want {
			t.Errorf("%d.String() = %q, want %q", v, v.String(), want)
		}
	}
}
