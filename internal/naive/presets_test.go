package naive

import (
	"reflect"
	"strings"
	"testing"
)

func mustParseRules(t *testing.T, rules, s string) *Position {
	t.Helper()
	p, err := ParseRules(rules, s)
	if err != nil {
		t.Fatalf("ParseRules(%q, %q): %v", rules, s, err)
	}
	return p
}

// TestPresetStartPerft checks and logs the start-position perft of every
// preset. The values are derived by hand as the comments say, except where
// marked "regression": those are this implementation's own numbers, to be
// compared with the fast engine's.
func TestPresetStartPerft(t *testing.T) {
	cases := []struct {
		rules string
		want  []uint64 // depth 1, 2, ...
		slow  int      // depths from this one on are skipped with -short (0: none)
	}{
		// docs/rules.md §7.
		{Chaturaji, []uint64{10, 100, 1000, 10000, 114900}, 0},
		// No seat touches another in the first round, so depths 1-4 are
		// chaturaji's. Depth 5 is chaturaji's 114900 less the captures of a
		// king by a pawn or boat on South's second move: the boat a1c3 then
		// c3a5 taking yK (West's 8 moves that leave its king on a5, times
		// North's 10 and East's 10: 800), and the West king's a5b4 taken by
		// a pawn on a3 or c3, or its a5a4 taken by a pawn on b3 (3 x 10 x
		// 10 = 300): 114900 - 1100.
		{ChaturajiRanks, []uint64{10, 100, 1000, 10000, 113800}, 0},
		// Depth 1 and 2 by hand in TestTwoDicePerftByHand; depths 3 and 4
		// regression (depth 4 takes about 6 s).
		{Chaturaji2Dice, []uint64{105, 2529, 87185, 2650298}, 4},
		// As chaturaji up to depth 4 (no contact in the first round, and the
		// turn order only permutes three independent moves); at depth 5,
		// South's second move sees the same boards as in chaturaji, and no
		// ludii difference (boat takes boat, promotion choice) can arise
		// yet.
		{Ludii, []uint64{10, 100, 1000, 10000, 114900}, 0},
		// Depths 1-4 by hand in TestTwoPlayerPerftByHand; depth 5
		// regression (about 3 s).
		{Chaturanga2P, []uint64{18, 324, 5922, 108265, 2058969}, 5},
	}
	for _, c := range cases {
		var got []uint64
		for i, w := range c.want {
			d := i + 1
			if testing.Short() && c.slow != 0 && d >= c.slow {
				break
			}
			n := PerftOf(StartOf(c.rules), d)
			got = append(got, n)
			if n != w {
				t.Errorf("%s: perft(start, %d) = %d, want %d", c.rules, d, n, w)
			}
		}
		t.Logf("%-16s perft 1..%d: %v", c.rules, len(got), got)
	}
}

