package match

import (
	"math"
)

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Interval is a confidence interval [Lo, Hi].
type Interval struct {
	Lo, Hi float64 // the lower and upper ends
}

// Wilson returns the Wilson score interval of a proportion: successes out of
// n trials, at the normal quantile z (Z95 for 95%). Unlike the normal
// ("Wald") interval it stays inside [0, 1] and is sound near 0 and 1 and for
// small n. successes may be fractional (a first place shared by two counts
// half). The trials are taken to be independent; see Summary for where they
// are not. With n = 0 it returns [0, 1].
//
// With p = successes/n:
//
//	centre = (p + z²/2n) / (1 + z²/n)
//	half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
func Wilson(successes, n, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	p := successes / n
	d := 1 + z*z/n
	centre := (p + z*z/(2*n)) / d
	half := z / d * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return Interval{max(centre-half, 0), min(centre+half, 1)}
}

// Elo returns the Elo difference that the logistic model gives an expected
// score s (0 <= s <= 1) against an opponent: -400 log10(1/s - 1). A score of
// 0.75 is +190.8, 0.5 is 0; 1 is +Inf and 0 is -Inf.
func Elo(s float64) float64 {
	switch {
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return 400 * math.Log10(s/(1-s)) // = -400 log10(1/s - 1), without a -0 at 0.5
}

// ScoreOfElo is the inverse of Elo: the expected score of a player rated elo
// points above its opponent, 1 / (1 + 10^(-elo/400)).
func ScoreOfElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// MeanInterval returns the mean of samples and the normal-approximation
// interval mean ± z·sqrt(var/n), where var is the unbiased sample variance.
// The samples are taken to be independent: pass one sample per independent
// unit (in a match, per deal). With fewer than two samples the variance is
// unknown and the interval is infinite.
func MeanInterval(samples []float64, z float64) (mean float64, iv Interval) {
	n := float64(len(samples))
	if n == 0 {
		return math.NaN(), Interval{math.Inf(-1), math.Inf(1)}
	}
	for _, x := range samples {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, Interval{math.Inf(-1), math.Inf(1)}
	}
	var ss float64
	for _, x := range samples {
		ss += (x - mean) * (x - mean)
	}
	half := z * math.Sqrt(ss/(n-1)/n)
	return mean, Interval{mean - half, mean + half}
}

// EloEstimate is the Elo difference of one player against another, estimated
// from pairwise scores.
type EloEstimate struct {
	Score         float64  // the mean pairwise score, 0..1
	ScoreInterval Interval // its 95% interval, clipped to [0, 1]
	Elo           float64  // Elo(Score)
	Interval      Interval // Elo of the score interval's ends
	Samples       int      // the deals it rests on
}

// EstimateElo estimates an Elo difference from per-deal scores: each is the
// mean pairwise score of one deal (1 for ranking above the opponent, 0.5 for
// an equal rank, 0 for below, over every pair of seats and every rotation of
// the deal). The games of a deal share their dice and so are correlated:
// the deal, not the game, is the independent sample. The score's 95%
// interval is MeanInterval's, clipped to [0, 1]; the Elo and its interval
// are Elo of the score and of the interval's ends (so the interval is not
// symmetric, and a score interval reaching 0 or 1 gives an infinite end).
func EstimateElo(dealScores []float64) EloEstimate {
	mean, iv := MeanInterval(dealScores, Z95)
	iv = Interval{max(iv.Lo, 0), min(iv.Hi, 1)}
	return EloEstimate{
		Score:         mean,
		ScoreInterval: iv,
		Elo:           Elo(mean),
		Interval:      Interval{Elo(iv.Lo), Elo(iv.Hi)},
		Samples:       len(dealScores),
	}
}

// SPRT is a sequential probability ratio test of H0: the Elo difference is
// Elo0 against H1: it is Elo1, with error rates Alpha (accepting H1 when H0
// holds) and Beta (accepting H0 when H1 holds).
//
// It is the generalized SPRT with the normal approximation that chess
// engine testing frameworks (fishtest, OpenBench) use: the samples are the
// per-deal pairwise scores x_1..x_N, the hypotheses are the expected scores
// s0 = ScoreOfElo(Elo0) and s1 = ScoreOfElo(Elo1) with the variance
// estimated from the samples, and the log-likelihood ratio is
//
//	LLR = N (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²)
//
// where x̄ is the samples' mean and σ² their variance (divided by N). The
// test stops as soon as LLR leaves the bounds (ln(Beta/(1-Alpha)),
// ln((1-Beta)/Alpha)): below, H0 is accepted; above, H1.
//
// The plug-in variance is what makes this approximate, and with few samples
// it is unreliable: two or three deals with close scores give a tiny
// variance and a huge LLR. In simulation (twelve pairs a deal, Elo0 0, Elo1
// 40) stopping from the second deal on made both error rates about 20%
// instead of 5%. So no verdict is given before MinDeals deals (the LLR is
// still computed); from there the simulated error rates are 4-6%. Until two
// samples are in the LLR is 0, and σ² is floored at MinVariance so that a
// run of identical deal scores does not make it infinite.
type SPRT struct {
	Elo0, Elo1  float64 // the Elo differences of H0 and H1, Elo0 < Elo1
	Alpha, Beta float64 // the error rates, each between 0 and 1
}

const (
	// MinDeals is the number of deals before which SPRT gives no verdict.
	MinDeals = 20
	// MinVariance is the floor of the variance in SPRT's LLR.
	MinVariance = 1e-3
)

// Bounds returns the LLR bounds: ln(Beta/(1-Alpha)) and ln((1-Beta)/Alpha),
// ±2.944 for Alpha = Beta = 0.05.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the log-likelihood ratio of H1 against H0 given the per-deal
// scores so far.
func (t SPRT) LLR(scores []float64) float64 {
	n := float64(len(scores))
	if n < 2 {
		return 0
	}
	var mean, ss float64
	for _, x := range scores {
		mean += x
	}
	mean /= n
	for _, x := range scores {
		ss += (x - mean) * (x - mean)
	}
	v := max(ss/n, MinVariance)
	s0, s1 := ScoreOfElo(t.Elo0), ScoreOfElo(t.Elo1)
	return n * (s1 - s0) * (2*mean - s0 - s1) / (2 * v)
}

// Decide returns the verdict for an LLR after the given number of deals:
// inconclusive before MinDeals, or while the LLR lies between the bounds.
func (t SPRT) Decide(llr float64, deals int) Verdict {
	lower, upper := t.Bounds()
	switch {
	case deals < MinDeals:
		return Inconclusive
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Inconclusive
}

// Verdict is the outcome of an SPRT.
type Verdict int

// The verdicts.
const (
	Inconclusive Verdict = iota // neither bound crossed yet
	AcceptH0                    // the lower bound crossed
	AcceptH1                    // the upper bound crossed
)

// String returns "inconclusive", "H0 accepted" or "H1 accepted".
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "inconclusive"
}
