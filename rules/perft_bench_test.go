package rules_test

import (
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// BenchmarkPerft measures perft from the default start position, counting the
// last ply in bulk.
func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{6, 8} {
		b.Run("depth="+string(rune('0'+depth)), func(b *testing.B) {
			p := rules.Chaturaji.StartPosition()
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += rules.Perft(p, depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPresetPerft measures perft to depth 6 from the start positions
// of the default preset and of chesscom-chaturaji, side by side (the last
// ply counted in bulk).
func BenchmarkPresetPerft(b *testing.B) {
	for _, pr := range []*rules.Preset{rules.Chaturaji, rules.ChesscomChaturaji} {
		b.Run("rules="+pr.Name, func(b *testing.B) {
			p := pr.StartPosition()
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += rules.Perft(p, 6)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
