package rules_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// effectText writes an Effect compactly for comparison:
// "take yB@d3+2 gB@c4+2; score b+6 capture; frozen g; revived -; out -"
// (removed pieces, if any, after "removed").
func effectText(pr *rules.Preset, e rules.Effect) string {
	list := func(cs []rules.Capture) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, fmt.Sprintf("%c%c@%s+%d", c.Piece.Seat().Letter(), pr.Pieces[c.Piece.Kind()].Letter, c.Square, c.Points))
		}
		return strings.Join(parts, " ")
	}
	seats := func(ss []rules.Seat) string {
		if len(ss) == 0 {
			return "-"
		}
		var b strings.Builder
		for _, s := range ss {
			b.WriteByte(s.Letter())
		}
		return b.String()
	}
	var score []string
	for _, c := range e.Scores {
		score = append(score, fmt.Sprintf("%c%+d %s", c.Seat.Letter(), c.Points, c.Cause))
	}
	s := fmt.Sprintf("take %s; score %s; frozen %s; revived %s; out %s", list(e.Captures), strings.Join(score, ", "), seats(e.Frozen), seats(e.Revived), seats(e.Out))
	if len(e.Removed) > 0 {
		s += "; removed " + list(e.Removed)
	}
	return s
}

// TestEffect checks what an action did, in situations of docs/rules.md
// (the positions of testdata/rules); every expected value is worked out by
// hand from the rules.
func TestEffect(t *testing.T) {
	tests := []struct {
		name, rules, pos, action, want string
	}{
		{"horse takes a boat: 2 points (§4.2)", "chaturaji",
			"yK6gK/8/4gB3/8/3bH4/8/8/bK6rK b 3 7,0,0,0 9", "d4e6",
			"take gB@e6+2; score b+2 capture; frozen -; revived -; out -"},
		{"quiet move: nothing", "chaturaji",
			"yK6gK/8/4gB3/8/3bH4/8/8/bK6rK b 3 7,0,0,0 9", "d4c6",
			"take ; score ; frozen -; revived -; out -"},
		{"pawn takes a king: 5 points, and that army freezes (§4.1)", "chaturaji",
			"yK7/8/7gE/4gK3/3bP4/8/8/bK6rK b 5 0,0,0,0 9", "d4e5",
			"take gK@e5+5; score b+5 capture; frozen g; revived -; out -"},
		{"boat triumph takes the three enemy boats of the block, 2 each (§4.3)", "chaturaji",
			"yK6gK/8/8/8/2gBrB4/3yB4/8/bB3bK2rK b 2 0,0,0,0 5", "a1c3",
			"take yB@d3+2 gB@c4+2 rB@d4+2; score b+6 capture; frozen -; revived -; out -"},
		{"taking the last other king: 5 points, then the raise to 54 (§4.6)", "chaturaji",
			"8/8/yE7/3gK4/3bK4/8/7bP/8 b 5 8,20,30,40 9", "d4d5",
			"take gK@d5+5; score b+5 capture, b+41 raise; frozen -; revived -; out g"},
		{"the raise comes after the capture: 50 + 5 is 55, no raise", "chaturaji",
			"8/8/yE7/3gK4/3bK4/8/7bP/8 b 5 50,0,0,0 9", "d4d5",
			"take gK@d5+5; score b+5 capture; frozen -; revived -; out g"},
		{"retire leaving one king raises its owner to 54 (§4.5)", "chaturaji",
			"4gK3/8/8/2yP5/8/8/8/4bK3 b 4 10,3,7,2 4", "retire",
			"take ; score g+47 raise; frozen -; revived -; out b"},
		{"a king taken, and a frozen army revived by its waiting pawn (§4.4)", "chaturaji",
			"8/8/rE7/8/7yP/8/4gK3/4bK3 b 5 0,0,0,0 6", "e1e2",
			"take gK@e2+5; score b+5 capture; frozen -; revived y; out g"},
		{"teams: a king entering an enemy throne scores 1 (§6.3)", "chaturaji-teams",
			"yK3gK3/8/8/1bK6/7rK/8/7bP/8 b 5 0,0,0,0 0", "b5a5",
			"take ; score b+1 throne; frozen -; revived -; out -"},
		{"teams: a king taken on its own throne by a king: 5, the throne's 1 and 2 (§6.3)", "chaturaji-teams",
			"4gK3/8/8/yKbK6/7rK/8/7bP/8 b 5 0,0,0,0 3", "b5a5",
			"take yK@a5+5; score b+5 capture, b+1 throne, b+2 throne-king; frozen -; revived -; out y"},
		{"teams: the last enemy king taken on its throne by a commander: the empire's 4 (§6.3)", "chaturaji-teams",
			"4bK3/7gP/8/yK7/8/6rP1/8/bE7 b 4 0,0,0,0 2 command=b", "a1a5",
			"take yK@a5+5; score b+5 capture, b+2 throne-king, b+4 empire; frozen -; revived -; out y"},
		{"teams: a triumph takes the enemy boats; the partner's boat changes hands, uncaptured (§6.3)", "chaturaji-teams",
			"4gK3/8/8/yK2yB4/2gByB3rK/bB7/8/3bK4 b 2 0,0,0,0 5", "a3c5",
			"take yB@d4+2 yB@d5+2; score b+4 capture; frozen -; revived -; out -"},
		{"teams: a king capture leaves the army playing, decided by its partner (§6.3)", "chaturaji-teams",
			"8/7gP/8/1yK6/7rK/2bH5/8/3bK4 b 3 0,0,0,0 4", "c3b5",
			"take yK@b5+5; score b+5 capture; frozen -; revived -; out y"},
		{"martian: the unkindness of ravens takes three ravens, the partner's too, for no points (§6.7)", "martian",
			"2gM5/8/7rM/3gRrR3/4yR3/yM7/8/3bR1bM2 b 13 0,0,0,0 7", "d1d4",
			"take yR@e4+0 gR@d5+0 rR@e5+0; score ; frozen -; revived -; out -"},
		{"fr2: a rajah capture collects a unit from its owner; its army freezes (§6.9)", "chaturanga-fr2",
			"1yP2gK3/7gP/8/1yK6/7rK/2bH5/bP7/3bK2rP1 b 3 0,0,0,0 2", "c3b5",
			"take yK@b5+0; score b+1 stakes, y-1 stakes; frozen y; revived -; out -"},
		{"fr2: the first enemy piece on a rajah's starting square collects a unit (§6.9)", "chaturanga-fr2",
			"1yP2gK3/7gP/1yK6/8/bE6rK/8/bP7/3bK2rP1 b 4 0,0,0,0 3", "a4a5",
			"take ; score b+1 stakes, y-1 stakes; frozen -; revived -; out -"},
		{"fr2: a rajah left alone is removed, not captured (§6.9)", "chaturanga-fr2",
			"4gK3/7gP/8/yK1yP5/7rK/8/bP7/2bEbK2rP1 b 4 0,0,0,0 3", "c1c5",
			"take yP@c5+0; score ; frozen -; revived -; out y; removed yK@a5+0"},
		{"chesscom: two live enemy kings attacked anew score 1 (§6.12)", "chesscom-chaturaji",
			"7gK/8/8/8/yK6rK/3bB4/8/bK7 b - 0,0,0,0 5", "d3d4",
			"take ; score b+1 check; frozen -; revived -; out -"},
		{"chesscom: a dead army's pawn is taken for nothing (§6.12)", "chesscom-chaturaji",
			"yK6gK/8/8/2yP5/1bP6/8/8/bK6rK b - 0,0,0,0 0 dead=y", "b4c5",
			"take yP@c5+0; score ; frozen -; revived -; out -"},
		{"chesscom: a resignation leaving one army alive gives it 3 for each standing king (§6.12)", "chesscom-chaturaji",
			"yK6gK/8/8/8/8/8/8/bK6rK g - 0,0,0,0 5 dead=by", "resign",
			"take ; score r+9 kings; frozen g; revived -; out -"},
		{"chesscom: the clock gives each live army 2 (§6.12)", "chesscom-chaturaji",
			"yK6gK/8/8/8/8/8/8/bK6rK b - 1,2,3,4 199 dead=y", "a1a2",
			"take ; score b+2 clock, g+2 clock, r+2 clock; frozen -; revived -; out -"},
		{"fr2: the end pays the empire and the pot (§6.9)", "chaturanga-fr2",
			"4bK3/7gP/8/yK1yP5/7rK/8/bP7/2bE5 b 4 0,0,0,0 3 command=b", "c1c5",
			"take yP@c5+0; score b+5 stakes, y-3 stakes, g+1 stakes, r-3 stakes; frozen -; revived -; out yr; removed yK@a5+0 rK@h4+0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, err := rules.Lookup(tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			p := rules.MustParsePosition(pr, tt.pos)
			a, err := rules.ParseAction(pr, tt.action)
			if err != nil {
				t.Fatal(err)
			}
			if !p.IsLegal(a) {
				t.Fatalf("%s is not legal in %s", tt.action, tt.pos)
			}
			before := p.String()
			if got := effectText(pr, p.Effect(a)); got != tt.want {
				t.Errorf("Effect(%s):\n got %s\nwant %s", tt.action, got, tt.want)
			}
			if p.String() != before {
				t.Errorf("Effect changed the position: %s, was %s", p, before)
			}
		})
	}
}

