package ai_test

import (
	"context"
	"testing"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

// TestAnalyzeAction values a given action as the root's only one: South's
// elephant on d1 takes North's king on d8, the last king but South's, for
// 54 points; taking West's pawn on a1 instead leaves South less.
func TestAnalyzeAction(t *testing.T) {
	p, err := rules.ParsePosition(rules.Chaturaji, "3gK4/8/8/8/8/8/8/yP2bE3bK b 4 0,0,0,0 0")
	if err != nil {
		t.Fatal(err)
	}
	king, _ := rules.ParseAction(rules.Chaturaji, "d1d8")
	pawn, _ := rules.ParseAction(rules.Chaturaji, "d1a1")
	illegal, _ := rules.ParseAction(rules.Chaturaji, "h1h3")
	for _, spec := range []string{"strong", "brs", "paranoid", "3"} {
		pl, err := ai.New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		an, ok := pl.(ai.ActionAnalyzer)
		if !ok {
			t.Fatalf("%s (%T) values no given action", spec, pl)
		}
		b := ai.Budget{Nodes: 5000}
		best, err := an.AnalyzeAction(context.Background(), p, king, b)
		if err != nil {
			t.Fatal(err)
		}
		worse, err := an.AnalyzeAction(context.Background(), p, pawn, b)
		if err != nil {
			t.Fatal(err)
		}
		if best.Best != king || worse.Best != pawn || len(worse.Line) == 0 || worse.Line[0] != pawn {
			t.Errorf("%s: best %v, line %v for d1a1", spec, worse.Best, worse.Line)
		}
		if best.Expected[rules.South] != 54 || worse.Expected[rules.South] >= 54 {
			t.Errorf("%s: South expects %.2f after d1d8 and %.2f after d1a1", spec, best.Expected[rules.South], worse.Expected[rules.South])
		}
		if _, err := an.AnalyzeAction(context.Background(), p, illegal, b); err == nil {
			t.Errorf("%s values h1h3, not a legal action", spec)
		}
	}
}
