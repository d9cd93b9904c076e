// Package sqlite keeps games in an embedded SQLite database (pure Go, no
// cgo): the server's default store.
//
// The database runs in WAL mode. The writer commits with
// synchronous=NORMAL and a goroutine of the store's syncs the log for all
// the commits waiting at once (logsync.go); a write returns only after the
// sync that follows its commit, so what AppendEvents acknowledged has
// reached the disk and survives a crash or a power loss as far as SQLite
// (with synchronous=FULL) can promise, and a read returns only what is
// on the disk. All writes go through one connection, in groups that one
// goroutine commits together (batch.go), and begin with BEGIN IMMEDIATE,
// so appends to a game are
// serialized even against another process on the same file (which waits up
// to the busy timeout); reads use a pool of read-only connections and never
// wait for writers.
//
// Deleted and replaced content is overwritten (secure_delete), so that
// what the store no longer holds, such as a seed sealed in place, is not
// left in the file's free space.
//
// Times are kept as integer microseconds in UTC; settings and event data as
// JSON text, byte for byte. Empty byte slices are kept as NULL and read
// back as nil. The schema is migrated on Open (see migrate.go).
//
// Importing the package registers it with store.Open for "sqlite:PATH"
// and bare paths.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/chaturaji/chaturaji/store"
)

func init() {
	store.Register(store.SQLite, func(ctx context.Context, path string) (store.Store, error) {
		s, err := Open(ctx, path)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// Memory is the path of an in-memory database, private to its Store and
// gone when it closes.
const Memory = ":memory:"

// BusyTimeout is how long a write waits for another process's write to the
// same file before it fails.
const BusyTimeout = 10 * time.Second

// readers is the size of the pool of read-only connections.
const readers = 4

// Store is a store.Store in an SQLite database. Its methods are safe for
// concurrent use.
type Store struct {
	write *sql.DB // one connection: SQLite has one writer at a time
	read  *sql.DB // read-only connections; the same as write in memory

	writes batcher       // group commit of every write
	ckpt   *checkpointer // copies the log to the file; nil in memory
	log    *logSync      // syncs the log after commits; nil in memory
	stmts  *appendStmts  // AppendEvents' statements, prepared on write

	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*Store)(nil)

// Open opens the SQLite database at path, creating it if it does not
// exist, or a new in-memory database if path is Memory, and migrates its
// schema.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: no database path given")
	}
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("sqlite: database path %q has a '?': the store sets the connection's parameters itself", path)
	}
	busy := fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds())
	write, err := sql.Open("sqlite", dsn(path, "_txlock=immediate",
		"_pragma="+busy,
		"_pragma=journal_mode(WAL)",
		// A commit is written to the log without a sync, and logSync
		// syncs the log for every commit waiting (logsync.go): a write
		// returns once that sync is done, so what it acknowledges is on
		// the disk as with FULL.
		"_pragma=synchronous(NORMAL)",
		// The writer never checkpoints inside a commit: the checkpointer
		// does, beside the commits (checkpoint.go).
		"_pragma=wal_autocheckpoint(0)",
		// The savepoints of a group commit (batch.go) keep their journal
		// in memory, not in a temporary file written for each append.
		"_pragma=temp_store(MEMORY)",
		// The pages a busy server's appends touch (the last page of each
		// live game's events, its row, the indexes) stay in memory: 2 MB,
		// SQLite's default, kept a thousand games reading theirs back.
		"_pragma=cache_size(-65536)",
		"_pragma=foreign_keys(1)",
		// Deleted and replaced content is overwritten with zeros, not
		// left in free space: a seed sealed in place (ReplaceSeed) leaves
		// no plain copy in the file.
		"_pragma=secure_delete(1)"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	// Each connection to ":memory:" is a database of its own, so an
	// in-memory store lives on one connection that must never be closed.
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)
	s := &Store{write: write, read: write}
	if err := s.migrate(ctx); err != nil {
		write.Close()
		return nil, err
	}
	if s.stmts, err = prepareAppends(ctx, write); err != nil {
		write.Close()
		return nil, err
	}
	if path == Memory {
		s.writes.start(s.commitBatch)
		return s, nil
	}
	read, err := sql.Open("sqlite", dsn(path,
		"_pragma="+busy,
		"_pragma=foreign_keys(1)",
		"_pragma=query_only(1)"))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	read.SetMaxOpenConns(readers)
	read.SetMaxIdleConns(readers)
	if err := read.PingContext(ctx); err != nil {
		read.Close()
		s.stmts.close()
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	s.read = read
	if s.ckpt, err = startCheckpointer(path, busy, write); err != nil {
		read.Close()
		s.stmts.close()
		write.Close()
		return nil, fmt.Errorf("sqlite: open %s for checkpoints: %w", path, err)
	}
	if s.log, err = startLogSync(path); err != nil {
		s.ckpt.close()
		read.Close()
		s.stmts.close()
		write.Close()
		return nil, fmt.Errorf("sqlite: open the write-ahead log of %s: %w", path, err)
	}
	s.writes.start(s.commitBatch)
	return s, nil
}

// dsn is the driver's name for path with the given parameters.
func dsn(path string, params ...string) string {
	return path + "?" + strings.Join(params, "&")
}

// Close commits the writes under way, refuses later ones and closes the
// database. Calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.writes.stop()
		s.stmts.close()
		errs := []error{s.log.close(), s.ckpt.close()}
		if s.read != s.write {
			errs = append(errs, s.read.Close())
		}
		errs = append(errs, s.write.Close())
		if err := errors.Join(errs...); err != nil {
			s.closeErr = fmt.Errorf("sqlite: close: %w", err)
		}
	})
	return s.closeErr
}

// inTx runs f in a write transaction and commits it, or rolls back what f
// wrote if f fails, and returns once the commit is on the disk. f runs on
// the committer, inside a savepoint of the transaction of a group of writes
// (batch.go), with a context that is never cancelled: ctx bounds the wait
// for f's turn, not f. Its errors are the caller's to prefix.
func (s *Store) inTx(ctx context.Context, f func(ctx context.Context, tx *sql.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := &writeReq{ctx: ctx, f: f}
	if err := s.writes.do(r); err != nil {
		return err
	}
	// The commit is made: its caller learns whether it reached the disk,
	// whatever its context.
	return s.log.wait(context.Background(), r.n)
}

// commitTx runs f in a transaction of its own on the writing connection
// (BEGIN IMMEDIATE) and commits it, or rolls it back if f fails: the
// committer's groups, and the schema's migrations before the committer
// starts. It returns once the transaction is committed, with the commit's
// number, for s.log.wait.
func (s *Store) commitTx(ctx context.Context, f func(tx *sql.Tx) error) (uint64, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return 0, err
	}
	n, err := s.log.commit(tx.Commit)
	if err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	s.ckpt.committed()
	return n, nil
}

// isUniqueViolation reports whether err is a primary key or unique
// constraint failing.
func isUniqueViolation(err error) bool {
	var e *msqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

// micros is t as the database keeps it.
func micros(t time.Time) int64 {
	return t.UnixMicro()
}

// fromMicros is a time the database kept, in UTC.
func fromMicros(us int64) time.Time {
	return time.UnixMicro(us).UTC()
}

// jsonText is JSON as the database keeps it: text, or NULL if empty.
func jsonText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// text is a string as the database keeps it where empty means none: TEXT,
// or NULL if empty.
func text(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// blob is bytes as the database keeps them: a BLOB, or NULL if empty.
func blob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}
