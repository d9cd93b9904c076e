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
	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/rules"
)

var analyzeCommand = &command{
	name:    "analyze",
	summary: "search a position (best action, line, expected scores), or review a finished game's decisions",
	help:    analyzeHelp,
	run:     runAnalyze,
}

const analyzeHelp = `usage: chaturaji analyze [--rules NAME] --pos POS [--movetime D] [--nodes N] [--player SPEC] [--json]
       chaturaji analyze [--nodes N] [--movetime D] [--player SPEC] [--all] [--json] RECORD

With a RECORD file (- for standard input; at most 64 MiB), analyze
reviews each finished game in it, as described at the end. With --pos, it analyzes a position.

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

POS may also be a FEN4, chess.com's notation for a position of its
Chaturaji (docs/pgn4.md), such as R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-...:
the preset is then chesscom-chaturaji.

Flags:
	--rules NAME    the preset (default chaturaji; chesscom-chaturaji for
	                a FEN4)
	--pos POS       the position, in the preset's notation or in FEN4
	--movetime D    the time to search (default 1s; without it, --nodes alone
	                limits the search)
	--nodes N       the nodes to search at most
	--player SPEC   the searching player (default strong)
	--seed N        the player's seed (default 1)
	--json          print one JSON object
	--all           with RECORD, list every decision, not only the marked ones

Reviewing a game. For each decision of the game, in order, the player
searches the position twice (once if the action played is the one it finds
best): for the best action, and with the action played as the only one at
the root. What the played action loses is the deciding seat's expected final
score with the best action less its expected final score with the action
played, in points (0 if negative: the two searches may disagree by a
little). A loss of 1.5 points or more is an inaccuracy (?!), 2.5 or more a
mistake (?), 4 or more a blunder (??): a pawn scores 1 point and a king 5,
so a king capture missed for a pawn, or a king left to be taken, is a
blunder (package review says how the thresholds were chosen). A
forced decision (one legal action) is searched with an eighth of the budget
and never marked. The turning points are the five events where a seat's
expected score swung most, by 3 points or more: an action (the deciding
seat's search before it and after it, for the seat that moved most), or a
roll (the rolling seat's own expected score at its first decision after
the roll, against its own after its previous decision: the dice and the
other seats' play between). Each search sees the other seats play
against the seat it searches for, so only one seat's view is compared.

Each search's budget is --nodes (default 50000) or --movetime, or both;
with nodes alone the review is the same each time it runs. On a terminal a
progress bar counts the decisions on standard error. The game must be over.
For each game it prints a summary, the marked decisions (every one with
--all), each with its turn, seat, the action played and its mark, the best
action, the loss and the seat's expected score before and after; then the
turning points:

	game 1: 42 decisions judged by strong (50000 nodes a search) in 1.5s
	marked: South 2 ?? 0 ? 0 ?!, West 1 ?? 0 ? 1 ?!, North 3 ?? 1 ? 1 ?!, ...
	turn   3  North  e7e6 ?     best e8d7      loss  3.07  24.18 -> 21.11
	turn  34  West   c2b2 ??    best c2c6      loss 22.12  54.00 -> 31.88
	turning points:
	turn  34  West's action c2b2: North +28.38
	turn  42  West's roll 5, and the play since its last decision: West +24.33

With --json it prints one JSON object a game, as POST /web/review answers
(docs/api.md): {"rules", "seats", "decisions": [{"turn", "seat",
"played", "best", "forced", "before", "after", "loss", "class", "mark",
"withheld"}], "turning": [{"decision", "turn", "roll", "seat", "delta"}],
"complete", "total", "nodes", "elapsed_ms"}, the expected scores in the
order of "seats" ("withheld" is always false here).
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
	all := fs.Bool("all", false, "list every decision")
	if err := parseFlags(e, fs, analyzeHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 1:
		return usageError("want one RECORD file, got %d arguments", fs.NArg())
	case fs.NArg() == 1 && *pos != "":
		return usageError("give --pos POS or a RECORD file, not both")
	case fs.NArg() == 1:
		return reviewGames(e, fs, fs.Arg(0), *spec, *seed, *movetime, *nodes, *all, *asJSON)
	case *pos == "":
		return usageError("want --pos POS or a RECORD file")
	case *all:
		return usageError("--all lists the decisions of a RECORD")
	}
	budget, err := budgetFlags(fs, *movetime, *nodes)
	if err != nil {
		return err
	}
	pr, p, err := analyzePosition(fs, *name, *pos)
	if err != nil {
		return err
	}
	switch {
	case p.Finished():
		return invalid(fmt.Errorf("the game is over (%s): nothing to analyse", p.EndReason()))
	case p.AwaitingRoll():
		return awaitingRoll(p)
	}
	an, closePlayer, err := analyzer(*spec, *seed)
	if err != nil {
		return err
	}
	defer closePlayer()
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

// analyzer returns the searching player of --player and a function that
// lets it go (an outside engine's process).
func analyzer(spec string, seed uint64) (ai.Analyzer, func(), error) {
	player, err := match.NewPlayer(spec, seed)
	if err != nil {
		return nil, nil, usageError("--player: %s", strings.TrimPrefix(err.Error(), "ai: "))
	}
	closePlayer := func() {}
	if c, ok := player.(interface{ Close() error }); ok {
		closePlayer = func() { c.Close() }
	}
	an, ok := player.(ai.Analyzer)
	if !ok {
		closePlayer()
		return nil, nil, usageError("--player %s does not search: want strong, brs, paranoid, mcts, a level or cmd:PROGRAM", spec)
	}
	return an, closePlayer, nil
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

// analyzePosition returns the preset and the position of --rules and --pos:
// a FEN4 (its second byte a '-', which no board of the engine's notation
// has) is a position of chesscom-chaturaji.
func analyzePosition(fs *flag.FlagSet, name, pos string) (*rules.Preset, *rules.Position, error) {
	if len(pos) > 1 && pos[1] == '-' {
		if flagGiven(fs, "rules") && name != rules.ChesscomChaturaji.Name {
			return nil, nil, usageError("--pos is a FEN4, a position of %s, not of %s", rules.ChesscomChaturaji.Name, name)
		}
		p, err := pgn4.ParseFEN4(pos)
		if err != nil {
			return nil, nil, invalid(err)
		}
		return rules.ChesscomChaturaji, p, nil
	}
	pr, err := lookupPreset(name)
	if err != nil {
		return nil, nil, err
	}
	p, err := parsePosition(pr, pos, false)
	if err != nil {
		return nil, nil, err
	}
	return pr, p, nil
}
