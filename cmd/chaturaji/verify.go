package main

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chaturaji/chaturaji/keyfile"
	"github.com/chaturaji/chaturaji/record"
)

var verifyCommand = &command{
	name:    "verify",
	summary: "prove a finished game's record: legal moves, its result, fair dice and its signature",
	help:    verifyHelp,
	run:     runVerify,
}

const verifyHelp = `usage: chaturaji verify [--key KEY] [--max-size SIZE] RECORD

Verify checks everything the record of each game in the file RECORD (- for
standard input) can prove (docs/security.md, "What a record proves"):

  - dice fair: the Seed tag, revealed when the game ended, is the one whose
    SHA-256 the SeedHash tag published when it started, and every roll is
    the one that seed gives (docs/notation.md, section 4);
  - moves legal: every turn replays under the record's rules;
  - result matches: the Result tag is there and is the replayed game's;
  - game over: the game has ended, so the result is final; a game the
    server aborted in its first round (its Termination tag says so, and
    its Result is *) is proved with no result: "no result: aborted by
    West (Termination tag), the game is not over";
  - signed by KEY, with --key: the Signature tag is KEY's ed25519
    signature of the record (docs/notation.md, section 5.6).

Fair dice do not prove that the record is the game that was played: a
legal move put in place of another, with the same dice, is a fair game
too. The signature of the server that ran the game proves that; its key is
what the server prints when it starts and serves at GET /api/key.

	--key KEY        the server's public key: 64 hexadecimal digits, or a
	                 file holding them (at most 4 KiB; never the server's
	                 key file, which holds its secrets)
	--max-size SIZE  the most RECORD may hold, such as 64MiB (the default)
	                 or 1GiB; a larger file is refused

It prints a verdict for each game, or the first problem and where it is:

	game 1 (id 2vdyeo6dyblizoek): proved: dice fair (83 rolls from seed 1c99...5a41, SeedHash matches); moves legal (83 turns); result 12,54,3,0 matches; game over; signed by 8f3e...77a0
	game 2: FAILED: record: game 2: line 14: turn 5 "4": roll 4 of the Seed is 3, not 4

and exits with status 2 if any game is not proved, if RECORD holds no
game, or if --key is given but holds no public key.
`

func runVerify(e *env, args []string) error {
	fs := newFlagSet("verify")
	keyArg := fs.String("key", "", "")
	maxSize := int64(maxRecordFile)
	fs.Func("max-size", "", func(s string) (err error) {
		maxSize, err = parseSize(s)
		return err
	})
	if err := parseFlags(e, fs, verifyHelp, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one RECORD file, got %d arguments", fs.NArg())
	}
	var key ed25519.PublicKey
	if flagGiven(fs, "key") {
		var err error
		if key, err = readPublicKey(*keyArg); err != nil {
			return usageError("--key: %v", err)
		}
	}
	path := fs.Arg(0)
	recs, err := readRecords(path, maxSize, "--max-size")
	if err != nil {
		return err
	}
	bad := 0
	for i, r := range recs {
		name := fmt.Sprintf("game %d", i+1)
		if id, ok := r.Tags.Get("Game"); ok {
			name += fmt.Sprintf(" (id %s)", id)
		}
		p, err := r.Verify(key)
		if err != nil {
			bad++
			fmt.Fprintf(e.stdout, "%s: FAILED: %v\n", name, err)
			continue
		}
		fmt.Fprintf(e.stdout, "%s: proved: %s\n", name, proved(r, p))
	}
	if bad > 0 {
		return invalid(fmt.Errorf("%s: %d of %d games not proved", path, bad, len(recs)))
	}
	return nil
}

// proved says what a proof proved, and what it did not.
func proved(r *record.Record, p *record.Proof) string {
	parts := []string{"no dice to check"}
	if p.Seed != "" {
		parts[0] = fmt.Sprintf("dice fair (%d rolls from seed %s, SeedHash matches)", p.Rolls, p.Seed)
	}
	parts = append(parts, fmt.Sprintf("moves legal (%d turns)", p.Turns))
	if p.Termination != "" {
		parts = append(parts, fmt.Sprintf("no result: %s (Termination tag), the game is not over", p.Termination))
	} else {
		parts = append(parts, fmt.Sprintf("result %s matches", p.Result), "game over")
	}
	switch signer, signed := r.Tags.Get(record.SignerTag); {
	case p.Signer != "":
		parts = append(parts, "signed by "+p.Signer)
	case signed:
		parts = append(parts, fmt.Sprintf("signature not checked (its Signer tag names %s: check it with --key)", signer))
	default:
		parts = append(parts, "not signed")
	}
	return strings.Join(parts, "; ")
}

// maxPublicKeyFile is the most verify reads of a file given to --key: a
// public key file holds 65 bytes, as GET /api/key serves it.
const maxPublicKeyFile = 4 << 10

// readPublicKey reads a public key given as its 64 hexadecimal digits, or
// as a file holding them (as GET /api/key serves it). Its errors never
// show what the argument or the file holds: a secret given by mistake,
// such as the server's key file, stays out of the terminal and the logs.
func readPublicKey(arg string) (ed25519.PublicKey, error) {
	if arg == "" {
		return nil, errors.New("empty: want the server's public key, 64 hexadecimal digits (GET /api/key), or a file holding them")
	}
	if k, err := record.ParsePublicKey(arg); err == nil {
		return k, nil
	}
	f, err := os.Open(arg)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("neither a public key (64 hexadecimal digits) nor a file: no file named so, and %d characters that are not a public key", len(arg))
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s is a directory: want the server's public key, 64 hexadecimal digits, or a file holding them", arg)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPublicKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	if len(data) > maxPublicKeyFile {
		return nil, fmt.Errorf("%s is larger than %s, the most a public key file may hold: it is not a public key file", arg, formatSize(maxPublicKeyFile))
	}
	if _, err := keyfile.Parse(data); err == nil || bytes.Contains(data, []byte("signing-key")) {
		return nil, fmt.Errorf("%s is a server's key file, which holds its secrets: give its public key instead, which `chaturaji serve` and `chaturaji keygen` print and GET /api/key serves; and keep %s secret", arg, arg)
	}
	s := strings.TrimSpace(string(data))
	if s == "" {
		return nil, fmt.Errorf("%s is empty: want the server's public key, 64 hexadecimal digits (GET /api/key)", arg)
	}
	k, err := record.ParsePublicKey(s)
	if err != nil {
		return nil, fmt.Errorf("%s holds no public key: want 64 lower-case hexadecimal digits (GET /api/key), and nothing else", arg)
	}
	return k, nil
}
