package match

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Lineup is who plays a match: one player a seat, each named by a spec, and
// the spec the others are measured against.
type Lineup struct {
	// Specs are the players' specs in seat order of the first rotation, as
	// given (see NewPlayer).
	Specs []string
	// Names are the players' names in records: the spec, and for its k-th
	// appearance (k >= 2) the spec followed by "#k", as in "greedy#2".
	Names []string
	// Distinct are the distinct specs, in the order of their first
	// appearance. Results are pooled by distinct spec.
	Distinct []string
	// Baseline is the index in Distinct of the spec the others' Elo is
	// measured against.
	Baseline int
}

// NewLineup returns the lineup of the given specs, one a seat. The baseline
// is the given spec, which must be one of them, or if it is empty the last
// distinct spec. A match needs at least two distinct specs for Elo; with one
// the Elo is left out.
func NewLineup(specs []string, baseline string) (*Lineup, error) {
	l := &Lineup{Specs: slices.Clone(specs)}
	seen := map[string]int{}
	for _, s := range specs {
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("match: an empty player spec in %q", strings.Join(specs, ","))
		}
		seen[s]++
		name := s
		if seen[s] > 1 {
			name += "#" + strconv.Itoa(seen[s])
		} else {
			l.Distinct = append(l.Distinct, s)
		}
		l.Names = append(l.Names, name)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("match: no players")
	}
	l.Baseline = len(l.Distinct) - 1
	if baseline != "" {
		l.Baseline = slices.Index(l.Distinct, baseline)
		if l.Baseline < 0 {
			return nil, fmt.Errorf("match: the baseline %q is not one of the players (%s)", baseline, strings.Join(l.Distinct, ", "))
		}
	}
	return l, nil
}

// SpecIndex returns the index in Distinct of player j's spec.
func (l *Lineup) SpecIndex(j int) int {
	return slices.Index(l.Distinct, l.Specs[j])
}

// Candidate returns the index in Distinct of the spec an SPRT tests against
// the baseline: the first distinct spec that is not the baseline, or -1 if
// there is none.
func (l *Lineup) Candidate() int {
	for i := range l.Distinct {
		if i != l.Baseline {
			return i
		}
	}
	return -1
}
