package ai_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// playOut plays up to n actions of a game with dice from seed, every seat
// played by a fresh player of spec, and returns the actions.
func playOut(t *testing.T, spec string, seed uint64, n int, b ai.Budget) []rules.Action {
	t.Helper()
	g := rules.NewGame(rules.Chaturaji, rules.SeedFromInt(seed))
	var players [rules.NumSeats]ai.Player
	for s := range players {
		pl, err := ai.New(spec, seed*8+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		players[s] = pl
	}
	var line []rules.Action
	for len(line) < n && !g.Finished() {
		if _, err := g.Roll(); err != nil {
			t.Fatal(err)
		}
		p := g.Position()
		a, err := players[p.Decider()].Choose(context.Background(), p, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
		line = append(line, a)
	}
	return line
}

func TestNodeBudgetIsDeterministic(t *testing.T) {
	for _, spec := range []string{"brs", "paranoid", "mcts", "strong?variety=1", "3"} {
		t.Run(spec, func(t *testing.T) {
			b := ai.Budget{Nodes: 2000}
			first := playOut(t, spec, 7, 24, b)
			second := playOut(t, spec, 7, 24, b)
			if !slices.Equal(first, second) {
				t.Errorf("two games with the same seeds differ:\n%v\n%v", first, second)
			}
		})
	}
}

func TestVarietyVariesTheChoice(t *testing.T) {
	// At the start with a 5, South's four pawn pushes and the king's steps
	// are all about equally good: a player with variety should not always
	// pick the same one.
	p := rules.MustParsePosition(rules.Chaturaji, "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0")
	seen := map[rules.Action]bool{}
	for seed := range uint64(12) {
		pl, err := ai.New("strong?variety=2", seed)
		if err != nil {
			t.Fatal(err)
		}
		a, err := pl.Choose(context.Background(), p, ai.Budget{Nodes: 3000})
		if err != nil {
			t.Fatal(err)
		}
		seen[a] = true
	}
	if len(seen) < 2 {
		t.Errorf("12 seeds chose only %v", seen)
	}
}

func TestTimeBudget(t *testing.T) {
	p := rules.MustParsePosition(rules.Chaturaji, "2yP2gE1gB/yHyP2gPgPgPgP/yE1yP4gH/1yP6/yK3yB1rPrK/1bP3rBrP1/bP1bP3rPrE/bBbHbEbK2rP1 b 3 3,5,0,1 2")
	for _, spec := range []string{"brs", "paranoid", "mcts"} {
		t.Run(spec, func(t *testing.T) {
			pl, err := ai.New(spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			const budget = 50 * time.Millisecond
			start := time.Now()
			if _, err := pl.Choose(context.Background(), p, ai.Budget{Time: budget}); err != nil {
				t.Fatal(err)
			}
			// Generous: other tests and processes share the machine, and
			// the race detector slows everything. A search that ignored
			// its budget would run on for an hour.
			if el := time.Since(start); el > budget+450*time.Millisecond {
				t.Errorf("took %v on a budget of %v", el, budget)
			}
		})
	}
}

func TestCancelledContextStopsTheSearch(t *testing.T) {
	p := rules.MustParsePosition(rules.Chaturaji, "2yP2gE1gB/yHyP2gPgPgPgP/yE1yP4gH/1yP6/yK3yB1rPrK/1bP3rBrP1/bP1bP3rPrE/bBbHbEbK2rP1 b 3 3,5,0,1 2")
	for _, spec := range []string{"brs", "paranoid", "mcts"} {
		t.Run(spec, func(t *testing.T) {
			pl, err := ai.New(spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			start := time.Now()
			a, err := pl.Choose(ctx, p, ai.Budget{Time: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if el := time.Since(start); el > 500*time.Millisecond {
				t.Errorf("took %v after a cancel at 20ms", el)
			}
			if !p.IsLegal(a) {
				t.Errorf("chose illegal %v", a)
			}
		})
	}
}

func TestAnalyze(t *testing.T) {
	p := rules.MustParsePosition(rules.Chaturaji, "2yP2gE1gB/yHyP2gPgPgPgP/yE1yP4gH/1yP6/yK3yB1rPrK/1bP3rBrP1/bP1bP3rPrE/bBbHbEbK2rP1 b 3 3,5,0,1 2")
	for _, spec := range []string{"brs", "paranoid", "mcts", "strong"} {
		t.Run(spec, func(t *testing.T) {
			pl, err := ai.New(spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			an, err := pl.(ai.Analyzer).Analyze(context.Background(), p, ai.Budget{Nodes: 5000})
			if err != nil {
				t.Fatal(err)
			}
			if !p.IsLegal(an.Best) || len(an.Line) == 0 || an.Line[0] != an.Best {
				t.Errorf("best %v, line %v", an.Best, an.Line)
			}
			// The line must be playable (through some rolls) from p.
			if an.Nodes <= 0 || an.Depth <= 0 {
				t.Errorf("nodes %d, depth %d", an.Nodes, an.Depth)
			}
			// North has no king: its expected score is its score, 0.
			if an.Expected[rules.North] != 0 || an.Expected[rules.West] < 5 {
				t.Errorf("expected scores %v", an.Expected)
			}
		})
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		spec string
		ok   bool
	}{
		{"random", true}, {"greedy", true}, {"strong", true}, {"brs", true}, {"paranoid", true},
		{"mcts", true}, {"level:1", true}, {"level:8", true}, {"4", true},
		{"strong?variety=0.5", true}, {"mcts?c=1.2&horizon=0", true},
		{"level:9", false}, {"0", false}, {"best", false}, {"strong?speed=3", false},
		{"strong?variety=-1", false}, {"greedy?variety=1", false},
		// Not finite numbers: a NaN weight makes every value NaN.
		{"strong?material=NaN", false}, {"strong?material=nan", false}, {"strong?temp=Inf", false},
		{"strong?variety=%2BInf", false}, {"mcts?c=-Inf", false}, {"strong?spite=1e400", false},
		// Chances above 1, counts that are not whole or overflow.
		{"strong?blunder=1", true}, {"strong?blunder=1.5", false}, {"mcts?epsilon=2", false},
		{"strong?leader=3", false}, {"strong?nodes=1.5", false}, {"strong?nodes=1e30", false},
		{"mcts?horizon=1e19", false}, {"strong?nodes=1e6", true},
		// A setting given twice.
		{"strong?nodes=1&nodes=2", false},
	} {
		_, err := ai.New(tc.spec, 1)
		if (err == nil) != tc.ok {
			t.Errorf("New(%q): error %v, want ok %v", tc.spec, err, tc.ok)
		}
	}
}

func TestLevelsPlayLegally(t *testing.T) {
	for level := 1; level <= len(ai.Levels); level++ {
		spec := "level:" + string(rune('0'+level))
		line := playOut(t, spec, 3, 12, ai.Budget{Time: 20 * time.Millisecond, Nodes: 3000})
		if len(line) == 0 {
			t.Errorf("%s played nothing", spec)
		}
	}
}

func TestNoActions(t *testing.T) {
	p := rules.Chaturaji.StartPosition() // awaiting its roll
	for _, spec := range []string{"random", "greedy", "brs", "mcts"} {
		pl, _ := ai.New(spec, 1)
		if _, err := pl.Choose(context.Background(), p, ai.Budget{Nodes: 100}); err == nil {
			t.Errorf("%s chose in a position awaiting its roll", spec)
		}
	}
	pl, _ := ai.New("brs", 1)
	rolled := rules.MustParsePosition(rules.Chaturaji, "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0")
	if _, err := pl.Choose(context.Background(), rolled, ai.Budget{}); err == nil {
		t.Errorf("a search without a budget should fail")
	}
}
