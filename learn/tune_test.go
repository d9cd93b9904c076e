package learn

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/rules"
)

// tinyTune is a tuning run small enough for a test: a few deals of small
// searches.
func tinyTune() TuneConfig {
	return TuneConfig{
		Preset: rules.Chaturaji, Seed: rules.SeedFromInt(5), Player: "strong?eval=hand",
		Params: []string{"material", "threat0", "spite"}, Iterations: 4, Nodes: 60,
		Perturb: 0.15, Step: 0.5, Stability: 10, AverageFrom: 1, Batch: 2, Workers: 2,
	}
}

// TestTuneClimbs runs the SPSA loop on a known objective, in place of the
// games: the chance that the plus side wins a deal grows with how much
// nearer its weights are to a set of best values, and a seeded noise
// decides each deal as the dice would. The weights must end near the best
// values, from well away (a squared distance of 2.6 in log space).
func TestTuneClimbs(t *testing.T) {
	cfg := tinyTune()
	cfg.Iterations, cfg.Batch, cfg.Stability, cfg.AverageFrom = 3000, 20, 100, 1500
	best := []float64{1.2, 0.3, 0.9} // from 0.5, 1 and 0.5
	dist := func(theta []float64) float64 {
		d := 0.0
		for i, x := range theta {
			d += (x - math.Log(best[i])) * (x - math.Log(best[i]))
		}
		return d
	}
	play := func(_ context.Context, d *deal) (float64, error) {
		p := 1 / (1 + math.Exp(4*(dist(d.plus)-dist(d.minus))))
		// A deal's outcome: win, draw or loss, from a hash of k.
		u := math.Mod(float64(d.k)*0.6180339887, 1)
		switch {
		case u < p-0.1:
			return 1, nil
		case u < p+0.1:
			return 0.5, nil
		}
		return 0, nil
	}
	st, err := tune(context.Background(), cfg, filepath.Join(t.TempDir(), "ckpt"), false, nil, play)
	if err != nil {
		t.Fatal(err)
	}
	var end []float64
	for i, v := range st.Values() {
		end = append(end, math.Log(v))
		if math.Abs(math.Log(v/best[i])) > 0.25 {
			t.Errorf("%s = %.3f after %d deals, want %.3f within 25%%", cfg.Params[i], v, st.Iteration, best[i])
		}
		if m := st.Mean[i]; math.Abs(math.Log(m/best[i])) > 0.25 {
			t.Errorf("%s's mean over the second half = %.3f, want %.3f within 25%%", cfg.Params[i], m, best[i])
		}
	}
	if st.Averaged != 1500 {
		t.Errorf("%d deals averaged, want the last 1500", st.Averaged)
	}
	var start []float64
	for _, v := range cfg.startValues() {
		start = append(start, math.Log(v))
	}
	if dist(end) > dist(start)/10 {
		t.Errorf("the squared distance to the best fell from %.3f to %.3f, want below a tenth", dist(start), dist(end))
	}
	if st.Iteration != cfg.Iterations {
		t.Errorf("state at iteration %d, want %d", st.Iteration, cfg.Iterations)
	}
}

