package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Opener opens a Store of one backend. Open gives the SQLite backend the
// file path (":memory:" for an in-memory database) and the PostgreSQL
// backend the whole URL.
type Opener func(ctx context.Context, dsn string) (Store, error)

// The backends Open knows, by name.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// forms is what Open accepts, for its error messages.
const forms = "sqlite:PATH, a bare file path, sqlite::memory:, postgres://... or postgresql://..."

var (
	openersMu sync.RWMutex
	openers   = map[string]Opener{}
)

// Register makes a backend available to Open under name (SQLite or
// Postgres). The backend packages call it from their init functions, so a
// program opens a backend by importing its package:
//
//	import _ "github.com/chaturaji/chaturaji/store/sqlite"
//
// (store cannot import its backends itself: they import store.) Register
// panics if the name is registered twice or open is nil.
func Register(name string, open Opener) {
	openersMu.Lock()
	defer openersMu.Unlock()
	if open == nil {
		panic("store: Register of a nil Opener for " + name)
	}
	if _, dup := openers[name]; dup {
		panic("store: Register called twice for " + name)
	}
	openers[name] = open
}

// Open opens the store that dsn names:
//
//	sqlite:PATH or a bare PATH   an SQLite file, created if missing
//	sqlite::memory:              an SQLite database in memory, gone on Close (for tests)
//	postgres://... postgresql://...  a PostgreSQL database (a libpq URL)
//
// The schema is created or migrated on open. The backend's package must be
// linked into the program (see Register).
func Open(ctx context.Context, dsn string) (Store, error) {
	name, arg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	openersMu.RLock()
	open := openers[name]
	openersMu.RUnlock()
	if open == nil {
		return nil, fmt.Errorf("store: the %s backend is not linked into this program: import _ %q",
			name, "github.com/chaturaji/chaturaji/store/"+name)
	}
	return open(ctx, arg)
}

// ParseDSN tells which backend dsn names (SQLite or Postgres) and what Open
// gives it: the file path, or the whole URL. It fails as Open does on a
// dsn of no known form.
func ParseDSN(dsn string) (name, arg string, err error) { return parseDSN(dsn) }

// parseDSN tells which backend dsn is for and what to give it.
func parseDSN(dsn string) (name, arg string, err error) {
	switch {
	case dsn == "":
		return "", "", fmt.Errorf("store: no database given; want %s", forms)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return Postgres, dsn, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		path = strings.TrimPrefix(path, "//") // sqlite:///abs/path, as some tools write it
		if path == "" {
			return "", "", fmt.Errorf("store: %q names no file; want %s", dsn, forms)
		}
		return SQLite, path, nil
	}
	if scheme, ok := schemeOf(dsn); ok {
		return "", "", fmt.Errorf("store: unknown database scheme %q in %q; want %s", scheme, dsn, forms)
	}
	return SQLite, dsn, nil
}

// schemeOf returns the URL scheme dsn starts with, if it has one: letters,
// digits, '+', '-' or '.' before the first ':', with no '/' before it. A
// bare path such as "games.db" or "./x:y.db" has none.
func schemeOf(dsn string) (string, bool) {
	i := strings.IndexByte(dsn, ':')
	if i <= 0 {
		return "", false
	}
	scheme := dsn[:i]
	for j, c := range scheme {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	return scheme, true
}
