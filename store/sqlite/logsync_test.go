package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chaturaji/chaturaji/store"
	"github.com/chaturaji/chaturaji/store/sqlite"
)

// TestCommitsGoOnWhileSyncing holds the store's sync of its write-ahead
// log and checks what a busy server relies on: an append is committed but
// not acknowledged, nor shown to the store's readers, until a sync after
// it ends; and meanwhile the committer commits the next appends rather
// than wait for the disk (when the sync was part of each commit, every
// append waited for the syncs of the groups before its own).
func TestCommitsGoOnWhileSyncing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	ctx := t.Context()
	for _, id := range []string{"g1", "g2"} {
		createGame(t, s, id)
	}
	// Another reader of the file, which sees commits as SQLite makes
	// them, synced or not.
	raw, err := sql.Open("sqlite", path+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	committed := func(id string) bool {
		var last int64
		if err := raw.QueryRowContext(ctx, `SELECT last_event FROM games WHERE id = ?`, id).Scan(&last); err != nil {
			t.Fatal(err)
		}
		return last == 1
	}
	waitCommitted := func(id string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !committed(id) {
			if time.Now().After(deadline) {
				t.Fatalf("game %s's append is not committed 10 s after it was sent, while a sync of the log is held: the commits wait for the disk", id)
			}
			time.Sleep(time.Millisecond)
		}
	}

	release := sqlite.HoldSyncs(s)
	released := false
	defer func() {
		if !released {
			release()
		}
	}()
	acked := make(map[string]chan error)
	for _, id := range []string{"g1", "g2"} {
		acked[id] = make(chan error, 1)
		go func() {
			acked[id] <- s.AppendEvents(ctx, id, 0, []store.Event{{Seq: 1, Kind: "roll", Data: []byte(`{"seq":1}`)}})
		}()
		waitCommitted(id)
	}
	for _, id := range []string{"g1", "g2"} {
		select {
		case err := <-acked[id]:
			t.Fatalf("AppendEvents to %s returned (%v) while the log's sync was held: acknowledged before it is on the disk", id, err)
		default:
		}
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	evs, err := s.Events(short, "g2", 0)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Events of g2 while its commit waits for a sync = %d events, %v; want to wait for the sync (here: the context's deadline)", len(evs), err)
	}

	release()
	released = true
	for _, id := range []string{"g1", "g2"} {
		if err := <-acked[id]; err != nil {
			t.Fatalf("AppendEvents to %s: %v", id, err)
		}
		evs, err := s.Events(ctx, id, 0)
		if err != nil || len(evs) != 1 {
			t.Fatalf("Events of %s after the sync = %d events, %v; want 1", id, len(evs), err)
		}
	}
}

// TestCommitsDoNotCheckpoint holds the store's checkpointer and appends
// until the write-ahead log holds more than a thousand pages: the commits
// must not copy a page into the database file themselves (with SQLite's
// own wal_autocheckpoint, each commit past a thousand pages did, syncing
// the log and the file while every append behind it waited). Once the
// checkpointer is let go, the pages reach the file.
func TestCommitsDoNotCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	defer s.Close()
	ctx := t.Context()
	size := func(name string) int64 {
		t.Helper()
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	createGame(t, s, "g1")
	release := sqlite.HoldCheckpoints(s)
	released := false
	defer func() {
		if !released {
			release()
		}
	}()
	before := size(path)
	const appends, pad = 400, 12000 // three pages and more each: 1,200 and more in the log
	for seq := int64(1); seq <= appends; seq++ {
		e := padded(seq, pad)
		if err := s.AppendEvents(ctx, "g1", seq-1, []store.Event{e}); err != nil {
			t.Fatal(err)
		}
		if got := size(path); got != before {
			t.Fatalf("the database file went from %d to %d bytes at append %d, the checkpointer held and the log at %d bytes: a commit checkpointed", before, got, seq, size(path+"-wal"))
		}
	}
	if got := size(path + "-wal"); got < 1200*4096 {
		t.Fatalf("the log is %d bytes after %d appends of %d bytes, want 1,200 pages and more", got, appends, pad)
	}
	release()
	released = true
	deadline := time.Now().Add(10 * time.Second)
	for size(path) == before {
		if time.Now().After(deadline) {
			t.Fatal("the database file is as it was 10 s after the checkpointer was let go")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
