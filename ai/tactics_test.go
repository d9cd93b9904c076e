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
	name  string
	rules string // the preset; empty for chaturaji
	pos   string
	want  string
	// greedy: the best action scores the most points at once, so the
	// greedy player must find it too.
	greedy bool
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
	{
		// docs/rules.md §6 chaturaji-teams [article]: North has no king, so its
		// partner South commands both armies. East's king is the last of
		// its team: North's elephant takes it on its throne (5 points, +2
		// for the throne, and the empire bonus), which ends the game with
		// South's team ahead; South's own elephant could only take West's
		// elephant (4 points).
		name:  "a commander takes the last enemy king with its partner's elephant",
		rules: "chaturaji-teams",
		pos:   "8/1yP2gP3/yE7/8/4gE2rK/bE7/6rP1/3bK4 b 4 0,0,0,0 0",
		want:  "e4h4",
	},
	{
		// chaturaji-teams [article]: a king moving onto an enemy throne scores
		// its team a point, once per throne. South's king steps onto West's
		// throne a5, out of every enemy's reach; nothing else scores.
		name:  "a king takes the bonus of an enemy throne",
		rules: "chaturaji-teams",
		pos:   "8/8/8/8/1bK6/8/bP6gK/4yK2rK b 5 0,0,0,0 0",
		want:  "b4a5",
	},
	{
		// chaturaji-teams [article]: taking East's king, the last of West and
		// East's team, ends the game, and team scores decide it: 5 against
		// 30, a certain loss. Taking West's elephant (4 points) plays on.
		name:  "a team behind on points does not end the game by taking the last enemy king",
		rules: "chaturaji-teams",
		pos:   "4gK3/1yP6/3rK4/8/8/6rP1/6bK1/yE2bE4 b 4 0,30,0,0 0",
		want:  "d1a1",
	},
	{
		// martian [Martian]: the ravens of West, North and East hold e4, d5 and
		// e5; South's raven moving onto d4, the last empty square of the
		// centre, captures all three (the partner's too). The die left is a
		// 3, for the raven; no other raven move captures anything.
		name:  "the unkindness of ravens",
		rules: "martian",
		pos:   "2gM5/8/7rM/3gRrR3/4yR3/yM7/3bR4/5bM2 b 3 0,0,0,0 0",
		want:  "d2d4",
	},
	{
		// chaturanga-fr1 [French]: elephants (boats) of West and East on d5
		// and e5 and the partner's on e4; South's elephant leaping from b2
		// to d4 completes the block: both enemy elephants are captured and
		// the partner's becomes South's.
		name:  "elephant combat",
		rules: "chaturanga-fr1",
		pos:   "4gK3/8/8/yK2yBrB3/4gB2rK/8/1bB6/3bK4 b - 0,0,0,0 0",
		want:  "b2d4",
	},
	{
		// chaturanga-2p [French]: capturing the rajah wins; the tour on a1
		// reaches it on a8.
		name:  "a tour takes the rajah and wins",
		rules: "chaturanga-2p",
		pos:   "gK7/8/8/8/8/8/8/bE3bK2gE b - 0,0 0",
		want:  "a1a8",
	},
	{
		// chesscom-chaturaji §6.12: South's knight leaping from c2 to d4
		// attacks the kings of West (b5), North (e6) and East (f3), none of
		// them attacked before: three kings attacked anew score 5. Taking
		// West's knight on b2 with the king scores 3; no other move scores,
		// and after d4 no enemy piece reaches the knight or South's king.
		name:   "a knight's triple check for 5 points over a knight for 3",
		rules:  "chesscom-chaturaji",
		pos:    "8/8/4gK3/1yK6/8/5rK2/1yHbH5/bK7 b - 0,0,0,0 0",
		want:   "c2d4",
		greedy: true,
	},
	{
		// chesscom-chaturaji §6.12: the same knight on d4 attacks West's
		// king on b5 and East's on f3 (North's, on h8, is out of its
		// reach): two kings attacked anew score 1. No other move of the
		// knight or the king attacks two kings, and none captures.
		name:   "a knight's double check is the one move that scores",
		rules:  "chesscom-chaturaji",
		pos:    "7gK/8/8/1yK6/8/5rK2/2bH5/bK7 b - 0,0,0,0 0",
		want:   "c2d4",
		greedy: true,
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
	{"greedy", 0}, // only the tactics marked greedy
}

func TestTactics(t *testing.T) {
	for _, f := range families {
		for _, tc := range tactics {
			if f.spec == "greedy" && !tc.greedy {
				continue
			}
			t.Run(f.spec+"/"+tc.name, func(t *testing.T) {
				pr := rules.Chaturaji
				if tc.rules != "" {
					var err error
					if pr, err = rules.Lookup(tc.rules); err != nil {
						t.Fatal(err)
					}
				}
				p := rules.MustParsePosition(pr, tc.pos)
				want, err := rules.ParseAction(pr, tc.want)
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
					if _, ok := pl.(ai.Analyzer); !ok {
						t.Fatalf("%s chose %v, want %v", f.spec, got, want)
					}
					an, _ := pl.(ai.Analyzer).Analyze(context.Background(), p, ai.Budget{Nodes: f.nodes})
					t.Errorf("%s chose %v, want %v (analysis: best %v, line %v, expected %.1f)", f.spec, got, want, an.Best, an.Line, an.Expected)
				}
			})
		}
	}
}
