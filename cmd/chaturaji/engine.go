package main

import (
	"os"
	"strings"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/engine"
)

var engineCommand = &command{
	name:    "engine",
	summary: "speak the engine protocol on standard input and output",
	help:    engineHelp,
	run:     runEngine,
}

const engineHelp = `usage: chaturaji engine [--player SPEC] [--seed N]

Engine plays as an engine of the Chaturaji engine protocol
(docs/engine-protocol.md): it reads the host's commands from standard input
and writes its replies to standard output, line by line, until quit or the
end of its input. The host sends rolled positions; the engine never rolls.

The player is one of the ai package's, as 'chaturaji match' names them
(random, greedy, strong, brs, paranoid, mcts, a level 1..8, with settings
such as strong?nodes=5000). A search player answers each go with one info
line (depth, nodes, time, each seat's expected score, principal line) and
the best action of its analysis, so its variety, temp and blunder settings
do not apply here; random and greedy send no info.

Flags:
	--player SPEC   the player (default strong)
	--seed N        the player's seed (default 1)
`

func runEngine(e *env, args []string) error {
	fs := newFlagSet("engine")
	spec := fs.String("player", "strong", "the player `SPEC`")
	seed := fs.Uint64("seed", 1, "the player's seed")
	if err := parseFlags(e, fs, engineHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	p, err := ai.New(*spec, *seed)
	if err != nil {
		return usageError("--player: %s", strings.TrimPrefix(err.Error(), "ai: "))
	}
	return engine.Serve(os.Stdin, e.stdout, p)
}
