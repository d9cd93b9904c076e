package sqlite_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chaturaji/chaturaji/store/sqlite"
)

// TestServerLock takes a database's server lock, is refused a second one
// with an error naming the holder, and takes it again once it is released.
// (flock's locks belong to an open file, so a second open in the same
// process conflicts as another process's would.)
func TestServerLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	first, err := sqlite.LockServer(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sqlite.LockServer(path)
	if err == nil {
		t.Fatal("a second server lock of the same database was granted")
	}
	for _, want := range []string{path, "in use by another server", "process " + strconv.Itoa(os.Getpid()), "PostgreSQL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	other, err := sqlite.LockServer(filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatalf("the lock of another database: %v", err)
	}
	other.Release()
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := sqlite.LockServer(path)
	if err != nil {
		t.Fatalf("the lock once released: %v", err)
	}
	again.Release()
	mem, err := sqlite.LockServer(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.LockServer(":memory:"); err != nil {
		t.Errorf("in-memory databases are each their own: %v", err)
	}
	mem.Release()
}
