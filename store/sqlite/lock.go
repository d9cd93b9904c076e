package sqlite

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ServerLock is a server's hold on an SQLite database file: one
// `chaturaji serve` at a time drives the games of a file, since two would
// both run every live game's bots and clocks and append to the same
// games. Readers (`chaturaji export`) take no lock.
//
// The lock is an advisory lock (flock) on a file beside the database,
// PATH.lock, which holds the holder's process id for the error message.
// The system drops it when the process exits, however it exits (kill -9
// included), so a lock never outlives its server. It is not the database
// file itself that is locked: SQLite keeps POSIX locks on that file,
// which closing any other descriptor of it would drop.
type ServerLock struct {
	f *os.File
}

// LockServer takes the server lock of the database at path. If another
// process holds it, the error says which and what to do; nothing is
// changed. A path of ":memory:" needs no lock: LockServer returns a lock
// that holds nothing.
func LockServer(path string) (*ServerLock, error) {
	if path == ":memory:" {
		return &ServerLock{}, nil
	}
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("sqlite: the server lock %s: %w", name, err)
	}
	if err := lockFile(f); err != nil {
		holder := "another process"
		if b, rerr := os.ReadFile(name); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(bytes.TrimSpace(b)))); perr == nil {
				holder = fmt.Sprintf("process %d", pid)
			}
		}
		f.Close()
		return nil, fmt.Errorf("sqlite: %s is in use by another server (%s holds %s): one SQLite database takes one `chaturaji serve`; stop that one, or run several servers on PostgreSQL (docs/deploy.md)", path, holder, name)
	}
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "%d\n", os.Getpid())
	}
	return &ServerLock{f: f}, nil
}

// Release gives the lock back (the file stays, empty of meaning). A nil
// or empty lock has nothing to release.
func (l *ServerLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // which drops the flock
	l.f = nil
	return err
}
