package ai_test

import (
	"context"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// TestEveryPlayerPlaysEveryPreset plays one whole game of every preset with
// every player in every seat: each decision must be legal, and the game
// must end (by its rules or by the clock) within a generous number of turns.
func TestEveryPlayerPlaysEveryPreset(t *testing.T) {
	specs := []struct {
		spec  string
		nodes int64
	}{
		{"random", 0}, {"greedy", 0}, {"brs", 300}, {"paranoid", 300}, {"mcts", 60}, {"strong", 300}, {"level:1", 0},
	}
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range specs {
			t.Run(name+"/"+sp.spec, func(t *testing.T) {
				t.Parallel()
				playWhole(t, pr, sp.spec, ai.Budget{Nodes: max(sp.nodes, 1)})
			})
		}
	}
}

// playWhole plays a game of pr with a fresh player of spec in every seat.
func playWhole(t *testing.T, pr *rules.Preset, spec string, b ai.Budget) {
	t.Helper()
	g := rules.NewGame(pr, rules.SeedFromInt(11))
	players := map[rules.Seat]ai.Player{}
	for i, s := range pr.Seats() {
		pl, err := ai.New(spec, uint64(i)+1)
		if err != nil {
			t.Fatal(err)
		}
		players[s] = pl
	}
	var buf [rules.MaxActions]rules.Action
	const maxDecisions = 20000
	for n := 0; !g.Finished(); n++ {
		if n > maxDecisions {
			t.Fatalf("no end after %d decisions: %s", maxDecisions, g.Position())
		}
		p := g.Position()
		if p.AwaitingRoll() {
			if _, err := g.Roll(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if len(p.Actions(buf[:])) == 0 {
			t.Fatalf("no action in %s", p)
		}
		a, err := players[p.Decider()].Choose(context.Background(), p, b)
		if err != nil {
			t.Fatalf("%s in %s: %v", spec, p, err)
		}
		if err := g.Play(a); err != nil {
			t.Fatalf("%s in %s: %v", spec, p, err)
		}
	}
}
