package nn_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaturaji/chaturaji/ai/nn"
	"github.com/chaturaji/chaturaji/rules"
)

// tinyNet is a network of 2 and 2 hidden units whose outputs the cases of
// TestForwardByHand work out by hand.
func tinyNet(t testing.TB) *nn.Net {
	t.Helper()
	n, err := nn.New(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	copy(n.B1, []float32{0.5, -1})
	copy(n.W1[3*2:], []float32{1, 2})
	copy(n.W1[10*2:], []float32{-0.25, 0.5})
	copy(n.W1[nn.NumSparse*2:], []float32{2, 1}) // dense input 0
	copy(n.W2, []float32{1, -1, 0.5, 0.25})      // first-layer unit 0's row, then unit 1's
	copy(n.B2, []float32{0, 1})
	copy(n.W3, []float32{1, 0, -1, 2, 5, 5, 5, 5})
	copy(n.B3, []float32{0.1, 0.2, 0.3, 0.4})
	n.Scale = 2
	return n
}

func TestForwardByHand(t *testing.T) {
	n := tinyNet(t)
	for _, c := range []struct {
		name   string
		active []uint16
		dense0 float32
		want   [nn.NumOutputs]float32
	}{
		// acc (0.5, -1): ReLU keeps 0.5; second layer (0.5, 0.5).
		{"no feature: the biases alone", nil, 0, [4]float32{6.2, 5.4, 4.6, 7.8}},
		// acc (0.25, -0.5) -> (0.25, 0); second layer (0.25, 0.75).
		{"one feature, the second unit cut by ReLU", []uint16{10}, 0, [4]float32{8.2, 7.9, 7.6, 9.3}},
		// acc (2.25, 2); second layer (3.25, -0.75) -> (3.25, 0).
		{"two features and a dense input", []uint16{3, 10}, 0.5, [4]float32{6.7, 0.4, -5.9, 13.8}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var in nn.Input
			in.N = copy(in.Active[:], c.active)
			in.Dense[0] = c.dense0
			got := n.Forward(&in)
			for i := range got {
				if math.Abs(float64(got[i]-c.want[i])) > 1e-5 {
					t.Fatalf("Forward = %v, want %v", got, c.want)
				}
			}
		})
	}
}

// randomNet returns a network of the given widths with random weights.
func randomNet(h1, h2 int, seed uint64) *nn.Net {
	n, err := nn.New(h1, h2)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, ps := range n.Params() {
		for i := range ps {
			ps[i] = float32(rng.NormFloat64() * 0.2)
		}
	}
	n.Scale = 10
	return n
}

// TestAccumulatorIncremental plays random games and keeps one accumulator
// up to date feature by feature, checking it against a refresh from
// scratch after every action and roll.
func TestAccumulatorIncremental(t *testing.T) {
	n := randomNet(48, 8, 3)
	for _, pr := range []*rules.Preset{rules.Chaturaji, rules.ChaturajiTeams} {
		t.Run(pr.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			g := rules.NewGame(pr, rules.SeedFromInt(5))
			var prev nn.Input
			var acc nn.Accumulator
			p := g.Position()
			nn.Encode(p, &prev)
			n.Refresh(&acc, &prev)
			var buf [rules.MaxActions]rules.Action
			for step := 0; !g.Finished() && step < 400; step++ {
				if g.Position().AwaitingRoll() {
					g.Roll()
				} else {
					acts := g.Actions(buf[:])
					g.Play(acts[rng.IntN(len(acts))])
				}
				var in nn.Input
				nn.Encode(g.Position(), &in)
				old, cur := prev.Features(), in.Features()
				for _, f := range old {
					if !slices.Contains(cur, f) {
						n.Remove(&acc, int(f))
					}
				}
				for _, f := range cur {
					if !slices.Contains(old, f) {
						n.Add(&acc, int(f))
					}
				}
				for j := range in.Dense {
					n.SetDense(&acc, j, prev.Dense[j], in.Dense[j])
				}
				var fresh nn.Accumulator
				n.Refresh(&fresh, &in)
				for i := range n.Hidden1 {
					if math.Abs(float64(acc.V[i]-fresh.V[i])) > 1e-3 {
						t.Fatalf("step %d: unit %d incremental %v, from scratch %v", step, i, acc.V[i], fresh.V[i])
					}
				}
				a, b := n.Output(&acc), n.Forward(&in)
				for o := range a {
					if math.Abs(float64(a[o]-b[o])) > 1e-2 {
						t.Fatalf("step %d: output %v incremental, %v from scratch", step, a, b)
					}
				}
				prev = in
			}
		})
	}
}

func TestNewWidths(t *testing.T) {
	for _, c := range []struct {
		h1, h2 int
		ok     bool
	}{
		{1, 1, true}, {nn.MaxHidden1, nn.MaxHidden2, true},
		{0, 4, false}, {4, 0, false}, {nn.MaxHidden1 + 1, 4, false}, {4, nn.MaxHidden2 + 1, false},
	} {
		if _, err := nn.New(c.h1, c.h2); (err == nil) != c.ok {
			t.Errorf("New(%d, %d): error %v, want ok %v", c.h1, c.h2, err, c.ok)
		}
	}
}

func TestValueAddsOutputs(t *testing.T) {
	n := randomNet(8, 4, 1)
	p := rules.MustParsePosition(rules.Chaturaji, "yB2yPgE1gHgB/1rBbB3gPgP/1yKyP1gP1bHbK/3yP4/1bP6/8/3bP4/8 y 5 25,11,0,0 5")
	out := n.Outputs(p)
	base := [rules.NumSeats]float64{1, 2, 3, 4}
	for _, c := range []struct {
		name     string
		residual bool
		want     [rules.NumSeats]float64
	}{
		{"to the scores", false, [4]float64{25 + out[0], 11 + out[1], out[2], out[3]}},
		{"to the base of a residual network", true, [4]float64{1 + out[0], 2 + out[1], 3 + out[2], 4 + out[3]}},
	} {
		n.Residual = c.residual
		if got := n.Value(p, &base); got != c.want {
			t.Errorf("%s: Value = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestValueOfFinishedGameIsItsScores(t *testing.T) {
	n := randomNet(8, 4, 1)
	g := rules.NewGame(rules.Chaturaji, rules.SeedFromInt(2))
	rng := rand.New(rand.NewPCG(1, 1))
	var buf [rules.MaxActions]rules.Action
	for !g.Finished() {
		if g.Position().AwaitingRoll() {
			g.Roll()
			continue
		}
		acts := g.Actions(buf[:])
		g.Play(acts[rng.IntN(len(acts))])
	}
	p := g.Position()
	v := n.Value(p, nil)
	for _, s := range rules.Chaturaji.Seats() {
		if v[s] != float64(p.Score(s)) {
			t.Errorf("%s: value %v, score %d", s, v[s], p.Score(s))
		}
	}
}

func TestValueAllocatesNothing(t *testing.T) {
	n := randomNet(64, 16, 1)
	p := rules.Chaturaji.StartPosition()
	if a := testing.AllocsPerRun(100, func() { n.Value(p, nil) }); a != 0 {
		t.Fatalf("Value allocates %v times", a)
	}
}

func BenchmarkForward(b *testing.B) {
	n := randomNet(64, 16, 1)
	p := rules.Chaturaji.StartPosition()
	var in nn.Input
	nn.Encode(p, &in)
	b.ReportAllocs()
	for b.Loop() {
		n.Forward(&in)
	}
}

func BenchmarkValue(b *testing.B) {
	n := randomNet(64, 16, 1)
	p := rules.Chaturaji.StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		n.Value(p, nil)
	}
}
