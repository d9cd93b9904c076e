package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSlowClients attacks the real binary as slow clients do (slowloris),
// with a limit of 256 open files, as a crowded host might have: one
// address opens 300 connections and sends each a request whose body comes
// a byte at a time, reconnecting whenever it is cut off. The server keeps
// 32 of them at most (--max-conns-per-client), so that its open files stay
// bounded and another client's /healthz is answered; it refuses the rest,
// counts them and warns of them in its log; and it cuts a slow body at its
// deadline (--body-timeout) with 408 ETIMEOUT.
func TestSlowClients(t *testing.T) {
	const perClient, attackers = 32, 300
	bin := buildBinary(t)
	addr := freeAddr(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	srv := startLimited(t, bin, 256, addr, db, "--max-conns-per-client", strconv.Itoa(perClient), "--body-timeout", "2s")
	other := clientFrom("127.0.0.2")
	get(t, other, "http://"+addr+"/api/games") // the database's readers open
	base := openFiles(t, srv)

	ctx, stop := context.WithCancel(context.Background())
	attacked := time.Now()
	var wg sync.WaitGroup
	var dialed atomic.Int64
	for range attackers {
		wg.Go(func() { slowPoster(ctx, "127.0.0.1", addr, &dialed) })
	}
	defer func() { stop(); wg.Wait() }()
	for dialed.Load() < attackers && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}

	// While the attack goes on: the files stay bounded, another client is
	// answered, and a slow body from a third is cut at its deadline.
	bound := base + perClient + 24 // the database may open a few more
	most := 0
	for range 20 {
		most = max(most, openFiles(t, srv))
		time.Sleep(100 * time.Millisecond)
	}
	if most > bound {
		t.Errorf("the server had %d files open under attack, %d before: want at most %d", most, base, bound)
	}
	if status, body := get(t, other, "http://"+addr+"/healthz"); status != http.StatusOK {
		t.Errorf("GET /healthz from another client under attack: %d %s", status, body)
	}
	slowBodyCut(t, addr)

	_, page := get(t, other, "http://"+addr+"/metrics")
	refused := regexp.MustCompile(`(?m)^chaturaji_connections_refused_total\{cap="client"\} ([1-9][0-9]*)$`).FindStringSubmatch(page)
	if refused == nil {
		t.Errorf("/metrics counts no connection refused over the cap per client")
	}
	// At most one warning every 10 seconds, however many refusals.
	warnings := strings.Count(srv.log.String(), `level=WARN msg="refusing connections over the cap" cap=client client=127.0.0.1/32`)
	if most := 1 + int(time.Since(attacked)/(10*time.Second)); warnings < 1 || warnings > most {
		t.Errorf("%d warnings of connections refused in %v, want 1 to %d:\n%s", warnings, time.Since(attacked).Round(time.Second), most, srv.log.String())
	}
	if refused != nil {
		t.Logf("under attack: %d files open at most (%d before), %s connections refused", most, base, refused[1])
	}

	// Once the attack stops, its connections are gone within the body's
	// deadline.
	stop()
	wg.Wait()
	for end := time.Now().Add(10 * time.Second); openFiles(t, srv) > base+4; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d files open after the attack, %d before", openFiles(t, srv), base)
		}
	}
}

// TestAcceptFailures gives the binary fewer files than its cap on
// connections lets clients open (a misconfiguration --max-conns makes
// possible): idle connections take every file, accepting fails with
// EMFILE, and the server warns of it, once in ten seconds however often
// net/http tries again, and serves again once they are gone.
func TestAcceptFailures(t *testing.T) {
	bin := buildBinary(t)
	addr := freeAddr(t)
	db := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
	srv := startLimited(t, bin, 64, addr, db, "--max-conns", "1000", "--max-conns-per-client", "250")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 100 {
		c, err := dialFrom("127.0.0.1", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	const warning = `level=WARN msg="accepting connections failed; trying again" err="accept tcp ` // then the address and "too many open files"
	start := time.Now()
	for end := start.Add(10 * time.Second); !strings.Contains(srv.log.String(), warning); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no warning of the failures to accept:\n%s", srv.log.String())
		}
	}
	time.Sleep(2 * time.Second) // net/http tries again and again meanwhile
	// At most one warning every 10 seconds, however many failures.
	log := srv.log.String()
	if n, most := strings.Count(log, warning), 1+int(time.Since(start)/(10*time.Second)); n < 1 || n > most || !strings.Contains(log, "too many open files") {
		t.Errorf("%d warnings of failures to accept in %v, want 1 to %d saying too many files are open:\n%s", n, time.Since(start).Round(time.Second), most, log)
	}
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	if status, body := get(t, clientFrom("127.0.0.2"), "http://"+addr+"/healthz"); status != http.StatusOK {
		t.Errorf("GET /healthz once the connections are closed: %d %s", status, body)
	}
}

