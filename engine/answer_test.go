package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// FuzzAnswer reads any lines as an outside engine's answer to go: the
// client never takes an action that is not legal, nor expected scores that
// are not finite numbers or a negative time, and says why it takes none.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{
		"info depth 5 nodes 41288 time 98 score 14.20,10.55,9.80,12.43 pv d2d3 a5a4\nbestaction d2d3",
		"info string error: no\nbestaction none",
		"bestaction h8h1",
		"bestaction e4!",
		"bestaction d2d3 d3d4",
		"info depth x\ninfo pv zz\nbestaction none",
		"id name x\n\n   \nbestaction pass",
		"bestaction K@e4",
		"info score NaN,Inf,-Inf,1e400 pv d2d3\nbestaction d2d3",
		"info score NaN,Inf,-Inf,1 pv d2d3\nbestaction d2d3",
		"info time 99999999999999999 pv d2d3\nbestaction d2d3",
	} {
		f.Add(s)
	}
	p, err := rules.ParsePosition(rules.Chaturaji, rules.Chaturaji.Start)
	if err != nil {
		f.Fatal(err)
	}
	roll, _ := rules.NewRoll(5)
	p.SetRoll(roll)
	f.Fuzz(func(t *testing.T, text string) {
		ans := &answer{p: p}
		for _, line := range strings.Split(text, "\n") {
			done, err := ans.read(line)
			if err != nil {
				if err.Error() == "" {
					t.Fatalf("%q: an empty error", line)
				}
				return
			}
			if done {
				if !p.IsLegal(ans.a.Best) {
					t.Fatalf("%q: took %s, not legal in %s", text, ans.a.Best, p)
				}
				for _, e := range ans.a.Expected {
					if math.IsNaN(e) || math.IsInf(e, 0) {
						t.Fatalf("%q: expected scores %v", text, ans.a.Expected)
					}
				}
				if ans.a.Elapsed < 0 {
					t.Fatalf("%q: elapsed %v", text, ans.a.Elapsed)
				}
				if len(ans.a.Line) == 0 || ans.a.Line[0] != ans.a.Best {
					t.Fatalf("%q: best %s, line %v", text, ans.a.Best, ans.a.Line)
				}
				return
			}
		}
	})
}
