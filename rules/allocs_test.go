package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// TestHotPathAllocs pins the hot path at zero allocations, as the package
// documentation promises.
func TestHotPathAllocs(t *testing.T) {
	// A rolled mid-game position with many actions, and positions whose
	// actions set off a triumph and waiting promotions.
	positions := []*rules.Position{
		mustParse(t, "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0"),
		mustParse(t, "4gK3/8/yE7/4yK3/2bE1bK2rK/8/8/8 b 4 0,0,0,0 3"),
		mustParse(t, "yK6gK/8/8/8/2rBgB4/3yB4/8/bB3bK2rK b 2 0,0,0,0 5"),
		mustParse(t, "4gK1yP1/8/8/yE6yP/8/8/8/4bK2rK b 2 0,0,0,0 6"),
		// chesscom-chaturaji: check bonuses, a dead army, a claim.
		rules.MustParsePosition(rules.ChesscomChaturaji, "8/8/8/4gK3/yK6rK/2bB5/8/bE6bK b - 0,0,0,0 0"),
		rules.MustParsePosition(rules.ChesscomChaturaji, "yK2gB3gK/8/8/8/3bB4/8/5bP2/bK7 b - 20,4,6,2 9 dead=y"),
	}
	start := rules.Chaturaji.StartPosition()
	var buf [rules.MaxActions]rules.Action
	var u rules.Undo
	rng := rand.New(rand.NewPCG(1, 1))
	var game rules.Position
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Actions with a caller's buffer", func() {
			for _, p := range positions {
				_ = p.Actions(buf[:])
			}
		}},
		{"CountActions", func() {
			for _, p := range positions {
				_ = p.CountActions()
			}
		}},
		{"Make and Unmake", func() {
			for _, p := range positions {
				var acts [rules.MaxActions]rules.Action
				for _, a := range p.Actions(acts[:]) {
					p.Make(a, &u)
					p.Unmake(&u)
				}
			}
		}},
		{"IsLegal", func() { _ = positions[0].IsLegal(rules.PassAction) }},
		{"SetRoll and ClearRoll", func() {
			start.SetRoll(rules.Chaturaji.RandomRoll(rng))
			start.ClearRoll()
		}},
		{"Perft depth 3", func() {
			_ = rules.Perft(start, 3)
			_ = rules.Perft(positions[0], 3)
		}},
		{"PlayRandom", func() {
			game = *start
			_ = rules.PlayRandom(&game, rng)
		}},
	} {
		if n := testing.AllocsPerRun(20, c.f); n != 0 {
			t.Errorf("%s: %v allocations a run, want 0", c.name, n)
		}
	}
}