// TestTwoDicePerftByHand derives chaturaji-2dice's start perft at depths 1
// and 2 from a table of South's start moves counted by hand.
func TestTwoDicePerftByHand(t *testing.T) {
	// Kind classes of the cube's faces: 1 and 5 king or pawn, 2 boat, 3
	// horse, 4 and 6 elephant.
	const kp, boat, horse, eleph = 0, 1, 2, 3
	class := [7]int{-1, kp, boat, horse, eleph, kp, eleph}
	// South's moves at the start, by class: king d1e1 d1e2, pawns a2a3
	// b2b3 c2c3 d2d3; boat a1c3; horse b1a3 b1c3; elephant none.
	start := [4]int{6, 1, 2, 0}
	// After each first move, the number of moves of each class (then +1
	// for pass is added below). For example after a1c3 the boat on c3 has
	// a1, e1, e5 and a5 (taking West's king), and the c-pawn is blocked.
	type after struct {
		class  int
		counts [4]int
	}
	moves := map[string]after{
		"a1c3": {boat, [4]int{5, 4, 1, 0}},
		"b1a3": {horse, [4]int{5, 1, 3, 1}}, // horse a3: b5 (takes yP), c4, b1; elephant c1b1
		"b1c3": {horse, [4]int{5, 0, 6, 1}}, // horse c3: d5 e4 e2 b1 a4 b5
		"d1e1": {kp, [4]int{8, 1, 2, 1}},    // king e1: d1 f1 e2 f2; elephant c1d1
		"d1e2": {kp, [4]int{11, 1, 2, 4}},   // king e2: 7 squares; elephant c1: d1 e1 f1 g1 (rP)
		"a2a3": {kp, [4]int{6, 1, 1, 0}},    // horse b1 loses a3
		"b2b3": {kp, [4]int{6, 1, 2, 0}},    //
		"c2c3": {kp, [4]int{7, 0, 1, 1}},    // king gains c2; boat and horse lose c3; elephant c1c2
		"d2d3": {kp, [4]int{7, 1, 3, 0}},    // king and horse gain d2
	}
	var depth1, depth2 uint64
	for a := 1; a <= 6; a++ {
		for b := a; b <= 6; b++ {
			ca, cb := class[a], class[b]
			n := uint64(1) // pass
			for c := range start {
				if c == ca || c == cb {
					n += uint64(start[c])
				}
			}
			depth1 += n
			// After pass, West (the same position turned) has depth1 = 105.
			depth2 += 105
			for _, m := range moves {
				var rest int // the class of the die left over
				switch m.class {
				case ca:
					rest = cb // a move uses the lower face when both fit
				case cb:
					rest = ca
				default:
					continue
				}
				depth2 += uint64(m.counts[rest] + 1) // + pass
			}
		}
	}
	if depth1 != 105 || depth2 != 2529 {
		t.Fatalf("hand table gives %d, %d; want 105, 2529", depth1, depth2)
	}
	s := StartOf(Chaturaji2Dice)
	if got := Perft(s, 1); got != depth1 {
		t.Errorf("perft 1 = %d, hand %d", got, depth1)
	}
	if got := Perft(s, 2); got != depth2 {
		t.Errorf("perft 2 = %d, hand %d", got, depth2)
	}
	// The table above, checked move by move against the engine: roll the
	// face of the move's class and a face of each class, play the move, and
	// count the moves left for the other die.
	face := [4]int{1, 2, 3, 4}
	for m, a := range moves {
		for c := range a.counts {
			q, err := s.WithRoll(face[a.class], face[c]).Apply(m)
			if err != nil {
				t.Fatalf("%s with %d%d: %v", m, face[a.class], face[c], err)
			}
			if got := len(q.Actions()) - 1; got != a.counts[c] {
				t.Errorf("after %s, die %d: %d moves, hand %d (%v)", m, face[c], got, a.counts[c], q.Actions())
			}
		}
	}
	// Every die pair is a separate outcome, written ascending.
	if got := s.WithRoll(5, 1).String(); !strings.Contains(got, " b 15 ") {
		t.Errorf("WithRoll(5, 1) = %s", got)
	}
	if s.WithRollString("15").String() != s.WithRoll(1, 5).String() {
		t.Error("WithRollString(15) differs from WithRoll(1, 5)")
	}
}

