package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/learn"
)

var tuneCommand = &command{
	name:    "tune",
	summary: "tune the hand-written evaluation's weights by self-play (SPSA)",
	help:    tuneHelp,
	run:     runTune,
}

var tuneHelp = `usage: chaturaji tune [--rules NAME] --seed S --out FILE [--player SPEC] [--params LIST]
                      [--start LIST] [--iterations N] [--nodes N] [--c X] [--a X] [--A X]
                      [--average-from N] [--batch N] [--workers K] [--resume]

Tune sets some of the hand-written evaluation's weights by play, with SPSA
(simultaneous perturbation stochastic approximation): each iteration
pushes every tuned weight up or down by a small factor, at random, and
plays one deal (four games, the same dice, the seats rotated) of the
weights pushed one way, in two seats facing each other, against the same
pushed the other way, each searching N nodes a decision. The weights then
move toward the side that ranked better, by how much better (the pairwise
score the SPRT of 'chaturaji match' measures). The weights are tuned as
logarithms: iteration k pushes them by c/k^0.101 and steps by
a/(A+k)^0.602 times the estimated slope.

The result is the mean, in log space, of the weights after each deal of
the run's second half (--average-from), which is steadier than the last
deal's weights: each deal's result is mostly the dice's.

The weights are found best for the budget they were tuned at: what a
shallow search needs from its evaluation is not what a deep one needs.
Test the result with 'chaturaji match --sprt' at the budget it will play
at before trusting it (docs/strength.md, "Tuning by play").

Iteration k's pushes and dice come from SHA-256 of S and k, so the same
flags make the same weights, whatever K; --batch deals are played from
the same weights before their steps are taken. After every batch the state
goes to FILE (JSON: the iteration, the weights, and the player spec with
them); with --resume the run goes on from it, with more iterations if
asked, and ends where a run straight through would. On a terminal a
progress bar shows on standard error; a line with the weights goes to
standard output every twentieth of the run, and the tuned player's spec at
the end.

Flags:
	--rules NAME     the preset (default chaturaji; four seats)
	--seed S         the seed (required)
	--out FILE       the state file to write (required)
	--player SPEC    the search player whose weights are tuned (default strong?eval=hand)
	--params LIST    the weights tuned, by their settings' names, comma-separated
	                 (default every weight above 0: ` + defaultTuneParams + `)
	--start LIST     first values other than the defaults: name=X,name=X
	--iterations N   deals to play (default 1000)
	--nodes N        the players' nodes a decision (default 3000)
	--c X            the first push, in log space (default 0.15)
	--a X            the step's scale (default 0.5)
	--A X            the step's stability constant (default a tenth of N)
	--average-from N the result is the mean of the weights after each deal past N,
	                 in log space (default half the iterations)
	--batch N        deals played from the same weights (default 2)
	--workers K      deals played at once (default 2)
	--resume         go on from FILE
`

// defaultTuneParams are the weights tuned unless --params says otherwise:
// every weight setting whose default is above 0.
var defaultTuneParams = func() string {
	var names []string
	for _, name := range ai.WeightSettings {
		w := ai.DefaultWeights
		if *w.Field(name) > 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, ",")
}()

func runTune(e *env, args []string) error {
	fs := newFlagSet("tune")
	name := rulesFlag(fs)
	seedFlag := fs.String("seed", "", "the seed `S`")
	out := fs.String("out", "", "the state `FILE`")
	params := fs.String("params", defaultTuneParams, "the weights tuned")
	start := fs.String("start", "", "first values: name=X,...")
	stability := fs.Float64("A", -1, "the step's stability constant")
	averageFrom := fs.Int("average-from", -1, "average the weights after deal `N`")
	cfg := learn.TuneConfig{}
	fs.StringVar(&cfg.Player, "player", "strong?eval=hand", "the player `SPEC`")
	fs.IntVar(&cfg.Iterations, "iterations", 1000, "deals to play")
	fs.Int64Var(&cfg.Nodes, "nodes", 3000, "nodes a decision")
	fs.Float64Var(&cfg.Perturb, "c", 0.15, "the first push")
	fs.Float64Var(&cfg.Step, "a", 0.5, "the step's scale")
	fs.IntVar(&cfg.Batch, "batch", 2, "deals from the same weights")
	fs.IntVar(&cfg.Workers, "workers", 2, "deals at once")
	resume := fs.Bool("resume", false, "go on from FILE")
	if err := parseFlags(e, fs, tuneHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *seedFlag == "":
		return usageError("--seed S is required")
	case *out == "":
		return usageError("--out FILE is required")
	case cfg.Iterations < 1 || cfg.Nodes < 1 || cfg.Batch < 1 || cfg.Workers < 1:
		return usageError("--iterations, --nodes, --batch and --workers must be 1 or more")
	case !(cfg.Perturb > 0) || !(cfg.Step > 0):
		return usageError("--c and --a must be above 0")
	}
	cfg.Stability = *stability
	if cfg.Stability < 0 {
		cfg.Stability = float64(cfg.Iterations) / 10
	}
	cfg.AverageFrom = *averageFrom
	if cfg.AverageFrom < 0 {
		cfg.AverageFrom = cfg.Iterations / 2
	}
	cfg.Params = strings.Split(*params, ",")
	if *start != "" {
		cfg.Start = map[string]float64{}
		for item := range strings.SplitSeq(*start, ",") {
			k, v, ok := strings.Cut(item, "=")
			x, err := strconv.ParseFloat(v, 64)
			if !ok || err != nil {
				return usageError("--start %q: want name=X, not %q", *start, item)
			}
			cfg.Start[k] = x
		}
	}
	var err error
	if cfg.Seed, err = parseSeedFlag(*seedFlag); err != nil {
		return err
	}
	if cfg.Preset, err = lookupPreset(*name); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep := &trainReport{e: e}
	began := time.Now()
	st, err := learn.Tune(ctx, cfg, *out, *resume, rep)
	rep.done()
	if err != nil {
		if ctx.Err() != nil && st != nil {
			return fmt.Errorf("interrupted after %d deals; run again with --resume to go on", st.Iteration)
		}
		return err
	}
	fmt.Fprintf(e.stdout, "tuned:    %d deals, %s in %v\nplayer:   %s\n", st.Iteration, *out, time.Since(began).Round(time.Second), st.Spec)
	return nil
}
