// Package migration reads the numbered schema changes a backend embeds, so
// that SQLite and PostgreSQL version their schemas the same way: files
// named NNNN_what.sql, applied in order, each once, the number of the last
// one applied kept in the database's schema_version table.
package migration

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one schema change.
type Migration struct {
	Version int    // from 1, with no gaps
	Name    string // the file name
	SQL     string // one or more statements
}

// Load returns the migrations in fsys's directory dir, in order. Their
// numbers must run 1, 2, 3, ... with no gaps or repeats.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("migration: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration: %s: want a name such as 0001_games.sql", e.Name())
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("migration: %w", err)
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration: %s: number %d, want %d", m.Name, m.Version, i+1)
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("migration: no migrations in %s", dir)
	}
	return ms, nil
}

// Pending returns the migrations a database at version current still needs,
// or an error if the database is newer than the migrations know (a newer
// program wrote it).
func Pending(ms []Migration, current int) ([]Migration, error) {
	if current < 0 || current > len(ms) {
		return nil, fmt.Errorf("migration: the database's schema is version %d, newer than this program's %d; use a newer program", current, len(ms))
	}
	return ms[current:], nil
}
