package match

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// WriteText writes the summary as a table, one row per distinct spec, then
// the SPRT's line and the faults:
//
//	player  seats  games  score  rank 1 ... rank n  first place [95% CI]  Elo vs BASELINE [95% CI]
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	budget := []string{}
	if s.MoveTimeMS > 0 {
		budget = append(budget, "movetime "+(time.Duration(s.MoveTimeMS)*time.Millisecond).String())
	}
	if s.Nodes > 0 {
		budget = append(budget, fmt.Sprintf("nodes %d", s.Nodes))
	}
	fmt.Fprintf(&b, "match: %s, %s x %d rotations = %s, %s, %.1fs\n",
		s.Rules, plural(s.Deals, "deal"), s.Rotations, plural(s.Games, "game"), strings.Join(budget, ", "), float64(s.Seconds))
	fmt.Fprintf(&b, "seed:  %s\n\n", s.Seed)

	width := len("player")
	for _, p := range s.Players {
		width = max(width, len(p.Name))
	}
	fmt.Fprintf(&b, "%-*s  seats  games   score", width, "player")
	for i := range s.Rotations {
		fmt.Fprintf(&b, "  rank %d", i+1)
	}
	fmt.Fprintf(&b, "  %-22s  Elo vs %s [95%% CI]\n", "first place [95% CI]", s.Baseline)
	for _, p := range s.Players {
		fmt.Fprintf(&b, "%-*s  %5d  %5d  %6.2f", width, p.Name, p.Seats, p.Games, p.MeanScore)
		for _, r := range p.Ranks {
			fmt.Fprintf(&b, "  %6s", percent(r))
		}
		first := fmt.Sprintf("%s [%s, %s]", percent(p.FirstPlace.Rate), percent(p.FirstPlace.Lo), percent(p.FirstPlace.Hi))
		fmt.Fprintf(&b, "  %-22s  ", first)
		if p.Baseline {
			b.WriteString("baseline\n")
		} else {
			fmt.Fprintf(&b, "%s [%s, %s]\n", elo(p.Elo.Elo), elo(p.Elo.Lo), elo(p.Elo.Hi))
		}
	}
	if t := s.SPRT; t != nil {
		fmt.Fprintf(&b, "\nSPRT %s vs %s (elo0 %g, elo1 %g, alpha %g, beta %g): LLR %.2f in (%.2f, %.2f): %s after %s\n",
			t.Candidate, t.Baseline, t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR, t.Lower, t.Upper, t.Verdict, plural(t.Deals, "deal"))
	}
	var faults []string
	for _, p := range s.Players {
		if p.Faults > 0 {
			faults = append(faults, fmt.Sprintf("%s %d (first: %s)", p.Name, p.Faults, p.FirstFault))
		}
	}
	if len(faults) == 0 {
		faults = []string{"none"}
	}
	fmt.Fprintf(&b, "\nfaults: %s\n", strings.Join(faults, "\n        "))
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func percent(x float64) string {
	return fmt.Sprintf("%.1f%%", 100*x)
}

// elo writes an Elo difference with its sign, or ±inf.
func elo(x Number) string {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return "?"
	case math.IsInf(f, 1):
		return "+inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", f)
}
