package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/match"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

var matchCommand = &command{
	name:    "match",
	summary: "play deals between players in every seat rotation and measure them",
	help:    matchHelp,
	run:     runMatch,
}

const matchHelp = `usage: chaturaji match [--rules NAME] --players P1,P2,... [--deals N] [--movetime D] [--nodes N]
                       [--concurrency K] [--out FILE] [--json] [--sprt ELO0,ELO1] [--baseline SPEC] [--seed S]

Match plays N deals between the players, one a seat in seat order (South,
West, North, East; two-player presets South, North). Each deal has one dice
seed and is played in every seat rotation: in rotation r player j sits at
seat (j+r) mod n, so the luck of the dice and the advantage of a seat cancel
out (two-player presets play colour-swapped pairs).

A player is a spec of the ai package: random, greedy, strong, brs, paranoid,
mcts, a level 1..8, with settings such as strong?nodes=5000 (see
ai.New); or cmd:PROGRAM [ARGS], an outside engine speaking the engine
protocol (docs/engine-protocol.md), started afresh for every game (its
arguments are split at blanks, without quoting; no spec may hold a comma).
A spec named more than once gets "#2", "#3"... in the records ("greedy#2"); the
results pool identical specs into one row.

It prints, for every spec: its seats a game, its seat-games, mean score, the
share of each rank (a tie shares the better rank), the first-place rate (a
tie for first counts as a fractional share) with its 95% Wilson interval,
and its Elo difference against the baseline with a 95% interval. The Elo
comes from every pair of a seat of the spec and a seat of the baseline in
a game (1 for ranking better, 1/2 equal, 0 worse); its interval from the
variance of the per-deal mean scores, the deal being the independent
sample, and Elo = -400 log10(1/s - 1) of the interval's ends.

With --sprt ELO0,ELO1 it runs a sequential probability ratio test of the
first spec that is not the baseline against the baseline, H0: Elo = ELO0
against H1: Elo = ELO1, alpha = beta = 0.05 (LLR bounds -2.94, 2.94), on
the per-deal scores with the normal approximation, and stops at the first
deal whose LLR crosses a bound: "H1 accepted" or "H0 accepted"; otherwise
"inconclusive" after N deals. It gives no verdict before 20 deals.

A decision that fails (the player returns an error or an illegal action, or
takes longer than --timeout) is a fault: a random legal action is played
instead, the game goes on, and the faults are reported per spec. A forced
action (the only legal one) is played without asking.

Deals are played in order, K games at once; the results and records do not
depend on K. With a node budget the same seed plays the same match. Each
game's record (Round "deal.rotation", player names under the seats) goes to
--out. On a terminal a progress bar shows on standard error; on an
interrupt (Ctrl-C) the deals finished so far are summed up.

Seeds: deal i (from 0) uses the dice seed SHA-256(S || "deal" || i as 8
bytes big-endian), where S is --seed as in 'chaturaji selfplay'; player j in
rotation r the first 8 bytes of SHA-256(deal seed || "player" || r || j).

Flags:
	--rules NAME       the preset (default chaturaji)
	--players LIST     the players' specs, comma-separated, one a seat (required)
	--deals N          how many deals (default 10)
	--movetime D       each decision's time (default 100ms; without it, --nodes
	                   alone limits the decisions)
	--nodes N          each decision's nodes at most
	--timeout D        a decision taking longer is a fault (default 10 x
	                   movetime, at least 1s; with --nodes alone, 1m)
	--concurrency K    games played at once (default 1)
	--baseline SPEC    the spec Elo is measured against (default the last distinct one)
	--sprt ELO0,ELO1   stop early with the SPRT's verdict
	--seed S           the match's seed, a whole number or 64 hexadecimal digits
	                   (default a random one, printed)
	--out FILE         write every game's record to FILE (- for standard output;
	                   the summary then goes to standard error)
	--date YYYY.MM.DD  the records' Date tag (default today)
	--json             print the summary as one JSON object
`

