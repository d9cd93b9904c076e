package rules_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// FuzzLookup: a rules name with house rules either fails with a "rules:"
// error or gives a preset whose name is canonical: looking it up again
// gives the same preset, and its start position prints as it parses.
func FuzzLookup(f *testing.F) {
	for _, n := range rules.Names() {
		f.Add(n)
		f.Add(n + "+clock=100")
	}
	for _, s := range []string{"chaturaji+ranks+dice=2cube", "chaturaji+dice=2cube+ranks", "chaturaji+ranks+ranks",
		"chaturaji+", "chaturaji++ranks", "chaturaji+clock=0", "chaturaji+clock=01", "chaturaji+peace=maybe",
		"chaturaji-teams+retire=off+triumph=off", "chaturaji-teams+dice=2cube", "chaturaji-diceless+ranks",
		"chaturaji-diceless+raise=54", "nope+ranks", "chaturaji+ranks=1", "chaturaji+dice"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		pr, err := rules.Lookup(name)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: ") {
				t.Fatalf("%q: error %q lacks the package name", name, err)
			}
			return
		}
		again, err := rules.Lookup(pr.Name)
		if err != nil || again != pr {
			t.Fatalf("%q: canonical name %q looks up to %v, %v", name, pr.Name, again, err)
		}
		p := pr.StartPosition()
		if q, err := rules.ParsePosition(pr, p.String()); err != nil || !q.Equal(p) {
			t.Fatalf("%q: start %s does not round-trip: %v", name, p, err)
		}
		if !strings.Contains(pr.Explain(), "# "+pr.Name) {
			t.Fatalf("%q: Explain does not name %s", name, pr.Name)
		}
	})
}

// extraBoards are positions of the presets with an extra field, without it:
// the fuzzer appends an extra field to one of them.
var extraBoards = []struct{ preset, pos string }{
	{"chaturaji-teams", "4bK2gK/7gP/8/yK7/7rK/8/bP7/8 g 5 0,0,0,0 1"},
	{"chaturaji-teams", "8/7gP/8/1bH6/7rK/8/8/3bK4 b - 5,0,0,0 0"},
	{"chaturaji-teams", "4yE3/7gP/8/1bH6/7rK/8/8/3bK4 g - 5,0,0,0 0"},
	{"chaturaji-diceless", "4bK3/7gP/8/yK7/7rK/8/bP7/8 g - 0,0,0,0 1"},
	{"chaturaji-diceless", "8/7gP/8/1bH6/7rK/8/8/3bK4 y - 0,0,0,0 0"},
	{"chaturanga-2p", "8/8/bV2gB4/8/6bKgK/8/bH7/4gP3 b - 0,0 40"},
	{"biruni", "4bK2gK/8/3gP4/yK7/3bE2yPrK/8/8/8 b 46 0,0,0,0 0"},
	{"biruni", "4bK3/7gP/8/yK7/7rK/8/8/8 g 5 0,0,0,0 2"},
	{"winther", "8/8/8/bH7/7rK/8/8/3bK4 g 23 0,0,0,0 0"},
	{"martian", "2gM5/8/7rM/8/8/bM7/yPyS5bS/8 b 14/24 0,0,0,0 4"},
	{"chaturanga-fr1", "4bK3/7gP/8/yK7/7rK/8/bP7/8 g - 0,0,0,0 1"},
	{"chaturanga-fr1", "4yE3/7gP/8/1bH6/7rK/8/8/3bK4 g - 0,0,0,0 0"},
	{"chaturanga-fr2", "1yP6/7gP/8/yK7/7bP/8/bP7/6rP1 r - 0,0,0,0 6"},
	{"chaturanga-fr2", "4bK3/7gP/8/yK1yP5/7rK/8/bP7/2bE5 b 4 -1,2,0,-1 3"},
	{"martian", "8/gS7/7rM/8/8/4bP3/8/5bM2 b 1 0,0,0,0 0"},
	{"martian", "8/gS7/7rM/8/8/4bP3/8/5bM2 g 1 0,0,0,0 0"},
	{"winther", "4gK3/8/8/8/7rK/8/8/3bK3bE b 45 0,0,0,0 3"},
	{"chesscom-chaturaji", "yK6gK/8/8/8/3bB4/8/8/bK6rK b - 10,4,6,2 12"},
	{"chesscom-chaturaji", "yK6gK/8/8/8/3bB4/8/8/bK7 g - 0,4,6,2 12"},
}

// FuzzExtra: any extra field on a preset's position either fails with a
// *PositionError naming a field or parses to a position that prints
// canonically, re-parses to itself with the same hash, reads the same in
// internal/naive, and has the same actions there.
func FuzzExtra(f *testing.F) {
	for i := range extraBoards {
		for _, e := range []string{"command=b", "command=bg", "command=g", "exchange=propose;turn=b", "exchange=accept;turn=b",
			"exchange=drop;turn=b", "retired=y", "thrones=y", "thrones=by", "command=b;thrones=r", "leaps=bg", "leaps=b",
			"turn=b", "exchange=drop", "drops=g;lost=yg", "control=y", "control=b", "return=decide;turn=b", "return=place;turn=b", "return=place", "control=y;return=decide;turn=b", "return=back;turn=y", "retired=y;thrones=bg", "command=b;retired=yr", "drops=y;lost=y", "lost=ygg", "lost=bbb", "lost=gb", "drops=g", "command=x", "command=bb", "command=gb", "thrones=", "exchange=swap;turn=b", "retired=b;command=b",
			"dead=y", "dead=by", "dead=yr", "dead=r", "dead=b", "dead=ybg", "dead=yy", "dead=", "dead=y;leaps=b"} {
			f.Add(uint8(i), e)
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, extra string) {
		c := extraBoards[int(i)%len(extraBoards)]
		pr := mustLookup(t, c.preset)
		s := c.pos + " " + extra
		p, err := rules.ParsePosition(pr, s)
		if err != nil {
			var pe *rules.PositionError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "rules: ") {
				t.Fatalf("%q: error %v is not a rules *PositionError", s, err)
			}
			return
		}
		out := p.String()
		q, err := rules.ParsePosition(pr, out)
		if err != nil || !q.Equal(p) || q.Hash() != p.Hash() || q.String() != out {
			t.Fatalf("%q: print %q does not re-parse to itself: %v", s, out, err)
		}
		np, err := naive.ParseRules(pr.Name, out)
		if err != nil || np.String() != out {
			t.Fatalf("naive cannot read %q: %v", out, err)
		}
		if !p.AwaitingRoll() && !p.Finished() {
			if got, want := presetActionStrings(p), np.Actions(); !slices.Equal(got, want) {
				t.Fatalf("%s: actions %v, naive %v", out, got, want)
			}
		}
	})
}
