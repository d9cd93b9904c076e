package naive

import (
	"math/rand/v2"
	"testing"
)

// TestRandomGames plays seeded random games of every preset and checks, at
// every position, that the notation round-trips exactly and that the
// preset's invariants hold.
func TestRandomGames(t *testing.T) {
	for _, rules := range []string{Chaturaji, ChaturajiRanks, Chaturaji2Dice, Ludii, Chaturanga2P} {
		rng := rand.New(rand.NewPCG(1, uint64(len(rules))))
		ends := 0
		for game := 0; game < 40; game++ {
			p := StartOf(rules)
			for ply := 0; ply < 600 && !p.Finished(); ply++ {
				if p.AwaitingRoll() {
					rolls := p.preset().rolls()
					p = p.WithRoll(rolls[rng.IntN(len(rolls))]...)
				}
				checkRoundTrip(t, rules, p)
				acts := p.Actions()
				if len(acts) == 0 {
					t.Fatalf("%s: no actions in unfinished %s", rules, p)
				}
				q, err := p.Apply(acts[rng.IntN(len(acts))])
				if err != nil {
					t.Fatalf("%s: %v", rules, err)
				}
				checkStep(t, rules, p, q)
				p = q
			}
			checkRoundTrip(t, rules, p)
			if p.Finished() {
				ends++
				if p.AwaitingRoll() {
					if p.DiceString() != "-" {
						t.Errorf("%s: finished %s awaits with dice", rules, p)
					}
				} else if p.Actions() != nil {
					t.Errorf("%s: finished %s has actions", rules, p)
				}
			}
		}
		t.Logf("%s: %d of 40 random games finished within 600 actions", rules, ends)
	}
}

func checkRoundTrip(t *testing.T, rules string, p *Position) {
	t.Helper()
	q, err := ParseRules(rules, p.String())
	if err != nil {
		t.Fatalf("%s: %s does not parse: %v", rules, p, err)
	}
	if *q != *p {
		t.Fatalf("%s: %s parses to a different position %s", rules, p, q)
	}
}

// checkStep checks what every action of a preset keeps.
func checkStep(t *testing.T, rules string, p, q *Position) {
	t.Helper()
	for seat := range q.Scores {
		if q.Scores[seat] < p.Scores[seat] {
			t.Fatalf("%s: a score went down from %s to %s", rules, p, q)
		}
		if rules == Chaturanga2P && q.Scores[seat] != 0 {
			t.Fatalf("%s: a score in %s", rules, q)
		}
	}
	switch rules {
	case Ludii:
		if q.Clock != p.Clock+1 {
			t.Fatalf("%s: clock %d after %d", rules, q.Clock, p.Clock)
		}
	case Chaturanga2P:
		for seat := range q.Leaps {
			if p.Leaps[seat] && !q.Leaps[seat] {
				t.Fatalf("%s: a leap was given back: %s -> %s", rules, p, q)
			}
		}
	case Chaturaji2Dice:
		if !q.AwaitingRoll() && q.Seat != p.Seat {
			t.Fatalf("%s: a die passed to another seat: %s -> %s", rules, p, q)
		}
	}
}
