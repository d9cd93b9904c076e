package store_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/store"
)

// urlLike matches a URL's start: a scheme (RFC 3986: a letter, then
// letters, digits, '+', '-' or '.') and "://".
var urlLike = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// FuzzParseDSN: any text either is refused with a "store:" error or names
// a backend: SQLite with a file path (the end of the text), or PostgreSQL
// with the whole URL. A URL of another scheme is never taken for a file.
func FuzzParseDSN(f *testing.F) {
	for _, s := range []string{
		"sqlite:games.db", "sqlite:///tmp/games.db", "games.db", "./x:y.db", "sqlite::memory:", "sqlite:",
		"postgres://u:p@h/db?sslmode=disable", "postgresql://h/db", "mysql://x", "", "c:\\games.db", "http://x",
		"sqlite://", ":memory:", "a+b://c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		name, arg, err := store.ParseDSN(dsn)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "store: ") {
				t.Fatalf("%q: error %q lacks the package name", dsn, err)
			}
			return
		}
		switch name {
		case store.Postgres:
			if arg != dsn || !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
				t.Fatalf("%q: PostgreSQL with %q", dsn, arg)
			}
		case store.SQLite:
			if arg == "" || !strings.HasSuffix(dsn, arg) {
				t.Fatalf("%q: SQLite at %q", dsn, arg)
			}
			if !strings.HasPrefix(dsn, "sqlite:") && urlLike.MatchString(dsn) {
				t.Fatalf("%q has a scheme, yet names the SQLite file %q", dsn, arg)
			}
		default:
			t.Fatalf("%q: backend %q", dsn, name)
		}
	})
}
