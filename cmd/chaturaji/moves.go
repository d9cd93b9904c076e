package main

import (
	"fmt"
	"strings"
)

var movesCommand = &command{
	name:    "moves",
	summary: "list the legal actions of a position",
	help:    movesHelp,
	run:     runMoves,
}

const movesHelp = `usage: chaturaji moves [--rules NAME] --pos POS

Moves prints every legal action of the seat to act in position POS, one a
line, sorted in byte order (moves first, then pass and retire). POS is a
position string of docs/rules.md §7, such as the start position:

	yByP2gKgEgHgB/yHyP2gPgPgPgP/yEyP6/yKyP6/6rPrK/6rPrE/bPbPbPbP2rPrH/bBbHbEbK2rPrB b 5 0,0,0,0 0

A position awaiting its roll (dice field -) has no actions yet: moves exits
with status 2 and says so. A finished game has no actions: moves prints
nothing and exits with status 0.

Flags:
	--rules NAME   the preset (default chaturaji)
	--pos POS      the position (required)
`

func runMoves(e *env, args []string) error {
	fs := newFlagSet("moves")
	name := rulesFlag(fs)
	pos := fs.String("pos", "", "the position `POS`")
	if err := parseFlags(e, fs, movesHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	p, err := parsePosition(pr, *pos, false)
	if err != nil {
		return err
	}
	if p.AwaitingRoll() {
		return awaitingRoll(p)
	}
	for _, a := range legalActions(p) {
		fmt.Fprintln(e.stdout, a)
	}
	return nil
}
