package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"
)

// The connection layer: what a client can hold of the server before any
// request is served. Listener caps the connections open at once, in all
// and from each client; HTTPServer bounds the time a request's headers,
// its answer and a kept-alive connection's silence may take; the front
// door bounds its body's (deadlines). A client that sends slowly or not at
// all (slowloris) so holds a file descriptor for a bounded time, and only
// its share of them.

// HTTPServer returns the http.Server that serves h with the server's
// connection settings: Config.HeaderTimeout, ResponseTimeout (its
// WriteTimeout), IdleTimeout and MaxHeader. Serve it on a Listener.
//
// A WebSocket outlives those deadlines: net/http lifts them from a
// connection a handler hijacks, and the WebSocket's pings and write
// timeouts bound it from then on. The body's deadline is the front
// door's (deadlines), not a ReadTimeout: a ReadTimeout passing after the
// body has arrived cancels the request still at work, and answers
// nothing.
func (s *Server) HTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: s.cfg.HeaderTimeout,
		WriteTimeout:      s.cfg.ResponseTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes(s.cfg.MaxHeader),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, netConnKey{}, c)
		},
		// net/http's own complaints (a client's malformed request, a
		// handshake cut short) say nothing an operator can act on;
		// Listener warns of what they can.
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
}

// headerSlack is what net/http reads of a request's head beyond
// http.Server.MaxHeaderBytes before it answers 431: it allows 4096 bytes
// more (its bufio slack).
const headerSlack = 4096

// maxHeaderBytes is the http.Server.MaxHeaderBytes under which net/http
// answers 431 to a request whose line and headers are over limit bytes,
// not limit + 4096: at least 1, so that the least limit enforced is 4097.
func maxHeaderBytes(limit int) int {
	return max(limit-headerSlack, 1)
}

type netConnKey struct{}

// connOf returns the connection of a request that HTTPServer serves, nil
// for another.
func connOf(r *http.Request) net.Conn {
	c, _ := r.Context().Value(netConnKey{}).(net.Conn)
	return c
}

// deadlines bounds a request's body, at the front door: it must arrive
// within Config.BodyTimeout of the headers, else reading it fails and the
// answer is ETIMEOUT. A request without a body, or served without a
// connection (httptest.ResponseRecorder), has no deadline to set.
func (s *Server) deadlines(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout)) == nil {
		r.Body = &timedBody{ReadCloser: r.Body, rc: rc, timeout: s.cfg.BodyTimeout}
	}
}

// timedBody is a request's body under its deadline.
type timedBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	timeout time.Duration
}

// Read reads the body. Once it is all read the deadline is lifted: net/http
// then watches the connection for the client going away, and a deadline
// passing there would cancel a request still at work. A read cut by the
// deadline fails with a BodyTimeoutError.
func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.rc.SetReadDeadline(time.Time{})
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = &BodyTimeoutError{Timeout: b.timeout}
	}
	return n, err
}

// BodyTimeoutError is the error of reading a request's body past its
// deadline, Config.BodyTimeout after its headers.
type BodyTimeoutError struct {
	Timeout time.Duration // Config.BodyTimeout
}

// Error says what happened, as a client is told.
func (e *BodyTimeoutError) Error() string {
	return fmt.Sprintf("the body did not arrive within %v of the headers: send it at once", e.Timeout)
}

// Is makes a BodyTimeoutError an os.ErrDeadlineExceeded.
func (e *BodyTimeoutError) Is(target error) bool {
	return target == os.ErrDeadlineExceeded
}

// defaultMaxConns is Config.MaxConns' default: 10000, or three quarters of
// the process's limit of open files if that is lower.
func defaultMaxConns() int {
	n := 10000
	if lim := openFilesLimit(); lim > 0 {
		n = min(n, max(lim*3/4, 1))
	}
	return n
}
