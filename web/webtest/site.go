// Package webtest runs the web client for tests and screenshots: a game
// server on a fresh SQLite store with the web handler beside it on one
// local HTTP server (the API under /api/, the pages everywhere else), and a
// headless Chromium driven with chromedp.
package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/sqlite" // the store of the site
	"github.com/chaturaji/chaturaji/web"
)

// Config is a server configuration for tests: fast bots, short times, no
// rate limits in the way.
func Config() server.Config {
	return server.Config{
		BotTime:      20 * time.Millisecond,
		MessageRate:  1000,
		MessageBurst: 1000,
		RequestRate:  10000,
		RequestBurst: 10000,
		MinTime:      10 * time.Millisecond,
		PingInterval: 5 * time.Second,
	}
}

// Site is a game server and the web client on one local HTTP server, as the
// binary mounts them. Its address goes through a Proxy, so that a test can
// cut the network between the browser and the site.
type Site struct {
	URL    string // the address browsers use (through the proxy)
	Direct string // the server's own address
	Server *server.Server
	Store  store.Store
	Proxy  *Proxy
	http   *httptest.Server
}

// NewSite starts a site whose store lives in dir.
func NewSite(dir string, cfg server.Config) (*Site, error) {
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(dir, "games.db"))
	if err != nil {
		return nil, err
	}
	srv := server.New(cfg, st, nil)
	if err := srv.Start(context.Background()); err != nil {
		st.Close()
		return nil, err
	}
	hs := httptest.NewServer(web.Mount(srv.Handler(), web.Options{AnalyzeTime: time.Second}))
	px, err := NewProxy(hs.Listener.Addr().String())
	if err != nil {
		hs.Close()
		st.Close()
		return nil, err
	}
	return &Site{URL: "http://" + px.Addr(), Direct: hs.URL, Server: srv, Store: st, Proxy: px, http: hs}, nil
}

// Close stops the site.
func (s *Site) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.Server.Shutdown(ctx)
	s.Proxy.Close()
	s.http.Close()
	s.Store.Close()
}

// Create starts a game through the API.
func (s *Site) Create(ng server.NewGame) (*server.Created, error) {
	var c server.Created
	if err := s.call("POST", "/api/games", "", ng, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// State reads a game's state through the API.
func (s *Site) State(id string) (*server.State, error) {
	var st server.State
	err := s.call("GET", "/api/games/"+id, "", nil, &st)
	return &st, err
}

// Act plays an action for the seat that token opens.
func (s *Site) Act(id, token, action string) error {
	return s.call("POST", "/api/games/"+id+"/actions", token, server.Message{Action: action}, nil)
}

func (s *Site) call(method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.Direct+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Proxy forwards TCP connections to an address, and can cut them all and
// refuse new ones for a while, as a network failure would.
type Proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	conns map[net.Conn]bool
	down  bool
}

// NewProxy listens on a local port and forwards to target.
func NewProxy(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	return p, nil
}

// Addr is the proxy's address.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		go p.forward(c)
	}
}

func (p *Proxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[up] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// Cut closes every connection and refuses new ones until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
}

// Restore accepts connections again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

// Close stops the proxy.
func (p *Proxy) Close() {
	p.ln.Close()
	p.Cut()
}
