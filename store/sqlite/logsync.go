package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
)

// logSync makes the writer's commits durable, apart from the commits.
//
// With synchronous=FULL SQLite syncs the write-ahead log inside each
// COMMIT, holding the one writer's lock: the committer (batch.go) could
// not begin the next group's transaction until the disk had answered, so
// the appends that arrived meanwhile waited for that sync, then for their
// own group's statements, then for their own sync, and a slow sync (or the
// committer's wait for a core after it) held up every append behind it.
// The writer now commits with synchronous=NORMAL, which writes a commit to
// the log without waiting for the disk (and still syncs the log's header
// when the log starts over, and the log and the database file around a
// checkpoint), and logSync's goroutine syncs the log: each sync covers
// every commit written before it began, however many, while the committer
// goes on committing the next group. A write returns, and AppendEvents
// acknowledges, only once a sync begun after its commit has finished, so
// an acknowledged commit is on the disk as it was with FULL.
//
// The log is the file SQLite writes beside the database (PATH-wal); the
// store keeps connections open on the database from Open to Close, so
// SQLite never deletes that file meanwhile (it does when the last one
// closes), and a checkpoint that empties it (Scrub) truncates it in place.
type logSync struct {
	f    *os.File
	kick chan struct{} // a token when commits wait for a sync
	stop chan struct{}
	done chan struct{}

	mu        sync.Mutex
	committed uint64        // the commits counted so far
	synced    uint64        // the commits the last sync covered
	err       error         // set when a sync failed or logSync stopped: no later commit is durable
	round     chan struct{} // closed when a sync ends
	ending    chan struct{} // while a commit is under way, closed when it ends; else nil
	hold      chan struct{} // tests: if not nil, a sync waits until it is closed
}

// startLogSync opens the write-ahead log of the database at path, syncs
// it once (the commits of Open's migrations) and starts the goroutine.
func startLogSync(path string) (*logSync, error) {
	f, err := os.OpenFile(path+"-wal", os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	l := &logSync{f: f, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), round: make(chan struct{})}
	go l.run()
	return l, nil
}

// commit runs commit, which commits a transaction on the writing
// connection (one at a time), and returns the commit's number, for wait.
func (l *logSync) commit(commit func() error) (uint64, error) {
	if l == nil {
		return 0, commit()
	}
	l.mu.Lock()
	ending := make(chan struct{})
	l.ending = ending
	l.mu.Unlock()
	err := commit()
	l.mu.Lock()
	if err == nil {
		l.committed++
	}
	n := l.committed
	l.ending = nil
	close(ending)
	l.mu.Unlock()
	if err != nil {
		return 0, err
	}
	select {
	case l.kick <- struct{}{}:
	default: // a sync is due already
	}
	return n, nil
}

// visible returns once every commit a read may have seen, which was under
// way or made before visible was called, is on the disk: what the store
// reads was acknowledged, or soon will be, and a crash cannot take it back.
func (l *logSync) visible(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	ending := l.ending
	l.mu.Unlock()
	if ending != nil {
		select {
		case <-ending:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	l.mu.Lock()
	n := l.committed
	l.mu.Unlock()
	return l.wait(ctx, n)
}

// wait returns once commit n is on the disk, or with the error of the
// sync that should have put it there, or ctx's.
func (l *logSync) wait(ctx context.Context, n uint64) error {
	if l == nil {
		return nil
	}
	for {
		l.mu.Lock()
		synced, err, round := l.synced, l.err, l.round
		l.mu.Unlock()
		switch {
		case synced >= n:
			return nil
		case err != nil:
			return err
		}
		select {
		case <-round:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// run syncs the log whenever commits wait for it, until close.
func (l *logSync) run() {
	defer close(l.done)
	for {
		select {
		case <-l.kick:
		case <-l.stop:
			l.sync() // what close's callers committed last
			return
		}
		l.sync()
	}
}

// sync syncs the log once, for every commit counted before it began.
func (l *logSync) sync() {
	l.mu.Lock()
	n, hold, idle := l.committed, l.hold, l.err != nil || l.committed == l.synced
	l.mu.Unlock()
	if idle {
		return
	}
	if hold != nil {
		<-hold
	}
	err := l.f.Sync()
	l.mu.Lock()
	if err != nil {
		// What a failed sync leaves on the disk is unknown (the kernel may
		// drop the pages it could not write), and a later sync that
		// succeeds does not say they reached it: the store acknowledges
		// no commit after this one.
		l.err = fmt.Errorf("sync the write-ahead log: %w", err)
	} else {
		l.synced = n
	}
	close(l.round)
	l.round = make(chan struct{})
	l.mu.Unlock()
}

// errStopped is the error of a wait for a commit that logSync's last sync
// did not cover.
var errStopped = errors.New("the store closed before the commit was synced")

// close syncs what was committed, stops the goroutine and closes the log.
func (l *logSync) close() error {
	if l == nil {
		return nil
	}
	close(l.stop)
	<-l.done
	l.mu.Lock()
	if l.err == nil {
		l.err = errStopped
	}
	close(l.round)
	l.round = make(chan struct{})
	l.mu.Unlock()
	return l.f.Close()
}