// TestTwoPlayerPerftByHand derives chaturanga-2p's start perft at depths 1
// to 4 by hand. No piece of one side can reach or attack the other side's
// pieces before South's second move, so depth 2 is 18 x 18 and depth 3 is
// 18 x (the sum over South's 18 first moves of its moves after it).
func TestTwoPlayerPerftByHand(t *testing.T) {
	// South's moves after each first move (the rajah leap is used by the
	// first two of the last row), counted square by square.
	second := map[string]int{
		"a2a3": 17, "b2b3": 18, "c2c3": 19, "d2d3": 18, "e2e3": 20, "f2f3": 17, "g2g3": 19, "h2h3": 17,
		"b1a3": 18, "b1c3": 21, "g1f3": 20, "g1h3": 18,
		"c1a3": 16, "c1e3": 18, "f1d3": 18, "f1h3": 17,
		"e1d3": 19, "e1f3": 19,
	}
	s := StartOf(Chaturanga2P)
	var first []string
	sum := 0
	for m, n := range second {
		first = append(first, m)
		sum += n
		q, err := s.Apply(m)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		// Put South to move again in the position after m (no North move
		// interferes), to check the hand count.
		q.Seat = South
		if got := len(q.Actions()); got != n {
			t.Errorf("after %s: %d moves, hand %d: %v", m, got, n, q.Actions())
		}
	}
	if got := s.Actions(); len(got) != 18 || !sameSet(got, first) {
		t.Errorf("start actions %v", got)
	}
	// Depth 4: North's second moves are North's first-move counts (the same
	// 329 by symmetry) except where South's second move put a piece on
	// rank 5 diagonally in front of a soldier North just moved to rank 6:
	// 12 such South move pairs (b1c3 c3b5|c3d5, b1a3 a3b5, g1f3 f3e5|f3g5,
	// g1h3 h3g5, c1a3 a3c5, c1e3 e3c5|e3g5, f1d3 d3b5|d3f5, f1h3 h3f5),
	// each with 2 such soldier moves, each adding one capture.
	want := []uint64{18, 18 * 18, uint64(18 * sum), uint64(sum*sum + 12*2)}
	if sum != 329 {
		t.Errorf("hand sum %d, want 329", sum)
	}
	for d, w := range want {
		if got := Perft(s, d+1); got != w {
			t.Errorf("perft %d = %d, hand %d", d+1, got, w)
		}
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

// step is one action of a hand-made position and what must follow.
type step struct {
	actions  []string // the legal actions before it, if checked
	action   string
	want     string // the position after it
	finished bool
}

// presetCase is a hand-made position with a sequence of actions; the
// expected results were worked out from docs/rules.md and the preset decisions,
// not from the code.
type presetCase struct {
	name  string
	rules string
	pos   string
	steps []step
}

func runPresetCases(t *testing.T, cases []presetCase) {
	t.Helper()
	for _, c := range cases {
		p := mustParseRules(t, c.rules, c.pos)
		if got := p.String(); got != c.pos {
			t.Errorf("%s: round trip %q -> %q", c.name, c.pos, got)
		}
		for i, s := range c.steps {
			if s.actions != nil {
				if got := p.Actions(); !reflect.DeepEqual(got, s.actions) {
					t.Errorf("%s, step %d: actions\n got  %v\n want %v", c.name, i+1, got, s.actions)
				}
			}
			if s.action == "" {
				continue
			}
			q, err := p.Apply(s.action)
			if err != nil {
				t.Errorf("%s, step %d: %v (actions %v)", c.name, i+1, err, p.Actions())
				break
			}
			if q.String() != s.want {
				t.Errorf("%s, step %d (%s):\n got  %s\n want %s", c.name, i+1, s.action, q, s.want)
				break
			}
			if q.Finished() != s.finished {
				t.Errorf("%s, step %d: Finished() = %v, want %v", c.name, i+1, q.Finished(), s.finished)
			}
			if s.finished {
				if n := Perft(q, 1); n != 0 {
					t.Errorf("%s: perft 1 of a finished position = %d", c.name, n)
				}
			}
			if r, err := ParseRules(c.rules, s.want); err != nil || r.String() != s.want {
				t.Errorf("%s, step %d: %q does not round-trip (%v)", c.name, i+1, s.want, err)
			}
			p = q
		}
	}
}

func TestRanksRules(t *testing.T) {
	runPresetCases(t, []presetCase{
		{
			name:  "pawn takes a pawn but not a horse",
			rules: ChaturajiRanks,
			pos:   "yK7/8/8/2yH1yP3/3bP4/8/8/3bK3gK b 5 0,0,0,0 0",
			steps: []step{{actions: []string{"d1c1", "d1c2", "d1d2", "d1e1", "d1e2", "d4d5", "d4e5"},
				action: "d4e5", want: "yK7/8/8/2yH1bP3/8/8/8/3bK3gK y - 1,0,0,0 0"}},
		},
		{
			name:  "boat takes a pawn but not an elephant or a king",
			rules: ChaturajiRanks,
			pos:   "8/8/8/yK3yP3/8/2bB5/8/yE2bK3gK b 2 0,0,0,0 0",
			steps: []step{{actions: []string{"c3e1", "c3e5"}}},
		},
		{
			name:  "the same boat in chaturaji",
			rules: Chaturaji,
			pos:   "8/8/8/yK3yP3/8/2bB5/8/yE2bK3gK b 2 0,0,0,0 0",
			steps: []step{{actions: []string{"c3a1", "c3a5", "c3e1", "c3e5"}}},
		},
		{
			name:  "boat still cannot take a boat",
			rules: ChaturajiRanks,
			pos:   "yK1gK1rK3/8/8/8/8/2gB5/8/bB2bK4 b 2 0,0,0,0 5",
			steps: []step{{actions: []string{"pass"}}},
		},
		{
			name:  "horse takes a king",
			rules: ChaturajiRanks,
			pos:   "yK7/8/8/8/8/2gK5/8/1bH1bK4 b 3 0,0,0,0 0",
			steps: []step{{actions: []string{"b1a3", "b1c3", "b1d2"}, action: "b1c3",
				want: "yK7/8/8/8/8/2bH5/8/3bK4 y - 5,0,0,0 0"}},
		},
		{
			name:  "boat triumph stays",
			rules: ChaturajiRanks,
			pos:   "yK1gK1rK3/8/8/8/2rByB4/3gB4/8/bB2bK4 b 2 0,0,0,0 5",
			steps: []step{{action: "a1c3", want: "yK1gK1rK3/8/8/8/8/2bB5/8/3bK4 y - 6,0,0,0 0"}},
		},
	})
}

func TestTwoDiceRules(t *testing.T) {
	runPresetCases(t, []presetCase{
		{
			name:  "pawn uses the 1, the king the 5; the second action leaves the clock at 0",
			rules: Chaturaji2Dice,
			pos:   "yK7/8/8/8/8/8/3bP4/3bK3gK b 15 0,0,0,0 4",
			steps: []step{
				{actions: []string{"d1c1", "d1c2", "d1e1", "d1e2", "d2d3", "pass"},
					action: "d2d3", want: "yK7/8/8/8/8/3bP4/8/3bK3gK b 5 0,0,0,0 0"},
				{actions: []string{"d1c1", "d1c2", "d1d2", "d1e1", "d1e2", "d3d4", "pass"},
					action: "d1d2", want: "yK7/8/8/8/8/3bP4/3bK4/7gK y - 0,0,0,0 0"},
			},
		},
		{
			name:  "a quiet first action adds 1, a pawn move second resets",
			rules: Chaturaji2Dice,
			pos:   "yK7/8/8/8/8/8/3bP4/3bK3gK b 15 0,0,0,0 4",
			steps: []step{
				{action: "d1e1", want: "yK7/8/8/8/8/8/3bP4/4bK2gK b 5 0,0,0,0 5"},
				{action: "d2d3", want: "yK7/8/8/8/8/3bP4/8/4bK2gK y - 0,0,0,0 0"},
			},
		},
		{
			name:  "elephant uses the 4 and moves again with the 6",
			rules: Chaturaji2Dice,
			pos:   "yK7/8/8/8/8/8/8/bE2bK3gK b 46 0,0,0,0 4",
			steps: []step{
				{action: "a1a2", want: "yK7/8/8/8/8/8/bE7/3bK3gK b 6 0,0,0,0 5"},
				{action: "a2a3", want: "yK7/8/8/8/8/bE7/8/3bK3gK y - 0,0,0,0 5"},
			},
		},
		{
			name:  "pass is legal with moves, ends the turn and adds 1",
			rules: Chaturaji2Dice,
			pos:   "yK7/8/8/8/8/8/3bP4/3bK3gK b 15 0,0,0,0 4",
			steps: []step{{action: "pass", want: "yK7/8/8/8/8/8/3bP4/3bK3gK y - 0,0,0,0 5"}},
		},
		{
			name:  "pass as the second action leaves the clock",
			rules: Chaturaji2Dice,
			pos:   "yK7/8/8/8/8/3bP4/8/3bK3gK b 5 0,0,0,0 7",
			steps: []step{{action: "pass", want: "yK7/8/8/8/8/3bP4/8/3bK3gK y - 0,0,0,0 7"}},
		},
		{
			name:  "a pawn just promoted to a horse uses the 3",
			rules: Chaturaji2Dice,
			pos:   "8/1bP6/8/8/8/8/8/bK6gK b 13 0,0,0,0 7",
			steps: []step{
				{action: "b7b8", want: "1bH6/8/8/8/8/8/8/bK6gK b 3 0,0,0,0 0"},
				{actions: []string{"b8a6", "b8c6", "b8d7", "pass"},
					action: "b8c6", want: "8/8/2bH5/8/8/8/8/bK6gK g - 0,0,0,0 0"},
			},
		},
		{
			name:  "no waiting promotion between the two moves",
			rules: Chaturaji2Dice,
			pos:   "7gK/8/8/7yP/8/8/3bP4/3bK4 b 15 0,0,0,0 0",
			steps: []step{
				{action: "d2d3", want: "7gK/8/8/7yP/8/3bP4/8/3bK4 b 5 0,0,0,0 0"},
				{action: "d1d2", want: "7gK/8/8/7yK/8/3bP4/3bK4/8 y - 0,0,0,0 0"},
			},
		},
		{
			name:  "the game ends after the first action: the die is lost, no revival",
			rules: Chaturaji2Dice,
			pos:   "8/8/8/7yP/8/8/1gK6/bK7 b 15 0,0,0,0 0",
			steps: []step{{action: "a1b2", want: "8/8/8/7yP/8/8/1bK6/8 b - 54,0,0,0 0", finished: true}},
		},
		{
			name:  "only kings left after the first action",
			rules: Chaturaji2Dice,
			pos:   "8/8/8/8/8/8/1gP6/bK6gK b 15 0,0,0,0 3",
			steps: []step{{action: "a1b2", want: "8/8/8/8/8/8/1bK6/7gK b - 1,0,0,0 0", finished: true}},
		},
		{
			name:  "retire with no move for either die",
			rules: Chaturaji2Dice,
			pos:   "yKyP6/8/8/8/8/8/8/bK6gK b 23 0,0,0,0 0",
			steps: []step{{actions: []string{"pass", "retire"},
				action: "retire", want: "yKyP6/8/8/8/8/8/8/7gK y - 0,0,0,0 1"}},
		},
		{
			name:  "retire offered again at the second decision",
			rules: Chaturaji2Dice,
			pos:   "yKyP6/8/8/8/8/8/8/bK6gK b 15 0,0,0,0 0",
			steps: []step{
				{action: "a1a2", want: "yKyP6/8/8/8/8/8/bK7/7gK b 5 0,0,0,0 1"},
				{actions: []string{"a2a1", "a2a3", "a2b1", "a2b2", "a2b3", "pass", "retire"},
					action: "retire", want: "yKyP6/8/8/8/8/8/8/7gK y - 0,0,0,0 1"},
			},
		},
		{
			name:  "the clock ends the game only once the turn has passed",
			rules: Chaturaji2Dice,
			pos:   "yK7/8/8/8/8/8/8/bB2bK3gK b 23 0,0,0,0 199",
			steps: []step{
				{action: "a1c3", want: "yK7/8/8/8/8/2bB5/8/3bK3gK b 3 0,0,0,0 200"},
				{actions: []string{"pass"}, action: "pass", want: "yK7/8/8/8/8/2bB5/8/3bK3gK y - 0,0,0,0 200", finished: true},
			},
		},
	})
	// A two-dice position awaiting its roll has 21 outcomes.
	lone := mustParseRules(t, Chaturaji2Dice, "yKyP6/8/8/8/8/8/8/bK6gK b - 0,0,0,0 0")
	// With 1 or 5 among the dice the king has 3 moves, plus pass and retire:
	// 11 of the 21 outcomes; the other 10 leave pass and retire.
	if got := Perft(lone, 1); got != 11*5+10*2 {
		t.Errorf("lone king perft 1 = %d, want %d", got, 11*5+10*2)
	}
}

func TestLudiiRules(t *testing.T) {
	runPresetCases(t, []presetCase{
		{
			name:  "promotion: one action per kind the army lacks, capture too",
			rules: Ludii,
			pos:   "1yK6/bP7/8/8/8/8/8/3bKbH2gK b 5 0,0,0,0 0",
			steps: []step{{actions: []string{"a7a8=B", "a7a8=E", "a7b8=B", "a7b8=E", "d1c1", "d1c2", "d1d2", "d1e2"},
				action: "a7b8=E", want: "1bE6/8/8/8/8/8/8/3bKbH2gK r - 5,0,0,0 1"}},
		},
		{
			name:  "promotion to a king",
			rules: Ludii,
			pos:   "2yK5/bP7/8/8/8/8/8/bBbHbE4gK b 5 0,0,0,0 0",
			steps: []step{{actions: []string{"a7a8=K"}, action: "a7a8=K",
				want: "bK1yK5/8/8/8/8/8/8/bBbHbE4gK r - 0,0,0,0 1"}},
		},
		{
			name:  "an army with all four kinds: the pawn stays a pawn",
			rules: Ludii,
			pos:   "8/bP7/8/8/8/8/8/bBbHbEbK3gK b 5 0,0,0,0 0",
			steps: []step{{actions: []string{"a7a8", "d1c2", "d1d2", "d1e1", "d1e2"},
				action: "a7a8", want: "bP7/8/8/8/8/8/8/bBbHbEbK3gK r - 0,0,0,0 1"}},
		},
		{
			name:  "a pawn on its last line never promotes later",
			rules: Ludii,
			pos:   "bP7/8/8/8/8/8/8/1bHbEbK3gK y 3 0,0,0,0 1",
			steps: []step{
				{actions: []string{"pass"}, action: "pass", want: "bP7/8/8/8/8/8/8/1bHbEbK3gK b - 0,0,0,0 2"},
			},
		},
		{
			name:  "turn order South, East, North, West; the clock counts pawn moves too",
			rules: Ludii,
			pos:   "yK7/8/8/8/8/8/3bP4/3bK2rKgK b 5 0,0,0,0 0",
			steps: []step{
				{action: "d2d3", want: "yK7/8/8/8/8/3bP4/8/3bK2rKgK r - 0,0,0,0 1"},
			},
		},
		{
			name:  "kingless army moves; a seat without pieces passes",
			rules: Ludii,
			pos:   "yK7/8/8/8/8/8/3bP4/7gK b 5 0,0,0,0 0",
			steps: []step{
				{actions: []string{"d2d3"}, action: "d2d3", want: "yK7/8/8/8/8/3bP4/8/7gK r - 0,0,0,0 1"},
			},
		},
		{
			name:  "boat takes boat",
			rules: Ludii,
			pos:   "yK7/8/8/8/8/2yB5/8/bB2bK3gK b 2 0,0,0,0 0",
			steps: []step{{actions: []string{"a1c3"}, action: "a1c3",
				want: "yK7/8/8/8/8/2bB5/8/3bK3gK r - 2,0,0,0 1"}},
		},
		{
			name:  "no boat triumph",
			rules: Ludii,
			pos:   "yK1gK1rK3/8/8/8/2rByB4/3gB4/8/bB2bK4 b 2 0,0,0,0 5",
			steps: []step{{action: "a1c3", want: "yK1gK1rK3/8/8/8/2rByB4/2bBgB4/8/3bK4 r - 0,0,0,0 6"}},
		},
		{
			name:  "no retire, and only kings do not end the game",
			rules: Ludii,
			pos:   "yK7/8/8/8/8/8/8/bK6gK b 3 0,0,0,0 0",
			steps: []step{{actions: []string{"pass"}, action: "pass", want: "yK7/8/8/8/8/8/8/bK6gK r - 0,0,0,0 1"}},
		},
		{
			name:  "the game ends when one army is left, without the 54 raise",
			rules: Ludii,
			pos:   "8/8/8/8/8/8/1gP6/bK7 b 5 0,0,0,0 10",
			steps: []step{{action: "a1b2", want: "8/8/8/8/8/8/1bK6/8 r - 1,0,0,0 11", finished: true}},
		},
		{
			name:  "the game ends at a clock of 5000",
			rules: Ludii,
			pos:   "yK7/8/8/8/8/8/3bP4/3bK3gK b 5 0,0,0,0 4999",
			steps: []step{{action: "d2d3", want: "yK7/8/8/8/8/3bP4/8/3bK3gK r - 0,0,0,0 5000", finished: true}},
		},
	})

	// The turn goes round South, East, North, West, skipping nobody.
	p := StartOf(Ludii)
	for _, s := range []struct{ roll, action, seat string }{
		{"5", "d2d3", "r"}, {"5", "g1f1", "g"}, {"5", "e7e6", "y"}, {"5", "b5c5", "b"}, {"3", "b1c3", "r"},
	} {
		q, err := p.WithRollString(s.roll).Apply(s.action)
		if err != nil {
			t.Fatalf("%s: %v", s.action, err)
		}
		if f := strings.Fields(q.String()); f[1] != s.seat {
			t.Errorf("after %s: seat %s, want %s", s.action, f[1], s.seat)
		}
		p = q
	}
	if p.Clock != 5 {
		t.Errorf("clock after five turns = %d, want 5", p.Clock)
	}
	// A seat with no pieces still takes its turn: one pass per face.
	empty := mustParseRules(t, Ludii, "yK7/8/8/8/8/3bP4/8/7gK r - 0,0,0,0 1")
	if got := Perft(empty, 1); got != 4 {
		t.Errorf("perft 1 of an empty seat = %d, want 4", got)
	}
	// Then North's king on h1: g1, g2, h2 with a 5, else pass: 6 a face.
	if got := Perft(empty, 2); got != 4*6 {
		t.Errorf("perft 2 of an empty seat = %d, want 24", got)
	}
}

func TestTwoPlayerRules(t *testing.T) {
	runPresetCases(t, []presetCase{
		{
			name:  "rajah leaps when not attacked; each seat once",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/8/4bK3 b - 0,0 0",
			steps: []step{
				{actions: []string{"e1c2", "e1d1", "e1d2", "e1d3", "e1e2", "e1f1", "e1f2", "e1f3", "e1g2"},
					action: "e1d3", want: "4gK3/8/8/8/8/3bK4/8/8 g - 0,0 1 leaps=b"},
				{actions: []string{"e8c7", "e8d6", "e8d7", "e8d8", "e8e7", "e8f6", "e8f7", "e8f8", "e8g7"},
					action: "e8f6", want: "8/8/5gK2/8/8/3bK4/8/8 b - 0,0 2 leaps=bg"},
				{actions: []string{"d3c2", "d3c3", "d3c4", "d3d2", "d3d4", "d3e2", "d3e3", "d3e4"}},
			},
		},
		{
			name:  "no leap when a tour attacks the rajah",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/4gE3/8/8/8/4bK3 b - 0,0 0",
			steps: []step{{actions: []string{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}}},
		},
		{
			name:  "no leap when a soldier attacks diagonally",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/3gP4/4bK3 b - 0,0 0",
			steps: []step{{actions: []string{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}}},
		},
		{
			name:  "no leap when a soldier attacks straight ahead",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/4gP3/4bK3 b - 0,0 0",
			steps: []step{{actions: []string{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}}},
		},
		{
			name:  "a waiting soldier does not attack",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/8/3gPbK3 b - 0,0 0",
			steps: []step{{actions: []string{"e1c2", "e1d1", "e1d2", "e1d3", "e1e2", "e1f1", "e1f2", "e1f3", "e1g2"}}},
		},
		{
			name:  "the enemy rajah's leap is no attack; a leap takes the rajah and ends the game",
			rules: Chaturanga2P,
			pos:   "8/8/8/8/8/3gK4/8/4bK3 b - 0,0 0",
			steps: []step{{actions: []string{"e1c2", "e1d1", "e1d2", "e1d3", "e1e2", "e1f1", "e1f2", "e1f3", "e1g2"},
				action: "e1d3", want: "8/8/8/8/8/3bK4/8/8 b - 0,0 0 leaps=b", finished: true}},
		},
		{
			name:  "leap used: steps only",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/8/4bK3 b - 0,0 0 leaps=b",
			steps: []step{{actions: []string{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}}},
		},
		{
			name:  "the other seat's leap does not count",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/8/4bK3 b - 0,0 0 leaps=g",
			steps: []step{{actions: []string{"e1c2", "e1d1", "e1d2", "e1d3", "e1e2", "e1f1", "e1f2", "e1f3", "e1g2"},
				action: "e1f3", want: "4gK3/8/8/8/8/5bK2/8/8 g - 0,0 1 leaps=bg"}},
		},
		{
			name:  "soldier promotes on arrival when the army lacks the file's kind",
			rules: Chaturanga2P,
			pos:   "4gK3/1bP6/8/8/8/8/8/bH3bK3 b - 0,0 9",
			steps: []step{{action: "b7b8", want: "1bH2gK3/8/8/8/8/8/8/bH3bK3 g - 0,0 0"}},
		},
		{
			name:  "soldier waits when the army has both cavaliers",
			rules: Chaturanga2P,
			pos:   "4gK3/6bP1/8/8/8/8/8/bH3bK1bH1 b - 0,0 9",
			steps: []step{{action: "g7g8", want: "4gK1bP1/8/8/8/8/8/8/bH3bK1bH1 g - 0,0 0"}},
		},
		{
			name:  "a waiting soldier promotes at its owner's next turn once a tour is lost",
			rules: Chaturanga2P,
			pos:   "bP3gK3/8/8/7gE/8/8/8/bE3bK2bE g - 0,0 5",
			steps: []step{{action: "h5h1", want: "bE3gK3/8/8/8/8/8/8/bE3bK2gE b - 0,0 0"}},
		},
		{
			name:  "two waiting soldiers for one lacking kind: the lower square first",
			rules: Chaturanga2P,
			pos:   "bP3gK2bP/8/8/7gE/8/8/8/4bK2bE g - 0,0 5",
			steps: []step{{action: "h5h1", want: "bE3gK2bE/8/8/8/8/8/8/4bK2gE b - 0,0 0"}},
		},
		{
			name:  "on the rajah's file a soldier waits for ever",
			rules: Chaturanga2P,
			pos:   "3gK4/4bP3/8/8/8/8/8/4bK3 b - 0,0 0",
			steps: []step{{action: "e7e8", want: "3gKbP3/8/8/8/8/8/8/4bK3 g - 0,0 0"}},
		},
		{
			name:  "soldier takes straight ahead",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/3gB4/3bP4/8/8/4bK3 b - 0,0 3 leaps=b",
			steps: []step{{actions: []string{"d4d5", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"},
				action: "d4d5", want: "4gK3/8/8/3bP4/8/8/8/4bK3 g - 0,0 0 leaps=b"}},
		},
		{
			name:  "elephant takes elephant; vizir steps diagonally",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/4gB3/8/2bBbVbK3 b - 0,0 3 leaps=b",
			steps: []step{{actions: []string{"c1a3", "c1e3", "d1c2", "d1e2", "e1d2", "e1e2", "e1f1", "e1f2"},
				action: "c1e3", want: "4gK3/8/8/8/8/4bB3/8/3bVbK3 g - 0,0 0 leaps=b"}},
		},
		{
			name:  "no legal move: pass",
			rules: Chaturanga2P,
			pos:   "4bPbKbEbE/4bPbPbPbP/8/8/8/8/8/gK7 b - 0,0 3 leaps=b",
			steps: []step{{actions: []string{"pass"}, action: "pass",
				want: "4bPbKbEbE/4bPbPbPbP/8/8/8/8/8/gK7 g - 0,0 4 leaps=b"}},
		},
		{
			name:  "the same with the leap unused",
			rules: Chaturanga2P,
			pos:   "4bPbKbEbE/4bPbPbPbP/8/8/8/8/8/gK7 b - 0,0 3",
			steps: []step{{actions: []string{"f8d7", "f8e6", "f8g6"}}},
		},
		{
			name:  "the clock reaches 200",
			rules: Chaturanga2P,
			pos:   "4gK3/8/8/8/8/8/8/4bK3 b - 0,0 199 leaps=bg",
			steps: []step{{action: "e1d1", want: "4gK3/8/8/8/8/8/8/3bK4 g - 0,0 200 leaps=bg", finished: true}},
		},
	})
}

func TestPresetParse(t *testing.T) {
	good := []struct{ rules, pos string }{
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b 55 0,0,0,0 0"},
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b 6 0,0,0,0 0"},
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0"},
		{Ludii, "8/8/8/8/8/8/8/3bK4 r 2 0,0,0,0 0"},
		{ChaturajiRanks, "8/8/8/8/8/8/8/3bK4 y 5 0,0,0,0 0"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bVbK3 g - 0,7 0 leaps=bg"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bVbK3 g - 0,7 0 leaps=g"},
	}
	for _, g := range good {
		if p := mustParseRules(t, g.rules, g.pos); p.String() != g.pos {
			t.Errorf("%s: round trip %q -> %q", g.rules, g.pos, p)
		}
	}
	bad := []struct{ rules, pos string }{
		{"chaturaji-4dice", "8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0"},
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b 51 0,0,0,0 0"},
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b 7 0,0,0,0 0"},
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b 0 0,0,0,0 0"},
		{Chaturaji2Dice, "8/8/8/8/8/8/8/3bK4 b 123 0,0,0,0 0"},
		{Chaturaji, "8/8/8/8/8/8/8/3bK4 b 15 0,0,0,0 0"},
		{Chaturaji, "8/8/8/8/8/8/8/3bVbK3 b - 0,0,0,0 0"},
		{Ludii, "8/8/8/8/8/8/8/3bK4 b 1 0,0,0,0 0"},
		{Ludii, "8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0 leaps=b"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b 5 0,0 0"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0,0,0 0"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 y - 0,0 0"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3yK4 b - 0,0 0"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0 0 leaps="},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0 0 leaps=gb"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0 0 leaps=bb"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0 0 leaps=y"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0 0 jumps=b"},
		{Chaturanga2P, "8/8/8/8/8/8/8/3bK4 b - 0,0 0 leaps=b x"},
	}
	for _, b := range bad {
		if p, err := ParseRules(b.rules, b.pos); err == nil {
			t.Errorf("%s: %q accepted, printed %q", b.rules, b.pos, p)
		}
	}
	if got, want := StartOf(Chaturanga2P).String(), twoPlayerStart; got != want {
		t.Errorf("chaturanga-2p start %q, want %q", got, want)
	}
	for _, r := range []string{"", Chaturaji, ChaturajiRanks, Chaturaji2Dice, Ludii} {
		if got := StartOf(r).String(); got != chaturajiStart {
			t.Errorf("%q start %q", r, got)
		}
	}
	if *StartOf(Chaturaji) != *Start() || *mustParseRules(t, Chaturaji, chaturajiStart) != *Start() {
		t.Error("the default preset is not the same under its name")
	}
	if StartOf(Chaturanga2P).AwaitingRoll() {
		t.Error("a diceless preset awaits a roll")
	}
}
