package rules_test

import (
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// TestInPlay checks which seats still have a part in the game: one row a
// situation, each seat's answer written out.
func TestInPlay(t *testing.T) {
	const (
		start         = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b - 0,0,0,0 0"
		southKingless = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbE3rPrB y 4 0,0,0,0 0"
		southGone     = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/6rPrH/6rPrB y 4 0,0,0,0 0"
		oneKingLeft   = "yByP6/yHyP6/yEyP6/yKyP6/8/8/8/8 y - 0,0,0,0 0"
	)
	for _, tt := range []struct {
		name string
		pr   *rules.Preset
		pos  string
		want [4]bool // South, West, North, East
	}{
		{"every army plays at the start", rules.Chaturaji, start, [4]bool{true, true, true, true}},
		{"South's king fallen: South is out", rules.Chaturaji, southKingless, [4]bool{false, true, true, true}},
		{"South with no piece left is out", rules.Chaturaji, southGone, [4]bool{false, true, true, true}},
		{"the game is over: nobody plays", rules.Chaturaji, oneKingLeft, [4]bool{}},
		{"a kingless army moves on in ludii", rules.Ludii, southKingless, [4]bool{true, true, true, true}},
		{"chesscom: South resigned, its king still standing", rules.ChesscomChaturaji, "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB y - 0,0,0,0 0 dead=b", [4]bool{false, true, true, true}},
		{"teams: North commands kingless South, whose player decides nothing", rules.ChaturajiTeams, southKingless, [4]bool{false, true, true, true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := rules.ParsePosition(tt.pr, tt.pos)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []rules.Seat{rules.South, rules.West, rules.North, rules.East} {
				if got := p.InPlay(s); got != tt.want[s] {
					t.Errorf("InPlay(%s) = %v, want %v", s, got, tt.want[s])
				}
			}
		})
	}
}
