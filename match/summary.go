package match

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// Summary is what a match found, per distinct spec. Its JSON form is what
// `chaturaji match --json` prints; infinite or unknown numbers are null.
type Summary struct {
	Rules      string        `json:"rules"`                 // the preset's name
	Seed       string        `json:"seed"`                  // the match's base seed, in hexadecimal
	MoveTimeMS int64         `json:"movetime_ms,omitempty"` // each decision's time budget in milliseconds; omitted if none
	Nodes      int64         `json:"nodes,omitempty"`       // each decision's node budget; omitted if none
	Deals      int           `json:"deals"`                 // the deals that count
	Rotations  int           `json:"rotations"`             // the games of a deal, one a rotation: the preset's number of seats
	Games      int           `json:"games"`                 // the games that count, Deals × Rotations
	Baseline   string        `json:"baseline"`              // the spec the others' Elo is measured against
	Players    []PlayerStats `json:"players"`               // one for each distinct spec, in the order of its first appearance
	SPRT       *SPRTStats    `json:"sprt,omitempty"`        // the SPRT's state; nil if the match ran none
	Seconds    Number        `json:"seconds"`               // the match's wall-clock time, to the millisecond
}

// PlayerStats are the results of one spec, pooled over every seat it held.
//
// A "seat-game" is one seat in one game: a spec that holds three seats of
// every game has three seat-games a game. Mean score and ranks are over its
// seat-games. Ranks[i] is the share of seat-games at rank i+1, as
// rules.Position.Ranks gives it: equal scores share the better rank, so a
// tie for first counts as rank 1 for both.
//
// FirstPlace is the rate of first places, with a tie for first counting as a
// fractional share (two seats tied for first get half each, so the rates of
// all seats of a game sum to one), and its 95% Wilson interval over the
// seat-games. The Wilson interval takes the seat-games as independent
// trials; they are not quite (games of a deal share their dice, and seats of
// one spec in one game compete for the same first place), so read it as an
// approximation.
//
// Elo is the spec's Elo difference against the baseline (see EstimateElo),
// from every pair of one of its seats and one of the baseline's seats in a
// game; for the baseline itself it is 0.
type PlayerStats struct {
	Name       string    `json:"name"`                  // the spec
	Seats      int       `json:"seats"`                 // how many seats it holds in each game
	Games      int       `json:"games"`                 // seat-games
	MeanScore  float64   `json:"mean_score"`            // the mean final score of its seat-games, in points
	Ranks      []float64 `json:"ranks"`                 // Ranks[i] is the share of its seat-games at rank i+1
	FirstPlace Rate      `json:"first_place"`           // the rate of first places
	Elo        EloStats  `json:"elo"`                   // its Elo difference against the baseline
	Baseline   bool      `json:"baseline,omitempty"`    // whether the spec is the baseline
	Faults     int       `json:"faults"`                // the faults of its players, over every game
	FirstFault string    `json:"first_fault,omitempty"` // the first fault, with its deal and rotation; "" if none
}

// Rate is a proportion with its 95% interval.
type Rate struct {
	Rate float64 `json:"rate"` // the proportion, 0..1
	Lo   float64 `json:"lo"`   // the interval's lower end
	Hi   float64 `json:"hi"`   // the interval's upper end
}

// EloStats is an Elo difference with its 95% interval and the mean pairwise
// score it comes from.
type EloStats struct {
	Elo   Number `json:"elo"`   // the Elo difference, infinite for a score of 0 or 1
	Lo    Number `json:"lo"`    // the interval's lower end
	Hi    Number `json:"hi"`    // the interval's upper end
	Score Number `json:"score"` // the mean pairwise score, 0..1
}

// SPRTStats is where the match's SPRT stands.
type SPRTStats struct {
	Candidate string  `json:"candidate"` // the spec tested
	Baseline  string  `json:"baseline"`  // the spec it is tested against
	Elo0      float64 `json:"elo0"`      // H0's Elo difference
	Elo1      float64 `json:"elo1"`      // H1's Elo difference
	Alpha     float64 `json:"alpha"`     // the chance of accepting H1 when H0 holds
	Beta      float64 `json:"beta"`      // the chance of accepting H0 when H1 holds
	LLR       float64 `json:"llr"`       // the log-likelihood ratio of H1 against H0
	Lower     float64 `json:"lower"`     // the LLR bound below which H0 is accepted
	Upper     float64 `json:"upper"`     // the LLR bound above which H1 is accepted
	Verdict   string  `json:"verdict"`   // "inconclusive", "H0 accepted" or "H1 accepted"
	Deals     int     `json:"deals"`     // the deals the LLR rests on
}

