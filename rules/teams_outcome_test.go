package rules_test

import (
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// TestTeamRanks: in every team preset partners share their rank; the ends
// are those of docs/rules.md §6, worked out by hand.
func TestTeamRanks(t *testing.T) {
	for _, c := range []struct {
		name, preset, pos string
		end               rules.End
		ranks             [rules.NumSeats]int
	}{
		{"teams: the team with the higher score wins [article]", "chaturaji-teams", "4bK3/7gP/8/bE7/8/6rP1/8/8 g - 11,0,0,0 0 command=b", rules.KingsTaken, [4]int{1, 2, 1, 2}},
		{"teams: only kings left is a draw whatever the scores [article]", "chaturaji-teams", "yK6gK/8/8/8/8/8/8/bK6rK b - 5,0,3,0 7", rules.Peace, [4]int{1, 1, 1, 1}},
		{"teams: the team without a king may still win on points [article]", "chaturaji-teams", "4bK3/8/8/8/8/6rP1/8/8 g - 0,9,0,0 3", rules.KingsTaken, [4]int{2, 1, 2, 1}},
		{"diceless: the team that took both kings wins [article]", "chaturaji-diceless", "4bK3/7gP/8/bE7/8/6rP1/8/8 g - 0,0,0,0 0 command=b", rules.KingsTaken, [4]int{1, 2, 1, 2}},
		{"winther: a team without a king loses at once [Winther]", "winther", "4gK3/8/8/8/7bE/8/8/3bK4 b - 0,0,0,0 0 drops=y;lost=yr", rules.KingsTaken, [4]int{1, 2, 1, 2}},
		{"martian: the team without monarchs loses [Martian]", "martian", "2gM5/8/8/8/8/8/8/5bM2 y - 0,0,0,0 0", rules.KingsTaken, [4]int{1, 2, 1, 2}},
		{"fr2: the team with nothing but rajahs loses [French v2]", "chaturanga-fr2", "4gK3/7gP/8/2bE5/8/8/bP7/3bK4 g - 1,-1,1,-1 0 retired=yr", rules.Stripped, [4]int{1, 2, 1, 2}},
		{"lastforces: the team without pieces loses [article]", "chaturaji-teams+lastforces", "4gK3/7gP/8/8/8/6bH1/8/3bK4 g - 0,0,0,0 0", rules.LastArmy, [4]int{1, 2, 1, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustParsePreset(t, mustLookup(t, c.preset), c.pos)
			if !p.Finished() || p.EndReason() != c.end {
				t.Fatalf("finished %v, end %v; want %v", p.Finished(), p.EndReason(), c.end)
			}
			if got := p.Ranks(); got != c.ranks {
				t.Errorf("ranks %v, want %v", got, c.ranks)
			}
		})
	}
}

// TestDeciderUnderCommand: the seat field names whose turn it is, Decider
// who chooses; during an exchange the seat field names the decider and
// TurnSeat whose turn it is (docs/rules.md §5).
func TestDeciderUnderCommand(t *testing.T) {
	teams := mustLookup(t, "chaturaji-teams")
	p := mustParsePreset(t, teams, "4bK2gK/7gP/8/yK7/7rK/8/bP7/8 g 5 0,0,0,0 1 command=b")
	if p.Seat() != rules.North || p.TurnSeat() != rules.North || p.Decider() != rules.South || !p.Commands(rules.South) {
		t.Errorf("command: seat %v, turn %v, decider %v", p.Seat(), p.TurnSeat(), p.Decider())
	}
	q := mustParsePreset(t, teams, "8/7gP/8/1bH6/7rK/8/8/3bK4 y - 5,0,0,0 0 exchange=accept;turn=b")
	if q.Seat() != rules.West || q.TurnSeat() != rules.South || q.Decider() != rules.West || q.Pending() != "accept" || q.AwaitingRoll() {
		t.Errorf("exchange: seat %v, turn %v, decider %v, pending %q", q.Seat(), q.TurnSeat(), q.Decider(), q.Pending())
	}
	if got, want := q.TeamScore(rules.North), 5; got != want {
		t.Errorf("TeamScore(North) = %d, want %d", got, want)
	}
	m := mustParsePreset(t, mustLookup(t, "martian"), "2gM5/8/7rM/8/8/bM7/yPyS5bS/8 b 14/24 0,0,0,0 4 control=y")
	if m.Controlled() != rules.West {
		t.Errorf("martian: Controlled() = %v, want West", m.Controlled())
	}
}
