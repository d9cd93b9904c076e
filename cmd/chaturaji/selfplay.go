package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
)

var selfplayCommand = &command{
	name:    "selfplay",
	summary: "play random games and write their records",
	help:    selfplayHelp,
	run:     runSelfplay,
}

const selfplayHelp = `usage: chaturaji selfplay [--rules NAME] [--games N] --seed S --out FILE [--date YYYY.MM.DD]

Selfplay plays N games in which every seat picks a legal action uniformly at
random, writes their records to FILE (a blank line between two) and prints a
summary: the games, the mean number of actions a game, how the games ended,
the mean score of each seat and the games per second. On a terminal a
progress bar shows on standard error.

The same S always plays the same games. S is a whole number or a seed of 64
hexadecimal digits; a number n stands for the seed rules.SeedFromInt(n),
SHA-256("chaturaji seed " || n as 8 bytes big-endian). Game i (from 0) then
uses

	seed_i = SHA-256(S's seed || "game" || i as 8 bytes big-endian)

as its dice seed: its rolls are drawn from seed_i with rules.RollFromSeed,
and its record carries seed_i in the Seed tag, so 'chaturaji replay' checks
them. Its actions are drawn by a ChaCha8 generator (math/rand/v2) keyed with
SHA-256(seed_i || "actions"), each uniformly among the legal actions sorted
in byte order.

Flags:
	--rules NAME       the preset (default chaturaji)
	--games N          how many games (default 1)
	--seed S           the seed (required)
	--out FILE         where to write the records (required; - for standard output)
	--date YYYY.MM.DD  the Date tag (default today)
`

func runSelfplay(e *env, args []string) error {
	fs := newFlagSet("selfplay")
	name := rulesFlag(fs)
	games := fs.Int("games", 1, "how many games `N`")
	seedFlag := fs.String("seed", "", "the seed `S`")
	out := fs.String("out", "", "the record `FILE`")
	date := fs.String("date", time.Now().Format("2006.01.02"), "the Date tag")
	if err := parseFlags(e, fs, selfplayHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *games < 1:
		return usageError("--games must be 1 or more")
	case *seedFlag == "":
		return usageError("--seed S is required")
	case *out == "":
		return usageError("--out FILE is required")
	}
	base, err := parseSeedFlag(*seedFlag)
	if err != nil {
		return err
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	o, err := createOutput(e, *out)
	if err != nil {
		return err
	}
	defer o.Close()
	fw := record.NewFileWriter(o)
	var st stats
	bar := &progress{w: e.stderr, on: e.stderrIsTerminal, what: "games", total: *games}
	start := time.Now()
	for i := range *games {
		g, err := playRandom(pr, gameSeed(base, uint64(i)))
		if err != nil {
			return err
		}
		st.add(g)
		tags := []record.Tag{{Name: "Date", Value: *date}, {Name: "Round", Value: strconv.Itoa(i + 1)}}
		for _, s := range pr.Seats() {
			tags = append(tags, record.Tag{Name: s.String(), Value: "random"})
		}
		if err := fw.Write(record.FromGame(g, tags...)); err != nil {
			return err
		}
		bar.update(i + 1)
	}
	bar.finish()
	if err := o.Close(); err != nil {
		return err
	}
	// With --out -, the records are on standard output: keep it for them.
	sw := e.stdout
	if *out == "-" {
		sw = e.stderr
	}
	st.print(sw, pr, time.Since(start))
	return nil
}

// parseSeedFlag reads S: a whole number or 64 hexadecimal digits.
func parseSeedFlag(s string) (rules.Seed, error) {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return rules.SeedFromInt(n), nil
	}
	seed, err := rules.ParseSeed(s)
	if err != nil {
		return seed, usageError("--seed %q: want a whole number or 64 hexadecimal digits", s)
	}
	return seed, nil
}

// gameSeed returns the dice seed of game i of a run with seed base.
func gameSeed(base rules.Seed, i uint64) rules.Seed {
	msg := append(base[:], "game"...)
	return sha256.Sum256(binary.BigEndian.AppendUint64(msg, i))
}

// playRandom plays one game with dice from seed and uniformly random
// actions from a generator keyed by the seed.
func playRandom(pr *rules.Preset, seed rules.Seed) (*rules.Game, error) {
	rng := rand.New(rand.NewChaCha8(sha256.Sum256(append(seed[:], "actions"...))))
	g := rules.NewGame(pr, seed)
	for !g.Finished() {
		p := g.Position()
		for p.AwaitingRoll() { // a roll-off is followed by the first turn's roll
			if _, err := g.Roll(); err != nil {
				return nil, err
			}
			p = g.Position()
		}
		acts := legalActions(p)
		if err := g.PlayString(acts[rng.IntN(len(acts))]); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// stats sums up the games played.
type stats struct {
	games, actions int
	ends           map[string]int
	scores         [rules.NumSeats]int
}

func (st *stats) add(g *rules.Game) {
	p := g.Position()
	st.games++
	for _, t := range g.Turns() {
		st.actions += len(t.Actions)
	}
	if st.ends == nil {
		st.ends = map[string]int{}
	}
	st.ends[p.EndReason().String()]++
	for _, s := range p.Preset().Seats() {
		st.scores[s] += p.Score(s)
	}
}

// print writes the summary.
func (st *stats) print(w io.Writer, pr *rules.Preset, elapsed time.Duration) {
	fmt.Fprintf(w, "games:       %d\n", st.games)
	fmt.Fprintf(w, "actions:     %d, %.1f a game\n", st.actions, float64(st.actions)/float64(st.games))
	var ends []string
	for _, why := range slices.Sorted(maps.Keys(st.ends)) {
		ends = append(ends, fmt.Sprintf("%s %d", why, st.ends[why]))
	}
	fmt.Fprintf(w, "ended:       %s\n", strings.Join(ends, ", "))
	var scores []string
	for _, s := range pr.Seats() {
		scores = append(scores, fmt.Sprintf("%s %.2f", s, float64(st.scores[s])/float64(st.games)))
	}
	fmt.Fprintf(w, "mean score:  %s\n", strings.Join(scores, ", "))
	fmt.Fprintf(w, "speed:       %s games/s (%d games in %v)\n", rate(float64(st.games), elapsed), st.games, elapsed.Round(time.Millisecond))
}
