package ai_test

import (
	"context"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// tactics are small positions whose best action follows from the rules by
// hand. Every search family must find it.
var tactics = []struct {
	name string
	pos  string
	want string
}{
	{
		// The horse on c3 reaches West's king on b5 and West's elephant on
		// e4. The king is worth 5 points and freezes West,
		// whose pieces become free points; the elephant is worth 4.
		name: "a free king to capture",
		pos:  "7gK/1yP4gP1/8/1yK6/4yE1rP1/2bH4rK/bPbP6/3bK4 b 3 0,0,0,0 0",
		want: "c3b5",
	},
	{
		// Boats of West, North and East stand on f4, e5 and f5; South's boat
		// jumping from c2 to e4 fills the block e4-f5 and takes all three
		// (6 points). Its only other move takes a pawn of West (1 point).
		name: "a boat triumph in one",
		pos:  "yK6gK/8/8/4gBrB2/yP4yB2/8/2bB5/3bK3rK b 2 0,0,0,0 0",
		want: "c2e4",
	},
	{
		// South's king on a1 is boxed in by its own pieces, and West's horse
		// on c2, which moves next, takes it on a roll of 3. The pawn stepping
		// to d8 waits there (South still has a king), and promotes to a king
		// as soon as South's king is taken, reviving the frozen army.
		name: "a pawn steps to a king square to revive the army if the king falls",
		pos:  "yK6gK/3bP4/8/7rK/8/8/bEbByH4bP/bKbH6 b 5 0,0,0,0 0",
		want: "d7d8",
	},
	{
		// An elephant was rolled and South has none: pass is the only action.
		name: "a forced pass",
		pos:  "yK6gK/8/8/8/8/8/bP7/3bK3rK b 4 0,0,0,0 0",
		want: "pass",
	},
	{
		// The king could take West's pawn on b2, but West's horse on c4,
		// which moves next, would then take the king on a roll of 3. The
		// pawn push keeps the king out of reach.
		name: "no king move into the reach of a piece that moves next",
		pos:  "yK6gK/8/8/7rK/2yH5/8/bEyP5bP/bKbH6 b 5 0,0,0,0 0",
		want: "h2h3",
	},
	{
		// Only South's and North's kings are left. Taking North's king ends
		// the game and raises South's 10 points to 54, above North's 40;
		// taking West's frozen elephant would be worth 4 points.
		name: "taking the second-to-last king for the 54 raise",
		pos:  "8/3gK3gP/8/8/yE2bE4/8/8/bK5rH1 b 4 10,30,40,20 0",
		want: "d4d7",
	},
}

// families are the search players every tactic is put to, with a node
// budget each can spend quickly even under the race detector.
var families = []struct {
	spec  string
	nodes int64
}{
	{"brs", 20000},
	{"paranoid", 20000},
	{"mcts", 3000},
	{"strong", 20000},
}

func TestTactics(t *testing.T) {
	for _, f := range families {
		for _, tc := range tactics {
			t.Run(f.spec+"/"+tc.name, func(t *testing.T) {
				p := rules.MustParsePosition(rules.Chaturaji, tc.pos)
				want, err := rules.ParseAction(rules.Chaturaji, tc.want)
				if err != nil {
					t.Fatal(err)
				}
				if !p.IsLegal(want) {
					t.Fatalf("%s is not legal in %s", tc.want, tc.pos)
				}
				pl, err := ai.New(f.spec, 1)
				if err != nil {
					t.Fatal(err)
				}
				got, err := pl.Choose(context.Background(), p, ai.Budget{Nodes: f.nodes})
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					an, _ := pl.(ai.Analyzer).Analyze(context.Background(), p, ai.Budget{Nodes: f.nodes})
					t.Errorf("%s chose %v, want %v (analysis: best %v, line %v, expected %.1f)", f.spec, got, want, an.Best, an.Line, an.Expected)
				}
			})
		}
	}
}
