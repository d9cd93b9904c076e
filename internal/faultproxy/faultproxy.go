// Package faultproxy is a TCP proxy for tests that puts the faults of a
// network between a client and its server: it forwards every byte both
// ways until told to drop what the server sends, as a link that fails
// one way, a failover or a NAT that forgets its mappings would. The
// client's requests still reach the server, which acts on them, but the
// client never hears the answers; when the fault ends, the connections
// that lost an answer are cut, as the client's TCP stack would in the end
// find them dead, and the client has to guess what happened. That is the
// ambiguous commit of a database: done, but not known to be.
//
// A Proxy listens on a loopback port of its own:
//
//	p, err := faultproxy.New("127.0.0.1:5432")
//	... connect the client to p.Addr() ...
//	p.DropReplies()
//	time.Sleep(time.Second)
//	cut := p.Restore()
package faultproxy

import (
	"io"
	"net"
	"sync"
)

// Proxy forwards TCP connections from its own address to a target.
type Proxy struct {
	ln     net.Listener
	target string

	mu       sync.Mutex
	conns    map[*pair]struct{}
	dropping bool
	closed   bool
	wg       sync.WaitGroup
}

// pair is one client's connection and the proxy's to the target.
type pair struct {
	client, server net.Conn
	lost           bool // an answer of the server was dropped (guarded by Proxy.mu)
}

// New starts a proxy on a free loopback port that forwards to target
// (host:port).
func New(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: make(map[*pair]struct{})}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr returns the proxy's address, host:port, for the client to dial.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// DropReplies makes the proxy drop, from now on, everything the target
// sends on every connection, old and new, while it still forwards what
// the clients send.
func (p *Proxy) DropReplies() {
	p.mu.Lock()
	p.dropping = true
	p.mu.Unlock()
}

// Restore ends DropReplies: the connections that lost part of an answer
// are cut (their stream cannot go on), the others forward again. It
// returns how many it cut.
func (p *Proxy) Restore() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dropping = false
	cut := 0
	for c := range p.conns {
		if c.lost {
			c.client.Close()
			c.server.Close()
			delete(p.conns, c)
			cut++
		}
	}
	return cut
}

// Close stops the proxy and cuts every connection.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.client.Close()
		c.server.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

// accept takes the clients' connections until the proxy closes.
func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			continue
		}
		c := &pair{client: client, server: server}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			client.Close()
			server.Close()
			return
		}
		p.conns[c] = struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		go p.up(c)
		go p.down(c)
	}
}

// up forwards what the client sends, always.
func (p *Proxy) up(c *pair) {
	defer p.wg.Done()
	io.Copy(c.server, c.client)
	p.drop(c)
}

// down forwards what the server sends, unless the proxy drops it.
func (p *Proxy) down(c *pair) {
	defer p.wg.Done()
	defer p.drop(c)
	buf := make([]byte, 32<<10)
	for {
		n, err := c.server.Read(buf)
		if n > 0 {
			p.mu.Lock()
			dropping := p.dropping
			if dropping {
				c.lost = true
			}
			p.mu.Unlock()
			if !dropping {
				if _, werr := c.client.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// drop closes both sides of a connection that ended.
func (p *Proxy) drop(c *pair) {
	c.client.Close()
	c.server.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}