// TestConnsShareOfFileLimit starts the binary with a limit of 256 open
// files, as a crowded host might have (the report's was 1024): its total
// cap on connections is then three quarters of that, 192, below the cap
// per client's own default (1,100) or one given by --max-conns-per-client.
// One address opens 192 connections and keeps them; it holds at most a
// quarter of the total, and another client is served every time.
func TestConnsShareOfFileLimit(t *testing.T) {
	bin := buildBinary(t)
	for _, tc := range []struct {
		name   string
		flags  []string
		warned bool
	}{
		{name: "the default cap per client"},
		{name: "a cap per client above the share", flags: []string{"--max-conns-per-client", "1000"}, warned: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const total, share = 192, 48 // 256 files: three quarters, then a quarter
			addr := freeAddr(t)
			db := "sqlite:" + filepath.Join(t.TempDir(), "games.db")
			srv := startLimited(t, bin, 256, addr, db, tc.flags...)
			var conns []net.Conn
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			kept := 0
			for range total {
				c, ok := healthzFrom(t, "127.0.0.1", addr)
				conns = append(conns, c)
				if ok {
					kept++
				}
			}
			if kept > share {
				t.Errorf("one client holds %d connections of a total cap of %d, want at most %d", kept, total, share)
			}
			other := clientFrom("127.0.0.2")
			for i := range 8 {
				if resp, err := other.Get("http://" + addr + "/healthz"); err != nil {
					t.Errorf("probe %d of 8 from another client: %v", i+1, err)
				} else {
					resp.Body.Close()
				}
			}
			const warning = `level=WARN msg="lowering the cap on connections per client to its share of the total" max_conns_per_client=1000 max_conns=192 client_conns_share=0.25 lowered_to=48`
			if got := strings.Contains(srv.log.String(), warning); got != tc.warned {
				t.Errorf("warned %v, want %v:\n%s", got, tc.warned, srv.log.String())
			}
		})
	}
}

// healthzFrom opens a connection to addr from the address from, asks it
// for /healthz and keeps it open: it reports whether the server answered
// (kept the connection) rather than closing it at once (over a cap).
func healthzFrom(t *testing.T, from, addr string) (net.Conn, bool) {
	t.Helper()
	c, err := dialFrom(from, addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
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

// startLimited starts `chaturaji serve` as startBinary does, with a limit
// of n open files (soft and hard, so that Go cannot raise it).
func startLimited(t *testing.T, bin string, n int, addr, db string, flags ...string) *serverProcess {
	t.Helper()
	args := append([]string{"-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, n), bin}, serveArgs(addr, db, flags...)...)
	return startCommand(t, exec.Command("sh", args...), addr)
}

// openFiles counts the files the server process has open.
func openFiles(t *testing.T, p *serverProcess) int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}

// dialFrom opens a TCP connection to addr from a loopback address of the
// test's choice (Linux answers on all of 127.0.0.0/8), so that one test can
// be several clients.
func dialFrom(from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", addr)
}

// clientFrom is an HTTP client whose connections come from the address
// from.
func clientFrom(from string) *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return dialFrom(from, addr)
		},
	}}
}

// get asks for url and returns the status and body; it fails the test if
// there is no answer.
func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// slowPoster is one slow client: it sends a request's headers, then its
// body a byte every half second, and connects again whenever the server
// closes the connection (after a pause), until ctx is done. dialed counts
// its first connection made.
func slowPoster(ctx context.Context, from, addr string, dialed *atomic.Int64) {
	first := true
	for ctx.Err() == nil {
		c, err := dialFrom(from, addr)
		if first {
			first = false
			dialed.Add(1)
		}
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		go func() { <-ctx.Done(); c.Close() }()
		_, err = io.WriteString(c, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
		for err == nil {
			_, err = c.Write([]byte(" "))
			select {
			case <-time.After(500 * time.Millisecond):
			case <-ctx.Done():
			}
		}
		c.Close()
		time.Sleep(100 * time.Millisecond)
	}
}

// slowBodyCut sends a body a byte every 100 ms, 200 bytes that would take
// 20 s, and checks that the server answers 408 ETIMEOUT while it is still
// sending.
func slowBodyCut(t *testing.T, addr string) {
	t.Helper()
	c, err := dialFrom("127.0.0.3", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const size = 200
	fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
	var sent atomic.Int64
	go func() {
		for range size {
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
			sent.Add(1)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	c.SetReadDeadline(time.Now().Add(40 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("a slow body: no answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"code":"ETIMEOUT"`) {
		t.Errorf("a slow body: %s %s, want 408 ETIMEOUT", resp.Status, body)
	}
	if n := sent.Load(); n >= size {
		t.Errorf("a slow body: the answer came after all %d bytes were sent", n)
	}
}
