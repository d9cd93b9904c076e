package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/chaturaji/chaturaji/keyfile"
	"github.com/chaturaji/chaturaji/record"
	"github.com/chaturaji/chaturaji/store"
)

// keyFileName is the name of the server's key file where --key-file does
// not give one: beside an SQLite database, else in the working directory.
const keyFileName = "chaturaji.key"

// defaultKeyFile returns where the key file of the database dsn is by
// default: keyFileName in the SQLite file's directory, or in the working
// directory for PostgreSQL and in-memory databases.
func defaultKeyFile(dsn string) string {
	backend, path, err := store.ParseDSN(dsn)
	if err != nil || backend != store.SQLite || path == ":memory:" {
		return keyFileName
	}
	return filepath.Join(filepath.Dir(path), keyFileName)
}

// workTree returns the root of the git work tree that holds path (the
// first directory up from it with a .git entry), or "" if none does.
func workTree(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// givenKeys loads the key file given with --key-file, which must be there:
// the server never makes a new one in its place.
func givenKeys(path string) (*keyfile.Keys, error) {
	k, err := keyfile.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("key file %s does not exist: give the key file this server was started with, or make a new one with `chaturaji keygen %s` (a new key signs differently and cannot open seeds sealed with the old one)", path, path)
	}
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	return k, nil
}

// defaultKeys loads the key file at the default place of a server on the
// store st (opened without a seed key), or makes it at first start:
// unless the database's seeds are sealed already (its key file is lost or
// elsewhere, and a new key could not open them). It reports whether it made
// the file.
func defaultKeys(ctx context.Context, st store.Store, path string) (*keyfile.Keys, bool, error) {
	k, err := keyfile.Load(path)
	switch {
	case err == nil:
		return k, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, fmt.Errorf("key file: %w", err)
	}
	games, err := st.Games(ctx, store.Filter{Limit: math.MaxInt32})
	if err != nil {
		return nil, false, err
	}
	for _, g := range games {
		if store.IsSealed(g.Seed) {
			return nil, false, fmt.Errorf("no key file at %s, but the database's seeds are sealed (game %s, key %s): start with its key file (--key-file)", path, g.ID, store.SealedKeyID(g.Seed))
		}
	}
	k, err = keyfile.Create(path)
	if err != nil {
		return nil, false, err
	}
	return k, true, nil
}

var keygenCommand = &command{
	name:    "keygen",
	summary: "make a new key file for a server: its signing key and seed key",
	help:    keygenHelp,
	run:     runKeygen,
}

const keygenHelp = `usage: chaturaji keygen FILE

Keygen writes a new key file for ` + "`chaturaji serve --key-file FILE`" + ` (mode
0600; it never overwrites a file) and prints its public key, which
verifiers use to check the server's records (chaturaji verify --key).

The file holds the server's secrets (docs/security.md): the ed25519 key
that signs the record of every finished game, the AES-256-GCM key that
seals the dice seeds in the database, and the HMAC-SHA256 key with which
the nodes of a cluster (on PostgreSQL) sign the requests they forward to
each other; give every node of a cluster the same file. Keep it apart from
the database and its backups, and keep a copy of it: without it the live
games' seeds cannot be read and the server's records cannot be signed as
before.

` + "`chaturaji serve`" + ` makes one itself at first start where --key-file is not
given (chaturaji.key beside the SQLite database).
`

func runKeygen(e *env, args []string) error {
	fs := newFlagSet("keygen")
	if err := parseFlags(e, fs, keygenHelp, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one FILE, got %d arguments", fs.NArg())
	}
	k, err := keyfile.Create(fs.Arg(0))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: public key %s\n", fs.Arg(0), record.FormatPublicKey(k.Public()))
	return nil
}

// existingKeys returns the server's key file for a command that reads or
// writes its database beside it (export, import): the one --key-file
// (keyPath) names, which must be there, else the default one beside
// database dsn if it is there, else nil.
func existingKeys(flags *flag.FlagSet, keyPath, dsn string) (*keyfile.Keys, error) {
	if flagGiven(flags, "key-file") {
		return givenKeys(keyPath)
	}
	keys, err := keyfile.Load(defaultKeyFile(dsn))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	return keys, nil
}

// flagGiven reports whether the named flag was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
