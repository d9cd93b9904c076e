package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// docs/rules.md §4: "A position is finished when it has at most one king,
// only kings, or a clock of 200 or more; a finished position has no
// actions." The clock end is not checked in the middle of a two-dice turn,
// but a rolled position at the start of a turn with the clock at 200 or more
// is finished, so the parser rejects its roll (naive: finished, no actions).
func TestRolledPositionPastTheClock(t *testing.T) {
	for _, s := range []string{
		"yK6gK/8/8/8/8/8/bP7/bK6rK b 5 0,0,0,0 200",
		"yB2yPgE1gHgB/1rBbB3gPgP/1yKyP1gP1bHbK/3yP4/1bP6/8/3bP4/8 y 5 25,11,0,0 222",
	} {
		if !mustNaive(t, s).Finished() {
			t.Fatalf("naive: %s is not over", s)
		}
		if p, err := rules.ParsePosition(rules.Chaturaji, s); err == nil {
			t.Errorf("%s parses: finished %v, actions %v", s, p.Finished(), actionStrings(p))
		}
	}
}

// A house-rule preset is made while games of its base preset run: it must
// not write into the base preset's tables (found by the race detector in
// the server, where a game of chaturaji+ranks started beside live games of
// chaturaji).
func TestHouseRulesLeaveTheBaseAlone(t *testing.T) {
	for _, name := range []string{"chaturaji+ranks", "chaturaji+ranks+dice=2cube"} {
		base := rules.Chaturaji
		seats := base.Seats()
		chances := base.Chances()
		d, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if &d.Seats()[0] == &seats[0] {
			t.Errorf("%s shares its seats with %s", name, base.Name)
		}
		if len(d.Chances()) > 0 && &d.Chances()[0] == &chances[0] {
			t.Errorf("%s shares its chances with %s", name, base.Name)
		}
		if got := base.Seats(); len(got) != 4 || &got[0] != &seats[0] {
			t.Errorf("%s changed %s's seats to %v", name, base.Name, got)
		}
	}
}

// PlayRandom plays every preset from its start position to the end,
// martian's roll-off included (it used to stop there with no action to
// draw from), and leaves a finished position.
func TestPlayRandomFromEveryStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range rules.Names() {
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			p := pr.StartPosition()
			if n := rules.PlayRandom(p, rng); n == 0 || !p.Finished() {
				t.Fatalf("%s: %d actions, finished %v: %s", name, n, p.Finished(), p)
			}
		}
	}
}
