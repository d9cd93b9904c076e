package rules_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// TestChesscomStartPerftByHand: in the first round no army can reach
// another, and each has 8 moves (4 pawn steps, the knight's 2, the king's
// 2; the bishop and the sailboat are shut in), so perft from the start is
// 8^n up to depth 4 (docs/rules.md §8).
func TestChesscomStartPerftByHand(t *testing.T) {
	want := uint64(1)
	for d := 1; d <= 4; d++ {
		want *= 8
		if got := rules.Perft(rules.ChesscomChaturaji.StartPosition(), d); got != want {
			t.Errorf("perft %d = %d, want %d", d, got, want)
		}
	}
}

// TestChesscomResignAndTimeout: both are legal at every turn of a game not
// over, but no move: Actions does not list them, Game.Play records them.
// They are not legal in other presets, nor once the game is over.
func TestChesscomResignAndTimeout(t *testing.T) {
	pr := rules.ChesscomChaturaji
	p := pr.StartPosition()
	for _, a := range []rules.Action{rules.ResignAction, rules.TimeoutAction} {
		if !p.IsLegal(a) {
			t.Errorf("%s is not legal at the start", a.Format(pr))
		}
		if slices.Contains(presetActionStrings(p), a.Format(pr)) {
			t.Errorf("Actions lists %s", a.Format(pr))
		}
		if rules.Chaturaji.StartPosition().IsLegal(a) {
			t.Errorf("%s is legal in chaturaji", a.Format(pr))
		}
	}
	g := rules.NewGame(pr, rules.Seed{})
	for _, s := range []string{"resign", "timeout", "resign"} {
		if err := g.PlayString(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	end := g.Position()
	if !end.Finished() || end.EndReason() != rules.LastAlive {
		t.Fatalf("after three resignations: finished %v, %v: %s", end.Finished(), end.EndReason(), end)
	}
	// East, the last live army, takes the three standing kings: 9.
	if got, want := end.String(), "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB r - 0,0,0,9 3 dead=byg"; got != want {
		t.Errorf("end %s, want %s", got, want)
	}
	if !end.Dead(rules.South) || end.Dead(rules.East) {
		t.Errorf("Dead: South %v, East %v", end.Dead(rules.South), end.Dead(rules.East))
	}
	if err := g.PlayString("resign"); err != rules.ErrFinished {
		t.Errorf("resign after the end: %v, want ErrFinished", err)
	}
	var turns []string
	for _, tn := range g.Turns() {
		for _, a := range tn.Actions {
			turns = append(turns, string(tn.Seat.Letter())+" "+a.Format(pr))
		}
	}
	if want := []string{"b resign", "y timeout", "g resign"}; !slices.Equal(turns, want) {
		t.Errorf("turns %v, want %v", turns, want)
	}
}

// TestChesscomPositionsRefused: a dead= seat must have its king standing,
// and a dead seat cannot be the one to act.
func TestChesscomPositionsRefused(t *testing.T) {
	for _, s := range []string{
		"yK6gK/8/8/8/8/8/8/bK7 b - 0,0,0,0 0 dead=r",          // East has no king to stand
		"yK6gK/8/8/8/8/8/8/bK6rK b - 0,0,0,0 0 dead=b",        // South is dead and to act
		"yK6gK/8/8/8/8/8/8/bK6rK b - 0,0,0,0 0 dead=yb",       // not in seat order
		"yK6gK/8/8/8/8/8/8/bK6rK b - 0,0,0,0 0 dead=",         // no seat
		"yK6gK/8/8/8/8/8/8/bK6rK b - 0,0,0,0 0 leaps=y",       // not a key of this preset
		"yK6gK/8/8/8/8/8/8/bK6rK b 5 0,0,0,0 0",               // no dice
		"yK6gK/8/8/8/8/8/8/bK6rK b - 0,0,0,0 0 dead=y;dead=g", // twice
	} {
		if _, err := rules.ParsePosition(rules.ChesscomChaturaji, s); err == nil {
			t.Errorf("%s parses", s)
		}
		if _, err := naive.ParseRules(naive.ChesscomChaturaji, s); err == nil && s != "yK6gK/8/8/8/8/8/8/bK6rK b - 0,0,0,0 0 dead=b" {
			t.Errorf("naive parses %s", s)
		}
	}
}

// TestChesscomAgainstNaive plays random games of chesscom-chaturaji in
// which a seat now and then resigns or times out, and compares at every
// position the legal actions and the position after each (resign and
// timeout included) with internal/naive; it checks make and unmake, the
// hash against the re-parsed position, and that Effect accounts for every
// score's change.
func TestChesscomAgainstNaive(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	pr := rules.ChesscomChaturaji
	games := 120
	if testing.Short() {
		games = 20
	}
	rng := rand.New(rand.NewPCG(24, 6))
	positions, claims, ends := 0, 0, map[rules.End]int{}
	for g := range games {
		p := pr.StartPosition()
		for step := 0; !p.Finished() && step < 600; step++ {
			s := p.String()
			n, err := naive.ParseRules(pr.Name, s)
			if err != nil {
				t.Fatalf("game %d: naive cannot parse %s: %v", g, s, err)
			}
			got := presetActionStrings(p)
			if want := n.Actions(); !slices.Equal(got, want) {
				t.Fatalf("%s\nactions %v\nnaive   %v", s, got, want)
			}
			acts := append(got, "resign", "timeout")
			for _, as := range acts {
				a, err := rules.ParseAction(pr, as)
				if err != nil || !p.IsLegal(a) {
					t.Fatalf("%s: %s: %v, legal %v", s, as, err, p.IsLegal(a))
				}
				e := p.Effect(a)
				var u rules.Undo
				q := *p
				q.Make(a, &u)
				na, err := n.Apply(as)
				if err != nil {
					t.Fatalf("%s: naive refuses %s: %v", s, as, err)
				}
				if q.String() != na.String() {
					t.Fatalf("%s after %s\nengine %s\nnaive  %s", s, as, q.String(), na.String())
				}
				if h := rules.MustParsePosition(pr, q.String()).Hash(); h != q.Hash() {
					t.Fatalf("%s after %s: hash %#x, re-parsed %#x", s, as, q.Hash(), h)
				}
				for _, seat := range pr.Seats() {
					if e.Points(seat) != q.Score(seat)-p.Score(seat) {
						t.Fatalf("%s after %s: the effect gives %s %+d, the score changed by %+d", s, as, seat, e.Points(seat), q.Score(seat)-p.Score(seat))
					}
				}
				q.Unmake(&u)
				if !q.Equal(p) || q.Hash() != p.Hash() {
					t.Fatalf("%s: make and unmake %s left %s", s, as, q.String())
				}
			}
			positions++
			choice := got[rng.IntN(len(got))]
			switch r := rng.IntN(400); {
			case r == 0:
				choice = "resign"
			case r == 1:
				choice = "timeout"
			case slices.Contains(got, "claim") && r < 200:
				choice = "claim"
			}
			if choice == "claim" {
				claims++
			}
			var u rules.Undo
			p.Make(mustPresetAction(t, pr, choice), &u)
		}
		ends[p.EndReason()]++
	}
	t.Logf("%d positions agree; %d claims; ends %v", positions, claims, ends)
	for _, e := range []rules.End{rules.LastAlive, rules.Uncaught} {
		if ends[e] == 0 {
			t.Errorf("no game ended by %v: the test does not reach it", e)
		}
	}
}

func mustPresetAction(t *testing.T, pr *rules.Preset, s string) rules.Action {
	t.Helper()
	a, err := rules.ParseAction(pr, s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// FuzzChesscomGame plays chesscom-chaturaji from the start, the input's
// bytes choosing each action, a resign or a timeout, and checks every
// position against internal/naive, the hash against the re-parsed
// position, and that unmaking the whole game returns to the start.
func FuzzChesscomGame(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 1, 7, 1, 3, 0, 1})
	f.Add([]byte{0, 0, 0, 1, 0, 0}) // resign, timeout, resign: one army left
	rng := rand.New(rand.NewPCG(8, 9))
	for range 8 {
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		f.Add(b)
	}
	pr := rules.ChesscomChaturaji
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256 {
			data = data[:256]
		}
		p := pr.StartPosition()
		start := *p
		np := naive.StartOf(naive.ChesscomChaturaji)
		var undos []rules.Undo
		for len(data) >= 2 && !p.Finished() {
			acts := presetActionStrings(p)
			if want := np.Actions(); !slices.Equal(acts, want) {
				t.Fatalf("%s: actions %v, naive %v", p, acts, want)
			}
			choice := acts[int(data[1])%len(acts)]
			switch data[0] % 32 {
			case 0:
				choice = "resign"
			case 1:
				choice = "timeout"
			}
			data = data[2:]
			var u rules.Undo
			p.Make(mustPresetAction(t, pr, choice), &u)
			undos = append(undos, u)
			q, err := np.Apply(choice)
			if err != nil {
				t.Fatal(err)
			}
			np = q
			if p.String() != np.String() {
				t.Fatalf("%s: engine %s, naive %s", choice, p, np)
			}
			if h := rules.MustParsePosition(pr, p.String()).Hash(); h != p.Hash() {
				t.Fatalf("%s: hash %#x, re-parsed %#x", p, p.Hash(), h)
			}
		}
		for i := len(undos) - 1; i >= 0; i-- {
			p.Unmake(&undos[i])
		}
		if !p.Equal(&start) || p.Hash() != start.Hash() {
			t.Fatalf("unmaking the whole game left %s", p)
		}
	})
}
