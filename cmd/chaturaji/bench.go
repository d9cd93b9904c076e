package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/rules"
)

var benchCommand = &command{
	name:    "bench",
	summary: "measure perft, random playout and search speed on one core",
	help:    benchHelp,
	run:     runBench,
}

const benchHelp = `usage: chaturaji bench [--rules NAME] [--depth N] [--games N] [--search N] [--runs R]

Bench measures the rules engine and the players on one core
(GOMAXPROCS=1): perft of the start position to depth N in nodes per
second; random playouts (rules.PlayRandom) from the start position in games
and actions per second; and the search players' speed, in nodes (Monte
Carlo: playouts) per second, over the decisions of one random game (every
tenth, from a fixed seed), each searched with a budget of N nodes (Monte
Carlo: N/20 playouts). Each figure is the median of R runs. It prints the Go
version and the CPU first.

Where the preset has a learned evaluation (package ai/nn), it also
measures both evaluations alone, in evaluations per second over the same
positions and the same positions before their roll, and the paranoid
search with the learned one (paranoid?eval=nn).

Flags:
	--rules NAME   the preset (default chaturaji)
	--depth N      the perft depth (default 7)
	--games N      playouts per run (default 2000)
	--search N     nodes a searched decision (default 20000; 0: no search)
	--runs R       runs of each measure (default 5)
`

func runBench(e *env, args []string) error {
	fs := newFlagSet("bench")
	name := rulesFlag(fs)
	depth := fs.Int("depth", 7, "the perft depth `N`")
	games := fs.Int("games", 2000, "playouts per run")
	runs := fs.Int("runs", 5, "runs of each measure")
	search := fs.Int64("search", 20000, "nodes a searched decision")
	if err := parseFlags(e, fs, benchHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *depth < 1 || *games < 1 || *runs < 1:
		return usageError("--depth, --games and --runs must be 1 or more")
	case *search < 0:
		return usageError("--search must be 0 or more")
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	fmt.Fprintf(e.stdout, "go:       %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(e.stdout, "cpu:      %s\n", cpuName())
	fmt.Fprintf(e.stdout, "preset:   %s\n", pr.Name)

	var nodes uint64
	perft := median(*runs, func() time.Duration {
		start := time.Now()
		nodes = rules.Perft(pr.StartPosition(), *depth)
		return time.Since(start)
	})
	fmt.Fprintf(e.stdout, "perft:    depth %d, %d nodes, %s nodes/s (median of %d: %v)\n",
		*depth, nodes, rate(float64(nodes), perft), *runs, perft.Round(time.Microsecond))

	var actions int
	seed := uint64(0)
	playout := median(*runs, func() time.Duration {
		seed++
		rng := rand.New(rand.NewPCG(seed, 0))
		actions = 0
		start := time.Now()
		for range *games {
			actions += rules.PlayRandom(pr.StartPosition(), rng)
		}
		return time.Since(start)
	})
	fmt.Fprintf(e.stdout, "playout:  %s games/s, %s actions/s (%d games, %.1f actions a game; median of %d: %v)\n",
		rate(float64(*games), playout), rate(float64(actions), playout), *games, float64(actions)/float64(*games), *runs, playout.Round(time.Microsecond))
	if *search == 0 {
		return nil
	}
	if err := benchEval(e, pr, *runs); err != nil {
		return err
	}
	return benchSearch(e, pr, *search, *runs)
}

// benchEval measures the evaluations alone: the hand-written one and, where
// the preset has it, the learned one.
func benchEval(e *env, pr *rules.Preset, runs int) error {
	var positions []*rules.Position
	for _, p := range benchPositions(pr, 10) {
		positions = append(positions, p)
		if !p.AwaitingRoll() && pr.Die != nil {
			q := *p
			q.ClearRoll()
			positions = append(positions, &q)
		}
	}
	evals := []string{ai.EvalHand}
	if ai.HasLearned(pr) {
		evals = append(evals, ai.EvalLearned)
	}
	const rounds = 200
	var sink float64
	for _, name := range evals {
		eval := ai.Evaluation(pr, name)
		elapsed := median(runs, func() time.Duration {
			start := time.Now()
			for range rounds {
				for _, p := range positions {
					sink += eval(p)[0]
				}
			}
			return time.Since(start)
		})
		fmt.Fprintf(e.stdout, "%-9s %s evals/s (%d positions x %d; median of %d: %v)\n",
			"eval="+name+":", rate(float64(rounds*len(positions)), elapsed), len(positions), rounds, runs, elapsed.Round(time.Microsecond))
	}
	_ = sink
	return nil
}

// benchSearch measures each search family's speed over the decisions of
// one random game.
func benchSearch(e *env, pr *rules.Preset, nodes int64, runs int) error {
	positions := benchPositions(pr, 10)
	families := []struct{ spec, unit string }{
		{"paranoid", "nodes"}, {"brs", "nodes"}, {"mcts", "playouts"},
	}
	if ai.HasLearned(pr) {
		families = append(families, struct{ spec, unit string }{"paranoid?eval=nn", "nodes"})
	}
	for _, family := range families {
		budget := ai.Budget{Nodes: nodes}
		if family.spec == "mcts" {
			budget.Nodes = max(nodes/20, 1)
		}
		var total int64
		var err error
		elapsed := median(runs, func() time.Duration {
			total = 0
			var pl ai.Player
			if pl, err = ai.New(family.spec, 1); err != nil {
				return 0
			}
			start := time.Now()
			for _, p := range positions {
				var an ai.Analysis
				if an, err = pl.(ai.Analyzer).Analyze(context.Background(), p, budget); err != nil {
					return 0
				}
				total += an.Nodes
			}
			return time.Since(start)
		})
		if err != nil {
			return err
		}
		label := family.spec + ":"
		fmt.Fprintf(e.stdout, "%-9s %s %s/s (%d decisions, %d %s each; median of %d: %v)\n",
			label, rate(float64(total), elapsed), family.unit, len(positions), budget.Nodes, family.unit, runs, elapsed.Round(time.Microsecond))
	}
	return nil
}

// benchPositions returns every n-th decision of a random game of pr with a
// fixed seed, where more than one action is legal.
func benchPositions(pr *rules.Preset, n int) []*rules.Position {
	g := rules.NewGame(pr, rules.SeedFromInt(1))
	rng := rand.New(rand.NewPCG(1, 2))
	var buf [rules.MaxActions]rules.Action
	var ps []*rules.Position
	for i := 0; !g.Finished(); {
		if g.Position().AwaitingRoll() {
			g.Roll()
			continue
		}
		acts := g.Actions(buf[:])
		if len(acts) > 1 { // a decision
			if i%n == 0 {
				ps = append(ps, g.Position())
			}
			i++
		}
		g.Play(acts[rng.IntN(len(acts))])
	}
	return ps
}

// median runs f n times and returns the median of the durations it
// reports.
func median(n int, f func() time.Duration) time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = f()
	}
	slices.Sort(ds)
	return ds[n/2]
}

// cpuName returns the processor's model name, as /proc/cpuinfo gives it on
// Linux, or the architecture elsewhere.
func cpuName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
