package migration_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/chaturaji/chaturaji/store/internal/migration"
)

func file(sql string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(sql)} }

func TestLoadOrdersByNumber(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0002_seats.sql":  file("two"),
		"m/0001_games.sql":  file("one"),
		"m/0003_events.sql": file("three"),
		"m/README.md":       file("not a migration"),
	}
	ms, err := migration.Load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, m := range ms {
		if m.Version != i+1 {
			t.Errorf("migration %d has version %d", i, m.Version)
		}
		got = append(got, m.Name+":"+m.SQL)
	}
	if want := "0001_games.sql:one 0002_seats.sql:two 0003_events.sql:three"; strings.Join(got, " ") != want {
		t.Errorf("Load = %s, want %s", strings.Join(got, " "), want)
	}
}

func TestLoadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"a gap", []string{"0001_a.sql", "0003_c.sql"}, "want 2"},
		{"a repeat", []string{"0001_a.sql", "0001_b.sql"}, "want 2"},
		{"no number", []string{"games.sql"}, "0001_games.sql"},
		{"number zero", []string{"0000_a.sql"}, "0001_games.sql"},
		{"none", nil, "no migrations"},
	} {
		fsys := fstest.MapFS{"m/keep.txt": file("")}
		for _, f := range tc.files {
			fsys["m/"+f] = file("x")
		}
		_, err := migration.Load(fsys, "m")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "migration: ") {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

func TestPending(t *testing.T) {
	ms := []migration.Migration{{Version: 1}, {Version: 2}, {Version: 3}}
	for current, want := range []int{3, 2, 1, 0} {
		p, err := migration.Pending(ms, current)
		if err != nil || len(p) != want || (want > 0 && p[0].Version != current+1) {
			t.Errorf("Pending at version %d: %d migrations, %v; want %d from %d", current, len(p), err, want, current+1)
		}
	}
	if _, err := migration.Pending(ms, 4); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Pending at version 4 of 3: %v, want an error saying the database is newer", err)
	}
}
