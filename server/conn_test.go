package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chaturaji/chaturaji/server"
)

// dialFrom opens a TCP connection to the test server from a loopback
// address of the test's choice (Linux answers on all of 127.0.0.0/8), so
// that one test can be several clients.
func (ts *testServer) dialFrom(from string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
}

// metricsFrom reads the figures of /metrics named, asked from the address
// from on a connection of its own; a figure the page does not have is -1.
func (ts *testServer) metricsFrom(from string, names ...string) ([]float64, error) {
	c := &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return ts.dialFrom(from)
		},
	}}
	resp, err := c.Get(ts.URL + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	vs := make([]float64, len(names))
	for i, name := range names {
		vs[i] = -1
		if m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindSubmatch(page); m != nil {
			vs[i], _ = strconv.ParseFloat(string(m[1]), 64)
		}
	}
	return vs, nil
}

// waitMetrics waits until the figures of /metrics named are as ok wants,
// and fails the test if they do not get there.
func (ts *testServer) waitMetrics(from string, names []string, ok func(got []float64) bool) {
	ts.t.Helper()
	var got []float64
	var err error
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if got, err = ts.metricsFrom(from, names...); err == nil && ok(got) {
			return
		}
	}
	ts.t.Fatalf("%s = %v (%v), not as wanted", names, got, err)
}

// connMetrics are the figures of the connections: open, refused over the
// cap per client, refused over the total cap.
var connMetrics = []string{"chaturaji_connections", `chaturaji_connections_refused_total{cap="client"}`, `chaturaji_connections_refused_total{cap="total"}`}

// TestConnectionCaps opens connections from several addresses and checks
// which ones the listener keeps: at most MaxConnsPerClient from one
// client, any number from a trusted proxy, at most MaxConns in all; the
// others are closed at once and counted. The metrics are read from an
// address of their own, whose connection counts in the total.
func TestConnectionCaps(t *testing.T) {
	for _, tc := range []struct {
		name    string
		max     int
		proxies string
		opens   []string // the addresses connections come from, in order
		kept    int      // of those
		client  float64  // refused over the cap per client
		total   float64  // refused over the total cap
		share   float64  // ClientConnsShare; 0 for its default
	}{
		{name: "one client over its cap", max: 100, opens: rep("127.0.0.2", 5), kept: 3, client: 2},
		{name: "a second client has a cap of its own", max: 100, opens: append(rep("127.0.0.2", 4), rep("127.0.0.3", 4)...), kept: 6, client: 2},
		{name: "a trusted proxy is not capped as one client", max: 100, proxies: "127.0.0.2", opens: rep("127.0.0.2", 6), kept: 6},
		{name: "the total cap", max: 5, share: 1, opens: append(append(rep("127.0.0.2", 3), rep("127.0.0.3", 3)...), rep("127.0.0.4", 3)...), kept: 5, total: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxConns, cfg.MaxConnsPerClient, cfg.ClientConnsShare = tc.max, 3, tc.share
			if tc.proxies != "" {
				ps, err := netip.ParsePrefix(tc.proxies + "/32")
				if err != nil {
					t.Fatal(err)
				}
				cfg.TrustedProxies = []netip.Prefix{ps}
			}
			ts := newTestServer(t, cfg, nil)
			// Each connection asks for /healthz and keeps the connection
			// open: one kept is answered, one refused is closed at once.
			kept := 0
			var conns []net.Conn
			for _, from := range tc.opens {
				c, err := ts.dialFrom(from)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
				c.SetReadDeadline(time.Now().Add(10 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err == nil && resp.StatusCode == http.StatusOK {
					kept++
				} else if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
					t.Fatalf("connection from %s: %v, %v; want 200 or closed", from, resp.Status, err)
				}
			}
			if kept != tc.kept {
				t.Errorf("%d connections kept, want %d", kept, tc.kept)
			}
			for _, c := range conns {
				c.Close()
			}
			// Closed connections are counted gone; the scrape's own is
			// open while it runs. Under the total cap, a scrape may come
			// before the server has seen the others close, and be refused
			// too.
			ts.waitMetrics("127.0.0.9", connMetrics, func(got []float64) bool {
				return got[0] == 1 && got[1] == tc.client && (got[2] == tc.total || tc.total > 0 && got[2] > tc.total)
			})
		})
	}
}

