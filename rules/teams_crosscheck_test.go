package rules_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// kingHunt is a policy for the team presets: it prefers captures of kings,
// kings walking to thrones, and proposing and accepting exchanges, so that
// random games reach the rules of team play.
var kingHunt = policy{"king hunt", 0.9, func(p *rules.Position, a rules.Action) bool {
	switch a.Type() {
	case rules.Propose, rules.Accept:
		return true
	case rules.Move:
		pr := p.Preset()
		if pc := p.At(a.To()); pc != rules.NoPiece && pc.Kind() == rules.King {
			return true
		}
		if p.At(a.From()).Kind() == rules.King {
			for _, s := range pr.Seats() {
				if pr.Throne(s) == a.To() {
					return true
				}
			}
			return a.To()%2 == 0
		}
		return isCapture(p, a) && a.To()%3 == 0
	}
	return false
}, nil}

// throneWalk prefers moving kings toward the partner's throne and keeps
// kings alive, so that commands last.
var throneWalk = policy{"throne walk", 0.8, func(p *rules.Position, a rules.Action) bool {
	if a.Type() == rules.Accept || a.Type() == rules.Propose {
		return true
	}
	if a.Type() != rules.Move || p.At(a.From()).Kind() != rules.King {
		return false
	}
	th := p.Preset().Throne(rules.Partner(p.At(a.From()).Seat()))
	return chebyshev(a.To(), th) < chebyshev(a.From(), th)
}, func(p *rules.Position, a rules.Action) bool {
	return isCapture(p, a) && p.At(a.To()).Kind() == rules.King
}}

func chebyshev(a, b rules.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// crosscheckGames plays random games of preset name with the engine and
// compares, at every position, the sorted legal actions and the position
// after each action with internal/naive. It returns how many positions
// carried each extra key.
func crosscheckGames(t *testing.T, name string, games int, pols []policy, seed uint64) map[string]int {
	t.Helper()
	pr := mustLookup(t, name)
	rng := rand.New(rand.NewPCG(seed, uint64(len(name))))
	seen := map[string]int{}
	for g := range games {
		pol := pols[g%len(pols)]
		p := pr.StartPosition()
		for step := 0; !p.Finished() && step < 1500; step++ {
			for p.AwaitingRoll() { // a roll-off comes before the first roll
				p.SetRoll(p.RandomRoll(rng))
			}
			s := p.String()
			if f := strings.Fields(s); len(f) == 6 {
				for _, kv := range strings.Split(f[5], ";") {
					k, v, _ := strings.Cut(kv, "=")
					seen[k]++
					seen[kv]++
					_ = v
				}
			}
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
			if want := n.Actions(); !slices.Equal(got, want) {
				t.Fatalf("%s: %s\nactions %v\nnaive   %v", name, s, got, want)
			}
			if c := p.CountActions(); c != len(acts) {
				t.Fatalf("%s: %s: CountActions %d, Actions %d", name, s, c, len(acts))
			}
			for i, a := range acts {
				var u rules.Undo
				p.Make(a, &u)
				after := p.String()
				if q, err := rules.ParsePosition(pr, after); err != nil || q.Hash() != p.Hash() || !q.Equal(p) {
					t.Fatalf("%s: %s after %s: %s does not re-parse to the same position (%v)", name, s, got[i], after, err)
				}
				p.Unmake(&u)
				if p.String() != s {
					t.Fatalf("%s: %s: unmake of %s left %s", name, s, got[i], p)
				}
				na, err := n.Apply(got[i])
				if err != nil {
					t.Fatalf("%s: %s: naive refuses %s: %v", name, s, got[i], err)
				}
				if after != na.String() {
					t.Fatalf("%s: %s after %s\nengine %s\nnaive  %s", name, s, got[i], after, na.String())
				}
				if p2 := mustParsePreset(t, pr, after); p2.Finished() != na.Finished() {
					t.Fatalf("%s: %s: finished %v, naive %v", name, after, p2.Finished(), na.Finished())
				}
			}
			var u rules.Undo
			p.Make(pol.choose(p, acts, rng), &u)
		}
	}
	return seen
}

func mustParsePreset(tb testing.TB, pr *rules.Preset, s string) *rules.Position {
	tb.Helper()
	p, err := rules.ParsePosition(pr, s)
	if err != nil {
		tb.Fatalf("ParsePosition(%s, %q): %v", pr.Name, s, err)
	}
	return p
}

// TestTeamPresetsAgainstNaive cross-checks the team presets on random games
// steered toward king captures, thrones and exchanges.
func TestTeamPresetsAgainstNaive(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	games := 80
	for _, name := range []string{"chaturaji-teams", "chaturaji-diceless"} {
		seen := crosscheckGames(t, name, games, []policy{kingHunt, throneWalk, policies[1], throneWalk, policies[0]}, 11)
		t.Logf("%s: extra keys seen %v", name, seen)
		for _, k := range []string{"command", "exchange=propose", "exchange=accept", "exchange=drop", "turn"} {
			if seen[k] == 0 {
				t.Errorf("%s: no position with %s= in the random games", name, k)
			}
		}
	}
	seen := crosscheckGames(t, "biruni", 40, []policy{throneWalk, kingHunt, policies[0]}, 12)
	t.Logf("biruni: extra keys seen %v", seen)
	if seen["command"] == 0 {
		t.Error("biruni: no position with command= in the random games")
	}
	seen = crosscheckGames(t, "martian", 60, []policy{kingHunt, throneWalk, policies[1], policies[0]}, 14)
	t.Logf("martian: extra keys seen %v", seen)
	for _, k := range []string{"control", "return=decide", "return=place"} {
		if seen[k] == 0 {
			t.Errorf("martian: no position with %s in the random games", k)
		}
	}
	seen = crosscheckGames(t, "chaturanga-fr1", 60, []policy{kingHunt, throneWalk, policies[1], policies[0]}, 15)
	t.Logf("chaturanga-fr1: extra keys seen %v", seen)
	for _, k := range []string{"command", "exchange=propose", "exchange=accept", "exchange=drop", "leaps"} {
		if seen[k] == 0 {
			t.Errorf("chaturanga-fr1: no position with %s in the random games", k)
		}
	}
	seen = crosscheckGames(t, "chaturanga-fr2", 60, []policy{kingHunt, throneWalk, policies[1], policies[0]}, 16)
	t.Logf("chaturanga-fr2: extra keys seen %v", seen)
	for _, k := range []string{"command", "exchange=propose", "retired", "thrones", "return=back"} {
		if seen[k] == 0 {
			t.Errorf("chaturanga-fr2: no position with %s in the random games", k)
		}
	}
	seen = crosscheckGames(t, "chaturaji-teams+lastforces", 40, []policy{kingHunt, policies[1], policies[0]}, 17)
	t.Logf("chaturaji-teams+lastforces: extra keys seen %v", seen)
	seen = crosscheckGames(t, "winther", 80, []policy{kingHunt, throneWalk, policies[1], policies[0]}, 13)
	t.Logf("winther: extra keys seen %v", seen)
	if seen["drops"] == 0 || seen["lost"] == 0 {
		t.Error("winther: no position with drops= or lost= in the random games")
	}
}
