package learn

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/ai/nn"
	"github.com/chaturaji/chaturaji/rules"
)

// tinyConfig is a run small enough for a test: a few games with small
// searches and a small network.
func tinyConfig() Config {
	return Config{
		Preset: rules.Chaturaji, Seed: rules.SeedFromInt(4),
		Games: 3, Player: "strong?eval=hand", Nodes: 40, Random: 0.1, Lambda: 0.5,
		Hidden1: 8, Hidden2: 4, Epochs: 2, Batch: 32, Rate: 0.003, Workers: 2,
		Note: "chaturaji train --test",
	}
}

// quiet is a Reporter that reports nothing; cancel, if set, is called at
// the first log line that has stop in it.
type quiet struct {
	stop   string
	cancel func()
}

func (quiet) Progress(string, int, int, float64) {}

func (q quiet) Log(format string, args ...any) {
	if q.cancel != nil && strings.Contains(format, q.stop) {
		q.cancel()
	}
}

func weights(t *testing.T, cfg Config, dir string, resume bool, rep Reporter) []byte {
	t.Helper()
	files := Files{Samples: filepath.Join(dir, "w.samples"), Checkpoint: filepath.Join(dir, "w.ckpt")}
	net, err := Run(context.Background(), cfg, files, resume, rep)
	if err != nil {
		t.Fatal(err)
	}
	b, err := net.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSameSeedSameWeights(t *testing.T) {
	cfg := tinyConfig()
	a := weights(t, cfg, t.TempDir(), false, quiet{})
	cfg.Workers = 1
	b := weights(t, cfg, t.TempDir(), false, quiet{})
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed with 2 workers and with 1 made different weights")
	}
	cfg.Seed = rules.SeedFromInt(5)
	if c := weights(t, cfg, t.TempDir(), false, quiet{}); bytes.Equal(a, c) {
		t.Fatal("another seed made the same weights")
	}
}

func TestResume(t *testing.T) {
	cfg := tinyConfig()
	want := weights(t, cfg, t.TempDir(), false, quiet{})

	dir := t.TempDir()
	files := Files{Samples: filepath.Join(dir, "w.samples"), Checkpoint: filepath.Join(dir, "w.ckpt")}
	ctx, cancel := context.WithCancel(context.Background())
	// Stopped after the first epoch, its checkpoint written.
	if _, err := Run(ctx, cfg, files, false, quiet{stop: "training error", cancel: cancel}); err == nil {
		t.Fatal("the interrupted run did not stop")
	}
	// The samples' last game cut short, as by a crash while writing it.
	data, err := os.ReadFile(files.Samples)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files.Samples, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	if got := weights(t, cfg, dir, true, quiet{}); !bytes.Equal(got, want) {
		t.Fatal("the resumed run made other weights than the run straight through")
	}
	// A checkpoint of other settings is refused.
	cfg.Rate *= 2
	if _, err := Run(context.Background(), cfg, files, true, quiet{}); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Fatalf("resume with other settings: %v", err)
	}
}

func TestReadSamples(t *testing.T) {
	const h = "# header"
	const pos = "yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0"
	game0 := pos + "\t1 2 3 4\n" + pos + "\t1.5 2 3 4\nend 0\t10 0 5 54\n"
	for _, c := range []struct {
		name  string
		text  string
		games int
		size  int
		err   string
	}{
		{"one game", h + "\n" + game0, 1, len(h) + 1 + len(game0), ""},
		{"a game without its end is dropped", h + "\n" + game0 + pos + "\t1 2 3 4\n", 1, len(h) + 1 + len(game0), ""},
		{"a line cut short is dropped", h + "\n" + game0 + pos[:20], 1, len(h) + 1 + len(game0), ""},
		{"only the header", h + "\n", 0, len(h) + 1, ""},
		{"another header", "# other\n" + game0, 0, 0, "other settings"},
		{"games out of order", h + "\nend 1\t0 0 0 0\n", 0, 0, "want 0"},
		{"three values", h + "\n" + pos + "\t1 2 3\n", 0, 0, "want a position"},
	} {
		t.Run(c.name, func(t *testing.T) {
			games, size, err := ReadSamples(strings.NewReader(c.text), h)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || len(games) != c.games || size != int64(c.size) {
				t.Fatalf("%d games, size %d, error %v; want %d games, size %d", len(games), size, err, c.games, c.size)
			}
			if c.games > 0 && (games[0][1].Search[0] != 1.5 || games[0][1].Final[3] != 54) {
				t.Fatalf("game 0: %+v", games[0])
			}
		})
	}
}