func runMatch(e *env, args []string) error {
	fs := newFlagSet("match")
	name := rulesFlag(fs)
	players := fs.String("players", "", "the players' specs")
	deals := fs.Int("deals", 10, "how many deals `N`")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "each decision's time `D`")
	nodes := fs.Int64("nodes", 0, "each decision's nodes `N`")
	timeout := fs.Duration("timeout", 0, "the fault limit `D`")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	baseline := fs.String("baseline", "", "the baseline `SPEC`")
	sprtFlag := fs.String("sprt", "", "the SPRT's ELO0,ELO1")
	seedFlag := fs.String("seed", "", "the seed `S`")
	out := fs.String("out", "", "the record `FILE`")
	date := fs.String("date", time.Now().Format("2006.01.02"), "the Date tag")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(e, fs, matchHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *players == "":
		return usageError("--players P1,P2,... is required")
	case *deals < 1:
		return usageError("--deals must be 1 or more")
	case *concurrency < 1:
		return usageError("--concurrency must be 1 or more")
	case *timeout < 0:
		return usageError("--timeout must be 0 or more")
	}
	budget, err := budgetFlags(fs, *movetime, *nodes)
	if err != nil {
		return err
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	lineup, err := match.NewLineup(strings.Split(*players, ","), *baseline)
	if err != nil {
		return usageError("%s", strings.TrimPrefix(err.Error(), "match: "))
	}
	if len(lineup.Specs) != pr.NumSeats() {
		return usageError("--players names %d players; %s has %d seats", len(lineup.Specs), pr.Name, pr.NumSeats())
	}
	for _, spec := range lineup.Distinct {
		if !strings.HasPrefix(spec, "cmd:") {
			if _, err := ai.New(spec, 0); err != nil {
				return usageError("--players: %s", strings.TrimPrefix(err.Error(), "ai: "))
			}
		}
	}
	seed := rules.NewSeed()
	if *seedFlag != "" {
		if seed, err = parseSeedFlag(*seedFlag); err != nil {
			return err
		}
	}
	cfg := match.Config{
		Preset:      pr,
		Lineup:      lineup,
		Deals:       *deals,
		Seed:        seed,
		Budget:      budget,
		Timeout:     *timeout,
		Concurrency: *concurrency,
	}
	if *sprtFlag != "" {
		if cfg.SPRT, err = parseSPRT(*sprtFlag); err != nil {
			return err
		}
		if lineup.Candidate() < 0 {
			return usageError("--sprt needs two distinct players")
		}
	}

	summary := e.stdout
	var records *output // the --out file, nil without one
	if *out != "" {
		if *out == "-" {
			summary = e.stderr
		}
		o, err := createOutput(e, *out)
		if err != nil {
			return err
		}
		defer o.Close()
		records = o
		fw := record.NewFileWriter(o)
		cfg.OnDeal = func(games []*match.Game) error {
			for _, g := range games {
				if err := fw.Write(g.Record(lineup, record.Tag{Name: "Date", Value: *date})); err != nil {
					return err
				}
			}
			return o.Flush()
		}
	}
	bar := &progress{w: e.stderr, on: e.stderrIsTerminal, total: *deals * pr.NumSeats()}
	start := time.Now()
	cfg.Progress = func(done int) {
		bar.what = progressText(done, bar.total, time.Since(start))
		bar.update(done)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, runErr := match.Run(ctx, cfg)
	bar.finish()
	if runErr != nil {
		runErr = errors.New(strings.TrimPrefix(runErr.Error(), "match: "))
	}
	if records != nil {
		if err := records.Close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	if res == nil {
		return runErr
	}
	if res.Deals > 0 {
		s := match.Summarize(res)
		if *asJSON {
			if err := writeJSON(summary, s); err != nil {
				return err
			}
		} else if err := s.WriteText(summary); err != nil {
			return err
		}
	}
	return runErr
}

// parseSPRT reads --sprt ELO0,ELO1.
func parseSPRT(s string) (*match.SPRT, error) {
	a, b, ok := strings.Cut(s, ",")
	elo0, err0 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	elo1, err1 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	switch {
	case !ok || err0 != nil || err1 != nil:
		return nil, usageError("--sprt %q: want ELO0,ELO1, such as 0,20", s)
	case elo0 >= elo1:
		return nil, usageError("--sprt %q: ELO0 must be below ELO1", s)
	}
	return &match.SPRT{Elo0: elo0, Elo1: elo1, Alpha: 0.05, Beta: 0.05}, nil
}

// progressText is what the bar says after its count: elapsed time and ETA.
func progressText(done, total int, elapsed time.Duration) string {
	eta := "?"
	if done > 0 {
		eta = (elapsed * time.Duration(total-done) / time.Duration(done)).Round(time.Second).String()
	}
	return fmt.Sprintf("games, %v elapsed, ETA %s", elapsed.Round(time.Second), eta)
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
