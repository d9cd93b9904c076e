// Package webtest runs the web client for tests and screenshots: a game
// server on a fresh SQLite store with the web handler beside it on one
// local HTTP server (the API under /api/, the pages everywhere else), a
// client of the API that plays games to the situations a test needs (API),
// and a headless Chromium driven with chromedp.
package webtest

import (
	"context"
	"crypto/ed25519"
	"io"
	"net"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/chaturaji/chaturaji/server"
	"github.com/chaturaji/chaturaji/store"
	_ "github.com/chaturaji/chaturaji/store/sqlite" // the store of the site
	"github.com/chaturaji/chaturaji/web"
)

// Config is a server configuration for tests: fast bots that play at once
// (no bot delay), short times, no
// rate limits in the way, and a new key that signs the records.
func Config() server.Config {
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		panic("webtest: " + err.Error())
	}
	return server.Config{
		SigningKey:   key,
		BotTime:      20 * time.Millisecond,
		BotDelay:     server.NoBotDelay,
		MessageRate:  1000,
		MessageBurst: 1000,
		RequestRate:  10000,
		RequestBurst: 10000,
		CostlyRate:   10000,
		CostlyBurst:  10000,
		AccountRate:  10000,
		AccountBurst: 10000,
		MinTime:      10 * time.Millisecond,
		PingInterval: 5 * time.Second,
	}
}

// Site is a game server and the web client on one local HTTP server, as the
// binary mounts them. Its address goes through a Proxy, so that a test can
// cut the network between the browser and the site.
type Site struct {
	API        // the server's own address, for the test's own requests
	URL string // the address browsers use (through the proxy)
	// Local is URL by the name "localhost": passkeys work there (the
	// relying party of the server's accounts is "localhost", since
	// WebAuthn takes no IP address for one), and nowhere else.
	Local  string
	Server *server.Server // the game server
	Store  store.Store    // its SQLite store
	Proxy  *Proxy         // stands between browsers and the site
	http   *httptest.Server
}

// NewSite starts a site whose store lives in dir. Unless cfg names a
// relying party for passkeys, it is "localhost" at the proxy's port
// (Site.Local).
func NewSite(dir string, cfg server.Config) (*Site, error) {
	return NewSiteWith(dir, cfg, web.Options{AnalyzeTime: time.Second})
}

// NewSiteWith is NewSite with the web client's options: a smaller budget
// for its reviews, say.
func NewSiteWith(dir string, cfg server.Config, opts web.Options) (*Site, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	local := "http://localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	if cfg.Accounts.RPID == "" {
		cfg.Accounts.RPID = "localhost"
		cfg.Accounts.RPOrigins = []string{local}
	}
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(dir, "games.db"))
	if err != nil {
		ln.Close()
		return nil, err
	}
	srv := server.New(cfg, st, nil)
	if err := srv.Start(context.Background()); err != nil {
		ln.Close()
		st.Close()
		return nil, err
	}
	hs := httptest.NewServer(web.Mount(srv, opts))
	px := proxyOn(ln, hs.Listener.Addr().String())
	return &Site{API: API{Base: hs.URL}, URL: "http://" + px.Addr(), Local: local, Server: srv, Store: st, Proxy: px, http: hs}, nil
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
	return proxyOn(ln, target), nil
}

// proxyOn forwards the connections ln accepts to target.
func proxyOn(ln net.Listener, target string) *Proxy {
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	return p
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
