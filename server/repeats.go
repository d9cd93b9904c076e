package server

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// repeats logs failures that repeat: the store failing for every game at
// once, or for one game at every try. The first of a kind (its message) is
// logged at once; those that follow within Config.RepeatLog are only
// counted, and when the interval is over one line says how many there were
// and what the last one said. An outage of any length over any number of
// games so writes a line per kind per interval, not a line per game per
// try.
type repeats struct {
	log   *slog.Logger
	every time.Duration

	mu      sync.Mutex
	pending map[string]*repeat // by message
	stopped bool
}

// repeat is a kind of failure within its interval.
type repeat struct {
	level slog.Level
	n     int   // occurrences since its last line
	last  []any // the attributes of the last one
	timer *time.Timer
}

func newRepeats(log *slog.Logger, every time.Duration) *repeats {
	return &repeats{log: log, every: every, pending: make(map[string]*repeat)}
}

// Error logs a failure at level Error, unless one with the same message
// was logged less than an interval ago: then it is counted, for the line
// that ends the interval.
func (r *repeats) Error(msg string, args ...any) { r.add(slog.LevelError, msg, args) }

// Info logs at level Info what follows a failure (a game back on its
// feet), as Error logs a failure.
func (r *repeats) Info(msg string, args ...any) { r.add(slog.LevelInfo, msg, args) }

func (r *repeats) add(level slog.Level, msg string, args []any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p := r.pending[msg]; p != nil {
		p.n++
		p.last = args
		return
	}
	r.log.Log(context.Background(), level, msg, args...)
	if r.stopped {
		return
	}
	r.pending[msg] = &repeat{level: level, timer: time.AfterFunc(r.every, func() { r.flush(msg) })}
}

// flush ends an interval of a kind: it logs how many repeated, if any, and
// opens a new interval; after an interval without any it forgets the kind,
// so that the next one is logged at once.
func (r *repeats) flush(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pending[msg]
	if p == nil {
		return
	}
	if p.n == 0 {
		delete(r.pending, msg)
		return
	}
	r.summary(msg, p)
	p.n, p.last = 0, nil
	if !r.stopped {
		p.timer = time.AfterFunc(r.every, func() { r.flush(msg) })
	}
}

// summary logs the line that ends an interval of repeats.
func (r *repeats) summary(msg string, p *repeat) {
	r.log.Log(context.Background(), p.level, msg, append(p.last, "repeated", p.n, "within", r.every.String())...)
}

// stop logs what is counted and not yet said, and stops the timers: the
// server is shutting down. What repeats after it is logged at once.
func (r *repeats) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	for msg, p := range r.pending {
		p.timer.Stop()
		if p.n > 0 {
			r.summary(msg, p)
		}
		delete(r.pending, msg)
	}
}
