package ai_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// FuzzNew gives New any spec: it either refuses it with an "ai:" error or
// builds a player that, on a small budget, plays a legal action.
func FuzzNew(f *testing.F) {
	for _, s := range []string{
		"random", "greedy", "strong", "brs", "paranoid", "mcts", "level:3", "8", "0", "9",
		"strong?variety=0.5&temp=1", "mcts?c=1.2&horizon=0&epsilon=0.3", "brs?material=NaN",
		"strong?temp=Inf", "strong?nodes=1e30", "strong?nodes=1&nodes=2", "strong?%zz", "strong?=1",
		"greedy?x=1", "level:", "?", "strong?blunder=1", "strong?leader=0.5&threat3=2",
		"strong?eval=nn", "mcts?eval=hand", "strong?eval=xx", "strong?eval=nn&eval=hand", "level:2?eval=nn",
	} {
		f.Add(s)
	}
	pos, err := rules.ParsePosition(rules.Chaturaji, rules.Chaturaji.Start)
	if err != nil {
		f.Fatal(err)
	}
	roll, _ := rules.NewRoll(5)
	pos.SetRoll(roll)
	f.Fuzz(func(t *testing.T, spec string) {
		pl, err := ai.New(spec, 1)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ai: ") {
				t.Fatalf("%q: error %q lacks the package name", spec, err)
			}
			return
		}
		p := *pos
		a, err := pl.Choose(context.Background(), &p, ai.Budget{Nodes: 50, Time: 100 * time.Millisecond})
		if err != nil {
			t.Fatalf("%q: Choose: %v", spec, err)
		}
		if !pos.IsLegal(a) {
			t.Fatalf("%q chose %s, not legal in %s", spec, a, pos)
		}
	})
}
