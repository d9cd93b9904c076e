package ai

import (
	"context"
	"time"
)

// checkEvery is how many nodes pass between looks at the clock and the
// context: a node costs about a microsecond, so the search overruns its
// time by well under a millisecond.
const checkEvery = 256

// stopper decides when a search must stop: at its node budget exactly (so
// node-limited searches are deterministic), at its deadline, or when its
// context is cancelled.
type stopper struct {
	start    time.Time
	deadline time.Time // zero: none
	soft     time.Time // zero: none; past it, no new iteration starts
	done     <-chan struct{}
	maxNodes int64 // 0: none
	nodes    int64
	next     int64 // node count of the next look at the clock
	stopped  bool
}

// reserve is kept back from a time budget: for returning the move, and
// for the moments a busy machine does not run the search at all.
func reserve(t time.Duration) time.Duration {
	return min(t/10, 10*time.Millisecond)
}

func newStopper(ctx context.Context, b Budget) stopper {
	s := stopper{start: time.Now(), done: ctx.Done(), maxNodes: b.Nodes, next: checkEvery}
	if b.Time > 0 {
		s.deadline = s.start.Add(b.Time - reserve(b.Time))
		s.soft = s.start.Add(b.Time * 2 / 5)
	}
	return s
}

// tick counts a node and reports whether the search must stop.
func (s *stopper) tick() bool {
	s.nodes++
	if s.stopped {
		return true
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stopped = true
		return true
	}
	if s.nodes >= s.next {
		s.next = s.nodes + checkEvery
		s.poll()
	}
	return s.stopped
}

// poll looks at the clock and the context.
func (s *stopper) poll() bool {
	select {
	case <-s.done:
		s.stopped = true
	default:
	}
	if !s.deadline.IsZero() && !time.Now().Before(s.deadline) {
		s.stopped = true
	}
	return s.stopped
}

// anotherIteration reports whether there is time to start a deeper one.
func (s *stopper) anotherIteration() bool {
	if s.poll() {
		return false
	}
	return s.soft.IsZero() || time.Now().Before(s.soft)
}

func (s *stopper) elapsed() time.Duration { return time.Since(s.start) }
