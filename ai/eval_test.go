package ai

import (
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

func TestUtility(t *testing.T) {
	ev := newEvaluator(rules.Chaturaji, DefaultWeights)
	for _, tc := range []struct {
		name  string
		pos   string
		check func(u Utility) bool
	}{
		{
			name:  "a finished game is worth its scores",
			pos:   "8/7gP/8/8/yE2bE4/8/8/bK5rH1 g - 59,30,40,20 0",
			check: func(u Utility) bool { return u == Utility{59, 30, 40, 20} },
		},
		{
			// West and East have no king: they keep their points and no
			// more, their pieces being free points for the others.
			name:  "a frozen army is worth its score",
			pos:   "8/3gK3gP/8/8/yE2bE4/8/8/bK5rH1 b 4 10,30,40,20 0",
			check: func(u Utility) bool { return u[rules.West] == 30 && u[rules.East] == 20 },
		},
		{
			name:  "the start is even",
			pos:   "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0",
			check: func(u Utility) bool { return u[0] > 15 && u[0] < 30 && abs(u[0]-u[2]) < 3 && abs(u[1]-u[3]) < 3 },
		},
		{
			// Two kings left: whoever takes the other's is raised to 54.
			name:  "the last two kings share the raise",
			pos:   "8/3gK3gP/8/8/yE2bE4/8/8/bK5rH1 b - 10,30,40,20 0",
			check: func(u Utility) bool { return u[rules.South] > 25 && u[rules.North] > 40 },
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := rules.MustParsePosition(rules.Chaturaji, tc.pos)
			if u := ev.utility(p); !tc.check(u) {
				t.Errorf("utility %.1f", u)
			}
		})
	}
}

func abs(x float64) float64 { return max(x, -x) }

func TestUtilityDoesNotAllocate(t *testing.T) {
	for _, tc := range []struct {
		pr  *rules.Preset
		pos string
	}{
		{rules.Chaturaji, "2yP2gE1gB/yHyP2gPgPgPgP/yE1yP4gH/1yP6/yK3yB1rPrK/1bP3rBrP1/bP1bP3rPrE/bBbHbEbK2rP1 b 3 3,5,0,1 2"},
		{rules.ChesscomChaturaji, "8/8/4gK3/1yK6/8/5rK2/1yHbH5/bK7 b - 0,0,0,0 0 dead=g"}, // a dead army, kings in reach
	} {
		ev := newEvaluator(tc.pr, DefaultWeights)
		p := rules.MustParsePosition(tc.pr, tc.pos)
		if n := testing.AllocsPerRun(100, func() { ev.utility(p) }); n != 0 {
			t.Errorf("%s: utility allocates %v times", tc.pr.Name, n)
		}
	}
}

func TestObjective(t *testing.T) {
	o := newObjective(rules.Chaturaji, 0.5)
	u := Utility{30, 10, 20, 0}
	// South: 30 - (0.5*20 + 0.5*10) = 15.
	if v := o.value(&u, rules.South); v != 15 {
		t.Errorf("South's value %v, want 15", v)
	}
	r := o.reward(&u, 0, 0, 54)
	if r[rules.South] != 1 || r[rules.North] != 0 {
		t.Errorf("rewards %v: South alone is first", r)
	}
}
