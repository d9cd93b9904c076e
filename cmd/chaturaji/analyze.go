package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/chaturaji/chaturaji/ai"
	"github.com/chaturaji/chaturaji/match"
	"github.com/chaturaji/chaturaji/rules"
)

var analyzeCommand = &command{
	name:    "analyze",
	summary: "search a position: best action, line and expected scores",
	help:    analyzeHelp,
	run:     runAnalyze,
}

const analyzeHelp = `usage: chaturaji analyze [--rules NAME] --pos POS [--movetime D] [--nodes N] [--player SPEC] [--json]

Analyze searches position POS, whose roll must have been made (its dice
field holds the faces), and prints what the search found:

	best:      the best action
	line:      the principal line, best action first: the actions of the
	           seats that decide along it (the rolls between them are
	           left out)
	expected:  each seat's expected final score, as colour letter: value
	nodes:     the nodes (or playouts) searched
	depth:     the depth reached, in decisions
	time:      how long it took

With --json it prints one JSON object instead:
{"best", "line", "expected" (by colour letter), "nodes", "depth", "time_ms"}.

The player must be one that searches: strong (the default), brs, paranoid,
mcts, a level 1..8, or an outside engine, cmd:PROGRAM [ARGS], that speaks
the engine protocol.

Flags:
	--rules NAME    the preset (default chaturaji)
	--pos POS       the position (required)
	--movetime D    the time to search (default 1s; without it, --nodes alone
	                limits the search)
	--nodes N       the nodes to search at most
	--player SPEC   the searching player (default strong)
	--seed N        the player's seed (default 1)
	--json          print one JSON object
`

func runAnalyze(e *env, args []string) error {
	fs := newFlagSet("analyze")
	name := rulesFlag(fs)
	pos := fs.String("pos", "", "the position `POS`")
	movetime := fs.Duration("movetime", time.Second, "the time `D` to search")
	nodes := fs.Int64("nodes", 0, "the nodes `N` to search at most")
	spec := fs.String("player", "strong", "the player `SPEC`")
	seed := fs.Uint64("seed", 1, "the player's seed")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(e, fs, analyzeHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	budget, err := budgetFlags(fs, *movetime, *nodes)
	if err != nil {
		return err
	}
	pr, err := lookupPreset(*name)
	if err != nil {
		return err
	}
	p, err := parsePosition(pr, *pos, false)
	if err != nil {
		return err
	}
	switch {
	case p.Finished():
		return invalid(fmt.Errorf("the game is over (%s): nothing to analyse", p.EndReason()))
	case p.AwaitingRoll():
		return awaitingRoll(p)
	}
	player, err := match.NewPlayer(*spec, *seed)
	if err != nil {
		return usageError("--player: %s", strings.TrimPrefix(err.Error(), "ai: "))
	}
	if c, ok := player.(interface{ Close() error }); ok {
		defer c.Close()
	}
	an, ok := player.(ai.Analyzer)
	if !ok {
		return usageError("--player %s does not search: want strong, brs, paranoid, mcts, a level or cmd:PROGRAM", *spec)
	}
	a, err := an.Analyze(context.Background(), p, budget)
	if err != nil {
		return err
	}
	if *asJSON {
		return printAnalysisJSON(e, pr, a)
	}
	var line, expected []string
	for _, act := range a.Line {
		line = append(line, act.Format(pr))
	}
	for _, s := range pr.Seats() {
		expected = append(expected, fmt.Sprintf("%c: %.2f", s.Letter(), a.Expected[s]))
	}
	fmt.Fprintf(e.stdout, "best:      %s\n", a.Best.Format(pr))
	fmt.Fprintf(e.stdout, "line:      %s\n", strings.Join(line, " "))
	fmt.Fprintf(e.stdout, "expected:  %s\n", strings.Join(expected, "  "))
	fmt.Fprintf(e.stdout, "nodes:     %d\n", a.Nodes)
	fmt.Fprintf(e.stdout, "depth:     %d\n", a.Depth)
	fmt.Fprintf(e.stdout, "time:      %v\n", a.Elapsed.Round(time.Millisecond))
	return nil
}

func printAnalysisJSON(e *env, pr *rules.Preset, a ai.Analysis) error {
	out := struct {
		Best     string             `json:"best"`
		Line     []string           `json:"line"`
		Expected map[string]float64 `json:"expected"`
		Nodes    int64              `json:"nodes"`
		Depth    int                `json:"depth"`
		TimeMS   int64              `json:"time_ms"`
	}{Best: a.Best.Format(pr), Line: []string{}, Expected: map[string]float64{}, Nodes: a.Nodes, Depth: a.Depth, TimeMS: a.Elapsed.Milliseconds()}
	for _, act := range a.Line {
		out.Line = append(out.Line, act.Format(pr))
	}
	for _, s := range pr.Seats() {
		out.Expected[string(s.Letter())] = a.Expected[s]
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", b)
	return err
}

// budgetFlags returns the budget that --movetime and --nodes give: --nodes
// alone limits by nodes only; otherwise the move time (its default if not
// given) and the nodes, if any.
func budgetFlags(fs *flag.FlagSet, movetime time.Duration, nodes int64) (ai.Budget, error) {
	timeSet := false
	fs.Visit(func(f *flag.Flag) { timeSet = timeSet || f.Name == "movetime" })
	switch {
	case nodes < 0:
		return ai.Budget{}, usageError("--nodes must be 0 or more")
	case movetime < 0 || timeSet && movetime == 0 && nodes == 0:
		return ai.Budget{}, usageError("--movetime must be above 0")
	case nodes > 0 && !timeSet:
		return ai.Budget{Nodes: nodes}, nil
	}
	return ai.Budget{Time: movetime, Nodes: nodes}, nil
}
