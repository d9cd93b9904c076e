package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

// TestWritesShareCommits checks that every write goes through the one
// queue of the committer, not only appends: while another process holds
// the file's write lock, games created and events appended wait in that
// queue, in the order they came, and are then committed together, the
// creation that fails (its id taken) rolled back alone. (When the other
// writes took the writing connection for a transaction each, a thousand
// games created at once held up the appends' commits for hundreds of
// milliseconds.)
func TestWritesShareCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	ctx := t.Context()
	for _, id := range []string{"a1", "a2", "a3", "a4"} {
		createGame(t, s, id)
	}
	unlock := lockFile(t, path)
	defer unlock()

	before := sqlite.Commits(s)
	type result struct {
		what string
		err  error
	}
	results := make(chan result, 16)
	// The first write takes the committer, which waits for the lock with
	// it alone; the next ones queue behind it.
	firstTaken(t, s, func() { results <- result{"create b0", s.CreateGame(ctx, testGame("b0"))} })
	writes := 0
	for i := 1; i <= 4; i++ {
		go func() {
			results <- result{fmt.Sprintf("create b%d", i), s.CreateGame(ctx, testGame(fmt.Sprintf("b%d", i)))}
		}()
		id := fmt.Sprintf("a%d", i)
		go func() {
			results <- result{"append to " + id, s.AppendEvents(ctx, id, 0, []store.Event{{Seq: 1, Kind: "roll", Data: []byte(`{}`)}})}
		}()
		writes += 2
	}
	go func() { results <- result{"create a1 again", s.CreateGame(ctx, testGame("a1"))} }()
	writes++
	waitFor(t, fmt.Sprintf("%d writes queued behind the first", writes), func() bool { n, _ := sqlite.Queued(s); return n == writes })
	unlock()
	for range writes + 1 {
		r := <-results
		switch {
		case r.what == "create a1 again":
			if !errors.Is(r.err, store.ErrConflict) {
				t.Errorf("%s: %v, want a conflict", r.what, r.err)
			}
		case r.err != nil:
			t.Errorf("%s: %v", r.what, r.err)
		}
	}
	if got := sqlite.Commits(s) - before; got != 2 {
		t.Errorf("%d writes committed in %d transactions, want 2: the first, then the %d queued behind it together", writes+1, got, writes)
	}
	for i := 0; i <= 4; i++ {
		if _, err := s.Game(ctx, fmt.Sprintf("b%d", i)); err != nil {
			t.Errorf("game b%d: %v", i, err)
		}
	}
	for i := 1; i <= 4; i++ {
		if g, err := s.Game(ctx, fmt.Sprintf("a%d", i)); err != nil || g.LastEvent != 1 {
			t.Errorf("game a%d after its append: %+v, %v", i, g, err)
		}
	}
}

// lockFile takes the write lock of the database at path as another
// process's writer would (BEGIN IMMEDIATE), so that the committer's next
// transaction waits for it, and returns what lets it go; calling that
// again does nothing.
func lockFile(t *testing.T, path string) (unlock func()) {
	t.Helper()
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := other.Conn(t.Context())
	if err != nil {
		other.Close()
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(t.Context(), `BEGIN IMMEDIATE`); err != nil {
		conn.Close()
		other.Close()
		t.Fatal(err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if _, err := conn.ExecContext(context.Background(), `ROLLBACK`); err != nil {
				t.Errorf("letting the file's write lock go: %v", err)
			}
			conn.Close()
			other.Close()
		})
	}
}

// firstTaken runs write, which writes to s, on a goroutine of its own,
// and returns once the committer has taken it: the committer then waits
// for the file's write lock with that write alone, and the next writes
// queue behind it.
func firstTaken(t *testing.T, s *sqlite.Store, write func()) {
	t.Helper()
	_, taken := sqlite.Queued(s)
	go write()
	waitFor(t, "the first write to be taken by the committer", func() bool { _, n := sqlite.Queued(s); return n == taken+1 })
}

// waitFor waits up to 10 s for cond, and fails the test if it never holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// TestFullDiskFailsItsWriteAlone fills the disk under a group of writes:
// the append that needs a new page is refused as the disk full, and the
// one of its group that needs none is committed, although SQLite rolled
// back the group's transaction on the first (it was refused with it, "no
// such savepoint", before the others went again on their own).
func TestFullDiskFailsItsWriteAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	ctx := t.Context()
	for _, id := range []string{"g0", "g1", "g2"} {
		createGame(t, s, id)
	}
	if _, err := s.SetMaxPages(ctx, 1); err != nil { // full at the pages it has
		t.Fatal(err)
	}
	unlock := lockFile(t, path)
	defer unlock()
	small := []store.Event{{Seq: 1, Kind: "roll", Data: []byte(`{}`)}}
	big := []store.Event{{Seq: 1, Kind: "roll", Data: []byte(`"` + strings.Repeat("x", 20000) + `"`)}}
	first := make(chan error, 1)
	firstTaken(t, s, func() { first <- s.AppendEvents(ctx, "g0", 0, small) })
	bigErr, smallErr := make(chan error, 1), make(chan error, 1)
	go func() { bigErr <- s.AppendEvents(ctx, "g1", 0, big) }()
	waitFor(t, "the big append to queue", func() bool { n, _ := sqlite.Queued(s); return n == 1 })
	go func() { smallErr <- s.AppendEvents(ctx, "g2", 0, small) }()
	waitFor(t, "the small append to queue behind it", func() bool { n, _ := sqlite.Queued(s); return n == 2 })
	unlock()
	if err := <-first; err != nil {
		t.Errorf("the first append: %v", err)
	}
	if err := <-bigErr; err == nil || !strings.Contains(err.Error(), "database or disk is full") || strings.Contains(err.Error(), "savepoint") {
		t.Errorf("the append with no room: %v, want the disk full, and that alone", err)
	}
	if err := <-smallErr; err != nil {
		t.Errorf("the append of the same group that needs no new page: %v", err)
	}
	for id, want := range map[string]int64{"g0": 1, "g1": 0, "g2": 1} {
		if g, err := s.Game(ctx, id); err != nil || g.LastEvent != want {
			t.Errorf("game %s: %+v, %v; want its last event %d", id, g, err, want)
		}
	}
}
