package server

import (
	"container/list"
	"sync"
	"time"
)

// nameFailures counts the failed sign-ins under each username, whoever
// makes them, against credential stuffing spread over many addresses
// (Config.NameFailures in NameWindow): past the limit, sign-ins under the
// name wait for the window since its first failure to end. It keeps at
// most max names, forgetting the one that failed least recently to make
// room, and sweep forgets those whose window has ended. It counts names
// that exist and names that do not alike, so that it tells nothing of
// which do.
type nameFailures struct {
	limit  int
	window time.Duration
	max    int

	mu     sync.Mutex
	names  map[string]*list.Element // of *nameFailure, by folded name
	recent list.List                // of *nameFailure, the latest failure first
}

// nameFailure is one name's failures in its window.
type nameFailure struct {
	name  string
	n     int
	first time.Time // the window's start
	last  time.Time
}

func newNameFailures(limit int, window time.Duration, max int) *nameFailures {
	return &nameFailures{limit: limit, window: window, max: max, names: make(map[string]*list.Element)}
}

// allowed reports whether a sign-in under name may be tried at now, and if
// not, how long until it may.
func (f *nameFailures) allowed(name string, now time.Time) (bool, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.names[name]
	if e == nil {
		return true, 0
	}
	nf := e.Value.(*nameFailure)
	end := nf.first.Add(f.window)
	if !now.Before(end) {
		f.recent.Remove(e)
		delete(f.names, name)
		return true, 0
	}
	if nf.n < f.limit {
		return true, 0
	}
	return false, end.Sub(now)
}

// fail counts a failed sign-in under name at now.
func (f *nameFailures) fail(name string, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.names[name]; e != nil {
		nf := e.Value.(*nameFailure)
		if now.Sub(nf.first) >= f.window {
			nf.n, nf.first = 0, now
		}
		nf.n++
		nf.last = now
		f.recent.MoveToFront(e)
		return
	}
	if len(f.names) >= f.max {
		oldest := f.recent.Back()
		delete(f.names, oldest.Value.(*nameFailure).name)
		f.recent.Remove(oldest)
	}
	f.names[name] = f.recent.PushFront(&nameFailure{name: name, n: 1, first: now, last: now})
}

// sweep forgets the names whose latest failure is a window old, their
// windows over.
func (f *nameFailures) sweep(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for e := f.recent.Back(); e != nil; e = f.recent.Back() {
		nf := e.Value.(*nameFailure)
		if now.Sub(nf.last) < f.window {
			return
		}
		delete(f.names, nf.name)
		f.recent.Remove(e)
	}
}

// len returns how many names are counted.
func (f *nameFailures) len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.names)
}
