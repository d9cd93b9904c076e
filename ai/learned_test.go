package ai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

func TestEvalSetting(t *testing.T) {
	for _, c := range []struct {
		spec string
		err  string
	}{
		{"strong?eval=nn", ""},
		{"strong?eval=hand", ""},
		{"mcts?eval=nn", ""},
		{"level:3?eval=nn", ""},
		{"strong?eval=deep", "want hand or nn"},
		{"strong?eval=nn&eval=hand", "given 2 times"},
		{"greedy?eval=nn", "takes no settings"},
	} {
		t.Run(c.spec, func(t *testing.T) {
			_, err := ai.New(c.spec, 1)
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("New(%q): %v, want error %q", c.spec, err, c.err)
			}
		})
	}
}

// TestLearnedFallsBack checks that where a preset has no weights the
// learned evaluation is the hand-written one, and the search plays alike.
func TestLearnedFallsBack(t *testing.T) {
	pr := rules.Chaturanga2P
	if ai.HasLearned(pr) {
		t.Fatal("chaturanga-2p has weights now: test the fallback on a preset without")
	}
	p := pr.StartPosition()
	if h, l := ai.Evaluation(pr, ai.EvalHand)(p), ai.Evaluation(pr, ai.EvalLearned)(p); h != l {
		t.Fatalf("hand %v, learned %v", h, l)
	}
	var best [2]rules.Action
	for i, spec := range []string{"strong?eval=hand", "strong?eval=nn"} {
		pl, err := ai.New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		an, err := pl.(ai.Analyzer).Analyze(context.Background(), p, ai.Budget{Nodes: 2000})
		if err != nil {
			t.Fatal(err)
		}
		best[i] = an.Best
	}
	if best[0] != best[1] {
		t.Fatalf("hand plays %s, learned %s", best[0], best[1])
	}
}

// TestLearnedValues checks the learned evaluation where there are weights:
// finished games are their scores, and every value stays within the
// bounds the search prunes with.
func TestLearnedValues(t *testing.T) {
	for _, pr := range []*rules.Preset{rules.Chaturaji, rules.ChaturajiTeams} {
		t.Run(pr.Name, func(t *testing.T) {
			if !ai.HasLearned(pr) {
				t.Fatalf("%s has no shipped weights (ai/nn/weights)", pr.Name)
			}
			eval := ai.Evaluation(pr, ai.EvalLearned)
			g := rules.NewGame(pr, rules.SeedFromInt(3))
			var buf [rules.MaxActions]rules.Action
			for i := 0; !g.Finished(); i++ {
				if g.Position().AwaitingRoll() {
					g.Roll()
					continue
				}
				for _, x := range eval(g.Position()) {
					if x < 0 || x > 100 {
						t.Fatalf("value %v out of bounds in %s", x, g.Position())
					}
				}
				acts := g.Actions(buf[:])
				g.Play(acts[i%len(acts)])
			}
			p := g.Position()
			u := eval(p)
			for _, s := range pr.Seats() {
				if pr.Goal == rules.PointsGoal && u[s] != float64(p.Score(s)) {
					t.Errorf("finished: %s's value %v, score %d", s, u[s], p.Score(s))
				}
			}
		})
	}
}