// TestTuneResumes plays real deals: a run stopped after one batch and
// resumed with one worker ends with the weights of a run straight through
// with two, and another seed ends elsewhere.
func TestTuneResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	cfg := tinyTune()
	dir := t.TempDir()
	whole, err := Tune(context.Background(), cfg, filepath.Join(dir, "whole"), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	half := cfg
	half.Iterations, half.Workers = 2, 1
	part := filepath.Join(dir, "part")
	if _, err := Tune(context.Background(), half, part, false, nil); err != nil {
		t.Fatal(err)
	}
	half.Iterations = cfg.Iterations
	resumed, err := Tune(context.Background(), half, part, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(whole.Logs, resumed.Logs) || !slices.Equal(whole.Mean, resumed.Mean) || whole.Score != resumed.Score || whole.Spec != resumed.Spec {
		t.Errorf("resumed run ended at %v (score %g), the whole run at %v (score %g)", resumed.Values(), resumed.Score, whole.Values(), whole.Score)
	}
	start := cfg.startValues()
	if slices.Equal(whole.Values(), start) {
		t.Errorf("the weights did not move from %v", start)
	}
	read, err := ReadTuneState(filepath.Join(dir, "whole"))
	if err != nil {
		t.Fatal(err)
	}
	if read.Iteration != cfg.Iterations || !slices.Equal(read.Logs, whole.Logs) || !slices.Equal(read.Mean, whole.Mean) {
		t.Errorf("the checkpoint holds iteration %d, %v; the run returned %v", read.Iteration, read.Values(), whole.Values())
	}
	if want := withWeights(cfg.Player, cfg.Params, whole.Mean); whole.Spec != want || whole.Averaged != 3 {
		t.Errorf("spec %q over %d deals, want %q over the 3 after the first", whole.Spec, whole.Averaged, want)
	}
	if slices.Equal(whole.Mean, whole.Values()) {
		t.Errorf("the mean of three deals' weights is the last's, %v", whole.Mean)
	}

	other := cfg
	other.Seed = rules.SeedFromInt(6)
	st, err := Tune(context.Background(), other, filepath.Join(dir, "other"), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(st.Logs, whole.Logs) {
		t.Errorf("seeds 5 and 6 both ended at %v", st.Values())
	}
}

// TestTuneRefuses checks the runs that cannot be made: each is refused
// with an error naming what is wrong, and writes no checkpoint.
func TestTuneRefuses(t *testing.T) {
	dir := t.TempDir()
	another := filepath.Join(dir, "another")
	if err := (&TuneState{Config: "some other run", Params: []string{"material"}, Logs: []float64{0}, Sum: []float64{0}}).write(another); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken")
	if err := os.WriteFile(broken, []byte(`{"config": "x", "params": ["material"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short")
	if err := os.WriteFile(short, []byte(`{"config": "x", "params": ["material"], "sum": [0]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(*TuneConfig)
		resume string
		want   string
	}{
		{"unknown weight", func(c *TuneConfig) { c.Params = []string{"material", "speed"} }, "", `"speed" is not a weight setting`},
		{"weight twice", func(c *TuneConfig) { c.Params = []string{"spite", "spite"} }, "", "spite is named twice"},
		{"weight at 0", func(c *TuneConfig) { c.Params = []string{"hazard"} }, "", "hazard starts at 0"},
		{"start of an untuned weight", func(c *TuneConfig) { c.Start = map[string]float64{"loot": 1} }, "", "start value for loot"},
		{"player names a tuned weight", func(c *TuneConfig) { c.Player = "strong?spite=1" }, "", "given 2 times"},
		{"not a player", func(c *TuneConfig) { c.Player = "strongest" }, "", "the player to tune"},
		{"two seats", func(c *TuneConfig) { c.Preset = rules.Chaturanga2P }, "", "tuning plays four"},
		{"no nodes", func(c *TuneConfig) { c.Nodes = 0 }, "", "nodes"},
		{"no step", func(c *TuneConfig) { c.Step = 0 }, "", "a step above 0"},
		{"no weights", func(c *TuneConfig) { c.Params = nil }, "", "no weights"},
		{"another run's checkpoint", func(*TuneConfig) {}, another, "checkpoint of another run"},
		{"no checkpoint", func(*TuneConfig) {}, filepath.Join(dir, "missing"), "no such file"},
		{"a cut checkpoint", func(*TuneConfig) {}, broken, "unexpected end of JSON"},
		{"a checkpoint without logarithms", func(*TuneConfig) {}, short, "0 logarithms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := tinyTune()
			c.change(&cfg)
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			if c.resume != "" {
				path = c.resume
			}
			before, _ := os.ReadFile(path)
			_, err := Tune(context.Background(), cfg, path, c.resume != "", nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one with %q", err, c.want)
			}
			after, _ := os.ReadFile(path)
			if string(before) != string(after) {
				t.Errorf("the checkpoint changed")
			}
		})
	}
}