// TestEffectAccounts plays random games of every preset and checks, at
// every action, that the Effect accounts for the whole change of every
// score, that the raise and the empire come only with the end, and that
// every piece gone from the board is a capture, a removal, the retired king
// or the piece that moved.
func TestEffectAccounts(t *testing.T) {
	names := rules.Names()
	games := 40
	if testing.Short() {
		games = 5
	}
	for _, name := range names {
		pr, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for g := range games {
			p := pr.StartPosition()
			var buf [rules.MaxActions]rules.Action
			for n := 0; n < 2000 && !p.Finished(); n++ {
				if p.AwaitingRoll() {
					p.SetRoll(p.RandomRoll(rng))
					continue
				}
				acts := p.Actions(buf[:])
				a := acts[rng.IntN(len(acts))]
				e := p.Effect(a)
				q := *p
				var u rules.Undo
				q.Make(a, &u)
				where := fmt.Sprintf("%s game %d: %s in %s", name, g, a.Format(pr), p)
				for _, s := range pr.Seats() {
					if got, want := e.Points(s), q.Score(s)-p.Score(s); got != want {
						t.Fatalf("%s: the effect gives %s %+d, the score changed by %+d (%s)", where, s, got, want, effectText(pr, e))
					}
				}
				for _, c := range e.Scores {
					if (c.Cause == rules.CauseRaise || c.Cause == rules.CauseEmpire) && !q.Finished() {
						t.Fatalf("%s: %s before the end (%s)", where, c.Cause, effectText(pr, e))
					}
				}
				// Every square emptied held a capture, a removal, the piece
				// that moved or the king that retired.
				explained := map[rules.Square]bool{}
				for _, c := range append(append([]rules.Capture(nil), e.Captures...), e.Removed...) {
					explained[c.Square] = true
				}
				switch a.Type() {
				case rules.Move:
					explained[a.From()] = true
				case rules.Retire:
					for k := p.Pieces(e.Decider, rules.King); k != 0; k &= k - 1 {
						explained[rules.Square(bits.TrailingZeros64(k))] = true
					}
				}
				for sq := rules.Square(0); sq < 64; sq++ {
					if p.At(sq) != rules.NoPiece && q.At(sq) == rules.NoPiece && !explained[sq] {
						t.Fatalf("%s: the piece on %s is gone, the effect does not say why (%s)", where, sq, effectText(pr, e))
					}
				}
				*p = q
			}
		}
	}
}
