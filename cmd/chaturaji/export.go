package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/chaturaji/chaturaji/pgn4"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/rules"
	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
)

var exportCommand = &command{
	name:    "export",
	summary: "write the records of a server's games from its database",
	help:    exportHelp,
	run:     runExport,
}

const exportHelp = `usage: chaturaji export [--db DATABASE] [--key-file FILE] [--status finished|live|all] [--rules NAME]
                        [--limit N] [--out FILE]
       chaturaji export --format pgn4 [--db DATABASE | --records FILE] [--key-file FILE] [--limit N] [--out FILE]

Export writes the game records of the games a server has played, read from
its database, the oldest first, in one record file that replay, verify and
other tools read (docs/notation.md): every game's seats, the bots that took
seats (the Takeover tag), its turns, its result, and the seed that proves
its dice once the game is over, and the server's signature of a finished
game's record. Each game is rebuilt from its stored events and checked on
the way. It may run while the server does.

It reads the server's key file (see serve), which opens the seeds sealed in
the database and signs the records; without one (none at the default
place, and no --key-file), the records are not signed, and a database whose
seeds are sealed cannot be read.

Flags:
	--db DATABASE    as serve takes it: sqlite:PATH (the default,
	                 sqlite:chaturaji.db), a bare PATH, or postgres://...
	--key-file FILE  the server's key file, as serve takes it (default
	                 chaturaji.key beside the SQLite database, if it is there)
	--status S       finished (the default), live (their seeds left out), or all
	--rules NAME     only the games of this preset (with house rules as played)
	--limit N        only the N most recently updated games (default: all)
	--out FILE       where to write (default - , standard output)
	--format F       record (the default), or pgn4: chess.com's notation
	                 (docs/pgn4.md), for the finished games of
	                 chesscom-chaturaji only (--rules may name only it;
	                 --status only finished); a game of another preset, or
	                 of it with house rules, is not written
	--records FILE   with --format pgn4, read the game records of FILE (-
	                 for standard input; at most 64 MiB) in place of a
	                 database: each must be of chesscom-chaturaji, else
	                 nothing is written and the exit status is 2

It says on standard error how many games it wrote. A damaged game, one
that cannot be rebuilt from the database, or whose record kept in it was
changed (with the key file: a record the key signed that it no longer
covers), is left out and the others are written: standard error names each, and so does a comment line at the end
of the file ("; skipped game ID, damaged: ..."); the exit status is still
0. The server offers the same over HTTP: GET /api/records (docs/api.md).
`

func runExport(e *env, args []string) error {
	fs := newFlagSet("export")
	dsn := fs.String("db", "sqlite:chaturaji.db", "")
	keyPath := fs.String("key-file", "", "")
	status := fs.String("status", "finished", "")
	name := fs.String("rules", "", "")
	limit := fs.Int("limit", 0, "")
	out := fs.String("out", "-", "")
	format := fs.String("format", "record", "")
	records := fs.String("records", "", "")
	if err := parseFlags(e, fs, exportHelp, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("export takes no arguments, only flags")
	}
	pgn := *format == "pgn4"
	switch {
	case *format != "record" && !pgn:
		return usageError("--format %q: want record or pgn4", *format)
	case *records != "" && !pgn:
		return usageError("--records FILE is read only with --format pgn4")
	case pgn && *status != "finished":
		return usageError("--format pgn4 writes finished games only, not --status %s", *status)
	case pgn && *name != "" && *name != rules.ChesscomChaturaji.Name:
		return usageError("--format pgn4 writes games of %s only, not of %s", rules.ChesscomChaturaji.Name, *name)
	case pgn:
		*name = rules.ChesscomChaturaji.Name
	}
	if *records != "" {
		return exportPGN4File(e, *records, *out, *limit)
	}
	x := server.Export{Limit: *limit}
	switch *status {
	case "finished":
		x.Status = store.Finished
	case "live":
		x.Status = store.Live
	case "all":
	default:
		return usageError("--status %q: want finished, live or all", *status)
	}
	if *limit < 0 {
		return usageError("--limit %d: want 0 (all) or more", *limit)
	}
	if *name != "" {
		if _, err := lookupPreset(*name); err != nil { // a usage error, listing the presets
			return err
		}
		x.Rules = *name
	}
	// Export reads a database; it does not make an empty one.
	backend, path, err := store.ParseDSN(*dsn)
	if err != nil {
		return err
	}
	if backend == store.SQLite && path != ":memory:" {
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("no database at %s (chaturaji serve --db %s makes it): %w", path, *dsn, err)
		}
	}
	keys, err := existingKeys(fs, *keyPath, *dsn)
	if err != nil {
		return err
	}
	ctx := context.Background()
	st, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if keys != nil {
		st = store.Sealed(st, store.NewSeedKey(keys.Seed))
		x.Key = keys.Signing
	}

	o, err := createOutput(e, *out)
	if err != nil {
		return err
	}
	defer o.Close()
	var done server.Exported
	if pgn {
		var recs bytes.Buffer
		if done, err = server.ExportRecords(ctx, st, &recs, x); err != nil {
			return err
		}
		if err := writePGN4(o, recs.String(), "the database"); err != nil {
			return err
		}
	} else if done, err = server.ExportRecords(ctx, st, o, x); err != nil {
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	where := "standard output"
	if *out != "-" {
		where = *out
	}
	for _, sk := range done.Skipped {
		fmt.Fprintf(e.stderr, "skipped game %s, damaged: %s\n", sk.ID, sk.Error)
	}
	fmt.Fprintf(e.stderr, "exported %d games to %s\n", done.Count, where)
	if n := len(done.Skipped); n > 0 {
		fmt.Fprintf(e.stderr, "skipped %d damaged games (named at the end of the file, and above)\n", n)
	}
	return nil
}

// exportPGN4File writes the records of the record file at path in PGN4: at
// most the last limit of them, if limit is above 0.
func exportPGN4File(e *env, path, out string, limit int) error {
	recs, err := readRecords(path, maxRecordFile, "")
	if err != nil {
		return err
	}
	if limit > 0 && len(recs) > limit {
		recs = recs[len(recs)-limit:]
	}
	games, err := pgn4Games(recs, path)
	if err != nil {
		return err
	}
	o, err := createOutput(e, out)
	if err != nil {
		return err
	}
	defer o.Close()
	if err := pgn4.WriteAll(o, games); err != nil {
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "exported %d games in PGN4\n", len(games))
	return nil
}

// writePGN4 writes in PGN4 the records of text, a record file read from
// where.
func writePGN4(w io.Writer, text, where string) error {
	recs, err := record.ParseString(text)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	games, err := pgn4Games(recs, where)
	if err != nil {
		return err
	}
	return pgn4.WriteAll(w, games)
}

// pgn4Games returns the PGN4 of each record, read from where; a record of
// another preset is an invalid-input error naming it.
func pgn4Games(recs []*record.Record, where string) ([]*pgn4.Game, error) {
	games := make([]*pgn4.Game, len(recs))
	for i, r := range recs {
		g, err := pgn4.FromRecord(r)
		if err != nil {
			return nil, invalid(fmt.Errorf("%s: game %d: %w", where, i+1, err))
		}
		games[i] = g
	}
	return games, nil
}
