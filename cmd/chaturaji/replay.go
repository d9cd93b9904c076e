package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chaturaji/chaturaji/record"
)

var replayCommand = &command{
	name:    "replay",
	summary: "check every game of a record file move by move",
	help:    replayHelp,
	run:     runReplay,
}

const replayHelp = `usage: chaturaji replay FILE

Replay reads the game records of FILE (- for standard input, at most 64 MiB) and plays each
game again under the preset its Rules tag names: every recorded roll and
action must be legal, and the Result tag must match the final position.
When a record has a Seed tag, every roll must be the one the seed gives
(rules.RollFromSeed) and a SeedHash tag must be the seed's SHA-256.

For each good game it prints its number, turns, whether it is over (or
was aborted, as its Termination tag says), the scores and whether the dice
were checked, then its final position. For each
wrong game it prints an error on standard error naming the game, the line,
the turn and the token, such as

	chaturaji replay: games.cgn: record: game 2: line 14: turn 37 "a7c6": illegal action a7c6 in ...

and it exits with status 2 if any game was wrong.
`

func runReplay(e *env, args []string) error {
	fs := newFlagSet("replay")
	if err := parseFlags(e, fs, replayHelp, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one FILE, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	recs, err := readRecords(path, maxRecordFile, "")
	if err != nil {
		return err
	}
	wrong := 0
	for i, r := range recs {
		if err := replayOne(e.stdout, i+1, r); err != nil {
			fmt.Fprintf(e.stderr, "chaturaji replay: %s: %v\n", path, err)
			wrong++
		}
	}
	if wrong > 0 {
		return invalid(fmt.Errorf("%s: %d of %d games are wrong", path, wrong, len(recs)))
	}
	return nil
}

// replayOne checks game n and prints what it found.
func replayOne(w io.Writer, n int, r *record.Record) error {
	g, err := r.Replay()
	if err != nil {
		return err
	}
	dice := "dice not checked (no Seed tag)"
	if _, ok := r.Tags.Get("Seed"); ok {
		if err := r.VerifyDice(); err != nil {
			return err
		}
		dice = "dice match the Seed"
	}
	p := g.Position()
	state := "goes on"
	if term, ok := r.Tags.Get(record.TerminationTag); ok && !p.Finished() {
		state = "not over, " + term + " (Termination tag), no result"
	}
	if p.Finished() {
		state = "over (" + p.EndReason().String() + ")"
	}
	var scores []string
	for _, s := range g.Preset().Seats() {
		scores = append(scores, fmt.Sprintf("%s %d", s, p.Score(s)))
	}
	fmt.Fprintf(w, "game %d: %d turns, %s: %s; %s\n", n, len(g.Turns()), state, strings.Join(scores, ", "), dice)
	fmt.Fprintf(w, "\t%s\n", p)
	return nil
}

// maxRecordFile is the most a record file may hold by default (verify's
// --max-size): enough for some twenty thousand games, and a bound on what
// /dev/zero or a wrong file can make a command read into memory.
const maxRecordFile = 64 << 20

// readBounded reads the file at path ("-" for standard input), of at most
// limit bytes (set by the flag named, if any); a larger one is an
// invalid-input error naming it, as a file of the kind named.
func readBounded(path string, limit int64, kind, flag string) (string, error) {
	var in io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		in = f
	}
	data, err := io.ReadAll(io.LimitReader(in, limit+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		if flag != "" {
			flag = " (" + flag + ")"
		}
		return "", invalid(fmt.Errorf("%s: larger than %s, the most read of a %s%s", path, formatSize(limit), kind, flag))
	}
	return string(data), nil
}

// readRecords parses the record file at path ("-" for standard input), of
// at most limit bytes (set by the flag named, if any); a file that does
// not parse, is larger or holds no record is an invalid-input error naming
// it.
func readRecords(path string, limit int64, flag string) ([]*record.Record, error) {
	data, err := readBounded(path, limit, "record file", flag)
	if err != nil {
		return nil, err
	}
	recs, err := record.ParseString(data)
	if err != nil {
		return nil, invalid(fmt.Errorf("%s: %w", path, err))
	}
	if len(recs) == 0 {
		return nil, invalid(fmt.Errorf("%s: no game record in it: nothing to check", path))
	}
	return recs, nil
}
