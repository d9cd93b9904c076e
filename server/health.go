package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Health. GET /healthz is liveness: the process serves requests. GET
// /readyz is readiness: the database answers and accepts writes, which a
// load balancer should know before it sends players here. The server
// learns it from its heartbeat, a small write it makes every
// Config.Heartbeat (heartbeat.go's other use is downtime.go's), and from
// the games' own writes: a database that takes the heartbeat but refuses
// the games' events (a full disk with room for a row update) is not ready
// either.

// health is what the server knows of its database: the last heartbeat and
// how the games' writes went.
type health struct {
	mu       sync.Mutex
	checked  time.Time     // when the last heartbeat ended; zero before the first
	err      error         // its error
	checking chan struct{} // closed when the heartbeat under way ends; nil if none

	okAt   atomic.Int64 // when a game's write last went through, Unix ns
	failAt atomic.Int64 // when a game's write last failed, Unix ns

	// The database's outage as the server knows it, for the clocks
	// (downtime.go): upAt is when any write (the heartbeat, a game's) last
	// went through, downAt since when the database fails, zero while it
	// answers. Both Unix ns.
	upAt   atomic.Int64
	downAt atomic.Int64
}

// outageSince returns since when the database fails, as far as the server
// knows; zero if it answers.
func (h *health) outageSince() time.Time {
	if at := h.downAt.Load(); at != 0 {
		return time.Unix(0, at)
	}
	return time.Time{}
}

// wrote notes how a game's write to the store went.
func (h *health) wrote(err error) {
	now := time.Now().UnixNano()
	if err != nil {
		h.failAt.Store(now)
		return
	}
	if h.okAt.Load() < now {
		h.okAt.Store(now)
	}
}

// writesFailing reports whether the games' last write failed, less than
// window ago (games retry at least that often while they fail), with none
// gone through since.
func (h *health) writesFailing(now time.Time, window time.Duration) bool {
	fail := h.failAt.Load()
	return fail > h.okAt.Load() && now.UnixNano()-fail < int64(window)
}

// storeFailed counts and logs a failed operation of the store for game id
// (once an interval for all games: repeats); a failed write also tells
// readiness.
func (s *Server) storeFailed(op, what, id string, err error) {
	s.metrics.storeFailures.WithLabelValues(op).Inc()
	if op != opRead && op != opList {
		s.wrote(err)
	}
	s.repeats.Error(what, "game", id, "err", err)
}

// wrote notes how a game's write to the store went, for readiness and for
// the database's outage (outage).
func (s *Server) wrote(err error) {
	s.health.wrote(err)
	s.outage(err, true)
}

// outage notes how a write to the store went (a game's, or the
// heartbeat) for the outage it begins or ends. An outage is dated from the
// last write that went through before it, or a heartbeat's interval before
// the first that failed, whichever is later: that is when the database
// stopped answering, as far as the server can know. It ends when a game's
// write goes through, or the heartbeat's while the games' writes are not
// failing (a full disk may take the heartbeat's small update and refuse
// the games' events). When it ends, every game is told, so that each open
// decision gets its time back (downtime.go).
func (s *Server) outage(err error, game bool) {
	h := &s.health
	now := time.Now()
	if err != nil {
		since := max(h.upAt.Load(), now.Add(-s.cfg.Heartbeat).UnixNano())
		h.downAt.CompareAndSwap(0, since)
		return
	}
	if !game && h.writesFailing(now, 2*s.cfg.RetryMax) {
		return
	}
	h.upAt.Store(now.UnixNano())
	if h.downAt.Load() == 0 {
		return
	}
	if since := h.downAt.Swap(0); since != 0 {
		s.outageOver(time.Unix(0, since), now)
	}
}

// heartbeat writes the heartbeat every Config.Heartbeat until the server
// shuts down.
func (s *Server) heartbeat() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.Heartbeat)
	defer t.Stop()
	for {
		s.beat()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// beat writes one heartbeat, unless one is under way, and returns its
// error: the store's Heartbeat within Config.ReadyTimeout.
func (s *Server) beat() error {
	h := &s.health
	h.mu.Lock()
	if wait := h.checking; wait != nil {
		h.mu.Unlock()
		<-wait
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.err
	}
	done := make(chan struct{})
	h.checking = done
	h.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ReadyTimeout)
	err := s.store.Heartbeat(ctx, time.Now())
	cancel()
	if err != nil {
		s.metrics.storeFailures.WithLabelValues(opHeartbeat).Inc()
		s.repeats.Error("heartbeat: the database does not take a write", "err", err)
	}
	s.outage(err, false)

	h.mu.Lock()
	h.checked, h.err, h.checking = time.Now(), err, nil
	h.mu.Unlock()
	close(done)
	if err == nil && !h.writesFailing(time.Now(), 2*s.cfg.RetryMax) {
		s.metrics.ready.Set(1)
	} else {
		s.metrics.ready.Set(0)
	}
	return err
}

// readiness says why the server is not ready, "" if it is: the last
// heartbeat, if younger than Config.Heartbeat, else a new one; then the
// games' writes.
func (s *Server) readiness() string {
	if s.shuttingDown() {
		return "shutting down"
	}
	h := &s.health
	h.mu.Lock()
	fresh, err := time.Since(h.checked) < s.cfg.Heartbeat && h.checking == nil, h.err
	h.mu.Unlock()
	if !fresh {
		err = s.beat()
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the database did not take a write within " + s.cfg.ReadyTimeout.String()
	case err != nil:
		return "the database refused a write (the server's log says why)"
	case h.writesFailing(time.Now(), 2*s.cfg.RetryMax):
		return "the database refuses the games' writes (the server's log says why)"
	}
	return ""
}

// Readiness is the answer of GET /readyz.
type Readiness struct {
	Ready  bool   `json:"ready"`            // the database answers and accepts writes
	Reason string `json:"reason,omitempty"` // why not, if not
}

// handleReady is GET /readyz: 200 {"ready": true} if the database answers
// and accepts writes, 503 {"ready": false, "reason": ...} if not.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if why := s.readiness(); why != "" {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, Readiness{Reason: why})
		return
	}
	writeJSON(w, http.StatusOK, Readiness{Ready: true})
}

// handleHealth is GET /healthz, liveness: 200 "ok" while the server runs,
// whatever its database does (GET /readyz tells that), 503 once it is
// shutting down.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.shuttingDown() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "shutting down\n")
		return
	}
	io.WriteString(w, "ok\n")
}
