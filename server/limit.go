package server

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// bucket is a token bucket: it holds up to burst tokens, refills at rate
// tokens a second, and each message or request takes one.
type bucket struct {
	tokens float64
	last   time.Time
}

// allow takes a token if there is one.
func (b *bucket) allow(now time.Time, rate float64, burst int) bool {
	if b.last.IsZero() {
		b.tokens = float64(burst)
	} else {
		b.tokens += now.Sub(b.last).Seconds() * rate
		if b.tokens > float64(burst) {
			b.tokens = float64(burst)
		}
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// addrLimiter keeps a token bucket for each client address.
type addrLimiter struct {
	rate  float64
	burst int
	mu    sync.Mutex
	addrs map[string]*bucket
}

func newAddrLimiter(rate float64, burst int) *addrLimiter {
	return &addrLimiter{rate: rate, burst: burst, addrs: make(map[string]*bucket)}
}

// clientAddr returns the address a request comes from, without its port.
func clientAddr(r *http.Request) string {
	addr, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return addr
}

// allow takes a token from the bucket of the request's client address.
func (l *addrLimiter) allow(r *http.Request, now time.Time) bool {
	addr := clientAddr(r)
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.addrs[addr]
	if b == nil {
		b = new(bucket)
		l.addrs[addr] = b
	}
	return b.allow(now, l.rate, l.burst)
}

// sweep forgets the buckets that have been full for a while: they would
// allow as much as new ones.
func (l *addrLimiter) sweep(now time.Time) {
	full := time.Duration(float64(l.burst)/l.rate*float64(time.Second)) + time.Minute
	l.mu.Lock()
	defer l.mu.Unlock()
	for a, b := range l.addrs {
		if now.Sub(b.last) > full {
			delete(l.addrs, a)
		}
	}
}

// connCounter counts the WebSockets open from each client address, so
// that no one address can hold more than its share of the server.
type connCounter struct {
	max   int
	mu    sync.Mutex
	addrs map[string]int
}

func newConnCounter(max int) *connCounter {
	return &connCounter{max: max, addrs: make(map[string]int)}
}

// open counts one more connection from addr, if it is under the limit.
func (c *connCounter) open(addr string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addrs[addr] >= c.max {
		return false
	}
	c.addrs[addr]++
	return true
}

// close counts a connection from addr gone.
func (c *connCounter) close(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addrs[addr]--; c.addrs[addr] <= 0 {
		delete(c.addrs, addr)
	}
}
