package record_test

import (
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// TestResult checks the Result tag of finished games (docs/rules.md §7):
// scores in seat order for points presets, the winning side's letters or
// "draw" for king presets and for lastforces, where points decide nothing.
func TestResult(t *testing.T) {
	cases := []struct{ name, rules, pos, want string }{
		{"game going on", "chaturaji", "yK7/8/8/8/8/8/bP7/bK6gK b - 3,0,1,0 5", "*"},
		{"points preset: the scores in seat order", "chaturaji", "yK7/8/8/8/8/8/8/8 b - 3,54,1,0 0", "3,54,1,0"},
		{"points preset drawn by the clock: still the scores", "ludii", "yK7/8/8/8/8/8/8/bK6gK r - 3,0,1,9 5000", "3,0,1,9"},
		{"two players: the seat with the rajah wins", "chaturanga-2p", "8/8/8/8/8/3bK4/8/8 g - 0,0 7 leaps=b", "b"},
		{"two players drawn by the clock", "chaturanga-2p", "4gK3/8/8/8/8/8/8/3bK4 g - 0,0 200 leaps=bg", "draw"},
		{"teams: South and North win", "winther", "7gK/8/8/8/8/8/8/bK7 y - 0,0,0,0 5", "bg"},
		{"teams: West and East win", "chaturaji-diceless", "yK7/8/8/8/8/8/8/7rK b - 0,0,0,0 5", "yr"},
		{"teams drawn by the clock", "martian", "rM7/8/8/8/8/8/8/bM6gM b - 0,0,0,0 200", "draw"},
		{"lastforces: the team without pieces loses, whatever the points", "chaturaji-teams+lastforces", "yP7/8/8/8/8/8/8/8 b - 9,0,0,0 3", "yr"},
	}
	for _, c := range cases {
		pr, err := rules.Lookup(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		p, err := rules.ParsePosition(pr, c.pos)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := record.Result(p); got != c.want {
			t.Errorf("%s: %s: Result %q, want %q", c.name, c.pos, got, c.want)
		}
	}
}
