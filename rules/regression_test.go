package rules_test

import (
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// RULES.md section 4: "A position is finished when it has at most one king,
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
