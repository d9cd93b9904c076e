package server

import (
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// warnInterval is the shortest time between two warnings of the same kind
// about connections, so that a flood of them cannot flood the log.
const warnInterval = 10 * time.Second

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
