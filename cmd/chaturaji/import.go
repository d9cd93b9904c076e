package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/record"
)

var importCommand = &command{
	name:    "import",
	summary: "read chess.com's PGN4 games of Chaturaji, check them, and write their records",
	help:    importHelp,
	run:     runImport,
}

const importHelp = `usage: chaturaji import [--dir DIR | --out FILE] FILE.pgn4

Import reads the games of FILE.pgn4 (- for standard input; at most 64 MiB),
written in chess.com's four-player notation, PGN4, for its Chaturaji: the
preset chesscom-chaturaji (docs/pgn4.md). It replays every move of every
game under the rules and writes each game's record (docs/notation.md),
with the players' names of the Red, Blue, Yellow and Green tags as South,
West, North and East. A game that began elsewhere than the start position
(its StartFen4 tag) starts from there. A game chess.com ended by a claim,
which its files do not show, is imported unfinished (Result *).

A game that does not replay is refused, with its number, the line, the
move number, the player, the move as written and why; then nothing is
written and the exit status is 2.

Flags:
	--out FILE   write the records into one record file (default -,
	             standard output)
	--dir DIR    write each game's record into a file of its own in DIR
	             (made if need be): game-1.txt, game-2.txt, ... in the
	             order of FILE; existing files are not overwritten

It says on standard error how many games it imported.
`

func runImport(e *env, args []string) error {
	fs := newFlagSet("import")
	out := fs.String("out", "-", "")
	dir := fs.String("dir", "", "")
	if err := parseFlags(e, fs, importHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return usageError("want one PGN4 file, got %d arguments", fs.NArg())
	case *dir != "" && flagGiven(fs, "out"):
		return usageError("give --out FILE or --dir DIR, not both")
	}
	path := fs.Arg(0)
	games, err := readPGN4(path)
	if err != nil {
		return err
	}
	recs := make([]*record.Record, len(games))
	for i, g := range games {
		if recs[i], err = g.Record(); err != nil {
			return invalid(fmt.Errorf("%s: %w", path, err))
		}
	}
	if *dir != "" {
		if err := writeRecordDir(*dir, recs); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "imported %d games into %s\n", len(recs), *dir)
		return nil
	}
	o, err := createOutput(e, *out)
	if err != nil {
		return err
	}
	defer o.Close()
	if err := record.WriteAll(o, recs); err != nil {
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "imported %d games\n", len(recs))
	return nil
}

// readPGN4 parses the PGN4 file at path ("-" for standard input), of at
// most maxRecordFile bytes; a file that does not parse, is larger or holds
// no game is an invalid-input error naming it.
func readPGN4(path string) ([]*pgn4.Game, error) {
	data, err := readBounded(path, maxRecordFile, "PGN4 file", "")
	if err != nil {
		return nil, err
	}
	games, err := pgn4.ParseString(data)
	if err != nil {
		return nil, invalid(fmt.Errorf("%s: %w", path, err))
	}
	if len(games) == 0 {
		return nil, invalid(fmt.Errorf("%s: no PGN4 game in it", path))
	}
	return games, nil
}

// writeRecordDir writes each record into a file of its own in dir,
// game-N.txt, refusing to overwrite one.
func writeRecordDir(dir string, recs []*record.Record) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, r := range recs {
		name := filepath.Join(dir, fmt.Sprintf("game-%d.txt", i+1))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s exists already: import does not overwrite", name)
		}
		if err != nil {
			return err
		}
		if err := r.Write(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