func TestAdamFirstStep(t *testing.T) {
	// The first step of Adam moves every parameter by the rate, against
	// its gradient's sign, whatever the gradient's size.
	for _, c := range []struct {
		name string
		grad float32
		want float32
	}{
		{"a large gradient", 100, 1 - 0.01},
		{"a small one", 1e-3, 1 - 0.01},
		{"a negative one", -5, 1 + 0.01},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := [][]float32{{1}}
			a := NewAdam(p)
			a.Update(p, [][]float32{{c.grad}}, 0.01)
			if math.Abs(float64(p[0][0]-c.want)) > 1e-5 {
				t.Fatalf("after one step %v, want %v", p[0][0], c.want)
			}
		})
	}
}

func TestAdamMinimises(t *testing.T) {
	p := [][]float32{{0, 10}}
	a := NewAdam(p)
	for range 3000 {
		// f = (x-3)^2 + (y+1)^2
		g := [][]float32{{2 * (p[0][0] - 3), 2 * (p[0][1] + 1)}}
		a.Update(p, g, 0.05)
	}
	if math.Abs(float64(p[0][0]-3)) > 1e-2 || math.Abs(float64(p[0][1]+1)) > 1e-2 {
		t.Fatalf("minimum at %v, want (3, -1)", p[0])
	}
}

// TestGradient checks backward's gradient against finite differences of
// the loss.
func TestGradient(t *testing.T) {
	net, _ := nn.New(6, 5)
	net.Scale = outScale
	rng := rand.New(rand.NewPCG(1, 2))
	for _, ps := range net.Params() {
		for i := range ps {
			ps[i] = float32(rng.NormFloat64() * 0.5)
		}
	}
	exs := []example{
		{features: []uint16{3, 700, 1500}, dense: [nn.NumDense]float32{0.2, 0, 0.5, 0, 0.1}, target: [4]float32{5, -3, 10, 0}},
		{features: []uint16{3, 20}, dense: [nn.NumDense]float32{0, 0.3}, target: [4]float32{-2, 8, 1, 30}},
	}
	ptrs := []*example{&exs[0], &exs[1]}
	tr := newTrainer(net)
	tr.zero()
	tr.batch(ptrs)
	mean := func() float64 { return tr.loss(exs) / float64(len(exs)*nn.NumOutputs) }
	checked := 0
	for j, ps := range net.Params() {
		for _, i := range []int{0, len(ps) / 2, len(ps) - 1, 3 * 6, 20*6 + 1, nn.NumSparse*6 + 2} {
			if i >= len(ps) {
				continue
			}
			old := ps[i]
			const h = 1e-2
			ps[i] = old + h
			up := mean()
			ps[i] = old - h
			down := mean()
			ps[i] = old
			want := (up - down) / (2 * h)
			got := float64(tr.grads[j][i])
			if math.Abs(got-want) > 1e-3+0.02*math.Abs(want) {
				t.Errorf("parameter %d[%d]: gradient %g, finite difference %g", j, i, got, want)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d parameters", checked)
	}
}

func TestResidual(t *testing.T) {
	cfg := tinyConfig()
	cfg.Residual = true
	b := weights(t, cfg, t.TempDir(), false, quiet{})
	n, err := nn.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if !n.Residual {
		t.Fatal("a residual run made a network that is not residual")
	}
	if plain := weights(t, tinyConfig(), t.TempDir(), false, quiet{}); bytes.Equal(plain, b) {
		t.Fatal("the residual and the plain network are the same")
	}
}

// TestExamplesTwoASample checks that each sample gives its rolled position
// and the same before the roll, and no more, in a team preset too, where a
// pending decision leaves a position awaiting no roll.
func TestExamplesTwoASample(t *testing.T) {
	for _, residual := range []bool{false, true} {
		cfg := tinyConfig()
		cfg.Preset, cfg.Games = rules.ChaturajiTeams, 2
		var games [][]Sample
		n := 0
		for i := range cfg.Games {
			g, err := PlayGame(context.Background(), &cfg, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, g)
			n += len(g)
		}
		train, valid, err := examples(cfg.Preset, games, 0.5, residual)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(train) + len(valid); got > 2*n || got < n {
			t.Fatalf("residual %v: %d examples from %d samples", residual, got, n)
		}
	}
}
