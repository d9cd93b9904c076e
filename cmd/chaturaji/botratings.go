package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/match"
	"github.com/chaturaji/chaturaji/rating"
	"github.com/chaturaji/chaturaji/rules"
)

var botRatingsCommand = &command{
	name:    "botratings",
	summary: "measure the bots' fixed ratings for rated games",
	help:    botRatingsHelp,
	run:     runBotRatings,
}

const botRatingsHelp = `usage: chaturaji botratings [--rules NAME] [--players P1,P2,...] [--deals N] [--movetime D]
                            [--anchor SPEC] [--at N] [--seed S] [--concurrency K]

Botratings measures the bots' strengths on the rating scale of rated games
(package rating: Weng-Lin, Plackett-Luce, shown on a 1,500 scale), which
the server gives the bots as fixed ratings (rating.Bots).

The players, weakest first, are grouped in windows of as many consecutive
players as the preset has seats (random,greedy,1,2 then greedy,1,2,3 ...),
and each window plays a match of N deals in every seat rotation ('chaturaji
match'), so that every player meets those near it and the chain joins the
weakest to the strongest. Every game is then rated in turn, each player
starting as a newcomer, without the drift of Tau (match.Fit), and the
ratings are shifted together so that the anchor's displayed rating is --at.

It prints each player's displayed rating, its uncertainty (one standard
deviation, in displayed points), Mu and Sigma, and the games it rests on,
then the Go lines of rating.Bots. Levels 1 to 6 search a fixed number of
nodes, so the same seed gives the same figures on any machine; --movetime
only bounds a decision that would run long.

Flags:
	--rules NAME       the preset (default chaturaji)
	--players LIST     the players, weakest first (default random,greedy,1,2,3,4,5,6)
	--deals N          deals per window (default 40)
	--movetime D       the most a decision may take (default 5s: far more than
	                   levels 1 to 6 need on a loaded machine, so their nodes bound them)
	--anchor SPEC      the player whose rating is fixed (default random)
	--at N             its displayed rating (default 1000)
	--seed S           the seed, a whole number or 64 hexadecimal digits (default 22)
	--concurrency K    games played at once (default 2)
`

func runBotRatings(e *env, args []string) error {
	fs := newFlagSet("botratings")
	name := rulesFlag(fs)
	players := fs.String("players", "random,greedy,1,2,3,4,5,6", "the players `LIST`, weakest first")
	deals := fs.Int("deals", 40, "deals per window `N`")
	movetime := fs.Duration("movetime", 5*time.Second, "the most a decision may take `D`")
	anchor := fs.String("anchor", "random", "the anchor's `SPEC`")
	at := fs.Int("at", 1000, "the anchor's displayed rating `N`")
	seedFlag := fs.String("seed", "22", "the seed `S`")
	concurrency := fs.Int("concurrency", 2, "games played at once")
	if err := parseFlags(e, fs, botRatingsHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *deals < 1:
		return usageError("--deals must be 1 or more")
	case *concurrency < 1:
		return usageError("--concurrency must be 1 or more")
	case *movetime <= 0:
		return usageError("--movetime must be positive")
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	specs := strings.Split(*players, ",")
	n := pr.NumSeats()
	if len(specs) < n {
		return usageError("--players names %d players; %s needs at least %d", len(specs), pr.Name, n)
	}
	for _, s := range specs {
		if _, err := ai.New(s, 0); err != nil {
			return usageError("--players: %s", strings.TrimPrefix(err.Error(), "ai: "))
		}
	}
	if !slices.Contains(specs, *anchor) {
		return usageError("--anchor %q is not one of the players (%s)", *anchor, strings.Join(specs, ","))
	}
	seed, err := parseSeedFlag(*seedFlag)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	var results []*match.Result
	for w := 0; w+n <= len(specs); w++ {
		lineup, err := match.NewLineup(specs[w:w+n], "")
		if err != nil {
			return usageError("%s", strings.TrimPrefix(err.Error(), "match: "))
		}
		res, err := match.Run(ctx, match.Config{
			Preset:      pr,
			Lineup:      lineup,
			Deals:       *deals,
			Seed:        windowSeed(seed, w),
			Budget:      ai.Budget{Time: *movetime},
			Concurrency: *concurrency,
		})
		if err != nil {
			return errors.New(strings.TrimPrefix(err.Error(), "match: "))
		}
		results = append(results, res)
		fmt.Fprintf(e.stderr, "window %s: %d games in %v\n", strings.Join(lineup.Specs, ","), len(res.Games), res.Elapsed.Round(time.Second))
	}
	m := rating.Default()
	fits, err := match.Fit(m, results, *anchor, *at)
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "match: "))
	}
	fmt.Fprintf(e.stderr, "%d games in %v\n", len(results)*(*deals)*n, time.Since(start).Round(time.Second))
	fmt.Fprintf(e.stdout, "%s, %d deals a window of %d, seed %s\n", pr.Name, *deals, n, seed)
	fmt.Fprintf(e.stdout, "%-8s %7s %6s %8s %6s %6s\n", "player", "rating", "±", "mu", "sigma", "games")
	for _, f := range fits {
		d := m.Show(f.Rating)
		fmt.Fprintf(e.stdout, "%-8s %7d %6d %8.3f %6.3f %6d\n", f.Spec, d.Number, d.Deviation, f.Rating.Mu, f.Rating.Sigma, f.Games)
	}
	fmt.Fprintln(e.stdout)
	for _, f := range fits {
		fmt.Fprintf(e.stdout, "\t%q: {Rating: Rating{Mu: %.3f, Sigma: %.3f}, Games: %d},\n", f.Spec, f.Rating.Mu, f.Rating.Sigma, f.Games)
	}
	return nil
}

// windowSeed is the seed of window w's match: the base seed's deal seed
// at a number far from any match's deals.
func windowSeed(base rules.Seed, w int) rules.Seed {
	return match.DealSeed(base, 1<<20+w)
}