// Number is a float64 whose JSON form is null when it is infinite or NaN.
type Number float64

// MarshalJSON writes the number, or null.
func (x Number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// Summarize computes the summary of a result.
func Summarize(res *Result) *Summary {
	cfg := res.Config
	l := cfg.Lineup
	n := cfg.Preset.NumSeats()
	s := &Summary{
		Rules:      cfg.Preset.Name,
		Seed:       cfg.Seed.String(),
		MoveTimeMS: cfg.Budget.Time.Milliseconds(),
		Nodes:      cfg.Budget.Nodes,
		Deals:      res.Deals,
		Rotations:  n,
		Games:      len(res.Games),
		Baseline:   l.Distinct[l.Baseline],
		Seconds:    Number(res.Elapsed.Round(time.Millisecond).Seconds()),
	}
	seats := cfg.Preset.Seats()
	for x, spec := range l.Distinct {
		ps := PlayerStats{Name: spec, Ranks: make([]float64, n), Baseline: x == l.Baseline}
		for j := range l.Specs {
			if l.SpecIndex(j) == x {
				ps.Seats++
			}
		}
		var score, firsts float64
		for _, g := range res.Games {
			p := g.Game.Position()
			ranks := p.Ranks()
			tied := 0
			for _, seat := range seats {
				if ranks[seat] == 1 {
					tied++
				}
			}
			for k, seat := range seats {
				if l.SpecIndex(g.Players[k]) != x {
					continue
				}
				ps.Games++
				score += float64(p.Score(seat))
				if r := ranks[seat]; r >= 1 && r <= n {
					ps.Ranks[r-1]++
				}
				if ranks[seat] == 1 {
					firsts += 1 / float64(tied)
				}
			}
			for _, f := range g.Faults {
				if l.SpecIndex(f.Player) == x {
					if ps.Faults == 0 {
						ps.FirstFault = "deal " + strconv.Itoa(g.Deal+1) + ", rotation " + strconv.Itoa(g.Rotation+1) + ": " + f.String()
					}
					ps.Faults++
				}
			}
		}
		if ps.Games > 0 {
			ps.MeanScore = score / float64(ps.Games)
			for i := range ps.Ranks {
				ps.Ranks[i] /= float64(ps.Games)
			}
			iv := Wilson(firsts, float64(ps.Games), Z95)
			ps.FirstPlace = Rate{firsts / float64(ps.Games), iv.Lo, iv.Hi}
		}
		if x == l.Baseline {
			ps.Elo = EloStats{Score: 0.5}
		} else {
			e := EstimateElo(DealScores(res, x, l.Baseline))
			ps.Elo = EloStats{Number(e.Elo), Number(e.Interval.Lo), Number(e.Interval.Hi), Number(e.Score)}
		}
		s.Players = append(s.Players, ps)
	}
	if t := res.Test; t != nil {
		lower, upper := t.Bounds()
		s.SPRT = &SPRTStats{
			Candidate: t.Candidate, Baseline: t.Baseline,
			Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta,
			LLR: t.LLR, Lower: lower, Upper: upper,
			Verdict: t.Verdict.String(), Deals: t.Deals,
		}
	}
	return s
}

// DealScores returns, for each deal of the result, the mean pairwise score of
// spec x against spec b (indices in Lineup.Distinct): over every game of the
// deal and every pair of a seat of x and a seat of b, 1 if x's seat ranks
// better, 0.5 if equal, 0 if worse.
func DealScores(res *Result, x, b int) []float64 {
	l := res.Config.Lineup
	seats := res.Config.Preset.Seats()
	n := len(seats)
	var out []float64
	for d := 0; d+n <= len(res.Games); d += n {
		var sum float64
		var pairs int
		for _, g := range res.Games[d : d+n] {
			ranks := g.Game.Position().Ranks()
			for kx, sx := range seats {
				if l.SpecIndex(g.Players[kx]) != x {
					continue
				}
				for kb, sb := range seats {
					if l.SpecIndex(g.Players[kb]) != b {
						continue
					}
					pairs++
					switch rx, rb := ranks[sx], ranks[sb]; {
					case rx < rb:
						sum++
					case rx == rb:
						sum += 0.5
					}
				}
			}
		}
		if pairs > 0 {
			out = append(out, sum/float64(pairs))
		}
	}
	return out
}
