package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// BenchmarkPlayout measures random games played to the end from the default
// start position.
func BenchmarkPlayout(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	start := rules.Chaturaji.StartPosition()
	b.ReportAllocs()
	actions := 0
	for b.Loop() {
		p := *start
		actions += rules.PlayRandom(&p, rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}
