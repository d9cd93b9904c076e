package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// The connection layer: what a client can hold of the server before any
// request is served. Listener caps the connections open at once, in all
// and from each client; HTTPServer bounds the time a request's headers,
// its answer and a kept-alive connection's silence may take; the front
// door bounds its body's (deadlines). A client that sends slowly or not at
// all (slowloris) so holds a file descriptor for a bounded time, and only
// its share of them.

// warnInterval is the shortest time between two warnings of the same kind
// about connections, so that a flood of them cannot flood the log.
const warnInterval = 10 * time.Second

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
		MaxHeaderBytes:    s.cfg.MaxHeader,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, netConnKey{}, c)
		},
		// net/http's own complaints (a client's malformed request, a
		// handshake cut short) say nothing an operator can act on;
		// Listener warns of what they can.
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
}

type netConnKey struct{}

// connOf returns the connection of a request that HTTPServer serves, nil
// for another.
func connOf(r *http.Request) net.Conn {
	c, _ := r.Context().Value(netConnKey{}).(net.Conn)
	return c
}

// Listener returns ln capped: it holds at most Config.MaxConns
// connections open at once, and at most Config.MaxConnsPerClient from one
// client (its address, as the budgets tell clients apart; a trusted proxy
// counts only in the total). A connection past a cap is closed as soon as
// it is accepted, counted in chaturaji_connections_refused_total and
// warned of in the log. A failure to accept (such as EMFILE, out of file
// descriptors) is warned of too, and returned as it is: http.Server waits
// and tries again after a temporary one. Warnings of each kind come at
// most every 10 seconds, with the number held back.
func (s *Server) Listener(ln net.Listener) net.Listener {
	l := &listener{Listener: ln, srv: s, clients: make(map[client]int)}
	l.refusals.warn = rate.Sometimes{Interval: warnInterval}
	l.failures.warn = rate.Sometimes{Interval: warnInterval}
	return l
}

// listener is a Listener.
type listener struct {
	net.Listener
	srv *Server

	mu      sync.Mutex
	open    int            // connections open
	clients map[client]int // connections open by client, trusted proxies left out

	refusals, failures warning
}

// warning is a warning logged at most every warnInterval, with the number
// of its occurrences since the last one logged.
type warning struct {
	warn rate.Sometimes
	n    atomic.Int64
}

// log counts one occurrence and logs it if it is time to.
func (w *warning) log(log *slog.Logger, msg string, args ...any) {
	w.n.Add(1)
	w.warn.Do(func() {
		log.Warn(msg, append(args, "count", w.n.Swap(0))...)
	})
}

// Accept waits for the next connection within the caps.
func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				l.srv.metrics.acceptErrors.Inc()
				l.failures.log(l.srv.log, "accepting connections failed; trying again", "err", err)
			}
			return nil, err
		}
		cl, perClient := l.clientOf(c)
		if why := l.admit(cl, perClient); why != "" {
			c.Close()
			l.srv.metrics.connsRefused.WithLabelValues(why).Inc()
			l.refusals.log(l.srv.log, "refusing connections over the cap",
				"cap", why, "client", cl, "max_conns", l.srv.cfg.MaxConns, "max_conns_per_client", l.srv.cfg.MaxConnsPerClient)
			continue
		}
		l.srv.metrics.conns.Inc()
		return &capped{Conn: c, l: l, client: cl, perClient: perClient}, nil
	}
}

// clientOf returns the client of a connection and whether the cap per
// client applies to it: not to a trusted proxy, whose connections carry
// many clients.
func (l *listener) clientOf(c net.Conn) (client, bool) {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return client{}, false
	}
	a := ap.Addr().Unmap().WithZone("")
	if isTrusted(a, l.srv.cfg.TrustedProxies) {
		return clientOfAddr(a), false
	}
	return clientOfAddr(a), true
}

// admit counts a new connection if it is within the caps, and otherwise
// returns which cap it is over: "total" or "client".
func (l *listener) admit(c client, perClient bool) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.srv.cfg.MaxConns {
		return "total"
	}
	if perClient && l.clients[c] >= l.srv.cfg.MaxConnsPerClient {
		return "client"
	}
	l.open++
	if perClient {
		l.clients[c]++
	}
	return ""
}

// release counts a connection gone.
func (l *listener) release(c client, perClient bool) {
	l.mu.Lock()
	l.open--
	if perClient {
		if l.clients[c]--; l.clients[c] <= 0 {
			delete(l.clients, c)
		}
	}
	l.mu.Unlock()
	l.srv.metrics.conns.Dec()
}

// capped is a connection the listener counts until it is closed, hijacked
// by a WebSocket or not. Its writes can be held and sent in one (cork).
type capped struct {
	net.Conn
	l         *listener
	client    client
	perClient bool
	once      sync.Once

	wmu    sync.Mutex
	corked bool
	held   *[]byte // the writes held while corked, from heldBuffers
}

// Close closes the connection and counts it gone, once.
func (c *capped) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.client, c.perClient) })
	return err
}

// heldBuffers are the buffers of corked connections, shared so that an
// idle connection holds none.
var heldBuffers = sync.Pool{New: func() any { return new([]byte) }}

// Write writes p, or holds it if the connection is corked.
func (c *capped) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.corked {
		*c.held = append(*c.held, p...)
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// cork holds the connection's writes until uncork. A WebSocket sends each
// message with a write of its own, and the events of one action, two or
// three, would cost each subscriber as many system calls and packets: on
// loopback, where sending a packet also receives it, the server's largest
// cost under load.
func (c *capped) cork() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.corked {
		c.corked, c.held = true, heldBuffers.Get().(*[]byte)
	}
}

// uncork sends the writes held, in one, and writes at once from then on.
func (c *capped) uncork() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.corked {
		return nil
	}
	var err error
	if len(*c.held) > 0 {
		_, err = c.Conn.Write(*c.held)
	}
	*c.held = (*c.held)[:0]
	if cap(*c.held) <= 64<<10 {
		heldBuffers.Put(c.held)
	}
	c.corked, c.held = false, nil
	return err
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
