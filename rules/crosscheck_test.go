package rules_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/internal/naive"
	"github.com/chaturaji/chaturaji/rules"
)

// crossStats counts what the cross-checked games went through, so the test
// can insist that the rare rules were exercised.
type crossStats struct {
	games, actions, positions                                            int
	triumphs, waiting, revived, retired, passes, frozen, promoted, waits int
	ends                                                                 [3]int // one king, only kings, clock
}

// crossCheckGame plays a random game from p (changed in place) with the fast
// engine and checks, at every position, the sorted actions and, after every
// action, the position string against internal/naive. It returns a few
// positions met on the way, for perft.
func crossCheckGame(t *testing.T, p *rules.Position, rng *rand.Rand, pol policy, st *crossStats) (samples []string) {
	t.Helper()
	np := mustNaive(t, p.String())
	var buf [rules.MaxActions]rules.Action
	st.games++
	for ply := 0; ; ply++ {
		if p.Finished() != np.Finished() {
			t.Fatalf("%s: engine finished %v, naive %v", p, p.Finished(), np.Finished())
		}
		if p.Finished() {
			break
		}
		if p.AwaitingRoll() != np.AwaitingRoll() {
			t.Fatalf("%s: engine awaiting its roll %v, naive %v", p, p.AwaitingRoll(), np.AwaitingRoll())
		}
		if p.AwaitingRoll() {
			if rng.IntN(40) == 0 {
				samples = append(samples, p.String())
			}
			r := rules.Chaturaji.RandomRoll(rng)
			p.SetRoll(r)
			np = np.WithRoll(r.Face(0))
		}
		st.positions++
		if got, want := actionStrings(p), np.Actions(); !slices.Equal(got, want) {
			t.Fatalf("%s (%s policy)\n engine %v\n naive  %v", p, pol.name, got, want)
		}
		if rng.IntN(40) == 0 {
			samples = append(samples, p.String())
		}
		acts := p.Actions(buf[:])
		a := pol.choose(p, acts, rng)
		before := *p
		var u rules.Undo
		p.Make(a, &u)
		st.actions++
		q, err := np.Apply(a.String())
		if err != nil {
			t.Fatalf("naive: %v", err)
		}
		np = q
		if got, want := p.String(), np.String(); got != want {
			t.Fatalf("%s, %s\n engine %s\n naive  %s", before.String(), a, got, want)
		}
		e, err := checkAction(&before, p, a)
		if err != nil {
			t.Fatalf("%s: %v", before.String(), err)
		}
		st.triumphs += e.triumph
		st.waiting += e.waiting
		st.revived += e.revived
		st.frozen += e.frozen
		if e.retired {
			st.retired++
		}
		if e.promoted {
			st.promoted++
		}
		if e.waits {
			st.waits++
		}
		if a.Type() == rules.Pass {
			st.passes++
		}
	}
	switch kings, only := kingsOn(p); {
	case kings <= 1:
		st.ends[0]++
	case only:
		st.ends[1]++
	default:
		st.ends[2]++
	}
	return samples
}

// TestCrossCheck plays random games from the start position and from random
// positions, comparing every step with internal/naive, then compares perft
// from positions met on the way.
func TestCrossCheck(t *testing.T) {
	t.Parallel() // seconds of CPU: beside the package's other long tests
	fromStart, fromRandom := 1500, 1500
	if testing.Short() {
		fromStart, fromRandom = 100, 100
	}
	var st crossStats
	var samples []string
	for g := range fromStart {
		rng := rand.New(rand.NewPCG(1, uint64(g)))
		samples = append(samples, crossCheckGame(t, rules.Chaturaji.StartPosition(), rng, policies[g%len(policies)], &st)...)
	}
	for g := range fromRandom {
		rng := rand.New(rand.NewPCG(2, uint64(g)))
		s := randomPosition(rng)
		p, err := rules.ParsePosition(rules.Chaturaji, s)
		if err != nil {
			t.Fatalf("random position %s: %v", s, err)
		}
		if p.Finished() {
			continue
		}
		samples = append(samples, s)
		samples = append(samples, crossCheckGame(t, p, rng, policies[g%len(policies)], &st)...)
	}
	t.Logf("%d games, %d positions, %d actions; ends by one king %d, only kings %d, clock %d; %d triumph captures, %d waiting promotions, %d revivals, %d retirements, %d passes, %d frozen pieces taken, %d promotions on the move, %d pawns reaching their last line to wait",
		st.games, st.positions, st.actions, st.ends[0], st.ends[1], st.ends[2], st.triumphs, st.waiting, st.revived, st.retired, st.passes, st.frozen, st.promoted, st.waits)
	if !testing.Short() {
		for name, n := range map[string]int{
			"one-king ends": st.ends[0], "only-kings ends": st.ends[1], "clock ends": st.ends[2],
			"triumphs": st.triumphs, "waiting promotions": st.waiting, "revivals": st.revived,
			"retirements": st.retired, "passes": st.passes, "frozen captures": st.frozen,
			"promotions": st.promoted, "waiting pawns": st.waits,
		} {
			if n < 3 {
				t.Errorf("only %d %s: the random games no longer exercise that rule", n, name)
			}
		}
	}
	t.Run("perft", func(t *testing.T) { crossCheckPerft(t, samples) })
}

