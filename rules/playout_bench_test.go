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

// BenchmarkPresetPlayout measures random games played to the end from the
// start positions of the default preset and of chesscom-chaturaji, side by
// side.
func BenchmarkPresetPlayout(b *testing.B) {
	for _, pr := range []*rules.Preset{rules.Chaturaji, rules.ChesscomChaturaji} {
		b.Run("rules="+pr.Name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			start := pr.StartPosition()
			b.ReportAllocs()
			actions := 0
			for b.Loop() {
				p := *start
				actions += rules.PlayRandom(&p, rng)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
		})
	}
}