// TestConnsShareOfTotal gives the server a total cap as a low limit of
// open files does (768 connections for 1024 files, here 8): one client,
// whatever its own cap was set to, holds at most ClientConnsShare of the
// total, so that another client is still served; a cap per client set
// above that share is lowered to it, with a warning.
func TestConnsShareOfTotal(t *testing.T) {
	for _, tc := range []struct {
		name      string
		perClient int     // MaxConnsPerClient; 0 for its default
		share     float64 // ClientConnsShare; 0 for its default
		kept      int     // of the first client's 8 connections
		warned    bool
	}{
		{name: "the default cap per client", kept: 2},
		{name: "a cap per client above the share", perClient: 100, kept: 2, warned: true},
		{name: "a cap per client within the share", perClient: 1, kept: 1},
		{name: "a share of a half", perClient: 100, share: 0.5, kept: 4, warned: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxConns, cfg.MaxConnsPerClient, cfg.ClientConnsShare = 8, tc.perClient, tc.share
			var logs lockedBuffer
			ts := newTestServerLogged(t, cfg, nil, slog.New(slog.NewTextHandler(&logs, nil)))
			var conns []net.Conn
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			kept := 0
			for range 8 {
				c, ok := healthzOn(t, ts, "127.0.0.2")
				conns = append(conns, c)
				if ok {
					kept++
				}
			}
			if kept != tc.kept {
				t.Errorf("one client kept %d connections of 8 with a total cap of 8, want %d", kept, tc.kept)
			}
			for i := range 8 {
				c, ok := healthzOn(t, ts, "127.0.0.3")
				conns = append(conns, c)
				if !ok && i < tc.kept {
					t.Errorf("another client's connection %d refused while the first holds %d", i+1, kept)
				}
			}
			const warning = `level=WARN msg="lowering the cap on connections per client to its share of the total" max_conns_per_client=100 max_conns=8`
			if got := strings.Contains(logs.String(), warning); got != tc.warned {
				t.Errorf("warned %v, want %v:\n%s", got, tc.warned, logs.String())
			}
		})
	}
}

// healthzOn opens a connection from the address from, asks it for /healthz
// and keeps it open: it reports whether the server answered 200 (it kept
// the connection) rather than closing it at once (over a cap).
func healthzOn(t *testing.T, ts *testServer, from string) (net.Conn, bool) {
	t.Helper()
	c, err := ts.dialFrom(from)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err == nil && resp.StatusCode == http.StatusOK {
		return c, true
	}
	if err == nil {
		t.Fatalf("connection from %s: %s; want 200 or closed", from, resp.Status)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("connection from %s: no answer in 10s; want 200 or closed", from)
	}
	return c, false
}

// TestHeaderLimit sends requests whose line and headers come to just
// within Config.MaxHeader and just over it: the first is answered, the
// second refused with 431, at the size the documentation gives, not 4 KiB
// past it (net/http's slack).
func TestHeaderLimit(t *testing.T) {
	for _, limit := range []int{16 << 10, 8 << 10} {
		cfg := testConfig()
		cfg.MaxHeader = limit
		ts := newTestServer(t, cfg, nil)
		for _, tc := range []struct {
			size   int // bytes of the request line and headers, the blank line included
			status int
		}{
			{limit - 1, http.StatusOK},
			{limit, http.StatusOK},
			{limit + 1, http.StatusRequestHeaderFieldsTooLarge},
			{limit + 2048, http.StatusRequestHeaderFieldsTooLarge},
		} {
			head := "GET /healthz HTTP/1.1\r\nHost: test\r\nX-Pad: "
			end := "\r\n\r\n"
			req := head + strings.Repeat("a", tc.size-len(head)-len(end)) + end
			if len(req) != tc.size {
				t.Fatalf("the request is %d bytes, not %d", len(req), tc.size)
			}
			c, err := ts.dialFrom("127.0.0.2")
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(c, req)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			c.Close()
			if err != nil {
				t.Fatalf("MaxHeader %d, a head of %d bytes: no answer: %v", limit, tc.size, err)
			}
			if resp.StatusCode != tc.status {
				t.Errorf("MaxHeader %d, a head of %d bytes: %s, want %d", limit, tc.size, resp.Status, tc.status)
			}
		}
	}
}

