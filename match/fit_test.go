package match_test

import (
	"context"
	"math"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/match"
	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
)

// TestFit fits the ratings of a small real match: the anchor shows the
// number asked for, another anchor shifts every Mu by the same amount,
// the games are counted per spec, and the same match fits the same; an
// anchor that did not play is refused.
func TestFit(t *testing.T) {
	lineup, err := match.NewLineup([]string{"random", "greedy", "random", "greedy"}, "")
	if err != nil {
		t.Fatal(err)
	}
	run := func() *match.Result {
		res, err := match.Run(context.Background(), match.Config{
			Preset: rules.Chaturaji, Lineup: lineup, Deals: 1, Seed: rules.SeedFromInt(5), Budget: ai.Budget{Nodes: 100},
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run()
	m := rating.Default()
	a, err := match.Fit(m, []*match.Result{res}, "random", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 2 || a[0].Spec != "random" || a[1].Spec != "greedy" || a[0].Games != 8 || a[1].Games != 8 {
		t.Fatalf("Fit = %+v; want random and greedy, 8 seat-games each (a deal of 4 games, two seats each)", a)
	}
	if n := m.Show(a[0].Rating).Number; n != 1000 {
		t.Errorf("the anchor shows %d; want 1000", n)
	}
	b, err := match.Fit(m, []*match.Result{res}, "greedy", 1500)
	if err != nil {
		t.Fatal(err)
	}
	if d := (b[0].Rating.Mu - b[1].Rating.Mu) - (a[0].Rating.Mu - a[1].Rating.Mu); math.Abs(d) > 1e-9 || b[0].Rating.Sigma != a[0].Rating.Sigma {
		t.Errorf("another anchor changed the difference of Mu by %v, or a Sigma", d)
	}
	if again, _ := match.Fit(m, []*match.Result{run()}, "random", 1000); again[1] != a[1] {
		t.Errorf("the same match fits %+v, then %+v", a[1], again[1])
	}
	if _, err := match.Fit(m, []*match.Result{res}, "3", 1000); err == nil {
		t.Error("an anchor that did not play: no error")
	}
	if _, err := match.Fit(m, nil, "random", 1000); err == nil {
		t.Error("no games: no error")
	}
}
