package main

import (
	"fmt"
	"strconv"

	"github.com/chaturaji/chaturaji/ai"
)

var playersCommand = &command{
	name:    "players",
	summary: "list the players: bots and strength levels",
	help:    playersHelp,
	run:     runPlayers,
}

const playersHelp = `usage: chaturaji players

Players lists the players that match, analyze, engine and the server's
seats accept, each with a line on how it plays: the bots by name, then the
strength levels for human opponents, 1 (weakest) to 8 (strong). The server
takes a bot as bot:SPEC ("bot:greedy", "bot:3"). Search players also take
settings, such as strong?variety=2 or 5?nodes=2000 (see ai.New);
strong?eval=nn searches with the learned evaluation where the preset has
one (chaturaji train), and eval=hand with the hand-written one.
`

func runPlayers(e *env, args []string) error {
	fs := newFlagSet("players")
	if err := parseFlags(e, fs, playersHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("players takes no arguments")
	}
	for _, k := range ai.Kinds {
		fmt.Fprintf(e.stdout, "%-10s %s\n", k.Name, k.About)
	}
	fmt.Fprintln(e.stdout)
	for i, l := range ai.Levels {
		fmt.Fprintf(e.stdout, "%-10s level %d: %s\n", strconv.Itoa(i+1), i+1, l.About)
	}
	return nil
}