// rep is n copies of s.
func rep(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestSlowBody sends the body of a request slowly: one that arrives
// within Config.BodyTimeout is served, and one that does not is answered
// 408 ETIMEOUT at its deadline, while its client is still sending, and its
// connection closed.
func TestSlowBody(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout = 500 * time.Millisecond
	ts := newTestServer(t, cfg, nil)
	body := `{"rules": "chaturaji", "seats": ["human", "human", "human", "human"]}`
	for _, tc := range []struct {
		name   string
		pause  time.Duration // between two bytes
		status int
	}{
		{"in time", 0, http.StatusCreated},
		{"a byte every 100ms", 100 * time.Millisecond, http.StatusRequestTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ts.dialFrom("127.0.0.2")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
			sent := make(chan int, 1)
			go func() {
				n := 0
				for ; n < len(body); n++ {
					if _, err := c.Write([]byte{body[n]}); err != nil {
						break
					}
					time.Sleep(tc.pause)
				}
				sent <- n
			}()
			c.SetReadDeadline(time.Now().Add(time.Duration(len(body)+50) * max(tc.pause, 10*time.Millisecond)))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("answer %s %s, want %d", resp.Status, got, tc.status)
			}
			if tc.status != http.StatusRequestTimeout {
				return
			}
			wantError(t, resp.StatusCode, got, http.StatusRequestTimeout, "ETIMEOUT")
			if !strings.Contains(string(got), "did not arrive within 500ms") {
				t.Errorf("answer %s, want it to say the body came too late", got)
			}
			select {
			case n := <-sent:
				t.Errorf("the answer came after the whole body (%d bytes) was sent", n)
			default:
			}
			if _, err := c.Read(make([]byte, 1)); err == nil {
				t.Errorf("the connection is still open after the answer")
			}
		})
	}
}

// TestWebSocketOutlivesDeadlines keeps WebSockets open well past the
// deadlines of a request's body and answer and plays a whole game on
// them: an accepted WebSocket is spared those deadlines.
func TestWebSocketOutlivesDeadlines(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout, cfg.ResponseTimeout = 100*time.Millisecond, 200*time.Millisecond
	ts := newTestServer(t, cfg, nil)
	g := ts.create(fourHumans)
	players := make([]*client, len(g.Seats))
	for i, s := range g.Seats {
		players[i] = ts.dial(g.ID, s.Token, 0)
	}
	time.Sleep(600 * time.Millisecond)
	errs := make(chan error, len(players))
	for i, p := range players {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		go func() { errs <- p.playUntilOver(rng) }()
	}
	for range players {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestStalledReader has a client stop reading a WebSocket while the
// server writes to it: the server drops it once a write has waited
// WriteTimeout. The socket buffers on both sides are made small, so that
// a finished game's events (some hundreds) fill them.
func TestStalledReader(t *testing.T) {
	cfg := testConfig()
	cfg.WriteTimeout = 300 * time.Millisecond
	st := openStore(t, "")
	srv := server.New(cfg, st, nil)
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = srv.HTTPServer(srv.Handler())
	hs.Listener = srv.Listener(smallSendBuffers{hs.Listener})
	hs.Start()
	ts := &testServer{t: t, srv: srv, http: hs, store: st, URL: hs.URL}
	t.Cleanup(ts.stop)

	g := ts.create(`{"seats": ["bot:random", "bot:greedy", "bot:random", "bot:greedy"]}`)
	ts.waitState(g.ID, 60*time.Second, func(s *server.State) bool { return s.Status == "finished" })
	d := &net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048)
		})
	}}
	conn, _, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.ID+"/ws",
		&websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	ts.waitMetrics("127.0.0.1", []string{"chaturaji_ws_connections"}, func(got []float64) bool { return got[0] == 0 })
}

// smallSendBuffers is a listener whose connections have a send buffer of
// 4 KiB.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}
