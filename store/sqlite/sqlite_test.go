package sqlite_test

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/sqlite"
	"github.com/chaturaji/chaturaji/store/storetest"
)

// open opens the store at path and fails the test if it cannot.
func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

// testGame is a game of the store's tests, with the given id.
func testGame(id string) *store.Game {
	return &store.Game{ID: id, Rules: "chaturaji", SeedHash: "00", Start: "start"}
}

// createGame creates testGame(id) in s and fails the test if it cannot.
func createGame(t testing.TB, s *sqlite.Store, id string) {
	t.Helper()
	if err := s.CreateGame(t.Context(), testGame(id)); err != nil {
		t.Fatal(err)
	}
}

// padded is event seq of a test game, a roll whose data carries pad bytes
// of filler: pages for the write-ahead log.
func padded(seq int64, pad int) store.Event {
	return store.Event{Seq: seq, Kind: "roll", Data: fmt.Appendf(nil, `{"seq": %d, "pad": "%0*d"}`, seq, pad, 0)}
}

func TestStore(t *testing.T) {
	t.Run("file", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store {
			return open(t, filepath.Join(t.TempDir(), "games.db"))
		})
	})
	t.Run("memory", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store { return open(t, sqlite.Memory) })
	})
}

func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	storetest.RunReopen(t, func(t *testing.T) store.Store { return open(t, path) })
}

// TestSealed checks that a sealed store keeps no seed in plain form in the
// database's files.
func TestSealed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	storetest.RunSealed(t, func(t *testing.T) store.Store { return open(t, path) }, func(t *testing.T) []byte {
		var all []byte
		for _, p := range []string{path, path + "-wal", path + "-journal"} {
			data, err := os.ReadFile(p)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			all = append(all, data...)
		}
		return all
	})
}

