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
