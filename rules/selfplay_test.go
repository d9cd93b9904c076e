package rules_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// selfPlayPresets are the presets of issue 3 checked by self-play.
var selfPlayPresets = []string{"chaturaji-teams", "chaturaji-diceless", "biruni", "winther", "martian", "chaturanga-fr1", "chaturanga-fr2", "chaturaji-teams+lastforces"}

// TestSelfPlayPresets plays 1000 random games of each preset with dice from
// a seed: every game ends within its bound, every position re-parses to
// itself with the same hash, the team rules' invariants hold, and the
// game's record replays to the same final position.
func TestSelfPlayPresets(t *testing.T) {
	for _, name := range selfPlayPresets {
		t.Run(name, func(t *testing.T) {
			pr := mustLookup(t, name)
			ends := map[rules.End]int{}
			total := 0
			for i := range 1000 {
				g := selfPlay(t, pr, uint64(i), []policy{policies[0], kingHunt, throneWalk}[i%3])
				p := g.Position()
				ends[p.EndReason()]++
				total += countActions(g)
				rec := record.FromGame(g, record.Tag{Name: "Date", Value: "2025.03.04"})
				back, err := record.ParseString(rec.String())
				if err != nil || len(back) != 1 {
					t.Fatalf("game %d: record does not parse back: %v\n%s", i, err, rec)
				}
				h, err := back[0].Replay()
				if err != nil {
					t.Fatalf("game %d: replay: %v\n%s", i, err, rec)
				}
				if !h.Position().Equal(p) {
					t.Fatalf("game %d replays to %s, not %s", i, h.Position(), p)
				}
			}
			t.Logf("%s: 1000 games, %d actions; ends %v", name, total, ends)
		})
	}
}

func countActions(g *rules.Game) int {
	n := 0
	for _, t := range g.Turns() {
		n += len(t.Actions)
	}
	return n
}

// selfPlay plays one game of pr with the seed n's dice and pol's choices,
// checking every position on the way.
func selfPlay(t *testing.T, pr *rules.Preset, n uint64, pol policy) *rules.Game {
	t.Helper()
	g := rules.NewGame(pr, rules.SeedFromInt(n))
	rng := rand.New(rand.NewPCG(n, 3))
	var buf [rules.MaxActions]rules.Action
	for steps := 0; !g.Finished(); steps++ {
		if steps > 20000 {
			t.Fatalf("game %d does not end: %s", n, g.Position())
		}
		for g.Position().AwaitingRoll() {
			if _, err := g.Roll(); err != nil {
				t.Fatal(err)
			}
		}
		p := g.Position()
		acts := p.Actions(buf[:])
		if len(acts) == 0 || p.CountActions() != len(acts) {
			t.Fatalf("%s: %d actions, CountActions %d", p, len(acts), p.CountActions())
		}
		a := pol.choose(p, acts, rng)
		if err := g.Play(a); err != nil {
			t.Fatal(err)
		}
		q := g.Position()
		if r := mustParsePreset(t, pr, q.String()); !r.Equal(q) || r.Hash() != q.Hash() {
			t.Fatalf("%s after %s: %s re-parses to another position", p, a.Format(pr), q)
		}
		checkTeamInvariants(t, pr, p, q, a)
	}
	return g
}

// checkTeamInvariants checks what RULES.md 5.0 says of one action of a team
// preset, from the positions before and after it.
func checkTeamInvariants(t *testing.T, pr *rules.Preset, p, q *rules.Position, a rules.Action) {
	t.Helper()
	if !pr.Team.Partners {
		return
	}
	d := p.Decider()
	sum := 0
	for _, s := range pr.Seats() {
		sum += q.Score(s)
		if pr.Team.Stakes {
			continue // stakes move between players: checked by their sum
		}
		if pr.Goal == rules.KingsGoal && q.Score(s) != 0 {
			t.Fatalf("%s after %s: a king preset scores", p, a)
		}
		if q.Score(s) < p.Score(s) {
			t.Fatalf("%s after %s: %s's score fell", p, a, s)
		}
		if s != d && q.Score(s) != p.Score(s) && !q.Finished() {
			t.Fatalf("%s after %s: %s scored, but %s decided", p, a, s, d)
		}
	}
	if pr.Team.Stakes && sum != 0 {
		t.Fatalf("%s after %s: the stakes do not sum to 0", p, a)
	}
	if a.Type() == rules.Move {
		mover, target := p.At(a.From()), p.At(a.To())
		if !pr.Teammates(mover.Seat(), d) && mover.Seat() != p.Controlled() {
			t.Fatalf("%s: %s moves a piece of %s, not of its team", p, d, mover.Seat())
		}
		if target != rules.NoPiece && pr.Teammates(target.Seat(), mover.Seat()) && pr.Team.Safe.Has(target.Kind()) {
			t.Fatalf("%s: %s takes a partner's piece", p, a)
		}
	}
	if d != p.Seat() && !strings.Contains(p.String(), "command=") && !pr.Team.KinglessPlays {
		t.Fatalf("%s: %s decides %s's turn without a command", p, d, p.Seat())
	}
}
