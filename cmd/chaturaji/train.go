package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/learn"
)

var trainCommand = &command{
	name:    "train",
	summary: "teach a value network from self-play and write its weights",
	help:    trainHelp,
	run:     runTrain,
}

const trainHelp = `usage: chaturaji train [--rules NAME] --seed S --out FILE [--games N] [--player SPEC] [--nodes N]
                       [--random X] [--lambda X] [--hidden1 N] [--hidden2 N] [--epochs N]
                       [--batch N] [--rate X] [--workers K] [--resume]

Train teaches a value network (package ai/nn) to estimate each seat's final
score, and writes its weights to FILE; the search players use it with the
setting eval=nn (see 'chaturaji players').

First it plays N games of self-play: the player SPEC plays every seat and
searches every decision with N nodes; the decision's position is kept with
the search's estimate of each seat's final score, and the game's final
scores once it ends. It plays the search's best action, or with
probability X (--random) a random one. Game i (from 0) uses the dice seed
SHA-256(S || "game" || i as 8 bytes big-endian), S as in 'chaturaji
selfplay', and the player seed from its first 8 bytes. The samples go to
FILE.samples as the games finish.

Then it trains the network on them: each sample's target is
lambda x final scores + (1 - lambda) x search estimate, minus the scores
at the time, the gain of each seat (with --residual, minus the hand-written
evaluation's estimate, which the network learns to correct); each sample gives two examples, the
rolled position and the same before its roll. One game in twenty is held
out to measure the error on games the network did not learn from. The
training runs the epochs in minibatches, shuffled from the seed, with
Adam; the step size decays linearly to a tenth. After every epoch it prints
the error (root mean squared, in points) and writes the state to
FILE.ckpt.

The same flags make the same weights, whatever K. With --resume it keeps
the games FILE.samples holds and the epochs FILE.ckpt holds (both must come
from the same flags) and does the rest: an interrupted run goes on where it
stopped. On a terminal a progress bar with the loss shows on standard
error.

The shipped weights (ai/nn/weights/NAME.nnw) were made with --seed 13;
docs/strength.md, "The learned evaluation", lists their commands and what
they measured. After new
weights are shipped, the golden values of their test are made again with
'go test ./ai/nn -run Golden -update'.

Flags:
	--rules NAME    the preset (default chaturaji; four seats)
	--seed S        the seed (required)
	--out FILE      the weights file to write (required)
	--games N       self-play games (default 10000)
	--player SPEC   the search player that plays them (default strong?eval=hand)
	--nodes N       its nodes a decision (default 1500)
	--random X      the chance of a random action (default 0.05)
	--lambda X      the final scores' weight in the target (default 0.5)
	--residual      train a network that corrects the hand-written evaluation
	                instead of one that stands alone
	--hidden1 N     the first hidden layer's units (default 32)
	--hidden2 N     the second's (default 16)
	--epochs N      passes over the games (default 15)
	--batch N       examples a step (default 256)
	--rate X        Adam's step size (default 0.001)
	--workers K     games played at once (default 2)
	--resume        go on from FILE.samples and FILE.ckpt
`

func runTrain(e *env, args []string) error {
	fs := newFlagSet("train")
	name := rulesFlag(fs)
	seedFlag := fs.String("seed", "", "the seed `S`")
	out := fs.String("out", "", "the weights `FILE`")
	cfg := learn.Config{}
	fs.IntVar(&cfg.Games, "games", 10000, "self-play games")
	fs.StringVar(&cfg.Player, "player", "strong?eval=hand", "the player `SPEC`")
	fs.Int64Var(&cfg.Nodes, "nodes", 1500, "nodes a decision")
	fs.Float64Var(&cfg.Random, "random", 0.05, "the chance of a random action")
	fs.Float64Var(&cfg.Lambda, "lambda", 0.5, "the final scores' weight")
	fs.BoolVar(&cfg.Residual, "residual", false, "correct the hand-written evaluation")
	fs.IntVar(&cfg.Hidden1, "hidden1", 32, "first hidden layer")
	fs.IntVar(&cfg.Hidden2, "hidden2", 16, "second hidden layer")
	fs.IntVar(&cfg.Epochs, "epochs", 15, "epochs")
	fs.IntVar(&cfg.Batch, "batch", 256, "examples a step")
	fs.Float64Var(&cfg.Rate, "rate", 0.001, "Adam's step size")
	fs.IntVar(&cfg.Workers, "workers", 2, "games played at once")
	resume := fs.Bool("resume", false, "go on from the samples and checkpoint")
	if err := parseFlags(e, fs, trainHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	case *seedFlag == "":
		return usageError("--seed S is required")
	case *out == "":
		return usageError("--out FILE is required")
	case cfg.Games < 1 || cfg.Nodes < 1 || cfg.Epochs < 1 || cfg.Batch < 1 || cfg.Workers < 1:
		return usageError("--games, --nodes, --epochs, --batch and --workers must be 1 or more")
	case cfg.Random < 0 || cfg.Random > 1 || cfg.Lambda < 0 || cfg.Lambda > 1:
		return usageError("--random and --lambda must be from 0 to 1")
	case !(cfg.Rate > 0):
		return usageError("--rate must be above 0")
	}
	var err error
	if cfg.Seed, err = parseSeedFlag(*seedFlag); err != nil {
		return err
	}
	if cfg.Preset, err = lookupPreset(*name); err != nil {
		return err
	}
	if cfg.Preset.NumSeats() != 4 {
		return usageError("%s has %d seats; the network is for four", cfg.Preset.Name, cfg.Preset.NumSeats())
	}
	cfg.Note = fmt.Sprintf("chaturaji train --rules %s --seed %s --games %d --player %s --nodes %d --random %g --lambda %g --residual=%v --hidden1 %d --hidden2 %d --epochs %d --batch %d --rate %g",
		cfg.Preset.Name, *seedFlag, cfg.Games, cfg.Player, cfg.Nodes, cfg.Random, cfg.Lambda, cfg.Residual, cfg.Hidden1, cfg.Hidden2, cfg.Epochs, cfg.Batch, cfg.Rate)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep := &trainReport{e: e}
	start := time.Now()
	net, err := learn.Run(ctx, cfg, learn.Files{Samples: *out + ".samples", Checkpoint: *out + ".ckpt"}, *resume, rep)
	rep.done()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; run again with --resume to go on")
		}
		return err
	}
	data, err := net.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "weights:  %s (%d bytes) in %v\n", *out, len(data), time.Since(start).Round(time.Second))
	return nil
}

// trainReport shows a training run: a progress bar per phase on a
// terminal, and a line per finished step on standard output.
type trainReport struct {
	e     *env
	bar   *progress
	phase string
}

func (r *trainReport) Progress(phase string, done, total int, loss float64) {
	if r.bar == nil || phase != r.phase {
		r.done()
		r.phase = phase
		r.bar = &progress{w: r.e.stderr, on: r.e.stderrIsTerminal, total: total}
	}
	r.bar.what = phase
	if loss > 0 {
		r.bar.what = fmt.Sprintf("%s, error %.2f points", phase, loss)
	}
	r.bar.update(done)
}

func (r *trainReport) Log(format string, args ...any) {
	r.done()
	fmt.Fprintf(r.e.stdout, format+"\n", args...)
}

// done clears the bar, if one shows.
func (r *trainReport) done() {
	if r.bar != nil {
		r.bar.finish()
		r.bar = nil
	}
}
