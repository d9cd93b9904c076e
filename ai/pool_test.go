package ai_test

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// TestPoolWithRoomPlaysAsOwnMemory plays the same seeded games twice, the
// players' tables (and trees) their own, then drawn from one pool with
// room for all: every action must be the same, so a pool costs nothing
// when memory is plentiful.
func TestPoolWithRoomPlaysAsOwnMemory(t *testing.T) {
	for _, spec := range []string{"brs", "paranoid", "mcts", "3"} {
		t.Run(spec, func(t *testing.T) {
			own := playOut(t, spec, 11, 24, ai.Budget{Nodes: 3000})
			pool := ai.NewPool(1 << 30)
			pooled := playOut(t, spec, 11, 24, ai.Budget{Nodes: 3000, Memory: pool})
			if !slices.Equal(own, pooled) {
				t.Errorf("own memory and a roomy pool play differently:\n%v\n%v", own, pooled)
			}
			if pool.Used() == 0 {
				t.Errorf("the searches took nothing from the pool")
			}
		})
	}
}

// TestPoolKeepsEachPlayersTable checks that a player searching the same
// position again finds its table as it left it, though another player
// searched meanwhile, when the pool has room for both: its second search
// is the one it makes with a table of its own.
func TestPoolKeepsEachPlayersTable(t *testing.T) {
	p1 := rules.MustParsePosition(rules.Chaturaji, benchPositions[1])
	p2 := rules.MustParsePosition(rules.Chaturaji, benchPositions[2])
	second := func(pool *ai.Pool) ai.Analysis {
		a, _ := ai.New("strong", 1)
		b, _ := ai.New("strong", 2)
		budget := ai.Budget{Nodes: 20000, Memory: pool}
		var an ai.Analysis
		for _, step := range []struct {
			pl ai.Player
			p  *rules.Position
		}{{a, p1}, {b, p2}, {a, p1}} {
			var err error
			if an, err = step.pl.(ai.Analyzer).Analyze(context.Background(), step.p, budget); err != nil {
				t.Fatal(err)
			}
		}
		an.Elapsed = 0
		return an
	}
	own, pooled := second(nil), second(ai.NewPool(1<<30))
	if !reflect.DeepEqual(own, pooled) {
		t.Errorf("the second search with a table of its own:\n%+v\nwith the pool's:\n%+v", own, pooled)
	}
}

// TestPoolKeepsToItsBudget runs many players at once on a pool with room
// for a fraction of the tables and trees they ask for: every decision is
// a legal action, and the pool's memory never goes over its budget.
func TestPoolKeepsToItsBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int64
	}{
		{"a few small tables", 1 << 20},
		{"not one table", 64 << 10},
		{"nothing", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := ai.NewPool(tc.budget)
			stop := make(chan struct{})
			over := make(chan int64, 1)
			go func() {
				for {
					select {
					case <-stop:
						close(over)
						return
					default:
					}
					if u := pool.Used(); u > tc.budget {
						over <- u
						close(over)
						return
					}
					time.Sleep(100 * time.Microsecond)
				}
			}()
			var wg sync.WaitGroup
			for i, spec := range []string{"strong", "brs", "mcts", "strong", "paranoid", "mcts", "6", "strong"} {
				wg.Go(func() {
					g := rules.NewGame(rules.Chaturaji, rules.SeedFromInt(uint64(i)))
					pl, err := ai.New(spec, uint64(i))
					if err != nil {
						t.Error(err)
						return
					}
					for n := 0; n < 6 && !g.Finished(); n++ {
						if _, err := g.Roll(); err != nil {
							t.Error(err)
							return
						}
						p := g.Position()
						a, err := pl.Choose(context.Background(), p, ai.Budget{Nodes: 20000, Memory: pool})
						if err != nil || !p.IsLegal(a) {
							t.Errorf("%s chose %v, %v in %s", spec, a, err, p)
							return
						}
						g.Play(a)
					}
				})
			}
			wg.Wait()
			close(stop)
			if u, ok := <-over; ok {
				t.Errorf("the pool held %d bytes, over its budget of %d", u, tc.budget)
			}
			if u := pool.Used(); u > tc.budget {
				t.Errorf("the pool holds %d bytes at the end, over its budget of %d", u, tc.budget)
			}
		})
	}
}

// TestAnalyzeWithoutMemory checks that a search the pool can lend nothing
// still answers with a legal action and a line.
func TestAnalyzeWithoutMemory(t *testing.T) {
	p := rules.MustParsePosition(rules.Chaturaji, "2yP2gE1gB/yHyP2gPgPgPgP/yE1yP4gH/1yP6/yK3yB1rPrK/1bP3rBrP1/bP1bP3rPrE/bBbHbEbK2rP1 b 3 3,5,0,1 2")
	for _, spec := range []string{"strong", "mcts"} {
		pl, _ := ai.New(spec, 1)
		an, err := pl.(ai.Analyzer).Analyze(context.Background(), p, ai.Budget{Nodes: 2000, Memory: ai.NewPool(1)})
		if err != nil || !p.IsLegal(an.Best) || len(an.Line) == 0 || an.Line[0] != an.Best {
			t.Errorf("%s: %+v, %v", spec, an, err)
		}
	}
}
