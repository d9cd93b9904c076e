package server_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"testing"

	"github.com/chaturaji/chaturaji/server"
)

// peer is an HTTP client whose connections come from one loopback
// address, such as 127.0.0.2: to the server, a machine of its own.
type peer struct {
	ts   *testServer
	http *http.Client
}

// from returns a peer connecting from addr.
func (ts *testServer) from(addr string) *peer {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}
	tr := &http.Transport{DialContext: d.DialContext}
	ts.t.Cleanup(tr.CloseIdleConnections)
	return &peer{ts: ts, http: &http.Client{Transport: tr}}
}

// do sends a request with the given header fields (name, value, ...) and
// returns the answer's status, body and header.
func (p *peer) do(method, path string, header ...string) (int, []byte, http.Header) {
	t := p.ts.t
	t.Helper()
	req, err := http.NewRequest(method, p.ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := p.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b, resp.Header
}

// TestCostlyLimit checks that a client over its budget of costly requests
// is refused them, with the time to wait, while another client is served
// and its own cheaper requests go on.
func TestCostlyLimit(t *testing.T) {
	cfg := testConfig()
	cfg.CostlyRate, cfg.CostlyBurst = 0.01, 3
	ts := newTestServer(t, cfg, nil)
	a, b := ts.from("127.0.0.1"), ts.from("127.0.0.2")
	for i := range 3 {
		if status, body, _ := a.do("GET", "/api/records"); status != http.StatusOK {
			t.Fatalf("costly request %d of the budget: %d %s", i+1, status, body)
		}
	}
	status, body, h := a.do("GET", "/api/records")
	wantError(t, status, body, http.StatusTooManyRequests, server.ETOOMANY)
	if s, err := strconv.Atoi(h.Get("Retry-After")); err != nil || s < 90 || s > 100 {
		t.Errorf("Retry-After %q, want the 100s a token takes", h.Get("Retry-After"))
	}
	// Every costly route draws on the same budget.
	status, body, _ = a.do("POST", "/api/games", "Content-Type", "application/json")
	wantError(t, status, body, http.StatusTooManyRequests, server.ETOOMANY)
	if status, body, _ := b.do("GET", "/api/records"); status != http.StatusOK {
		t.Errorf("another client's costly request: %d %s", status, body)
	}
	if status, body, _ := a.do("GET", "/api/games"); status != http.StatusOK {
		t.Errorf("a general request of the client out of costly ones: %d %s", status, body)
	}
}

// TestCheapRoutesLimited checks that /healthz and /metrics draw on the
// general budget too.
func TestCheapRoutesLimited(t *testing.T) {
	cfg := testConfig()
	cfg.RequestRate, cfg.RequestBurst = 0.01, 4
	ts := newTestServer(t, cfg, nil)
	a := ts.from("127.0.0.1")
	for _, path := range []string{"/healthz", "/metrics", "/healthz", "/metrics"} {
		if status, _, _ := a.do("GET", path); status != http.StatusOK {
			t.Fatalf("GET %s within the budget: %d", path, status)
		}
	}
	for _, path := range []string{"/healthz", "/metrics"} {
		status, body, _ := a.do("GET", path)
		wantError(t, status, body, http.StatusTooManyRequests, server.ETOOMANY)
	}
}

// TestForwardedFor checks whose budget a request draws on: X-Forwarded-For
// is believed from a trusted proxy only, and from it only up to the first
// hop that is not a trusted proxy; IPv6 clients count by /64.
func TestForwardedFor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		peer    string   // where the requests come from; 127.0.0.1 is the trusted proxy
		forward []string // each request's X-Forwarded-For
		refused int      // the first request refused (1-based), 0 for none; the budget is 2
	}{
		{"an untrusted peer's header is ignored", "127.0.0.2",
			[]string{"198.51.100.1", "198.51.100.2", "198.51.100.3"}, 3},
		{"behind the proxy, each client has its own budget", "127.0.0.1",
			[]string{"203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"}, 0},
		{"behind the proxy, one client has one budget", "127.0.0.1",
			[]string{"203.0.113.1", "203.0.113.1", "203.0.113.1"}, 3},
		{"entries a client wrote itself are not believed", "127.0.0.1",
			[]string{"10.9.9.1, 203.0.113.9", "10.9.9.2, 203.0.113.9", "10.9.9.3, 203.0.113.9"}, 3},
		{"trusted hops are skipped", "127.0.0.1",
			[]string{"203.0.113.5, 127.0.0.1", "203.0.113.6, 127.0.0.1", "203.0.113.7,127.0.0.1"}, 0},
		{"an IPv6 /64 is one client", "127.0.0.1",
			[]string{"2001:db8:1:2::1", "2001:db8:1:2::ffff", "2001:db8:1:2:abcd::7"}, 3},
		{"IPv6 networks apart are clients apart", "127.0.0.1",
			[]string{"2001:db8:1:2::1", "2001:db8:1:3::1", "2001:db8:1:4::1"}, 0},
		{"garbage stops at the proxy", "127.0.0.1",
			[]string{"not an address", "203.0.113.1, nonsense", "<script>"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.RequestRate, cfg.RequestBurst = 0.01, 2
			cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
			ts := newTestServer(t, cfg, nil)
			p := ts.from(tc.peer)
			refused := 0
			for i, xff := range tc.forward {
				status, _, _ := p.do("GET", "/healthz", "X-Forwarded-For", xff)
				if status == http.StatusTooManyRequests && refused == 0 {
					refused = i + 1
				}
			}
			if refused != tc.refused {
				t.Errorf("first request refused: %d, want %d", refused, tc.refused)
			}
		})
	}
}