func TestConnectionSettings(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	defer s.Close()
	for _, tc := range []struct {
		pragma string
		write  bool
		want   string
	}{
		{"journal_mode", true, "wal"},
		{"synchronous", true, "1"}, // NORMAL, and logSync syncs each commit: see TestSyncAfterCommit
		{"foreign_keys", true, "1"},
		{"busy_timeout", true, "10000"},
		{"secure_delete", true, "1"},
		{"temp_store", true, "2"},         // MEMORY
		{"cache_size", true, "-65536"},    // 64 MiB
		{"wal_autocheckpoint", true, "0"}, // the checkpointer's: see TestCommitsDoNotCheckpoint
		{"journal_mode", false, "wal"},
		{"foreign_keys", false, "1"},
		{"query_only", false, "1"},
		{"busy_timeout", false, "10000"},
	} {
		got, err := sqlite.Pragma(t.Context(), s, tc.pragma, tc.write)
		if err != nil {
			t.Fatalf("PRAGMA %s: %v", tc.pragma, err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s on the %s connection = %s, want %s", tc.pragma, map[bool]string{true: "writing", false: "reading"}[tc.write], got, tc.want)
		}
	}
}

// TestLogBounded appends some 100 MiB of pages to the write-ahead log and
// checks that checkpoints keep it from growing past twice the pages at
// which the checkpointer has it start over (32 MiB): the log
// must start over, which it does only when a write begins with all of it
// copied, and under a steady stream of commits only a checkpoint between
// two commits brings that about: the checkpointer's on the writing
// connection (checkpoints beside the commits alone let it grow by
// gigabytes).
func TestLogBounded(t *testing.T) {
	const games, appends = 8, 1000
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	var wg sync.WaitGroup
	for g := range games {
		id := fmt.Sprintf("g%d", g)
		createGame(t, s, id)
		wg.Go(func() {
			for seq := int64(1); seq <= appends; seq++ {
				e := padded(seq, 500)
				if err := s.AppendEvents(t.Context(), id, seq-1, []store.Event{e}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	const frame = 24 + 4096 // a page in the log, with its header
	if limit := int64(2 * sqlite.RestartPages * frame); fi.Size() > limit {
		t.Errorf("the write-ahead log is %.1f MiB after %d appends, want at most %.1f", float64(fi.Size())/(1<<20), games*appends, float64(limit)/(1<<20))
	}
}

// TestCheckpointSyncsBeforeItHolds appends until the checkpointer has the
// write-ahead log start over, and checks the steps of that checkpoint: the
// pages copied beside the commits are synced to the database file, and
// what was committed meanwhile copied, before the checkpointer takes the
// writing connection. SQLite syncs the file only in a checkpoint that
// reaches the log's end, which under a stream of commits only the one
// holding the writer does: without the sync before it, every page copied
// since the log last started over would be synced while the commits wait.
func TestCheckpointSyncsBeforeItHolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	ctx := t.Context()
	var (
		mu    sync.Mutex
		steps []string
		held  = make(chan struct{})
	)
	sqlite.StepCheckpoints(s, func(step string) {
		mu.Lock()
		defer mu.Unlock()
		steps = append(steps, step)
		if step == "hold" && !slices.Contains(steps[:len(steps)-1], "hold") {
			close(held)
		}
	})
	createGame(t, s, "g1")
	const pad = 12000 // three pages and more an append
	for seq := int64(1); ; seq++ {
		select {
		case <-held:
			mu.Lock()
			defer mu.Unlock()
			i := slices.Index(steps, "hold")
			if want := []string{"copy", "sync", "copy", "hold"}; i < 3 || !slices.Equal(steps[i-3:i+1], want) {
				t.Fatalf("the steps of the checkpoints up to the first that held the writer: %q, want them to end %q", steps[:i+1], want)
			}
			return
		default:
		}
		if seq > 4*sqlite.RestartPages {
			t.Fatalf("%d appends of %d bytes, and the checkpointer never took the writing connection", seq-1, pad)
		}
		e := padded(seq, pad)
		if err := s.AppendEvents(ctx, "g1", seq-1, []store.Event{e}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	open(t, path).Close()
	open(t, path).Close() // a second open applies nothing again

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var versions, latest int
	if err := db.QueryRow(`SELECT count(*), max(version) FROM schema_version`).Scan(&versions, &latest); err != nil {
		t.Fatal(err)
	}
	if versions != latest || latest < 1 {
		t.Fatalf("schema_version has %d rows up to version %d, want one per version from 1", versions, latest)
	}

	// A database a newer program migrated is refused, not written.
	if _, err := db.Exec(`INSERT INTO schema_version (version, name, applied) VALUES (?, 'future.sql', 0)`, latest+1); err != nil {
		t.Fatal(err)
	}
	_, err = sqlite.Open(t.Context(), path)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open of a database from a newer program: %v, want an error saying it is newer", err)
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, path := range []string{"", "games.db?mode=ro", filepath.Join(t.TempDir(), "missing", "games.db")} {
		if s, err := sqlite.Open(t.Context(), path); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", path)
		} else if !strings.HasPrefix(err.Error(), "sqlite: ") {
			t.Errorf("Open(%q): %q, want an error starting %q", path, err, "sqlite: ")
		}
	}
}

func TestCloseTwice(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Game(t.Context(), "g1"); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game after Close: %v, want an error other than ErrNotFound", err)
	}
	if err := s.AppendEvents(t.Context(), "g1", 0, []store.Event{{Seq: 1, Kind: "roll", Data: []byte(`{}`)}}); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Errorf("AppendEvents after Close: %v, want an error other than ErrNotFound", err)
	}
}

// BenchmarkAppend is storetest.BenchmarkAppend on a file: 1 game, then
// 1,000 games at once without pauses and with players' pauses up to 1s.
// It also reports the size the write-ahead log has grown to, which
// checkpoints must keep bounded however busy the writer.
func BenchmarkAppend(b *testing.B) {
	for _, tc := range []struct {
		games int
		think time.Duration
	}{{1, 0}, {1000, 0}, {1000, time.Second}} {
		b.Run(fmt.Sprintf("games=%d/think=%v", tc.games, tc.think), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "games.db")
			s, err := sqlite.Open(b.Context(), path)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.BenchmarkAppend(b, s, tc.games, tc.think)
			if fi, err := os.Stat(path + "-wal"); err == nil {
				b.ReportMetric(float64(fi.Size())/(1<<20), "wal-MiB")
			}
		})
	}
}

// TestMaxPages fills the disk with SetMaxPages: appends that need a page
// fail as on a full disk, change nothing, and go through once the cap is
// lifted.
func TestMaxPages(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	defer s.Close()
	ctx := t.Context()
	if err := s.CreateGame(ctx, &store.Game{ID: "g1", Rules: "chaturaji", SeedHash: "h", Start: "s"}); err != nil {
		t.Fatal(err)
	}
	pages, err := sqlite.Pragma(ctx, s, "page_count", true)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.SetMaxPages(ctx, 1); err != nil || strconv.FormatInt(got, 10) != pages {
		t.Fatalf("SetMaxPages(1) = %d, %v; want the pages in use, %s", got, err, pages)
	}
	big := []store.Event{{Seq: 1, Kind: "roll", Data: []byte(`"` + strings.Repeat("x", 20000) + `"`)}}
	err = s.AppendEvents(ctx, "g1", 0, big)
	if err == nil || !strings.Contains(err.Error(), "database or disk is full") {
		t.Fatalf("AppendEvents past the cap: %v, want the database full", err)
	}
	if g, err := s.Game(ctx, "g1"); err != nil || g.LastEvent != 0 {
		t.Fatalf("after the refused append: %+v, %v", g, err)
	}
	for _, n := range []int64{-1, sqlite.MaxPages + 1} {
		if _, err := s.SetMaxPages(ctx, n); err == nil {
			t.Errorf("SetMaxPages(%d) accepted", n)
		}
	}
	if got, err := s.SetMaxPages(ctx, 0); err != nil || got != sqlite.MaxPages {
		t.Fatalf("SetMaxPages(0) = %d, %v; want %d", got, err, int64(sqlite.MaxPages))
	}
	if err := s.AppendEvents(ctx, "g1", 0, big); err != nil {
		t.Fatalf("AppendEvents once the cap is lifted: %v", err)
	}
}

// TestCheckpointer checks that the log's pages reach the database file
// soon after their commits, long before the log's thousand pages that
// would have the writer checkpoint inside a commit: a connection of the
// store's own copies them meanwhile.
func TestCheckpointer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	createGame(t, s, "g")
	const appends, pad = 100, 3000 // some 300 KB: a hundred pages or so
	for seq := int64(1); seq <= appends; seq++ {
		e := padded(seq, pad)
		if err := s.AppendEvents(t.Context(), "g", seq-1, []store.Event{e}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for size() < before+appends*pad {
		if time.Now().After(deadline) {
			t.Fatalf("the database file is %d bytes 10 s after %d appends of %d bytes (%d before them): the log was not checkpointed", size(), appends, pad, before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAccounts(t *testing.T) {
	t.Run("file", func(t *testing.T) {
		storetest.RunAccounts(t, func(t *testing.T) store.Store {
			return open(t, filepath.Join(t.TempDir(), "games.db"))
		})
	})
	t.Run("memory", func(t *testing.T) {
		storetest.RunAccounts(t, func(t *testing.T) store.Store { return open(t, sqlite.Memory) })
	})
}

// onFileAndMemory runs a suite of storetest (RunLobby and its like) on
// stores in a file, where again opens a second store on the same file, and
// on a store in memory, which only one store can hold: again returns it.
func onFileAndMemory(t *testing.T, suite func(t *testing.T, open storetest.Opener)) {
	t.Run("file", func(t *testing.T) {
		suite(t, func(t *testing.T) (store.Store, func(t *testing.T) store.Store) {
			path := filepath.Join(t.TempDir(), "games.db")
			return open(t, path), func(t *testing.T) store.Store { return open(t, path) }
		})
	})
	t.Run("memory", func(t *testing.T) {
		suite(t, func(t *testing.T) (store.Store, func(t *testing.T) store.Store) {
			s := open(t, sqlite.Memory)
			return s, func(t *testing.T) store.Store { return s }
		})
	})
}

func TestLobby(t *testing.T)      { onFileAndMemory(t, storetest.RunLobby) }
func TestRatings(t *testing.T)    { onFileAndMemory(t, storetest.RunRatings) }
func TestInvites(t *testing.T)    { onFileAndMemory(t, storetest.RunInvites) }
func TestNews(t *testing.T)       { onFileAndMemory(t, storetest.RunNews) }
func TestOpenTables(t *testing.T) { onFileAndMemory(t, storetest.RunOpenTables) }
