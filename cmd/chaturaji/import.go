package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

var importCommand = &command{
	name:    "import",
	summary: "read chess.com's PGN4 games of Chaturaji, check them, and write their records or load them into a database",
	help:    importHelp,
	run:     runImport,
}

const importHelp = `usage: chaturaji import [--dir DIR | --out FILE] FILE.pgn4
       chaturaji import --db DATABASE [--key-file FILE] FILE.pgn4

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

	--db DATABASE  load the games into a server's database instead, as
	             serve takes it (sqlite:PATH, a bare PATH, or
	             postgres://...): each a finished game, as if played there by
	             people at an untimed, unrated table, the players' names as
	             the seats' names, no accounts; its events those the server
	             would have saved, its record kept (docs/pgn4.md). It prints
	             each game's id and the path of its replay, /replay/ID.
	--key-file FILE  with --db, the server's key file, as serve takes it
	             (default chaturaji.key beside the SQLite database, if it is
	             there): the records are signed with its key, as serve signs
	             its games', and the seeds sealed with its seed key; without
	             one they are not, and serve signs and seals them when it
	             starts with one

With --db every game of FILE must be one the server takes: over (a game
chess.com ended by a claim is not), from the start position, with names
the server allows; otherwise nothing is loaded and the exit status is 2.

It says on standard error how many games it imported.
`

func runImport(e *env, args []string) error {
	fs := newFlagSet("import")
	out := fs.String("out", "-", "")
	dir := fs.String("dir", "", "")
	dsn := fs.String("db", "", "")
	keyPath := fs.String("key-file", "", "")
	if err := parseFlags(e, fs, importHelp, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return usageError("want one PGN4 file, got %d arguments", fs.NArg())
	case *dir != "" && flagGiven(fs, "out"):
		return usageError("give --out FILE or --dir DIR, not both")
	case flagGiven(fs, "db") && (*dir != "" || flagGiven(fs, "out")):
		return usageError("--db loads the games into a database: give no --out or --dir with it")
	case flagGiven(fs, "key-file") && !flagGiven(fs, "db"):
		return usageError("--key-file only with --db")
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
	if flagGiven(fs, "db") {
		return importDB(e, fs, *dsn, *keyPath, path, recs)
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

// importDB loads the games of recs, read from path, into the database
// dsn as finished games (server.Server.Import), after checking that the
// server takes every one (server.Server.CheckImport), so that a file with
// a game the server would refuse loads none.
func importDB(e *env, fs *flag.FlagSet, dsn, keyPath, path string, recs []*record.Record) error {
	keys, err := existingKeys(fs, keyPath, dsn)
	if err != nil {
		return err
	}
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	var cfg server.Config
	if keys != nil {
		st = store.Sealed(st, store.NewSeedKey(keys.Seed))
		cfg.SigningKey = keys.Signing
	}
	srv := server.New(cfg, st, nil) // never started: it only stores the games
	for i, r := range recs {
		if err := srv.CheckImport(r); server.ErrorCode(err) == server.EINVALID {
			return invalid(fmt.Errorf("%s: game %d: %s; nothing was loaded", path, i+1, server.ErrorMessage(err)))
		} else if err != nil {
			return fmt.Errorf("%s: game %d: %w; nothing was loaded", path, i+1, err)
		}
	}
	for i, r := range recs {
		id, err := srv.Import(ctx, r)
		if err != nil {
			err = fmt.Errorf("%s: game %d: %w (games 1 to %d are loaded)", path, i+1, err, i)
			var se *server.Error
			if errors.As(err, &se) && se.Code == server.EINVALID {
				return invalid(err)
			}
			return err
		}
		fmt.Fprintf(e.stdout, "game %d: %s /replay/%s\n", i+1, id, id)
	}
	fmt.Fprintf(e.stderr, "imported %d games into %s\n", len(recs), dsn)
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
