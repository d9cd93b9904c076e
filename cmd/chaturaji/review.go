package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/review"
	"github.com/chaturaji/chaturaji/rules"
)

// defaultReviewNodes is the budget of each search of a game's review when
// neither --nodes nor --movetime is given: deterministic, and a typical
// game in a few seconds (docs/performance.md).
const defaultReviewNodes = 50000

// reviewGames is `chaturaji analyze RECORD`: it reviews every game of the
// file at path (review.Game) and prints what it found.
func reviewGames(e *env, fs *flag.FlagSet, path, spec string, seed uint64, movetime time.Duration, nodes int64, all, asJSON bool) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["rules"] {
		return usageError("--rules: a RECORD names its preset in its Rules tag")
	}
	budget := ai.Budget{Nodes: defaultReviewNodes}
	if set["nodes"] || set["movetime"] {
		b, err := budgetFlags(fs, movetime, nodes)
		if err != nil {
			return err
		}
		budget = b
	}
	recs, err := readRecords(path, maxRecordFile, "")
	if err != nil {
		return err
	}
	an, closePlayer, err := analyzer(spec, seed)
	if err != nil {
		return err
	}
	defer closePlayer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for i, r := range recs {
		bar := &progress{w: e.stderr, on: e.stderrIsTerminal}
		start := time.Now()
		rv, err := review.Game(ctx, an, r, review.Options{Budget: budget, Progress: func(done, total int) {
			bar.total = total
			bar.what = strings.Replace(progressText(done, total, time.Since(start)), "games", "decisions", 1)
			bar.update(done)
		}})
		bar.finish()
		if err != nil {
			return invalid(fmt.Errorf("%s: game %d: %w", path, i+1, err))
		}
		if asJSON {
			if err := writeJSON(e.stdout, rv.Report()); err != nil {
				return err
			}
			continue
		}
		printReview(e.stdout, i+1, spec, budget, rv, all)
	}
	return nil
}

// printReview prints the review of game n.
func printReview(w io.Writer, n int, spec string, b ai.Budget, rv *review.Review, all bool) {
	var limits []string
	if b.Nodes > 0 {
		limits = append(limits, fmt.Sprintf("%d nodes", b.Nodes))
	}
	if b.Time > 0 {
		limits = append(limits, b.Time.String())
	}
	fmt.Fprintf(w, "game %d: %d decisions judged by %s (%s a search) in %v\n", n, len(rv.Decisions), spec, strings.Join(limits, ", "), rv.Elapsed.Round(100*time.Millisecond))
	if rv.Preset == nil {
		return
	}
	pr := rv.Preset
	var counts [rules.NumSeats][review.Blunder + 1]int
	for _, d := range rv.Decisions {
		counts[d.Seat][d.Class]++
	}
	var marked []string
	for _, s := range pr.Seats() {
		c := counts[s]
		marked = append(marked, fmt.Sprintf("%s %d ?? %d ? %d ?!", s, c[review.Blunder], c[review.Mistake], c[review.Inaccuracy]))
	}
	fmt.Fprintf(w, "marked: %s\n", strings.Join(marked, ", "))
	for _, d := range rv.Decisions {
		if d.Class == review.Good && !all {
			continue
		}
		best := ""
		if d.Best != d.Played {
			best = "best " + d.Best.Format(pr)
		}
		fmt.Fprintf(w, "turn %3d  %-6s %-10s %-14s loss %5.2f  %5.2f -> %5.2f\n", d.Turn+1, d.Seat,
			strings.TrimSpace(d.Played.Format(pr)+" "+d.Class.Mark()), best, d.Loss, d.Before[d.Seat], d.After[d.Seat])
	}
	if len(rv.Turning) == 0 {
		fmt.Fprintf(w, "turning points: none of %.0f points or more\n", review.TurningMin)
		return
	}
	fmt.Fprintln(w, "turning points:")
	for _, s := range rv.Turning {
		d := rv.Decisions[s.Decision]
		what := fmt.Sprintf("%s's action %s", d.Seat, d.Played.Format(pr))
		if s.Roll {
			what = fmt.Sprintf("%s's roll %s, and the play since its last decision", d.Seat, d.Position.Roll())
		}
		fmt.Fprintf(w, "turn %3d  %s: %s %+.2f\n", d.Turn+1, what, s.Seat, s.Delta)
	}
}
