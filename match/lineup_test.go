package match_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/match"
)

func TestLineup(t *testing.T) {
	tests := []struct {
		name      string
		specs     string
		baseline  string
		names     string
		distinct  string
		base      int
		candidate int
		err       string
	}{
		{"one strong, three greedy: greedy is the baseline", "strong,greedy,greedy,greedy", "", "[strong greedy greedy#2 greedy#3]", "[strong greedy]", 1, 0, ""},
		{"the last distinct spec is the baseline", "greedy,strong,greedy,random", "", "[greedy strong greedy#2 random]", "[greedy strong random]", 2, 0, ""},
		{"a chosen baseline", "greedy,strong,greedy,random", "greedy", "[greedy strong greedy#2 random]", "[greedy strong random]", 0, 1, ""},
		{"one spec everywhere: no candidate", "greedy,greedy", "", "[greedy greedy#2]", "[greedy]", 0, -1, ""},
		{"a baseline that does not play", "strong,greedy", "random", "", "", 0, 0, `match: the baseline "random" is not one of the players (strong, greedy)`},
		{"an empty spec", "strong,,greedy", "", "", "", 0, 0, `match: an empty player spec in "strong,,greedy"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := match.NewLineup(strings.Split(tt.specs, ","), tt.baseline)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("NewLineup: %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(l.Names); got != tt.names {
				t.Errorf("Names %s, want %s", got, tt.names)
			}
			if got := fmt.Sprint(l.Distinct); got != tt.distinct {
				t.Errorf("Distinct %s, want %s", got, tt.distinct)
			}
			if l.Baseline != tt.base || l.Candidate() != tt.candidate {
				t.Errorf("Baseline %d, Candidate %d; want %d, %d", l.Baseline, l.Candidate(), tt.base, tt.candidate)
			}
		})
	}
}
