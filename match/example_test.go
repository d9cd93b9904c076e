package match_test

import (
	"fmt"

	"github.com/chaturaji/chaturaji/match"
)

// A player that scores three quarters of its pairwise comparisons is about
// 191 Elo stronger.
func ExampleElo() {
	fmt.Printf("%+.1f\n", match.Elo(0.75))
	// Output: +190.8
}

// Eight first places in ten games: the 95% Wilson interval.
func ExampleWilson() {
	iv := match.Wilson(8, 10, match.Z95)
	fmt.Printf("[%.3f, %.3f]\n", iv.Lo, iv.Hi)
	// Output: [0.490, 0.943]
}

// The SPRT's bounds for alpha = beta = 0.05, and its verdict on twenty deals
// that each score 0.75.
func ExampleSPRT() {
	test := match.SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	lower, upper := test.Bounds()
	scores := make([]float64, 20)
	for i := range scores {
		scores[i] = 0.75
	}
	fmt.Printf("bounds %.3f, %.3f\n", lower, upper)
	fmt.Println(test.Decide(test.LLR(scores), len(scores)))
	// Output:
	// bounds -2.944, 2.944
	// H1 accepted
}
