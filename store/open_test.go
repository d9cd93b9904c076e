package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/postgres"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

func TestOpenSQLite(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, dsn, file string
	}{
		{"sqlite:PATH", "sqlite:" + filepath.Join(dir, "a.db"), "a.db"},
		{"sqlite:///PATH", "sqlite://" + filepath.Join(dir, "b.db"), "b.db"},
		{"a bare path", filepath.Join(dir, "c.db"), "c.db"},
		{"a bare path with a colon", filepath.Join(dir, "d:1.db"), "d:1.db"},
		{"in memory", "sqlite::memory:", ""},
	} {
		s, err := store.Open(t.Context(), tc.dsn)
		if err != nil {
			t.Errorf("%s: Open(%q): %v", tc.name, tc.dsn, err)
			continue
		}
		if _, ok := s.(*sqlite.Store); !ok {
			t.Errorf("%s: Open(%q) opened a %T", tc.name, tc.dsn, s)
		}
		if err := s.Close(); err != nil {
			t.Errorf("%s: Close: %v", tc.name, err)
		}
		if tc.file != "" {
			if _, err := os.Stat(filepath.Join(dir, tc.file)); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	}
}

func TestOpenPostgresGoesToPostgres(t *testing.T) {
	// A URL pgx cannot read fails in the postgres backend without
	// connecting anywhere. (package postgres's tests connect for real.)
	for _, dsn := range []string{"postgres://u@127.0.0.1:notaport/db", "postgresql://u@127.0.0.1:notaport/db"} {
		_, err := store.Open(t.Context(), dsn)
		if err == nil || !strings.HasPrefix(err.Error(), "postgres: ") {
			t.Errorf("Open(%q): %v, want an error from the postgres backend", dsn, err)
		}
	}
}

func TestOpenRefusesUnknownForms(t *testing.T) {
	for _, dsn := range []string{"", "sqlite:", "mysql://u@localhost/games", "redis:6379", "file:games.db", "http://example.com/db"} {
		s, err := store.Open(t.Context(), dsn)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", dsn)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "store: ") {
			t.Errorf("Open(%q): %q, want an error starting %q", dsn, msg, "store: ")
		}
		for _, form := range []string{"sqlite:PATH", "sqlite::memory:", "postgres://", "postgresql://"} {
			if !strings.Contains(msg, form) {
				t.Errorf("Open(%q): %q does not list %s among the accepted forms", dsn, msg, form)
			}
		}
	}
}

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second Register of sqlite did not panic")
		}
	}()
	store.Register(store.SQLite, func(context.Context, string) (store.Store, error) { return nil, nil })
}