// crossCheckPerft compares perft with internal/naive from the sampled
// positions: depth 2 from all, depth 3 from some.
func crossCheckPerft(t *testing.T, samples []string) {
	if n := len(samples); n > 400 { // spread the sample over every kind of game
		var spread []string
		for i := range 400 {
			spread = append(spread, samples[i*n/400])
		}
		samples = spread
	}
	deep := 0
	for i, s := range samples {
		p := mustParse(t, s)
		depth := 2
		if i%4 == 0 {
			depth = 3
			deep++
		}
		want := naive.Perft(mustNaive(t, s), depth)
		if got := rules.Perft(p, depth); got != want {
			t.Errorf("perft %d of %s = %d, naive %d", depth, s, got, want)
			reportDivide(t, s, depth)
		}
		if p.String() != s {
			t.Errorf("perft changed %s into %s", s, p)
		}
	}
	t.Logf("perft compared from %d positions, %d of them to depth 3", len(samples), deep)
}

// reportDivide logs the actions (or rolls) whose perft differs from naive.
func reportDivide(t *testing.T, s string, depth int) {
	t.Helper()
	labels, counts := rules.Divide(mustParse(t, s), depth)
	np := mustNaive(t, s)
	for i, l := range labels {
		var want uint64
		if f, ok := strings.CutPrefix(l, "roll="); ok {
			want = naive.Perft(np.WithRoll(int(f[0]-'0')), depth)
		} else if q, err := np.Apply(l); err == nil {
			want = naive.Perft(q, depth-1)
		}
		if counts[i] != want {
			t.Logf("  %s: %d, naive %d", l, counts[i], want)
		}
	}
}

// TestCrossCheckConformancePerft takes perft to depth 3 from the shared
// conformance positions, which were chosen for rare rules.
func TestCrossCheckConformancePerft(t *testing.T) {
	cases := loadConformance(t)
	step := 3
	if testing.Short() {
		step = 20
	}
	for i := 0; i < len(cases); i += step {
		s := cases[i].Pos
		want := naive.Perft(mustNaive(t, s), 3)
		if got := rules.Perft(mustParse(t, s), 3); got != want {
			t.Errorf("line %d: perft 3 of %s = %d, naive %d", i+1, s, got, want)
			reportDivide(t, s, 3)
		}
	}
}

// TestStartPerft checks perft from the start position: depths 1-6 against
// docs/rules.md §8, which states them from two independent
// implementations, and depth 5 against internal/naive as well.
func TestStartPerft(t *testing.T) {
	want := []uint64{1, 10, 100, 1000, 10000, 114900, 1322030}
	for d, w := range want {
		if testing.Short() && d == 6 {
			break
		}
		if got := rules.Perft(rules.Chaturaji.StartPosition(), d); got != w {
			t.Errorf("perft %d from the start = %d, want %d", d, got, w)
		}
	}
	if got := naive.Perft(naive.Start(), 5); got != want[5] {
		t.Errorf("naive perft 5 from the start = %d, want %d", got, want[5])
	}
	// Divide splits depth 5 over the four rolls; each roll's count must match naive.
	labels, counts := rules.Divide(rules.Chaturaji.StartPosition(), 4)
	var sum uint64
	for i, l := range labels {
		sum += counts[i]
		face := int(l[len(l)-1] - '0')
		if n := naive.Perft(naive.Start().WithRoll(face), 4); counts[i] != n {
			t.Errorf("divide 4 from the start, %s: %d, naive %d", l, counts[i], n)
		}
	}
	if len(labels) != 4 || sum != want[4] {
		t.Errorf("divide 4 from the start: %v %v, want four rolls summing to %d", labels, counts, want[4])
	}
}
