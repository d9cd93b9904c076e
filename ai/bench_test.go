package ai_test

import (
	"context"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// benchPositions are rolled positions from the opening, the middle game and
// an ending.
var benchPositions = []string{
	"yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0",
	"2yP2gE1gB/yHyP2gPgPgPgP/yE1yP4gH/1yP6/yK3yB1rPrK/1bP3rBrP1/bP1bP3rPrE/bBbHbEbK2rP1 b 3 3,5,0,1 2",
	"yB2yPgE1gHgB/1rBbB3gPgP/1yKyP1gP1bHbK/3yP4/1bP6/8/3bP4/8 y 5 25,11,0,0 5",
}

// BenchmarkSearch measures each search family on a fixed node budget per
// position: nodes/s counts search nodes for the expectimax players and
// playouts for Monte Carlo; paranoid?eval=nn searches with the learned
// evaluation.
func BenchmarkSearch(b *testing.B) {
	for _, family := range []string{"brs", "paranoid", "mcts", "paranoid?eval=nn"} {
		b.Run(family, func(b *testing.B) {
			budget := ai.Budget{Nodes: 20000}
			if family == "mcts" {
				budget.Nodes = 4000
			}
			pl, err := ai.New(family, 1)
			if err != nil {
				b.Fatal(err)
			}
			positions := make([]*rules.Position, len(benchPositions))
			for i, s := range benchPositions {
				positions[i] = rules.MustParsePosition(rules.Chaturaji, s)
			}
			var nodes int64
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range positions {
					an, err := pl.(ai.Analyzer).Analyze(context.Background(), p, budget)
					if err != nil {
						b.Fatal(err)
					}
					nodes += an.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
