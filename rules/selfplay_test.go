package rules_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

// selfPlayPresets are the presets checked by self-play: every preset but
// the default, which TestRandomGameInvariants plays.
var selfPlayPresets = []string{"chaturaji-ranks", "chaturaji-2dice", "ludii", "chaturanga-2p", "chaturaji-teams", "chaturaji-diceless", "biruni", "winther", "martian", "chaturanga-fr1", "chaturanga-fr2", "chaturaji-teams+lastforces"}

// TestSelfPlayPresets plays 1000 random games of each preset with dice from
// a seed: every game ends within its bound, every position re-parses to
// itself with the same hash, the team rules' invariants hold, and the
// game's record replays to the same final position. With -short, 100
// games each.
func TestSelfPlayPresets(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	games := 1000
	if testing.Short() {
		games = 100
	}
	for _, name := range selfPlayPresets {
		t.Run(name, func(t *testing.T) {
			pr := mustLookup(t, name)
			ends := map[rules.End]int{}
			total := 0
			for i := range games {
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
			t.Logf("%s: %d games, %d actions; ends %v", name, games, total, ends)
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
		checkSeatInvariants(t, pr, p, q, a)
	}
	return g
}

// checkSeatInvariants checks one action of a preset where each seat plays
// for himself (docs/rules.md §4, §6): no piece appears from nowhere, only the
// mover's pieces move, and the mover scores exactly the points of the enemy
// pieces that left the board (the 54 raise aside, once the game is over);
// in king presets nobody scores. Under a command (biruni) the mover is the
// seat that decides, and the armies of both the decider and the seat whose
// turn it is move, and so does the army the decider may command.
func checkSeatInvariants(t *testing.T, pr *rules.Preset, p, q *rules.Position, a rules.Action) {
	t.Helper()
	if pr.Team.Partners {
		return
	}
	mover := p.Decider()
	_, commanders, _ := strings.Cut(p.String(), " command=")
	commanders, _, _ = strings.Cut(commanders, ";")
	commands := strings.IndexByte(commanders, mover.Letter()) >= 0
	own := func(s rules.Seat) bool { return s == mover || s == p.Seat() || commands && s == rules.Partner(mover) }
	taken, before, after := 0, 0, 0
	for sq := rules.Square(0); sq < 64; sq++ {
		was, is := p.At(sq), q.At(sq)
		if was != rules.NoPiece {
			before++
		}
		if is != rules.NoPiece {
			after++
		}
		if was != rules.NoPiece && !own(was.Seat()) && (is == rules.NoPiece || is.Seat() != was.Seat()) {
			if a.Type() != rules.Move || (sq != a.To() && was.Kind() != rules.Boat) {
				t.Fatalf("%s after %s: %s's piece on %s left the board", p, a.Format(pr), was.Seat(), sq)
			}
			taken += points[was.Kind()]
		}
	}
	if after > before {
		t.Fatalf("%s after %s: a piece appeared from nowhere", p, a.Format(pr))
	}
	for _, s := range pr.Seats() {
		switch gain := q.Score(s) - p.Score(s); {
		case pr.Goal == rules.KingsGoal && q.Score(s) != 0:
			t.Fatalf("%s after %s: %s scores in a king preset", p, a.Format(pr), s)
		case pr.Goal == rules.KingsGoal:
		case s == mover && (gain < taken || gain != taken && !q.Finished()):
			t.Fatalf("%s after %s: the mover scored %d for %d points taken", p, a.Format(pr), gain, taken)
		case s != mover && gain != 0 && !q.Finished():
			t.Fatalf("%s after %s: %s scored, not the mover", p, a.Format(pr), s)
		}
	}
}

// checkTeamInvariants checks what docs/rules.md §5 says of one action of a team
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