// TestClientsBounded checks that a flood of client addresses keeps at most
// Config.MaxClients budgets, and that none of the flood is refused for it.
func TestClientsBounded(t *testing.T) {
	cfg := testConfig()
	cfg.MaxClients = 5
	cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	ts := newTestServer(t, cfg, nil)
	proxy := ts.from("127.0.0.1")
	for i := range 200 {
		addr := fmt.Sprintf("2001:db8:%x::1", i)
		if status, body, _ := proxy.do("GET", "/healthz", "X-Forwarded-For", addr); status != http.StatusOK {
			t.Fatalf("client %s: %d %s", addr, status, body)
		}
	}
	_, page, _ := proxy.do("GET", "/metrics")
	m := regexp.MustCompile(`(?m)^chaturaji_limit_clients (\d+)$`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("/metrics has no chaturaji_limit_clients")
	}
	if n, _ := strconv.Atoi(string(m[1])); n != cfg.MaxClients {
		t.Errorf("%d clients kept after a flood of 200, want %d", n, cfg.MaxClients)
	}
}

// TestParseTrustedProxies reads the --trusted-proxies list.
func TestParseTrustedProxies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // the prefixes, or the error's text
	}{
		{"", "[]"},
		{"10.0.0.0/8", "[10.0.0.0/8]"},
		{"10.1.2.3/8, 192.0.2.1 ,2001:db8::/32", "[10.0.0.0/8 192.0.2.1/32 2001:db8::/32]"},
		{"::1", "[::1/128]"},
		{"10.0.0.0/33", `server: trusted proxy "10.0.0.0/33": want an address or a CIDR prefix, such as 10.0.0.0/8`},
		{"proxy.example.org", `server: trusted proxy "proxy.example.org": want an address or a CIDR prefix, such as 10.0.0.0/8`},
		{"fe80::1%eth0", `server: trusted proxy "fe80::1%eth0": want an address or a CIDR prefix, such as 10.0.0.0/8`},
	} {
		ps, err := server.ParseTrustedProxies(tc.in)
		got := fmt.Sprint(ps)
		if err != nil {
			got = err.Error()
		} else if ps == nil {
			got = "[]"
		}
		if got != tc.want {
			t.Errorf("ParseTrustedProxies(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
