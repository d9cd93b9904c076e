package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/rules"
)

var perftCommand = &command{
	name:    "perft",
	summary: "count the leaves of the game tree, to check move generation",
	help:    perftHelp,
	run:     runPerft,
}

const perftHelp = `usage: chaturaji perft [--rules NAME] [--pos POS] --depth N [--divide]

Perft counts the leaves of the game tree of position POS (default: the
preset's start position) to depth N, as docs/rules.md §8 defines it: a
position awaiting its roll sums over every distinct roll at the same depth,
and a finished game counts 0 at any depth above 0.

With --divide it first prints one line per action, or per roll of a position
awaiting one ("d2d3: 1234", "roll=5: 2500"), sorted in byte order, then the
total. The last line of
standard output is always the count alone. The time taken and the nodes per
second go to standard error.

Flags:
	--rules NAME   the preset (default chaturaji)
	--pos POS      the position (default: the start position)
	--depth N      the depth, 0 or more (required)
	--divide       print the count below each action or roll
`

func runPerft(e *env, args []string) error {
	fs := newFlagSet("perft")
	name := rulesFlag(fs)
	pos := fs.String("pos", "", "the position `POS`")
	depth := fs.Int("depth", -1, "the depth `N`")
	divide := fs.Bool("divide", false, "print the count below each action or roll")
	if err := parseFlags(e, fs, perftHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if *depth < 0 {
		return usageError("--depth N is required, N >= 0")
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	p, err := parsePosition(pr, *pos, true)
	if err != nil {
		return err
	}
	start := time.Now()
	var total uint64
	if *divide && *depth > 0 {
		labels, counts := rules.Divide(p, *depth)
		lines := make([]string, len(labels))
		for i, l := range labels {
			lines[i] = fmt.Sprintf("%s: %d", l, counts[i])
			total += counts[i]
		}
		slices.Sort(lines) // byte order, like moves, whatever order Divide uses
		for _, l := range lines {
			fmt.Fprintln(e.stdout, l)
		}
	} else {
		total = rules.Perft(p, *depth)
	}
	elapsed := time.Since(start)
	fmt.Fprintln(e.stdout, total)
	fmt.Fprintf(e.stderr, "perft %d: %d nodes in %v (%s nodes/s)\n", *depth, total, elapsed.Round(time.Microsecond), rate(float64(total), elapsed))
	return nil
}

// rate returns n per second over d, rounded for people: "61.2M".
func rate(n float64, d time.Duration) string {
	if d <= 0 {
		return "inf"
	}
	r := n / d.Seconds()
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.2fG", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.2fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.2fk", r/1e3)
	}
	return fmt.Sprintf("%.1f", r)
}
