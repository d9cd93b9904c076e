package rules_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// newPresets are the presets beyond the default that internal/naive also
// implements, written from docs/rules.md alone.
var newPresets = []string{"chaturaji-ranks", "chaturaji-2dice", "ludii", "chaturanga-2p", "chaturaji-teams", "chaturaji-diceless", "biruni", "winther", "martian", "chaturanga-fr1", "chaturanga-fr2", "chesscom-chaturaji"}

// TestPresetStartPerftAgainstNaive compares perft from each preset's start
// position with the independent implementation.
func TestPresetStartPerftAgainstNaive(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	depths := map[string]int{"chaturaji-ranks": 5, "chaturaji-2dice": 4, "ludii": 5, "chaturanga-2p": 4, "chaturaji-teams": 4, "chaturaji-diceless": 4, "biruni": 4, "winther": 4, "martian": 4, "chaturanga-fr1": 4, "chaturanga-fr2": 4, "chesscom-chaturaji": 5}
	if testing.Short() {
		depths["chaturaji-2dice"] = 3 // depth 4 takes the naive engine seconds
	}
	for _, name := range newPresets {
		pr := mustLookup(t, name)
		for d := 1; d <= depths[name]; d++ {
			got := rules.Perft(pr.StartPosition(), d)
			want := naive.PerftOf(naive.StartOf(name), d)
			if got != want {
				t.Errorf("%s perft %d = %d, naive %d", name, d, got, want)
			}
		}
	}
}

// TestPresetRandomPositionsAgainstNaive plays random games of each preset
// with the engine and, at every position, compares the sorted legal actions
// and the position after each action with the independent implementation.
func TestPresetRandomPositionsAgainstNaive(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	games := 60
	if testing.Short() {
		games = 10
	}
	for _, name := range newPresets {
		pr := mustLookup(t, name)
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		positions := 0
		for g := range games {
			p := pr.StartPosition()
			for step := 0; !p.Finished() && step < 400; step++ {
				for p.AwaitingRoll() { // a roll-off comes before the first roll
					p.SetRoll(p.RandomRoll(rng))
				}
				s := p.String()
				n, err := naive.ParseRules(name, s)
				if err != nil {
					t.Fatalf("%s game %d: naive cannot parse %s: %v", name, g, s, err)
				}
				var buf [rules.MaxActions]rules.Action
				acts := p.Actions(buf[:])
				rules.SortActions(pr, acts)
				var got []string
				for _, a := range acts {
					got = append(got, a.Format(pr))
				}
				want := n.Actions()
				if !slices.Equal(got, want) {
					t.Fatalf("%s: %s\nactions %v\nnaive   %v", name, s, got, want)
				}
				for i, a := range acts {
					var u rules.Undo
					p.Make(a, &u)
					after := p.String()
					p.Unmake(&u)
					na, err := n.Apply(got[i])
					if err != nil {
						t.Fatalf("%s: %s: naive refuses %s: %v", name, s, got[i], err)
					}
					if after != na.String() {
						t.Fatalf("%s: %s after %s\nengine %s\nnaive  %s", name, s, got[i], after, na.String())
					}
				}
				positions++
				var u rules.Undo
				p.Make(acts[rng.IntN(len(acts))], &u)
			}
		}
		t.Logf("%s: %d positions agree", name, positions)
	}
}

func mustLookup(t *testing.T, name string) *rules.Preset {
	t.Helper()
	pr, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestSoldierOnTheRajahsFileNeverPromotes: chaturanga-2p promotes "never on
// the rajah's file" (docs/rules.md §6), not even to replace a captured rajah while
// the turn passes. South's rajah takes North's; North's soldier waiting on e1
// stays a soldier, the clock resets, the turn comes back to South and South
// has won. Worked out by hand.
func TestSoldierOnTheRajahsFileNeverPromotes(t *testing.T) {
	pr := mustLookup(t, "chaturanga-2p")
	p, err := rules.ParsePosition(pr, "8/8/bV2gB4/8/6bKgK/8/bH7/4gP3 b - 0,0 40 leaps=bg")
	if err != nil {
		t.Fatal(err)
	}
	a, err := rules.ParseAction(pr, "g4h4")
	if err != nil {
		t.Fatal(err)
	}
	var u rules.Undo
	p.Make(a, &u)
	if got, want := p.String(), "8/8/bV2gB4/8/7bK/8/bH7/4gP3 b - 0,0 0 leaps=bg"; got != want {
		t.Errorf("after g4h4: %s, want %s", got, want)
	}
	if p.EndReason() != rules.KingsTaken || p.Ranks()[rules.South] != 1 || p.Ranks()[rules.North] != 2 {
		t.Errorf("end %v, ranks %v: want South to win by taking the rajah", p.EndReason(), p.Ranks())
	}
}
